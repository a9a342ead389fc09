/**
 * How the policy's `review.reviewers` entries are read: a GitHub login, compared by
 * {@link loginKey}, or an `org/team` ({@link parseTeamRef}). Pure; shared by the policy parser,
 * the approval rule (review/approval.ts) and the team lookup (github/teams.ts).
 */

/** A login as compared: without a leading `@`, lower case (GitHub logins are case-insensitive). */
export function loginKey(login: string): string {
  return login.replace(/^@/, '').toLowerCase();
}

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
