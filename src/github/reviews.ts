/**
 * Reading pull-request reviews and the pull request itself from the REST API.
 * `GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews` returns reviews in chronological order,
 * paginated (`per_page` at most 100, `Link` header); every page is read.
 */
import type { GitHubReviewState, Review } from '../review/approval.js';
import type { GitHubClient, RepoRef } from './client.js';

const STATES: ReadonlySet<string> = new Set(['APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED', 'PENDING']);

/**
 * Lists every review of a pull request (all pages), mapped to {@link Review}.
 * A review by a deleted account (`user: null`) gets an empty login, which never counts.
 * States the API may add later are dropped rather than guessed at.
 *
 * @throws GitHubApiError (from the client) when the API call fails for good.
 */
export async function listReviews(octokit: GitHubClient, repo: RepoRef, prNumber: number): Promise<Review[]> {
  const raw = await octokit.paginate(octokit.rest.pulls.listReviews, {
    owner: repo.owner,
    repo: repo.repo,
    pull_number: prNumber,
    per_page: 100,
  });
  const reviews: Review[] = [];
  for (const r of raw) {
    const state = String(r.state ?? '').toUpperCase();
    if (!STATES.has(state)) continue;
    reviews.push({
      user: r.user?.login ?? '',
      state: state as GitHubReviewState,
      commitId: r.commit_id ?? '',
      submittedAt: r.submitted_at ?? '',
      ...(typeof r.author_association === 'string' ? { authorAssociation: r.author_association } : {}),
    });
  }
  return reviews;
}

/**
 * Logins that wrote the pull request's commits: the author and the committer of each commit that
 * is not a merge (`GET /repos/{owner}/{repo}/pulls/{pull_number}/commits`, every page, at most 250
 * commits as the API lists). Someone who pushed a change cannot be its second pair of eyes, as
 * with branch protection's "approval of the most recent reviewable push". Merge commits (two
 * parents: "Update branch" brings the base in) are left out, so updating a branch does not cost
 * a maintainer their vote.
 * @throws GitHubApiError (from the client) when the API call fails for good.
 */
export async function listCommitters(octokit: GitHubClient, repo: RepoRef, prNumber: number): Promise<string[]> {
  const commits = await octokit.paginate(octokit.rest.pulls.listCommits, { owner: repo.owner, repo: repo.repo, pull_number: prNumber, per_page: 100 });
  const logins = new Set<string>();
  for (const c of commits) {
    if ((c.parents?.length ?? 1) > 1) continue;
    for (const who of [c.author?.login, c.committer?.login]) if (who && who !== 'web-flow') logins.add(who);
  }
  return [...logins];
}
