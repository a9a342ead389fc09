import { parseContract } from '../contract/store.js';
import { displayPath, type Policy } from '../config/policy.js';
import type { ReviewState } from '../rules/context.js';
import type { Surface } from '../surface/model.js';
import { evaluateApproval } from '../review/approval.js';
import { readFileAtCommit } from './base-contract.js';
import type { GitHubClient, RepoRef } from './client.js';
import type { PullRequestContext } from './event.js';
import { listReviews } from './reviews.js';

/**
 * Contracts of the PR's base commit, by source id: `null` where the base has none (first
 * adoption). Read with git from the checkout, so a change is judged once, in the PR that makes it,
 * even when the PR also updates the contract.
 * @throws ConfigError when the base commit is not in the checkout (the fix says `fetch-depth: 0`)
 *   or a base contract is malformed.
 */
export async function readBaseContracts(pr: PullRequestContext, policy: Policy, workspace: string): Promise<Map<string, Surface | null>> {
  const out = new Map<string, Surface | null>();
  for (const s of policy.sources) {
    const path = displayPath(workspace, s.contract);
    const text = await readFileAtCommit({ cwd: workspace, sha: pr.baseSha, path });
    out.set(s.id, text === undefined ? null : parseContract(text, `${path} at base ${pr.baseSha.slice(0, 7)}`).surface);
  }
  return out;
}

/**
 * The review state of the PR from each reviewer's latest review (DESIGN §5). An API failure is not
 * a pass: the state says the review could not be read, so reviewable findings stay errors.
 */
export async function readReviewState(octokit: GitHubClient | undefined, repo: RepoRef | undefined, pr: PullRequestContext, policy: Policy): Promise<ReviewState> {
  if (!octokit || !repo) {
    return { approved: false, approvers: [], missing: 'an approving review, which could not be checked (no GitHub token)' };
  }
  try {
    const reviews = await listReviews(octokit, repo, pr.number);
    const r = evaluateApproval(reviews, pr.author, pr.headSha, { fresh: policy.review.fresh, required: policy.review.required, ...(policy.review.reviewers ? { reviewers: policy.review.reviewers } : {}) });
    return { approved: r.approved, approvers: r.approvers, missing: r.missing };
  } catch (e) {
    return { approved: false, approvers: [], missing: `an approving review, which could not be checked (${(e as Error).message})` };
  }
}
