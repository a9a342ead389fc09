/**
 * Whether a pull request carries the approving review that read promotions and lowered risk
 * claims need (DESIGN §5). Pure: reviews come in as data (see `github/reviews.ts`).
 *
 * Semantics follow GitHub's own "latest opinionated review" rule: for each reviewer only the
 * latest review whose state is `APPROVED`, `CHANGES_REQUESTED` or `DISMISSED` counts. A later
 * `COMMENTED` review does not withdraw an approval (GitHub keeps the green check), while a later
 * `CHANGES_REQUESTED` or a dismissal does. `PENDING` reviews are unsubmitted drafts and never count.
 */

/** Review state as the REST API spells it (`GET /repos/{o}/{r}/pulls/{n}/reviews`). */
export type ReviewState = 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING';

/** One submitted (or pending) pull-request review. */
export interface Review {
  /** Reviewer login (GitHub logins are case-insensitive). Empty for a deleted ("ghost") user. */
  user: string;
  state: ReviewState;
  /** SHA of the commit the review was submitted on. */
  commitId: string;
  /** ISO 8601 time the review was submitted; empty for `PENDING`. */
  submittedAt: string;
}

/** The `review` block of the policy. */
export interface ReviewPolicy {
  /** Logins whose approval counts (case-insensitive). Absent or empty: anyone but the author. */
  reviewers?: string[];
  /** How to name the allowed reviewers in `missing` (e.g. with `org/team` entries unexpanded); default `reviewers`. */
  describedAs?: string[];
  /** When true, an approval counts only if it was submitted on the PR's head commit. */
  fresh?: boolean;
  /** Number of distinct approving reviewers needed. Default 1. */
  required?: number;
}

/** Result of {@link evaluateApproval}. */
export interface ApprovalResult {
  approved: boolean;
  /** Logins whose approval counted, in the order their reviews were submitted. */
  approvers: string[];
  /**
   * Human description of what is still needed, e.g.
   * `"1 approving review from someone other than @alice (from: bob, carol)"`; empty when approved.
   */
  missing: string;
}

/** A login as compared: without a leading `@`, lower case (GitHub logins are case-insensitive). */
export function loginKey(login: string): string {
  return login.replace(/^@/, '').toLowerCase();
}

/** States that set a reviewer's standing; `COMMENTED` and `PENDING` leave it as it was. */
const OPINIONATED: ReadonlySet<ReviewState> = new Set(['APPROVED', 'CHANGES_REQUESTED', 'DISMISSED']);

/**
 * Decides whether `reviews` approve the pull request under `policy`.
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
  policy: ReviewPolicy = {},
): ApprovalResult {
  const required = policy.required ?? 1;
  if (!Number.isInteger(required) || required < 1) {
    throw new RangeError(`review.required must be a positive integer, got ${String(required)}`);
  }
  const author = prAuthor.toLowerCase();
  const allowed =
    policy.reviewers && policy.reviewers.length > 0
      ? new Set(policy.reviewers.map(loginKey))
      : undefined;

  // Latest opinionated review per reviewer (keyed case-insensitively).
  const ordered = reviews
    .map((review, index) => ({ review, index }))
    .sort((a, b) => compareTime(a.review.submittedAt, b.review.submittedAt) || a.index - b.index);
  const latest = new Map<string, { review: Review; order: number }>();
  ordered.forEach(({ review }, position) => {
    if (!OPINIONATED.has(review.state) || review.user === '') return;
    latest.set(review.user.toLowerCase(), { review, order: position });
  });

  const approvers: string[] = [];
  for (const [login, { review }] of [...latest].sort((a, b) => a[1].order - b[1].order)) {
    if (review.state !== 'APPROVED') continue;
    if (login === author) continue;
    if (allowed && !allowed.has(login)) continue;
    if (policy.fresh && review.commitId !== headSha) continue;
    approvers.push(review.user);
  }

  const approved = approvers.length >= required;
  return { approved, approvers, missing: approved ? '' : describeMissing(required - approvers.length, approvers.length > 0, prAuthor, policy) };
}

/** Orders ISO 8601 strings as times; an empty or unparsable time sorts as "unknown" (equal). */
function compareTime(a: string, b: string): number {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  if (Number.isNaN(ta) || Number.isNaN(tb)) return 0;
  return ta - tb;
}

function describeMissing(count: number, more: boolean, prAuthor: string, policy: ReviewPolicy): string {
  const noun = count === 1 ? 'approving review' : 'approving reviews';
  let s = `${count} ${more ? 'more ' : ''}${noun} from someone other than @${prAuthor}`;
  const named = policy.describedAs ?? policy.reviewers;
  if (named && named.length > 0) {
    s += ` (from: ${named.map((r) => r.replace(/^@/, '')).join(', ')})`;
  }
  if (policy.fresh) s += ' on the head commit';
  return s;
}
