import type { Policy } from '../config/policy-model.js';
import type { Approval } from '../rules/context.js';
import { evaluateApproval, latestApprovals, type Eligibility, type Review } from '../review/approval.js';
import { changedPaths, symlinksAt } from './base-contract.js';
import { readWriteAccess } from './permissions.js';
import type { GitHubClient, RepoRef } from './client.js';
import type { PullRequestContext } from './event.js';
import { listCommitters, listReviews } from './reviews.js';
import { listTeamMembers } from './teams.js';
import { parseTeamRef } from '../config/reviewers.js';

/** What decides whether an approval still covers the head: the files whose change re-opens the review. */
export interface ApprovalScope {
  /** Workspace root (a git checkout holding the PR's commits). */
  workspace: string;
  /** Paths relative to the workspace: the policy, every contract and integration config. */
  watched: readonly string[];
}

/**
 * The approval of the PR (docs/design.md §7): each reviewer's latest opinionated review counts when it
 * approves, is not the author's, comes from someone with write access (or named in
 * `review.reviewers`), and still covers the surface: no contract, integration config or policy
 * changed between the approved commit and the head. An API failure is not a pass: the state says
 * the review could not be read, so reviewable findings stay errors.
 */
export async function readApproval(
  octokit: GitHubClient | undefined,
  repo: RepoRef | undefined,
  pr: PullRequestContext,
  policy: Policy,
  scope?: ApprovalScope,
): Promise<Approval> {
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
  let reviews;
  try {
    reviews = await listReviews(octokit, repo, pr.number);
  } catch (e) {
    const status = (e as { status?: number }).status;
    const hint = status === 403 ? '; the workflow needs `permissions: pull-requests: read`' : '';
    return { approved: false, approvers: [], missing: `an approving review, which could not be checked (${(e as Error).message}${hint})` };
  }
  const candidates = latestApprovals(reviews, pr.author);
  let committers: string[];
  try {
    committers = candidates.length ? await listCommitters(octokit, repo, pr.number) : [];
  } catch (e) {
    return {
      approved: false,
      approvers: [],
      missing: `an approving review, which could not be checked: the pull request's commits could not be read (${(e as Error).message})`,
    };
  }
  const eligibility: Eligibility = {
    committers,
    ...(reviewers ? {} : { writeAccess: await readWriteAccess(octokit, repo, candidates) }),
    ...(scope ? { stale: await staleApprovals(scope, candidates, pr.headSha) } : {}),
  };
  const r = evaluateApproval(
    reviews,
    pr.author,
    pr.headSha,
    {
      fresh: policy.review.fresh,
      required: policy.review.required,
      ...(reviewers && entries ? { reviewers, describedAs: entries } : {}),
    },
    eligibility,
  );
  return { approved: r.approved, approvers: r.approvers, missing: r.missing };
}

/** Approved commits whose watched files differ from the head's, with the reason in words. */
async function staleApprovals(scope: ApprovalScope, approvals: readonly Review[], headSha: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const commits = [...new Set(approvals.map((a) => a.commitId))].filter((c) => c !== headSha);
  // Every symbolic link of either commit too: retargeting one in a chain swaps what a watched path reads.
  const headLinks = commits.length ? await symlinksAt(scope.workspace, headSha) : [];
  for (const commit of commits) {
    const links = [...(await symlinksAt(scope.workspace, commit)), ...headLinks];
    const changed = await changedPaths(scope.workspace, commit, headSha, [...new Set([...scope.watched, ...links])]);
    if (changed === undefined)
      out.set(commit, `approved ${commit.slice(0, 7) || 'a commit'}, which is not in the checkout, so it cannot be shown to cover the head`);
    else if (changed.length > 0)
      out.set(
        commit,
        `approved ${commit.slice(0, 7)}; ${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ` and ${changed.length - 3} more` : ''} changed since`,
      );
  }
  return out;
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
