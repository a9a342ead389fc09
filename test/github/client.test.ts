import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubClient, GitHubApiError, isPermissionError, permissionHint } from '../../src/github/client.js';
import { FakeGitHub, failures } from '../support/fake-github.js';

let gh: FakeGitHub;
let sleeps: number[];
beforeEach(async () => {
  gh = await FakeGitHub.start();
  sleeps = [];
});
afterEach(async () => {
  await gh.close();
});

const client = (extra: Partial<Parameters<typeof createGitHubClient>[0]> = {}) =>
  createGitHubClient({
    token: 'ghs_test',
    baseUrl: gh.url,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
const REPO = { owner: 'acme', repo: 'widgets-mcp' };
const PULL = { number: 7, author: 'alice', headSha: 'b'.repeat(40), baseSha: 'a'.repeat(40), headRepo: 'acme/widgets-mcp', baseRepo: 'acme/widgets-mcp' };

describe('createGitHubClient', () => {
  it('talks to GITHUB_API_URL with the token', async () => {
    gh.addPull(PULL);
    const octokit = createGitHubClient({ token: 'ghs_env', env: { GITHUB_API_URL: `${gh.url}/` } });
    const { data } = await octokit.rest.pulls.get({ ...REPO, pull_number: 7 });
    expect(data.number).toBe(7);
    expect(gh.requests[0]?.headers.authorization).toBe('token ghs_env');
    expect(gh.requests[0]?.headers['user-agent']).toMatch(/toolgate/);
  });

  it('requires a token', () => {
    expect(() => createGitHubClient({ token: '', baseUrl: gh.url })).toThrow(/token is required/);
  });

  it('retries a 500 with exponential backoff, then succeeds', async () => {
    gh.addPull(PULL);
    gh.fail({ path: '/pulls/7', ...failures.serverError(), times: 2 });
    const retries: string[] = [];
    const { data } = await client({ onRetry: (m) => retries.push(m) }).rest.pulls.get({ ...REPO, pull_number: 7 });
    expect(data.head.sha).toBe(PULL.headSha);
    expect(gh.requests).toHaveLength(3);
    expect(sleeps).toEqual([1000, 2000]);
    expect(retries[0]).toMatch(/GET \/repos\/\{owner\}\/\{repo\}\/pulls\/\{pull_number\}: 500 \(server error\); retry 1\/3/);
  });

  it('honours retry-after on a 403 secondary rate limit', async () => {
    gh.addPull(PULL);
    gh.fail({ path: '/pulls/7', ...failures.secondaryRateLimit(1) });
    await client().rest.pulls.get({ ...REPO, pull_number: 7 });
    expect(sleeps).toEqual([1000]);
    expect(gh.requests).toHaveLength(2);
  });

  it('honours retry-after on a 429', async () => {
    gh.addPull(PULL);
    gh.fail({ path: '/pulls/7', ...failures.tooManyRequests(2) });
    await client().rest.pulls.get({ ...REPO, pull_number: 7 });
    expect(sleeps).toEqual([2000]);
  });

  it('waits at least a minute on a secondary rate limit without headers', async () => {
    gh.addPull(PULL);
    gh.fail({ path: '/pulls/7', status: 403, body: { message: 'You have exceeded a secondary rate limit.' } });
    await client().rest.pulls.get({ ...REPO, pull_number: 7 });
    expect(sleeps).toEqual([60_000]);
  });

  it('waits until x-ratelimit-reset when the primary limit is exhausted', async () => {
    gh.addPull(PULL);
    const now = 1_800_000_000_000;
    gh.fail({ path: '/pulls/7', ...failures.primaryRateLimit(now / 1000 + 5) });
    await client({ now: () => now }).rest.pulls.get({ ...REPO, pull_number: 7 });
    expect(sleeps).toEqual([6000]); // 5 s to reset + 1 s margin
  });

  it('fails at once, saying so, when the rate-limit wait exceeds maxWaitMs', async () => {
    const now = 1_800_000_000_000;
    gh.fail({ path: '/pulls/7', ...failures.primaryRateLimit(now / 1000 + 3600) });
    const err = await client({ now: () => now })
      .rest.pulls.get({ ...REPO, pull_number: 7 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitHubApiError);
    expect((err as Error).message).toMatch(/rate limited .*waiting 3601 s, more than the 60 s allowed/);
    expect(sleeps).toEqual([]);
  });

  it('gives up after the bounded number of retries with a clear error', async () => {
    gh.fail({ path: '/pulls/7', ...failures.serverError(502), times: 10 });
    const err = await client({ retries: 2 })
      .rest.pulls.get({ ...REPO, pull_number: 7 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitHubApiError);
    const e = err as GitHubApiError;
    expect(e.status).toBe(502);
    expect(e.attempts).toBe(3);
    expect(e.endpoint).toBe('GET /repos/{owner}/{repo}/pulls/{pull_number}');
    expect(e.message).toBe('GitHub API GET /repos/{owner}/{repo}/pulls/{pull_number} failed with 502 after 3 attempts (server error): Server Error');
    expect(gh.requests).toHaveLength(3);
    expect(sleeps).toEqual([1000, 2000]);
  });

  it('does not retry a permission 403', async () => {
    gh.fail({ path: '/check-runs', ...failures.forbidden() });
    const err = await client()
      .rest.checks.create({ ...REPO, name: 'toolgate', head_sha: 'b'.repeat(40) })
      .catch((e: unknown) => e);
    expect(isPermissionError(err)).toBe(true);
    expect((err as Error).message).toBe(
      'GitHub API POST /repos/{owner}/{repo}/check-runs failed: 403 Resource not accessible by integration; the workflow (or token) must grant `permissions: checks: write`',
    );
    expect(gh.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('a permission 403 names the permission each endpoint toolgate calls needs (endpoints as Octokit names them)', () => {
    expect(
      [
        'POST /repos/{owner}/{repo}/check-runs',
        'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}',
        'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
        'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
        'GET /repos/{owner}/{repo}/contents/{path}',
        'GET /orgs/{org}/teams/{team_slug}/members',
        'GET /rate_limit',
      ].map((e) => /`permissions: ([^`]+)`/.exec(permissionHint(e))?.[1]),
    ).toEqual([
      'checks: write',
      'checks: write',
      'pull-requests: read',
      'pull-requests: read',
      'pull-requests: write',
      'pull-requests: write',
      'contents: read',
      'members: read (organization), or read:org for a personal access token',
      undefined,
    ]);
  });

  it('does not retry a 404', async () => {
    const err = await client()
      .rest.pulls.get({ ...REPO, pull_number: 99 })
      .catch((e: unknown) => e);
    expect((err as GitHubApiError).status).toBe(404);
    expect(gh.requests).toHaveLength(1);
  });

  it('times out a request that never answers, retries it, then succeeds', async () => {
    gh.addPull(PULL);
    gh.fail({ path: '/pulls/7', status: 0, hang: true });
    const { data } = await client({ requestTimeoutMs: 200 }).rest.pulls.get({ ...REPO, pull_number: 7 });
    expect(data.number).toBe(7);
    expect(gh.requests).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
  });

  it('a request that never answers, every time: unreachable, naming the timeout', async () => {
    gh.fail({ path: '/pulls/7', status: 0, hang: true, times: 10 });
    const err = await client({ requestTimeoutMs: 150, retries: 1 })
      .rest.pulls.get({ ...REPO, pull_number: 7 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitHubApiError);
    expect((err as GitHubApiError).status).toBe(0);
    expect((err as Error).message).toContain('unreachable after 2 attempts: no response within 150 ms');
  });

  it('retries a network failure (connection refused), then names it', async () => {
    const dead = await FakeGitHub.start();
    const url = dead.url;
    await dead.close();
    const err = await createGitHubClient({ token: 't', baseUrl: url, retries: 1, sleep: async () => {} })
      .rest.pulls.get({ ...REPO, pull_number: 7 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitHubApiError);
    expect((err as GitHubApiError).attempts).toBe(2);
    expect((err as GitHubApiError).status).toBe(0);
    expect((err as Error).message).toMatch(
      /unreachable after 2 attempts: connect ECONNREFUSED 127\.0\.0\.1:\d+; check GITHUB_API_URL \(http:\/\/127\.0\.0\.1:\d+\)/,
    );
    expect((err as Error).message).not.toContain('500');
  });
});
