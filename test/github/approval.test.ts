import { describe, expect, it } from 'vitest';
import { evaluateApproval, type Review, type ApprovalRequirement } from '../../src/review/approval.js';
import { readFileSync } from 'node:fs';

const HEAD = 'h'.repeat(40);
const OLD = 'o'.repeat(40);
let t = 0;
const r = (user: string, state: Review['state'], commitId = HEAD): Review => ({
  user,
  state,
  commitId,
  submittedAt: new Date(Date.UTC(2026, 10, 28, 10, 0, t++)).toISOString(),
});

interface Case {
  name: string;
  reviews: Review[];
  policy?: ApprovalRequirement;
  approved: boolean;
  approvers: string[];
  missing?: string;
}

const cases: Case[] = [
  {
    name: 'no review',
    reviews: [],
    approved: false,
    approvers: [],
    missing: '1 approving review from someone other than @alice',
  },
  { name: 'author only', reviews: [r('alice', 'APPROVED')], approved: false, approvers: [] },
  { name: 'author, differently cased', reviews: [r('ALICE', 'APPROVED')], approved: false, approvers: [] },
  { name: 'another user', reviews: [r('bob', 'APPROVED')], approved: true, approvers: ['bob'], missing: '' },
  {
    name: 'approval then CHANGES_REQUESTED by the same user',
    reviews: [r('bob', 'APPROVED'), r('bob', 'CHANGES_REQUESTED')],
    approved: false,
    approvers: [],
  },
  {
    name: 'CHANGES_REQUESTED then approval',
    reviews: [r('bob', 'CHANGES_REQUESTED'), r('bob', 'APPROVED')],
    approved: true,
    approvers: ['bob'],
  },
  {
    name: 'approval then COMMENTED keeps the approval (GitHub semantics)',
    reviews: [r('bob', 'APPROVED'), r('bob', 'COMMENTED')],
    approved: true,
    approvers: ['bob'],
  },
  { name: 'dismissed', reviews: [r('bob', 'DISMISSED')], approved: false, approvers: [] },
  {
    name: 'approval later dismissed (dismissal recorded after)',
    reviews: [r('bob', 'APPROVED'), r('bob', 'DISMISSED')],
    approved: false,
    approvers: [],
  },
  { name: 'pending never counts', reviews: [{ user: 'bob', state: 'PENDING', commitId: HEAD, submittedAt: '' }], approved: false, approvers: [] },
  { name: 'ghost user never counts', reviews: [r('', 'APPROVED')], approved: false, approvers: [] },
  {
    name: 'stale approval without fresh counts',
    reviews: [r('bob', 'APPROVED', OLD)],
    approved: true,
    approvers: ['bob'],
  },
  {
    name: 'stale approval with fresh',
    reviews: [r('bob', 'APPROVED', OLD)],
    policy: { fresh: true },
    approved: false,
    approvers: [],
    missing: '1 approving review from someone other than @alice on the head commit; not counted: @bob (approved ooooooo, not the head commit (review.fresh))',
  },
  {
    name: 'fresh approval with fresh',
    reviews: [r('bob', 'APPROVED', OLD), r('bob', 'APPROVED', HEAD)],
    policy: { fresh: true },
    approved: true,
    approvers: ['bob'],
  },
  {
    name: 'reviewers restriction: outsider does not count',
    reviews: [r('mallory', 'APPROVED')],
    policy: { reviewers: ['bob', 'carol'] },
    approved: false,
    approvers: [],
    missing: '1 approving review from someone other than @alice (from: bob, carol); not counted: @mallory (not named in review.reviewers)',
  },
  {
    name: 'reviewers restriction: listed reviewer, case-insensitive, @ allowed',
    reviews: [r('Carol', 'APPROVED')],
    policy: { reviewers: ['@carol'] },
    approved: true,
    approvers: ['Carol'],
  },
  {
    name: 'reviewers list naming the author still excludes the author',
    reviews: [r('alice', 'APPROVED')],
    policy: { reviewers: ['alice'] },
    approved: false,
    approvers: [],
  },
  {
    name: 'two required, one given',
    reviews: [r('bob', 'APPROVED'), r('bob', 'APPROVED')],
    policy: { required: 2 },
    approved: false,
    approvers: ['bob'],
    missing: '1 more approving review from someone other than @alice',
  },
  {
    name: 'two required, two given',
    reviews: [r('bob', 'APPROVED'), r('carol', 'APPROVED'), r('alice', 'APPROVED')],
    policy: { required: 2 },
    approved: true,
    approvers: ['bob', 'carol'],
  },
  {
    name: 'two required, none given',
    reviews: [],
    policy: { required: 2 },
    approved: false,
    approvers: [],
    missing: '2 approving reviews from someone other than @alice',
  },
];

describe('evaluateApproval', () => {
  it.each(cases)('$name', (c) => {
    const result = evaluateApproval(c.reviews, 'alice', HEAD, c.policy);
    expect(result.approved).toBe(c.approved);
    expect(result.approvers).toEqual(c.approvers);
    if (c.missing !== undefined) expect(result.missing).toBe(c.missing);
    if (c.approved) expect(result.missing).toBe('');
  });

  it('orders by submittedAt, not input order', () => {
    const reviews: Review[] = [
      { user: 'bob', state: 'CHANGES_REQUESTED', commitId: HEAD, submittedAt: '2026-11-28T12:00:00Z' },
      { user: 'bob', state: 'APPROVED', commitId: HEAD, submittedAt: '2026-11-28T11:00:00Z' },
    ];
    expect(evaluateApproval(reviews, 'alice', HEAD).approved).toBe(false);
  });

  it('rejects a non-positive required count', () => {
    expect(() => evaluateApproval([], 'alice', HEAD, { required: 0 })).toThrow(RangeError);
  });

  it('evaluates the REST fixture the way GitHub shows it', () => {
    const raw = JSON.parse(readFileSync(new URL('../fixtures/github/reviews.json', import.meta.url), 'utf8')) as {
      user: { login: string };
      state: Review['state'];
      commit_id: string;
      submitted_at?: string;
    }[];
    const reviews = raw.map((x) => ({ user: x.user.login, state: x.state, commitId: x.commit_id, submittedAt: x.submitted_at ?? '' }));
    const head = '89e6c98d92887913cadf06b2adb97f26cde4849b';
    // bob approved (then only commented), carol requested changes then approved on head, dave was dismissed.
    expect(evaluateApproval(reviews, 'alice', head).approvers).toEqual(['bob', 'carol']);
    expect(evaluateApproval(reviews, 'alice', head, { fresh: true }).approvers).toEqual(['carol']);
    expect(evaluateApproval(reviews, 'alice', head, { required: 3 }).approved).toBe(false);
  });
});
