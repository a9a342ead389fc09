/** `review.reviewers` with `org/team` entries: members' approvals count, an unreadable team fails closed. */
import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/config/policy.js';
import type { PullRequestContext } from '../../src/github/event.js';
import { readApproval } from '../../src/github/pr-context.js';
import { parseTeamRef } from '../../src/config/reviewers.js';
import { TEST_REPO, useFakeGitHub } from '../support/fake-github.js';
import { refusedPolicy } from '../support/config-error.js';

const fake = useFakeGitHub();
const PR: PullRequestContext = { number: 7, author: 'alice', baseSha: 'b'.repeat(40), headSha: 'h'.repeat(40), baseRef: 'main', baseRepo: 'o/r', fork: false };
const policy = (reviewers: string[]) =>
  parsePolicy(`sources:\n  - id: s\n    recorded: t.json\nreview:\n  reviewers: ${JSON.stringify(reviewers)}\n`, 'toolgate.yml', '/r');

describe('parseTeamRef', () => {
  it.each([
    ['acme/security', { org: 'acme', slug: 'security' }],
    ['@acme/Release-Team', { org: 'acme', slug: 'release-team' }],
    ['alice', undefined],
    ['acme/', undefined],
  ])('%s', (entry, expected) => {
    expect(parseTeamRef(entry)).toEqual(expected);
  });
});

describe('readApproval with team reviewers', () => {
  it("a team member's approval counts; the missing text names the team, not its members", async () => {
    fake.gh.addTeam('acme', 'security', ['Bob', 'carol']);
    const p = policy(['acme/security', 'dave']);
    fake.gh.addReview(7, { user: 'erin', state: 'APPROVED', commit_id: PR.headSha });
    const before = await readApproval(fake.octokit(), TEST_REPO, PR, p);
    expect(before).toMatchObject({ approved: false, approvers: [] });
    expect(before.missing).toBe(
      '1 approving review from someone other than @alice (from: acme/security, dave); not counted: @erin (not named in review.reviewers)',
    );

    fake.gh.addReview(7, { user: 'bob', state: 'APPROVED', commit_id: PR.headSha });
    expect(await readApproval(fake.octokit(), TEST_REPO, PR, p)).toEqual({ approved: true, approvers: ['bob'], missing: '' });
    expect(fake.gh.requestsTo('GET', /^\/orgs\/acme\/teams\/security\/members$/)).toHaveLength(2);
  });

  it('reads every page of a large team (250 members)', async () => {
    fake.gh.addTeam(
      'acme',
      'everyone',
      Array.from({ length: 250 }, (_, i) => `user${i}`),
    );
    fake.gh.addReview(7, { user: 'user249', state: 'APPROVED', commit_id: PR.headSha });
    const state = await readApproval(fake.octokit(), TEST_REPO, PR, policy(['@acme/everyone']));
    expect(state.approved).toBe(true);
    expect(fake.gh.requestsTo('GET', /teams\/everyone\/members/)).toHaveLength(3);
  });

  it('a team the token cannot read (404) fails closed and says which permission is missing', async () => {
    fake.gh.addReview(7, { user: 'bob', state: 'APPROVED', commit_id: PR.headSha });
    const state = await readApproval(fake.octokit(), TEST_REPO, PR, policy(['acme/hidden']));
    expect(state.approved).toBe(false);
    expect(state.missing).toMatch(
      /^an approving review, which could not be checked: the members of team acme\/hidden could not be read \(GitHub API .*404.*\); reading teams needs a token with `read:org`/,
    );
  });
});

describe('review.reviewers entries in toolgate.yml', () => {
  it('accepts logins, @logins, bots and org/team; rejects anything else at its line', () => {
    expect(policy(['alice', '@bob', 'release-bot[bot]', 'acme/security', '@acme/sec.team']).review.reviewers).toHaveLength(5);
    const error = refusedPolicy(`sources:\n  - id: s\n    recorded: t.json\nreview:\n  reviewers: ["alice", "bob smith"]\n`);
    expect(error).toMatchObject({
      message: 'review.reviewers: "bob smith" is neither a GitHub login nor an org/team',
      location: { line: 5, pointer: '/review/reviewers/1' },
    });
  });
});
