import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { listReviews } from '../../src/github/reviews.js';
import { evaluateApproval } from '../../src/review/approval.js';
import { failures, TEST_REPO, useFakeGitHub, type FakeReview } from '../support/fake-github.js';

const fake = useFakeGitHub();
const REPO = TEST_REPO;
const octokit = fake.octokit;

describe('listReviews', () => {
  it('maps the REST shape (fixture) and keeps chronological order', async () => {
    const fixture = JSON.parse(readFileSync(new URL('../fixtures/github/reviews.json', import.meta.url), 'utf8')) as FakeReview[];
    fake.gh.reviews.set(42, fixture);
    const reviews = await listReviews(octokit(), REPO, 42);
    expect(reviews.map((r) => `${r.user}:${r.state}`)).toEqual([
      'alice:COMMENTED',
      'bob:APPROVED',
      'carol:CHANGES_REQUESTED',
      'bob:COMMENTED',
      'dave:DISMISSED',
      'carol:APPROVED',
      'erin:PENDING',
    ]);
    expect(reviews[1]).toEqual({
      user: 'bob',
      state: 'APPROVED',
      commitId: '0b5d6a9f0e5b7c1d2a3e4f5a6b7c8d9e0f1a2b3c',
      submittedAt: '2026-11-28T10:00:00Z',
      authorAssociation: 'MEMBER',
    });
    expect(reviews[6]?.submittedAt).toBe('');
    expect(fake.gh.requests[0]?.query).toEqual({ per_page: '100' });
  });

  it('reads every page (250 reviews = 3 pages of 100) so a late approval is seen', async () => {
    for (let i = 0; i < 249; i++) fake.gh.addReview(5, { user: `user${i % 7}`, state: 'COMMENTED', commit_id: 'c' });
    fake.gh.addReview(5, { user: 'late-approver', state: 'APPROVED', commit_id: 'head' });
    const reviews = await listReviews(octokit(), REPO, 5);
    expect(reviews).toHaveLength(250);
    expect(fake.gh.requests.map((r) => r.query['page'] ?? '1')).toEqual(['1', '2', '3']);
    expect(evaluateApproval(reviews, 'alice', 'head', { fresh: true }).approvers).toEqual(['late-approver']);
  });

  it('gives a deleted account an empty login', async () => {
    fake.gh.addReview(5, { user: null, state: 'APPROVED', commit_id: 'head' });
    expect((await listReviews(octokit(), REPO, 5))[0]?.user).toBe('');
  });

  it('returns [] for a PR without reviews', async () => {
    expect(await listReviews(octokit(), REPO, 5)).toEqual([]);
  });

  it('retries a page that failed with 500', async () => {
    for (let i = 0; i < 150; i++) fake.gh.addReview(5, { user: 'bob', state: 'COMMENTED', commit_id: 'c' });
    fake.gh.fail({ method: 'GET', path: /\/reviews$/, ...failures.serverError() });
    expect(await listReviews(octokit(), REPO, 5)).toHaveLength(150);
    expect(fake.gh.requests).toHaveLength(3);
  });
});
