/**
 * Team membership for `review.reviewers` entries written `org/team`:
 * `GET /orgs/{org}/teams/{team_slug}/members` (every page; direct and child-team members).
 *
 * GitHub answers 404 both for a team that does not exist and for one the token may not see: the
 * workflow's `GITHUB_TOKEN` cannot read organization teams, so this needs a token with `read:org`
 * (a personal access token) or a GitHub App with the organization "Members: read" permission.
 */
import type { GitHubClient } from './client.js';

/** An `org/team` reviewers entry, split. */
export interface TeamRef {
  org: string;
  /** The team's slug as in its URL (`github.com/orgs/{org}/teams/{slug}`). */
  slug: string;
}

/** `org/team` (optionally `@org/team`) as a {@link TeamRef}, or undefined for a user login. */
export function parseTeamRef(entry: string): TeamRef | undefined {
  const m = /^@?([A-Za-z0-9][A-Za-z0-9-]*)\/([A-Za-z0-9][A-Za-z0-9._-]*)$/.exec(entry);
  return m ? { org: m[1]!, slug: m[2]!.toLowerCase() } : undefined;
}

/**
 * Logins of a team's members (lower case).
 * @throws GitHubApiError (from the client) when the team cannot be read: 404 for a missing or
 *   invisible team, 403 for a token without the permission.
 */
export async function listTeamMembers(octokit: GitHubClient, team: TeamRef): Promise<string[]> {
  const members = await octokit.paginate(octokit.rest.teams.listMembersInOrg, { org: team.org, team_slug: team.slug, per_page: 100 });
  return members.map((m) => m.login.toLowerCase());
}
