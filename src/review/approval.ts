/**
 * Whether a pull request carries the approving review that read promotions and lowered risk
 * claims need (docs/design.md §7). Pure: reviews come in as data (see `github/reviews.ts`).
 *
 * Semantics follow GitHub's own "latest opinionated review" rule: for each reviewer only the
 * latest review whose state is `APPROVED`, `CHANGES_REQUESTED` or `DISMISSED` counts. A later
 * `COMMENTED` review does not withdraw an approval (GitHub keeps the green check), while a later
 * `CHANGES_REQUESTED` or a dismissal does. `PENDING` reviews are unsubmitted drafts and never count.
 */

import { loginKey } from '../config/reviewers.js';
import type { Approval } from '../rules/context.js';

/** Review state as the REST API spells it (`GET /repos/{o}/{r}/pulls/{n}/reviews`). */
export type GitHubReviewState = 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING';

/** One submitted (or pending) pull-request review. */
export interface Review {
  /** Reviewer login (GitHub logins are case-insensitive). Empty for a deleted ("ghost") user. */
  user: string;
  state: GitHubReviewState;
  /** SHA of the commit the review was submitted on. */
  commitId: string;
  /** ISO 8601 time the review was submitted; empty for `PENDING`. */
  submittedAt: string;
  /**
   * The reviewer's `author_association` with the repository (`OWNER`, `MEMBER`, `COLLABORATOR`,
   * `CONTRIBUTOR`, `NONE`, …), as the REST API reports it; absent when unknown.
   */
  authorAssociation?: string;
}

/**
 * Facts about the approving reviews that need I/O to learn (see `github/pr-context.ts`). Both
 * maps give, for what does not count, the reason in words; an entry of `true` counts.
 */
export interface Eligibility {
  /**
   * Write access by login key ({@link loginKey}): `true` when the collaborator-permission endpoint
   * answered `admin`, `maintain` or `write`, else the reason (e.g. `has read access`). When the
   * map is given, a login missing from it does not count. Not used for `policy.reviewers`.
   */
  writeAccess?: ReadonlyMap<string, true | string>;
  /**
   * Approved commits whose surface is not the head's (a contract, an integration config or the
   * policy changed since), with the reason: an approval covers only the surface it saw.
   */
  stale?: ReadonlyMap<string, string>;
  /** Logins that authored or committed a commit of the pull request: they cannot approve it. */
  committers?: readonly string[];
}

/**
 * What {@link evaluateApproval} requires: the policy's `review` block (`ReviewPolicy` in
 * config/policy-model.ts) with its `org/team` entries expanded to logins.
 */
export interface ApprovalRequirement {
  /** Logins whose approval counts (case-insensitive). Absent or empty: anyone but the author. */
  reviewers?: string[];
  /** How to name the allowed reviewers in `missing` (e.g. with `org/team` entries unexpanded); default `reviewers`. */
  describedAs?: string[];
  /** When true, an approval counts only if it was submitted on the PR's head commit. */
  fresh?: boolean;
  /** Number of distinct approving reviewers needed. Default 1. */
  required?: number;
}

/** States that set a reviewer's standing; `COMMENTED` and `PENDING` leave it as it was. */
const OPINIONATED: ReadonlySet<GitHubReviewState> = new Set(['APPROVED', 'CHANGES_REQUESTED', 'DISMISSED']);

/**
 * Decides whether `reviews` approve the pull request under `policy`: approved or not, who
 * counted, and what is missing (naming the approvals that did not count and why).
 *
 * @param reviews   All reviews of the PR, in any order (sorted here by `submittedAt`, ties keep input order).
 * @param prAuthor  Login of the PR author; their own reviews never count.
 * @param headSha   Head commit of the PR, for `policy.fresh`.
 * @param policy    Who counts, how many, and whether approvals must be on the head commit.
 * @throws RangeError when `policy.required` is not a positive integer.
 */
