/**
 * Publishing findings as a check run (Checks API). Limits from GitHub's REST reference
 * ("Create a check run" / "Update a check run"): at most 50 annotations per request, more are
 * appended with updates; `output.summary` and `output.text` at most 65,535 characters; an
 * annotation's `title` at most 255 characters, `message` and `raw_details` at most 64 KB.
 * Needs `checks: write`; a fork PR's read-only token gets 403 "Resource not accessible by
 * integration", which is returned as `{ ok: false }` so the caller falls back to
 * workflow-command annotations.
 */
import type { Finding, Level } from '../rules/types.js';
import { jsonSafe } from '../report/escape.js';
import { GitHubApiError, errorStatus, type GitHubClient, type RepoRef } from './client.js';

/** Checks API: annotations per create/update request. */
export const ANNOTATIONS_PER_REQUEST = 50;
/** Checks API: `output.summary` / `output.text` limit (characters). */
export const MAX_CHECK_TEXT_CHARS = 65_535;
const MAX_ANNOTATION_TITLE = 255;
/** 64 KB; measured in UTF-16 units, which for ASCII-heavy text is close to bytes. Kept below. */
const MAX_ANNOTATION_MESSAGE = 60_000;

/** Check-run conclusion values accepted by the API (toolgate uses success/failure/neutral). */
export type CheckConclusion = 'success' | 'failure' | 'neutral' | 'action_required' | 'cancelled' | 'skipped' | 'timed_out';

/** One annotation, in toolgate's terms. */
export interface CheckAnnotation {
  /** Path relative to the repository root, `/`-separated. */
  path: string;
  /** 1-based. */
  startLine: number;
  /** 1-based; default `startLine`. */
  endLine?: number;
  level: Level;
  title?: string;
  message: string;
  rawDetails?: string;
}

/** What to publish. */
export interface CheckRunInput {
  /** Check name shown in the PR, e.g. `toolgate`. */
  name: string;
  conclusion: CheckConclusion;
  title: string;
  /** Markdown; cut to 65,535 characters. */
  summary: string;
  /** Optional longer Markdown; cut to 65,535 characters. */
  text?: string;
  annotations: readonly CheckAnnotation[];
  detailsUrl?: string;
  externalId?: string;
  /** Most annotations sent in all (bounds the number of requests). Default 1,000. */
  maxAnnotations?: number;
}

/** Outcome of {@link publishCheckRun}. */
export type CheckRunResult =
  | { ok: true; id: number; htmlUrl?: string; annotationsSent: number; annotationsDropped: number; requests: number }
  | { ok: false; status: number; reason: string; id?: number };

/** Finding level → Checks API `annotation_level`. */
export function annotationLevel(level: Level): 'notice' | 'warning' | 'failure' {
  return level === 'error' ? 'failure' : level;
}

/**
 * Maps findings to annotations. A finding without a location is put on `fallbackPath` line 1
 * (e.g. the policy file), since the API requires a path and a line.
 */
export function findingsToAnnotations(findings: readonly Finding[], fallbackPath: string): CheckAnnotation[] {
  return findings.map((f) => ({
    path: f.location?.file ?? fallbackPath,
    startLine: f.location?.line ?? 1,
    level: f.level,
    title: f.tool !== undefined ? `${f.ruleId}: ${f.tool}` : f.ruleId,
    message: f.fix ? `${f.message}\nFix: ${f.fix}` : f.message,
  }));
}

/**
 * Creates a completed check run on `headSha` with the first 50 annotations, then appends the
 * rest 50 at a time with `PATCH /repos/{owner}/{repo}/check-runs/{id}` (the conclusion is set on
 * creation, so a failed append never leaves the check pending).
 *
 * @returns `{ ok: false, status: 403, reason }` when the token may not write checks; other
 *   failures throw.
 * @throws GitHubApiError for any failure other than 403.
 */
