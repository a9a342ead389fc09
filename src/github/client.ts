/**
 * The GitHub REST client toolgate uses: `@actions/github`'s Octokit (REST methods + pagination)
 * aimed at `GITHUB_API_URL` (GitHub Enterprise Server and tests override it), with bounded
 * retries for server errors and rate limits.
 *
 * Retry policy (GitHub docs, "Rate limits for the REST API › Exceeding the rate limit"):
 * - 5xx, and requests that got no response (refused, reset, timed out; Octokit reports them as
 *   500 without a response, we as status 0 "unreachable"): exponential backoff.
 * - 403/429 that is a rate limit: wait `retry-after` seconds when present; else, when
 *   `x-ratelimit-remaining` is `0`, until `x-ratelimit-reset`; else (secondary limit without
 *   headers) at least one minute, growing exponentially.
 * - Any other 4xx (e.g. 403 "Resource not accessible by integration") is not retried.
 * A wait longer than `maxWaitMs` is not attempted: the call fails at once, saying until when.
 * After `retries` retries the call fails with a {@link GitHubApiError} naming the endpoint and status.
 */
import { getOctokit } from '@actions/github';

/** The Octokit instance returned by `@actions/github`'s `getOctokit`. */
export type GitHubClient = ReturnType<typeof getOctokit>;

/** A repository, as `owner` + `repo` (the names Octokit's methods take). */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** Options for {@link createGitHubClient}. */
export interface GitHubClientOptions {
  /** `GITHUB_TOKEN` or a PAT. */
  token: string;
  /** REST API root; default `env.GITHUB_API_URL`, else `https://api.github.com`. */
  baseUrl?: string;
  /** Environment to read `GITHUB_API_URL` from; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Retries after the first attempt (bounded). Default 3. */
  retries?: number;
  /** First backoff for 5xx (ms); doubles per retry. Default 1000. */
  baseDelayMs?: number;
  /** Longest single wait accepted (ms); a longer rate-limit wait fails at once. Default 60,000. */
  maxWaitMs?: number;
  /** Per-attempt timeout (ms). Default 30,000. */
  requestTimeoutMs?: number;
  /** Injectable sleep so tests need not wait. */
  sleep?: (ms: number) => Promise<void>;
  /** Injectable clock (epoch ms) for `x-ratelimit-reset`. */
  now?: () => number;
  /** Called before each retry with a one-line reason (e.g. the logger's `info`). */
  onRetry?: (message: string) => void;
  /** Extra User-Agent prefix. */
  userAgent?: string;
}