export function evaluateApproval(
  reviews: readonly Review[],
  prAuthor: string,
  headSha: string,
  policy: ApprovalRequirement = {},
  eligibility: Eligibility = {},
): Approval {
  const required = policy.required ?? 1;
  if (!Number.isInteger(required) || required < 1) {
    throw new RangeError(`review.required must be a positive integer, got ${String(required)}`);
  }
  const allowed = policy.reviewers && policy.reviewers.length > 0 ? new Set(policy.reviewers.map(loginKey)) : undefined;
  const approvers: string[] = [];
  const rejected: { login: string; reason: string }[] = [];
  for (const review of latestApprovals(reviews, prAuthor)) {
    // Without the author's login nobody can be shown not to be the author: nothing counts.
    const reason =
      loginKey(prAuthor) === ''
        ? 'the pull request has no author login to tell reviewers from'
        : ineligibility(review, headSha, policy.fresh === true, allowed, eligibility);
    if (reason === undefined) approvers.push(review.user);
    else rejected.push({ login: review.user, reason });
  }
  const approved = approvers.length >= required;
  const writeAccess = !allowed && eligibility.writeAccess !== undefined;
  return {
    approved,
    approvers,
    missing: approved ? '' : describeMissing(required - approvers.length, approvers.length > 0, prAuthor, policy, writeAccess, rejected),
  };
}

/**
 * Each reviewer's latest opinionated review, when it is an approval by someone other than the
 * PR author, in the order the reviews were submitted: the approvals that may count.
 */
export function latestApprovals(reviews: readonly Review[], prAuthor: string): Review[] {
  const ordered = reviews
    .map((review, index) => ({ review, index }))
    .sort((a, b) => compareTime(a.review.submittedAt, b.review.submittedAt) || a.index - b.index);
  const latest = new Map<string, { review: Review; order: number }>();
  ordered.forEach(({ review }, position) => {
    if (!OPINIONATED.has(review.state) || review.user === '') return;
    latest.set(loginKey(review.user), { review, order: position });
  });
  const author = loginKey(prAuthor);
  return [...latest]
    .sort((a, b) => a[1].order - b[1].order)
    .filter(([login, { review }]) => review.state === 'APPROVED' && login !== author)
    .map(([, { review }]) => review);
}

/** Why an approval does not count, or undefined when it does. */
function ineligibility(review: Review, headSha: string, fresh: boolean, allowed: ReadonlySet<string> | undefined, e: Eligibility): string | undefined {
  const login = loginKey(review.user);
  if (allowed && !allowed.has(login)) return 'not named in review.reviewers';
  if (e.committers?.some((c) => loginKey(c) === login)) return 'wrote commits of this pull request';
  if (fresh && review.commitId !== headSha) return `approved ${short(review.commitId)}, not the head commit (review.fresh)`;
  const stale = e.stale?.get(review.commitId);
  if (stale !== undefined) return stale;
  if (allowed || !e.writeAccess) return undefined;
  const access = e.writeAccess.get(login);
  return access === true ? undefined : (access ?? 'write access not checked');
}

const short = (sha: string) => (sha ? sha.slice(0, 7) : 'an unknown commit');

/** Orders ISO 8601 strings as times; an empty or unparsable time sorts as "unknown" (equal). */
function compareTime(a: string, b: string): number {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  if (Number.isNaN(ta) || Number.isNaN(tb)) return 0;
  return ta - tb;
}

function describeMissing(
  count: number,
  more: boolean,
  prAuthor: string,
  policy: ApprovalRequirement,
  writeAccess: boolean,
  rejected: readonly { login: string; reason: string }[],
): string {
  const noun = count === 1 ? 'approving review' : 'approving reviews';
  let s = `${count} ${more ? 'more ' : ''}${noun} from someone other than @${prAuthor}${writeAccess ? ' with write access' : ''}`;
  const named = policy.describedAs ?? policy.reviewers;
  if (named && named.length > 0) {
    s += ` (from: ${named.map((r) => r.replace(/^@/, '')).join(', ')})`;
  }
  if (policy.fresh) s += ' on the head commit';
  if (rejected.length > 0) s += `; not counted: ${rejected.map((r) => `@${r.login} (${r.reason})`).join(', ')}`;
  return s;
}