export async function publishCheckRun(octokit: GitHubClient, repo: RepoRef, headSha: string, input: CheckRunInput): Promise<CheckRunResult> {
  const max = input.maxAnnotations ?? 1000;
  const all = input.annotations.slice(0, max).map(toApiAnnotation);
  const dropped = input.annotations.length - all.length;
  const title = cut(input.title, MAX_ANNOTATION_TITLE);
  const summary = cut(input.summary, MAX_CHECK_TEXT_CHARS, '\n\n_(truncated)_');
  const text = input.text !== undefined ? cut(input.text, MAX_CHECK_TEXT_CHARS, '\n\n_(truncated)_') : undefined;
  const batches: (typeof all)[] = [];
  for (let i = 0; i < all.length; i += ANNOTATIONS_PER_REQUEST) batches.push(all.slice(i, i + ANNOTATIONS_PER_REQUEST));

  let id: number | undefined;
  let htmlUrl: string | undefined;
  let requests = 0;
  try {
    const { data } = await octokit.rest.checks.create({
      owner: repo.owner,
      repo: repo.repo,
      name: input.name,
      head_sha: headSha,
      status: 'completed',
      conclusion: input.conclusion,
      completed_at: new Date().toISOString(),
      ...(input.detailsUrl !== undefined ? { details_url: input.detailsUrl } : {}),
      ...(input.externalId !== undefined ? { external_id: input.externalId } : {}),
      output: { title, summary, ...(text !== undefined ? { text } : {}), annotations: batches[0] ?? [] },
    });
    requests++;
    id = data.id;
    htmlUrl = data.html_url ?? undefined;
    for (const batch of batches.slice(1)) {
      await octokit.rest.checks.update({
        owner: repo.owner,
        repo: repo.repo,
        check_run_id: id,
        output: { title, summary, annotations: batch },
      });
      requests++;
    }
  } catch (err) {
    if (errorStatus(err) === 403) {
      const apiMessage = err instanceof GitHubApiError ? err.apiMessage : undefined;
      return {
        ok: false,
        status: 403,
        reason:
          `could not ${id === undefined ? 'create' : 'update'} the check run (${apiMessage ?? 'forbidden'}): ` +
          'the token lacks `checks: write` (fork pull requests get a read-only token)',
        ...(id !== undefined ? { id } : {}),
      };
    }
    throw err;
  }
  return {
    ok: true,
    id,
    ...(htmlUrl !== undefined ? { htmlUrl } : {}),
    annotationsSent: all.length,
    annotationsDropped: dropped,
    requests,
  };
}

function toApiAnnotation(a: CheckAnnotation): {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  message: string;
  title?: string;
  raw_details?: string;
} {
  const start = Math.max(1, Math.floor(a.startLine));
  return {
    path: a.path,
    start_line: start,
    end_line: Math.max(start, Math.floor(a.endLine ?? start)),
    annotation_level: annotationLevel(a.level),
    // Server text (tool names, descriptions) is shown as is by the Checks UI: no control, escape or
    // bidi character reaches it (U+202E would show `…gnp.exe` as `…exe.png`).
    message: cut(jsonSafe(a.message, MAX_ANNOTATION_MESSAGE), MAX_ANNOTATION_MESSAGE, '…'),
    ...(a.title !== undefined ? { title: cut(jsonSafe(a.title, MAX_ANNOTATION_TITLE), MAX_ANNOTATION_TITLE, '…') } : {}),
    ...(a.rawDetails !== undefined ? { raw_details: cut(jsonSafe(a.rawDetails, MAX_ANNOTATION_MESSAGE), MAX_ANNOTATION_MESSAGE, '…') } : {}),
  };
}

/** Cuts `s` to at most `max` UTF-16 units, ending with `suffix`, never splitting a surrogate pair. */
function cut(s: string, max: number, suffix = ''): string {
  if (s.length <= max) return s;
  let end = max - suffix.length;
  const code = s.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return s.slice(0, end) + suffix;
}
