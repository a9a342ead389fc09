import { describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEventContext, readEventContext } from '../../src/github/event.js';
import { ConfigError } from '../../src/util/errors.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/github/${name}`, import.meta.url));
const env = (eventName: string, file: string, extra: Record<string, string> = {}) => ({
  GITHUB_EVENT_NAME: eventName,
  GITHUB_EVENT_PATH: fixture(file),
  GITHUB_REPOSITORY: 'acme/widgets-mcp',
  ...extra,
});
const BASE = '3f786850e387550fdab836ed7e6dc881de23001b';
const HEAD = '89e6c98d92887913cadf06b2adb97f26cde4849b';

describe('readEventContext', () => {
  it('pull_request from a branch of the same repository', () => {
    const ctx = readEventContext(env('pull_request', 'pull_request.json', { GITHUB_SHA: 'f'.repeat(40), GITHUB_REF: 'refs/pull/42/merge' }));
    expect(ctx).toEqual({
      eventName: 'pull_request',
      action: 'opened',
      repo: { owner: 'acme', repo: 'widgets-mcp' },
      pullRequestTarget: false,
      sha: 'f'.repeat(40),
      ref: 'refs/pull/42/merge',
      pullRequest: {
        number: 42,
        author: 'alice',
        baseSha: BASE,
        headSha: HEAD,
        baseRef: 'main',
        baseRepo: 'acme/widgets-mcp',
        headRepo: 'acme/widgets-mcp',
        fork: false,
      },
    });
  });

  it('pull_request from a fork', () => {
    const ctx = readEventContext(env('pull_request', 'pull_request_fork.json'));
    expect(ctx.action).toBe('synchronize');
    expect(ctx.pullRequest).toMatchObject({ number: 43, author: 'mallory-dev', headRepo: 'mallory-dev/widgets-mcp', fork: true });
    expect(ctx.pullRequestTarget).toBe(false);
  });

  it('pull_request_target is flagged (and here comes from a fork)', () => {
    const ctx = readEventContext(env('pull_request_target', 'pull_request_target.json'));
    expect(ctx.pullRequestTarget).toBe(true);
    expect(ctx.pullRequest).toMatchObject({ number: 44, fork: true, baseSha: BASE, headSha: HEAD });
  });

  it('pull_request_review carries the PR and the review', () => {
    const ctx = readEventContext(env('pull_request_review', 'pull_request_review.json'));
    expect(ctx.action).toBe('submitted');
    expect(ctx.pullRequest).toMatchObject({ number: 42, author: 'alice', fork: false });
    expect(ctx.review).toEqual({ user: 'bob', state: 'approved' });
  });

  it('push of a tag: no PR, the tag and the pushed commit', () => {
    const ctx = readEventContext({ GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: fixture('push_tag.json') });
    expect(ctx).toEqual({
      eventName: 'push',
      repo: { owner: 'acme', repo: 'widgets-mcp' },
      pullRequestTarget: false,
      ref: 'refs/tags/v1.4.0',
      sha: HEAD,
      tag: 'v1.4.0',
    });
  });

  it('release: the tag name', () => {
    const ctx = readEventContext(env('release', 'release.json', { GITHUB_REF: 'refs/tags/v1.4.0' }));
    expect(ctx).toMatchObject({ eventName: 'release', action: 'published', tag: 'v1.4.0' });
    expect(ctx.pullRequest).toBeUndefined();
  });

  it('outside Actions: a local context', () => {
    expect(readEventContext({})).toEqual({ eventName: 'local', pullRequestTarget: false });
  });

  it('a deleted fork (head.repo null) counts as a fork', () => {
    const ctx = parseEventContext('pull_request', {
      pull_request: {
        number: 1,
        user: { login: 'x' },
        base: { sha: BASE, ref: 'main', repo: { full_name: 'acme/widgets-mcp' } },
        head: { sha: HEAD, ref: 'b', repo: null },
      },
    });
    expect(ctx.pullRequest).toMatchObject({ fork: true });
    expect(ctx.pullRequest?.headRepo).toBeUndefined();
  });

  it('a missing or malformed payload is a ConfigError', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-event-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const bad = join(dir, 'event.json');
    writeFileSync(bad, '{not json');
    expect(() => readEventContext({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: bad })).toThrow(ConfigError);
    expect(() => readEventContext({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: join(dir, 'missing.json') })).toThrow(
      /cannot read the event payload/,
    );
    expect(() => parseEventContext('pull_request', { action: 'opened' })).toThrow(/no pull_request.number, base.sha or head.sha/);
  });
});