/** A GitHub API call failed for good: names the endpoint, the status and GitHub's message. */
export class GitHubApiError extends Error {
  override readonly name = 'GitHubApiError';
  constructor(
    message: string,
    /** HTTP status; 0 when no response came (connection refused or reset, DNS failure, timeout). */
    readonly status: number,
    /** `METHOD /path` (path template when Octokit knows it). */
    readonly endpoint: string,
    /** Number of attempts made. */
    readonly attempts: number,
    /** GitHub's own `message` from the response body, when there was one. */
    readonly apiMessage?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True for a 403 that is a missing permission (not a rate limit): callers may degrade. */
export function isPermissionError(err: unknown): boolean {
  return err instanceof GitHubApiError && err.status === 403;
}

/** Status of an Octokit/GitHubApiError-like error, or undefined. */
export function errorStatus(err: unknown): number | undefined {
  const s = (err as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : undefined;
}

const sleepReal = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates the client. Does not touch the network.
 *
 * @throws Error when `token` is empty.
 */
export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  if (!options.token) throw new Error('A GitHub token is required (input `github-token`, default `${{ github.token }}`).');
  const env = options.env ?? process.env;
  const baseUrl = (options.baseUrl ?? env['GITHUB_API_URL'] ?? 'https://api.github.com').replace(/\/+$/, '');
  const octokit = getOctokit(options.token, {
    baseUrl,
    userAgent: options.userAgent ? `${options.userAgent} toolgate` : 'toolgate',
    // Octokit logs 4xx/5xx itself; errors are surfaced by our own messages instead.
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  installRetry(octokit, baseUrl, options);
  return octokit;
}

interface ErrorLike {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

/** Wraps every request (pagination included) with the bounded retry policy described above. */
function installRetry(octokit: GitHubClient, baseUrl: string, o: GitHubClientOptions): void {
  const retries = o.retries ?? 3;
  const baseDelay = o.baseDelayMs ?? 1000;
  const maxWait = o.maxWaitMs ?? 60_000;
  const timeoutMs = o.requestTimeoutMs ?? 30_000;
  const sleep = o.sleep ?? sleepReal;
  const now = o.now ?? Date.now;

  octokit.hook.wrap('request', async (request, options) => {
    const endpoint = describeEndpoint(options, baseUrl);
    const opts = options as { request?: { signal?: AbortSignal } & Record<string, unknown> };
    const callerSignal = opts.request?.signal;
    for (let attempt = 1; ; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        opts.request = { ...opts.request, signal: callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout };
        return await request(options);
      } catch (raw) {
        const err = raw as ErrorLike;
        // Octokit reports a request that got no response (refused, reset, DNS, our timeout) as a
        // 500 without `response`; say "unreachable" rather than blame a server error.
        const network = err.response === undefined;
        const status = network ? 0 : typeof err.status === 'number' ? err.status : 0;
        const apiMessage = network && timeout.aborted ? `no response within ${timeoutMs} ms` : (bodyMessage(err) ?? err.message);
        const decision = classify(err, status, attempt, baseDelay, now());
        if (decision.kind === 'fatal') {
          throw new GitHubApiError(
            `GitHub API ${endpoint} failed: ${status} ${apiMessage ?? ''}`.trim() + (status === 403 ? permissionHint(endpoint) : ''),
            status,
            endpoint,
            attempt,
            apiMessage,
            { cause: raw },
          );
        }
        if (attempt > retries && network) {
          throw new GitHubApiError(
            `GitHub API ${endpoint} unreachable after ${attempt} attempts: ${apiMessage ?? 'no response'}; check GITHUB_API_URL (${baseUrl}) and the runner's network`,
            status,
            endpoint,
            attempt,
            undefined,
            { cause: raw },
          );
        }
        if (attempt > retries) {
          throw new GitHubApiError(
            `GitHub API ${endpoint} failed with ${status} after ${attempt} attempts (${decision.why}): ${apiMessage ?? 'no message'}`,
            status,
            endpoint,
            attempt,
            apiMessage,
            { cause: raw },
          );
        }
        if (decision.waitMs > maxWait) {
          throw new GitHubApiError(
            `GitHub API ${endpoint} is rate limited (${status}, ${decision.why}); retrying would mean waiting ` +
              `${Math.ceil(decision.waitMs / 1000)} s, more than the ${Math.round(maxWait / 1000)} s allowed: ${apiMessage ?? ''}`.trim(),
            status,
            endpoint,
            attempt,
            apiMessage,
            { cause: raw },
          );
        }
        o.onRetry?.(`GitHub API ${endpoint}: ${status} (${decision.why}); retry ${attempt}/${retries} in ${Math.ceil(decision.waitMs / 1000)} s`);
        await sleep(decision.waitMs);
      }
    }
  });
}

type Decision = { kind: 'fatal' } | { kind: 'retry'; waitMs: number; why: string };

function classify(err: ErrorLike, status: number, attempt: number, baseDelay: number, nowMs: number): Decision {
  const headers = err.response?.headers ?? {};
  const header = (name: string): string | undefined => {
    const v = headers[name] ?? headers[name.toLowerCase()];
    return v === undefined ? undefined : String(v);
  };
  const backoff = baseDelay * 2 ** (attempt - 1);

  if (status === 0) return { kind: 'retry', waitMs: backoff, why: 'no response' };
  if (status >= 500) return { kind: 'retry', waitMs: backoff, why: 'server error' };
  if (status !== 403 && status !== 429) return { kind: 'fatal' };

  const retryAfter = header('retry-after');
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    const waitMs = Number.isFinite(seconds) ? Math.max(0, seconds * 1000) : Math.max(0, Date.parse(retryAfter) - nowMs);
    if (!Number.isNaN(waitMs)) return { kind: 'retry', waitMs, why: 'rate limited, retry-after' };
  }
  if (header('x-ratelimit-remaining') === '0') {
    const reset = Number(header('x-ratelimit-reset'));
    const waitMs = Number.isFinite(reset) ? Math.max(0, reset * 1000 - nowMs) + 1000 : 60_000;
    return { kind: 'retry', waitMs, why: 'primary rate limit exhausted' };
  }
  const msg = (bodyMessage(err) ?? err.message ?? '').toLowerCase();
  if (status === 429 || msg.includes('rate limit')) {
    return { kind: 'retry', waitMs: Math.max(60_000, backoff), why: 'secondary rate limit' };
  }
  return { kind: 'fatal' };
}

function bodyMessage(err: ErrorLike): string | undefined {
  const data = err.response?.data;
  if (data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string') {
    return (data as { message: string }).message;
  }
  return undefined;
}

function describeEndpoint(options: { method?: string; url?: string }, baseUrl: string): string {
  let url = options.url ?? '';
  if (url.startsWith(baseUrl)) url = url.slice(baseUrl.length);
  url = url.replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '');
  return `${(options.method ?? 'GET').toUpperCase()} ${url || '/'}`;
}

/**
 * The workflow permission an endpoint needs (GitHub: "Permissions required for GitHub Apps", which
 * `GITHUB_TOKEN`'s `permissions:` grant), by method and path. Only the endpoints toolgate calls.
 */
const PERMISSIONS: readonly [RegExp, string][] = [
  [/^(POST|PATCH) \/repos\/[^/]+\/[^/]+\/check-runs/, 'checks: write'],
  [/^(POST|PATCH|DELETE) \/repos\/[^/]+\/[^/]+\/issues\/(comments|\d+|\{[^}]+\})/, 'pull-requests: write'],
  [/^GET \/repos\/[^/]+\/[^/]+\/(pulls|issues)\b/, 'pull-requests: read'],
  [/^GET \/repos\/[^/]+\/[^/]+\/(contents|git|commits|compare)\b/, 'contents: read'],
  [/^GET \/repos\/[^/]+\/[^/]+\/collaborators\//, 'contents: read (and a token that may read collaborators)'],
  [/^GET \/orgs\/[^/]+\/teams\//, 'members: read (organization), or read:org for a personal access token'],
];

/** "; the workflow must grant `permissions: checks: write`" for a 403 on a known endpoint. */
export function permissionHint(endpoint: string): string {
  const hit = PERMISSIONS.find(([re]) => re.test(endpoint));
  return hit ? `; the workflow (or token) must grant \`permissions: ${hit[1]}\`` : '';
}
