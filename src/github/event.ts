/**
 * The GitHub Actions event, reduced to what toolgate needs. Reads `GITHUB_EVENT_NAME`,
 * `GITHUB_EVENT_PATH` (the webhook payload as JSON), `GITHUB_REPOSITORY`, `GITHUB_SHA` and
 * `GITHUB_REF`. The parsing itself ({@link parseEventContext}) is pure.
 *
 * Payload shapes: GitHub webhook events `pull_request`, `pull_request_target`,
 * `pull_request_review`, `pull_request_review_comment` (all carry `pull_request` with `number`,
 * `user.login`, `base.sha`, `head.sha`, `base.repo.full_name` and `head.repo`, which is `null`
 * when the fork was deleted), `push` (`ref`, `after`) and `release` (`release.tag_name`).
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../util/errors.js';
import type { RepoRef } from './client.js';

/** Events that carry a `pull_request` object in their payload. */
const PR_EVENTS: ReadonlySet<string> = new Set(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']);

/** The pull request an event is about. */
export interface PullRequestContext {
  number: number;
  /** PR author login. */
  author: string;
  baseSha: string;
  headSha: string;
  /** Base branch name, e.g. `main`. */
  baseRef: string;
  /** `owner/name` of the base repository. */
  baseRepo: string;
  /** `owner/name` of the head repository; undefined when the fork was deleted. */
  headRepo?: string;
  /** Head repository is not the base repository (or is gone): the token is read-only, no secrets. */
  fork: boolean;
}

/** What toolgate knows about the run's trigger. */
export interface EventContext {
  /** `GITHUB_EVENT_NAME`, e.g. `pull_request`; `local` outside Actions. */
  eventName: string;
  /** Payload `action` (e.g. `opened`, `submitted`, `published`), when present. */
  action?: string;
  /** Repository the workflow runs in; undefined when unknown (local CLI). */
  repo?: RepoRef;
  /** Set for pull-request events. */
  pullRequest?: PullRequestContext;
  /**
   * `pull_request_target`: runs with the base repository's token and secrets on PR input, so the
   * checker must not boot the PR's server unless the policy says so (docs/design.md §9).
   */
  pullRequestTarget: boolean;
  /** Commit the workflow runs on (`GITHUB_SHA`, or `after` for a push). */
  sha?: string;
  /** `GITHUB_REF`, e.g. `refs/tags/v1.2.0`. */
  ref?: string;
  /** Tag name for a tag push or a release. */
  tag?: string;
  /** For `pull_request_review`: the reviewer and the state as the webhook spells it (lower case). */
  review?: { user: string; state: string };
}

/**
 * Reads the event from the environment.
 *
 * @throws ConfigError when `GITHUB_EVENT_PATH` is set but unreadable or not JSON, or when a
 *   pull-request event's payload lacks the pull request's number or SHAs.
 */
export function readEventContext(env: Readonly<Record<string, string | undefined>> = process.env): EventContext {
  const eventName = env['GITHUB_EVENT_NAME'] || 'local';
  const path = env['GITHUB_EVENT_PATH'];
  let payload: unknown = {};
  if (path) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new ConfigError(`cannot read the event payload: ${(err as Error).message}`, { file: path });
    }
    try {
      payload = JSON.parse(text);
    } catch (err) {
      throw new ConfigError(`the event payload is not JSON: ${(err as Error).message}`, { file: path });
    }
  }
  return parseEventContext(eventName, payload, env);
}

/** Pure core of {@link readEventContext}. */
export function parseEventContext(eventName: string, payload: unknown, env: Readonly<Record<string, string | undefined>> = {}): EventContext {
  const p = asObject(payload);
  const ctx: EventContext = { eventName, pullRequestTarget: eventName === 'pull_request_target' };
  const action = str(p['action']);
  if (action !== undefined) ctx.action = action;

  const repo = parseRepo(env['GITHUB_REPOSITORY']) ?? parseRepo(str(asObject(p['repository'])['full_name']));
  if (repo) ctx.repo = repo;
  const ref = env['GITHUB_REF'] || str(p['ref']);
  if (ref) ctx.ref = ref;
  const sha = env['GITHUB_SHA'] || str(p['after']);
  if (sha) ctx.sha = sha;

  if (PR_EVENTS.has(eventName)) {
    ctx.pullRequest = parsePullRequest(asObject(p['pull_request']), eventName);
  }
  if (eventName === 'pull_request_review') {
    const review = asObject(p['review']);
    ctx.review = { user: str(asObject(review['user'])['login']) ?? '', state: str(review['state']) ?? '' };
  }
  if (eventName === 'release') {
    const tag = str(asObject(p['release'])['tag_name']);
    if (tag) ctx.tag = tag;
  } else if (ref?.startsWith('refs/tags/')) {
    ctx.tag = ref.slice('refs/tags/'.length);
  }
  return ctx;
}

function parsePullRequest(pr: Record<string, unknown>, eventName: string): PullRequestContext {
  const base = asObject(pr['base']);
  const head = asObject(pr['head']);
  const number = pr['number'];
  const baseSha = str(base['sha']);
  const headSha = str(head['sha']);
  if (typeof number !== 'number' || !baseSha || !headSha) {
    throw new ConfigError(
      `the ${eventName} event payload has no pull_request.number, base.sha or head.sha`,
      undefined,
      'run toolgate from a workflow triggered by pull_request (or pull_request_review), or pass the base commit explicitly',
    );
  }
  const baseRepo = str(asObject(base['repo'])['full_name']) ?? '';
  const headRepoObj = head['repo'];
  const headRepo = headRepoObj ? str(asObject(headRepoObj)['full_name']) : undefined;
  return {
    number,
    author: str(asObject(pr['user'])['login']) ?? '',
    baseSha,
    headSha,
    baseRef: str(base['ref']) ?? '',
    baseRepo,
    ...(headRepo !== undefined ? { headRepo } : {}),
    fork: headRepo === undefined || headRepo.toLowerCase() !== baseRepo.toLowerCase(),
  };
}

function parseRepo(fullName: string | undefined): RepoRef | undefined {
  if (!fullName) return undefined;
  const m = /^([^/\s]+)\/([^/\s]+)$/.exec(fullName);
  return m ? { owner: m[1]!, repo: m[2]! } : undefined;
}

function asObject(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
