import { parseContract } from '../contract/store.js';
import { displayPath, type Policy } from '../config/policy.js';
import type { ReviewState } from '../rules/context.js';
import type { Surface } from '../surface/model.js';
import { evaluateApproval } from '../review/approval.js';
import { readFileAtCommit } from './base-contract.js';
import type { GitHubClient, RepoRef } from './client.js';
import type { PullRequestContext } from './event.js';
import { listReviews } from './reviews.js';
import { listTeamMembers, parseTeamRef } from './teams.js';

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
  const entries = policy.review.reviewers;
  let reviewers: string[] | undefined;
  try {
    reviewers = entries ? await expandReviewers(octokit, entries) : undefined;
  } catch (e) {
    return { approved: false, approvers: [], missing: `an approving review, which could not be checked: ${(e as Error).message}` };
  }
  try {
    const reviews = await listReviews(octokit, repo, pr.number);
    const r = evaluateApproval(reviews, pr.author, pr.headSha, {
      fresh: policy.review.fresh,
      required: policy.review.required,
      ...(reviewers && entries ? { reviewers, describedAs: entries } : {}),
    });
    return { approved: r.approved, approvers: r.approvers, missing: r.missing };
  } catch (e) {
    return { approved: false, approvers: [], missing: `an approving review, which could not be checked (${(e as Error).message})` };
  }
}

/**
 * `review.reviewers` as logins: user entries as they are, `org/team` entries replaced by the
 * team's members. A team that cannot be read fails the whole check closed.
 * @throws Error naming the team, the API error and the permission the token needs.
 */
async function expandReviewers(octokit: GitHubClient, entries: readonly string[]): Promise<string[]> {
  const logins: string[] = [];
  for (const entry of entries) {
    const team = parseTeamRef(entry);
    if (!team) {
      logins.push(entry);
      continue;
    }
    try {
      logins.push(...(await listTeamMembers(octokit, team)));
    } catch (e) {
      throw new Error(
        `the members of team ${team.org}/${team.slug} could not be read (${(e as Error).message}); reading teams needs a token with \`read:org\` (or a GitHub App with organization Members: read) in the \`github-token\` input, which the workflow's GITHUB_TOKEN cannot have`,
        { cause: e },
      );
    }
  }
  return logins;
}
