import { describe, expect, it } from 'vitest';
import { capCommentBody, MAX_COMMENT_CHARS, stickyMarker, upsertStickyComment } from '../../src/github/comment.js';
import { failures, TEST_REPO, useFakeGitHub } from '../support/fake-github.js';

const fake = useFakeGitHub();
const REPO = TEST_REPO;
const octokit = fake.octokit;
const MARKER = stickyMarker('widgets');

describe('stickyMarker', () => {
  it('is an HTML comment that the key cannot close early', () => {
    expect(MARKER).toBe('<!-- toolgate:sticky:widgets -->');
    const hostile = stickyMarker('a --> <b> c');
    expect(hostile).toBe('<!-- toolgate:sticky:a_-___b__c -->');
    expect(hostile.slice(4, -3)).not.toMatch(/--|>/);
  });
});

describe('upsertStickyComment', () => {
  it('creates the comment once, then updates it in place (never duplicates)', async () => {
    const first = await upsertStickyComment(octokit(), REPO, 42, MARKER, '## toolgate\nfirst');
    expect(first.action).toBe('created');
    const second = await upsertStickyComment(octokit(), REPO, 42, MARKER, '## toolgate\nsecond');
    expect(second).toEqual({ id: first.id, action: 'updated', truncated: false });
    const comments = fake.gh.comments.get(42)!;
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toBe(`${MARKER}\n## toolgate\nsecond`);
    expect(fake.gh.requestsTo('PATCH', /\/issues\/comments\/\d+$/)[0]!.body).toEqual({ body: `${MARKER}\n## toolgate\nsecond` });
  });

  it('does not prepend the marker twice when the body already has it', async () => {
    await upsertStickyComment(octokit(), REPO, 42, MARKER, `${MARKER}\nbody`);
    expect(fake.gh.comments.get(42)![0]!.body).toBe(`${MARKER}\nbody`);
  });

  it('finds the marker on a later page (>100 comments) and updates it', async () => {
    for (let i = 0; i < 130; i++) fake.gh.addComment(42, `chatter ${i}`);
    const target = fake.gh.addComment(42, `${MARKER}\nold report`, 'github-actions[bot]', 'Bot');
    for (let i = 0; i < 120; i++) fake.gh.addComment(42, `more chatter ${i}`);
    const result = await upsertStickyComment(octokit(), REPO, 42, MARKER, 'new report');
    expect(result).toMatchObject({ id: target.id, action: 'updated' });
    expect(fake.gh.comments.get(42)).toHaveLength(251);
    // Stops reading once found: pages 1 and 2 only, 100 per page.
    const gets = fake.gh.requestsTo('GET', /\/issues\/42\/comments$/);
    expect(gets.map((r) => [r.query['per_page'], r.query['page'] ?? '1'])).toEqual([
      ['100', '1'],
      ['100', '2'],
    ]);
    expect(fake.gh.requestsTo('POST', /comments$/)).toHaveLength(0);
  });

  it('reads all pages before deciding to create', async () => {
    for (let i = 0; i < 205; i++) fake.gh.addComment(42, `chatter ${i}`);
    const result = await upsertStickyComment(octokit(), REPO, 42, MARKER, 'report');
    expect(result.action).toBe('created');
    expect(fake.gh.requestsTo('GET', /\/comments$/)).toHaveLength(3);
  });

  it('keeps different markers apart (one comment per source)', async () => {
    await upsertStickyComment(octokit(), REPO, 42, stickyMarker('a'), 'A');
    await upsertStickyComment(octokit(), REPO, 42, stickyMarker('b'), 'B');
    await upsertStickyComment(octokit(), REPO, 42, stickyMarker('a'), 'A2');
    expect(fake.gh.comments.get(42)!.map((c) => c.body)).toEqual([`${stickyMarker('a')}\nA2`, `${stickyMarker('b')}\nB`]);
  });

  it('with `author`, ignores the marker pasted into someone else’s comment', async () => {
    const pasted = fake.gh.addComment(42, `quoting: ${MARKER}`, 'mallory');
    const result = await upsertStickyComment(octokit(), REPO, 42, MARKER, 'report', { author: 'github-actions[bot]' });
    expect(result.action).toBe('created');
    expect(fake.gh.comments.get(42)!.find((c) => c.id === pasted.id)!.body).toBe(`quoting: ${MARKER}`);
  });

  it('truncates a body over 65,536 characters with a visible note, and GitHub accepts it', async () => {
    const huge = 'x'.repeat(70_000);
    const result = await upsertStickyComment(octokit(), REPO, 42, MARKER, huge);
    expect(result).toMatchObject({ action: 'created', truncated: true });
    const body = fake.gh.comments.get(42)![0]!.body;
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(body.startsWith(MARKER)).toBe(true);
    expect(body).toMatch(/This comment was truncated: \d+ more characters are in the job summary\.\n$/);
  });

  it('rejects a marker that is not an HTML comment', async () => {
    await expect(upsertStickyComment(octokit(), REPO, 42, 'toolgate', 'x')).rejects.toThrow(/HTML comment/);
    expect(fake.gh.requests).toHaveLength(0);
  });

  it('surfaces a 403 (read-only fork token) as an error naming the endpoint', async () => {
    fake.gh.fail({ method: 'POST', path: /comments$/, ...failures.forbidden() });
    await expect(upsertStickyComment(octokit(), REPO, 42, MARKER, 'x')).rejects.toThrow(
      'GitHub API POST /repos/{owner}/{repo}/issues/{issue_number}/comments failed: 403 Resource not accessible by integration',
    );
  });

  it('survives a secondary rate limit on create', async () => {
    fake.gh.fail({ method: 'POST', path: /comments$/, ...failures.secondaryRateLimit(1) });
    const result = await upsertStickyComment(octokit(), REPO, 42, MARKER, 'x');
    expect(result.action).toBe('created');
    expect(fake.gh.comments.get(42)).toHaveLength(1);
  });
});

describe('capCommentBody', () => {
  it('leaves a body at the limit alone', () => {
    const body = 'y'.repeat(MAX_COMMENT_CHARS);
    expect(capCommentBody(body)).toBe(body);
  });
  it('never splits a surrogate pair', () => {
    const body = '😀'.repeat(40_000);
    const out = capCommentBody(body);
    expect(out.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
  it('closes an open code fence so the note renders', () => {
    const out = capCommentBody('```text\n' + 'z\n'.repeat(40_000), 1000, 'report.json');
    expect(out).toMatch(/\n```\n\n> \[!WARNING\]\n> This comment was truncated: \d+ more characters are in report\.json\.\n$/);
    expect(out.length).toBeLessThanOrEqual(1000);
  });
});
