/** readApproval: who may approve (write access through the permission endpoint) and what fails closed. */
import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/config/policy.js';
import type { PullRequestContext } from '../../src/github/event.js';
import { readApproval } from '../../src/github/pr-context.js';
import { failures, TEST_REPO, useFakeGitHub } from '../support/fake-github.js';

const fake = useFakeGitHub();
const PR: PullRequestContext = { number: 7, author: 'alice', baseSha: 'b'.repeat(40), headSha: 'h'.repeat(40), baseRef: 'main', baseRepo: 'o/r', fork: false };
const POLICY = parsePolicy('sources:\n  - id: s\n    recorded: t.json\n', 'toolgate.yml', '/r');
const approve = (user: string, author_association = 'COLLABORATOR') =>
  fake.gh.addReview(7, { user, state: 'APPROVED', commit_id: PR.headSha, author_association });

describe('readApproval: write access', () => {
  it.each([
    ['admin', undefined, true],
    ['maintain', undefined, true],
    ['write', undefined, true],
    ['triage', undefined, false],
    ['read', undefined, false],
    ['security-reviewer', 'write', true],
    ['auditor', 'read', false],
  ])('role %s (base %s): counts = %s', async (role, base, counts) => {
    fake.gh.grant('bob', role, base);
    approve('bob', 'MEMBER');
    const s = await readApproval(fake.octokit(), TEST_REPO, PR, POLICY);
    expect(s.approved).toBe(counts);
    if (!counts) expect(s.missing).toContain(`@bob (has ${role} access, not write)`);
  });

  it.each(['CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR', 'NONE', 'MANNEQUIN'])(
    'author_association %s never counts, and the API is not asked',
    async (association) => {
      fake.gh.grant('bob', 'write');
      approve('bob', association);
      const s = await readApproval(fake.octokit(), TEST_REPO, PR, POLICY);
      expect(s.approved).toBe(false);
      expect(s.missing).toContain(`@bob (author_association ${association}: no write access)`);
      expect(fake.gh.requestsTo('GET', /\/permission$/)).toHaveLength(0);
    },
  );

  it('a permission endpoint that fails does not count (fails closed) and says what the token needs', async () => {
    fake.gh.grant('bob', 'write');
    fake.gh.fail({ method: 'GET', path: /\/collaborators\/bob\/permission$/, ...failures.forbidden() });
    approve('bob');
    const s = await readApproval(fake.octokit(), TEST_REPO, PR, POLICY);
    expect(s.approved).toBe(false);
    expect(s.missing).toMatch(/@bob \(write access could not be read \(.*\); the token needs Metadata: read/);
  });

  it('a 403 on the reviews names the permission the workflow needs', async () => {
    fake.gh.fail({ method: 'GET', path: /\/pulls\/7\/reviews$/, ...failures.forbidden() });
    const s = await readApproval(fake.octokit(), TEST_REPO, PR, POLICY);
    expect(s.approved).toBe(false);
    expect(s.missing).toContain('`permissions: pull-requests: read`');
  });

  it('named reviewers need no write check: the policy names them', async () => {
    approve('bob', 'CONTRIBUTOR');
    const p = parsePolicy('sources:\n  - id: s\n    recorded: t.json\nreview:\n  reviewers: [bob]\n', 'toolgate.yml', '/r');
    expect(await readApproval(fake.octokit(), TEST_REPO, PR, p)).toEqual({ approved: true, approvers: ['bob'], missing: '' });
    expect(fake.gh.requestsTo('GET', /\/permission$/)).toHaveLength(0);
  });

  it('an approval by the author under another case of the login does not count', async () => {
    fake.gh.grant('Alice', 'admin');
    approve('ALICE', 'OWNER');
    expect((await readApproval(fake.octokit(), TEST_REPO, PR, POLICY)).approved).toBe(false);
  });
});
