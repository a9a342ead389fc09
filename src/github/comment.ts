/**
 * The sticky pull-request comment (docs/design.md §6): one comment per marker, found again on every run
 * by a hidden HTML-comment marker and edited in place, so the PR never collects duplicates.
 *
 * GitHub rejects an issue-comment body over 65,536 characters ("Body is too long (maximum is
 * 65536 characters)", 422), so longer bodies are cut with a visible note.
 */
import type { GitHubClient, RepoRef } from './client.js';

/** GitHub's issue-comment body limit (characters). */
export const MAX_COMMENT_CHARS = 65_536;

/**
 * Builds the hidden marker for a sticky comment, e.g. `<!-- toolgate:sticky:my-server -->`.
 * The key is reduced to `[A-Za-z0-9._:-]` so it can never close the HTML comment early.
 */
export function stickyMarker(key: string): string {
  const safe = key.replace(/[^A-Za-z0-9._:-]/g, '_').replace(/-{2,}/g, '-');
  return `<!-- toolgate:sticky:${safe} -->`;
}

/**
 * Caps a comment body at `max` characters (UTF-16 code units, which never undercounts GitHub's
 * count), ending with a visible note saying how much was cut. Never splits a surrogate pair and
 * closes an open code fence so the note renders as text.
 */
export function capCommentBody(body: string, max: number = MAX_COMMENT_CHARS, where = 'the job summary'): string {
  if (body.length <= max) return body;
  const note = (omitted: number): string => `\n\n> [!WARNING]\n> This comment was truncated: ${omitted} more characters are in ${where}.\n`;
  // Reserve room for the note (with a generous digit count) and a closing fence.
  const reserve = note(body.length).length + 5;
  let cut = Math.max(0, max - reserve);
  const code = body.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  let kept = body.slice(0, cut);
  const fences = kept.match(/^ {0,3}(`{3,}|~{3,})/gm)?.length ?? 0;
  if (fences % 2 === 1) kept += '\n```';
  return kept + note(body.length - cut);
}

/** Options for {@link upsertStickyComment}. */
export interface StickyCommentOptions {
  /**
   * Only comments by this login are candidates (e.g. `github-actions[bot]`), so a marker pasted
   * into someone else's comment is ignored. Default: any author.
   */
  author?: string;
  /** Where the truncation note sends readers. */
  fullReportWhere?: string;
}

/** What {@link upsertStickyComment} did. */
export interface StickyCommentResult {
  id: number;
  action: 'created' | 'updated';
  /** Body was cut to fit GitHub's limit. */
  truncated: boolean;
}

/**
 * Creates or updates the comment carrying `marker` on pull request `prNumber`.
 * Searches every page of the issue's comments (oldest first, 100 per page) and updates the first
 * match; creates a comment only when none carries the marker. The marker is prepended to `body`
 * when the body does not already contain it.
 *
 * @param marker an HTML comment, see {@link stickyMarker}.
 * @throws Error when `marker` is not an HTML comment; GitHubApiError when the API fails
 *   (a 403 means the token lacks `pull-requests: write`/`issues: write`, e.g. a fork PR).
 */
export async function upsertStickyComment(
  octokit: GitHubClient,
  repo: RepoRef,
  prNumber: number,
  marker: string,
  body: string,
  options: StickyCommentOptions = {},
): Promise<StickyCommentResult> {
  if (!/^<!--[\s\S]*-->$/.test(marker) || marker.slice(4, -3).includes('--')) {
    throw new Error(`sticky comment marker must be a single HTML comment, got ${JSON.stringify(marker)}`);
  }
  const full = body.includes(marker) ? body : `${marker}\n${body}`;
  const capped = capCommentBody(full, MAX_COMMENT_CHARS, options.fullReportWhere);
  const truncated = capped !== full;
  const author = options.author?.toLowerCase();

  let existing: number | undefined;
  const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
    owner: repo.owner,
    repo: repo.repo,
    issue_number: prNumber,
    per_page: 100,
  });
  search: for await (const page of pages) {
    for (const c of page.data) {
      if (!c.body?.includes(marker)) continue;
      if (author !== undefined && c.user?.login.toLowerCase() !== author) continue;
      existing = c.id;
      break search;
    }
  }

  if (existing !== undefined) {
    await octokit.rest.issues.updateComment({ owner: repo.owner, repo: repo.repo, comment_id: existing, body: capped });
    return { id: existing, action: 'updated', truncated };
  }
  const { data } = await octokit.rest.issues.createComment({
    owner: repo.owner,
    repo: repo.repo,
    issue_number: prNumber,
    body: capped,
  });
  return { id: data.id, action: 'created', truncated };
}
