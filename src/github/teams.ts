/**
 * Team membership for `review.reviewers` entries written `org/team`:
 * `GET /orgs/{org}/teams/{team_slug}/members` (every page; direct and child-team members).
 *
 * GitHub answers 404 both for a team that does not exist and for one the token may not see: the
 * workflow's `GITHUB_TOKEN` cannot read organization teams, so this needs a token with `read:org`
 * (a personal access token) or a GitHub App with the organization "Members: read" permission.
 */
import type { TeamRef } from '../config/reviewers.js';
import type { GitHubClient } from './client.js';

/**
 * Logins of a team's members (lower case).
 * @throws GitHubApiError (from the client) when the team cannot be read: 404 for a missing or
 *   invisible team, 403 for a token without the permission.
 */
export async function listTeamMembers(octokit: GitHubClient, team: TeamRef): Promise<string[]> {
  const members = await octokit.paginate(octokit.rest.teams.listMembersInOrg, { org: team.org, team_slug: team.slug, per_page: 100 });
  return members.map((m) => m.login.toLowerCase());
}
