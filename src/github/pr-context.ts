import { parseContract } from '../contract/store.js';
import { parsePolicy, displayPath, type Policy } from '../config/policy.js';
import type { ReviewState } from '../rules/context.js';
import type { Surface } from '../surface/model.js';
import { evaluateApproval } from '../review/approval.js';
import { ConfigError } from '../util/errors.js';
import { readFileAtCommit } from './base-contract.js';
import type { GitHubClient, RepoRef } from './client.js';
import type { EventContext, PullRequestContext } from './event.js';
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

/**
 * Under `pull_request_target` the workflow has the base repository's token and secrets while the
 * checkout may hold PR code: toolgate refuses to start servers or load specs unless the policy
 * **at the base commit** says `allow-pull-request-target: true` (a PR cannot grant itself that).
 * @throws ConfigError explaining the refusal and the safe alternatives.
 */
export async function assertPullRequestTargetAllowed(event: EventContext, policyPath: string, workspace: string): Promise<void> {
  if (!event.pullRequestTarget) return;
  const pr = event.pullRequest;
  let allowed = false;
  if (pr) {
    const rel = displayPath(workspace, policyPath);
    const text = await readFileAtCommit({ cwd: workspace, sha: pr.baseSha, path: rel }).catch(() => undefined);
    if (text !== undefined) {
      try {
        allowed = parsePolicy(text, `${rel} at base`, workspace).allowPullRequestTarget;
      } catch {
        allowed = false;
      }
    }
  }
  if (!allowed) {
    throw new ConfigError(
      'refusing to start servers or load specs under pull_request_target: this event runs with the base repository token and secrets, and the checkout may hold code from the pull request',
      undefined,
      'Run toolgate on `pull_request` (read-only token, no secrets) and post results with a `workflow_run` workflow (see README, "Fork pull requests"), or set `allow-pull-request-target: true` in toolgate.yml on the base branch if you check out only trusted code.',
    );
  }
}
