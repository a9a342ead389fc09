/**
 * Who may approve a widening change (docs/design.md §7): someone with write access to the repository as
 * branch protection counts it. `author_association` on the review is a first filter only (an
 * organization member may lack write access); the answer comes from
 * `GET /repos/{owner}/{repo}/collaborators/{username}/permission`, whose `permission` is the base
 * role (`admin`, `write`, `read`, `none`; `maintain` reads as `write`) and `role_name` the highest
 * role (`admin`, `maintain`, `write`, `triage`, `read` or a custom role). Fine-grained tokens need
 * Metadata: read, which the workflow's GITHUB_TOKEN always has.
 */
import type { Review } from '../review/approval.js';
import { loginKey } from '../config/reviewers.js';
import type { GitHubClient, RepoRef } from './client.js';

/** Associations that may have write access; any other (`CONTRIBUTOR`, `NONE`, …) cannot. */
const MAY_WRITE: ReadonlySet<string> = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);
const WRITE_ROLES: ReadonlySet<string> = new Set(['admin', 'maintain', 'write']);

/**
 * Write access of each approver, by login key: `true`, or the reason it does not count. One API
 * call per approver whose association passes the first filter; a failed call does not count
 * (fails closed) and says why.
 */
export async function readWriteAccess(octokit: GitHubClient, repo: RepoRef, approvals: readonly Review[]): Promise<Map<string, true | string>> {
  const out = new Map<string, true | string>();
  for (const review of approvals) {
    const login = loginKey(review.user);
    if (out.has(login)) continue;
    const association = review.authorAssociation ?? 'NONE';
    if (!MAY_WRITE.has(association.toUpperCase())) {
      out.set(login, `author_association ${association}: no write access`);
      continue;
    }
    out.set(login, await permissionOf(octokit, repo, review.user));
  }
  return out;
}

async function permissionOf(octokit: GitHubClient, repo: RepoRef, username: string): Promise<true | string> {
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner: repo.owner, repo: repo.repo, username });
    const role = (data as { role_name?: string }).role_name;
    if (WRITE_ROLES.has(data.permission) || (role !== undefined && WRITE_ROLES.has(role))) return true;
    return `has ${role ?? data.permission} access, not write`;
  } catch (e) {
    const status = (e as { status?: number }).status;
    const hint = status === 403 || status === 404 ? '; the token needs Metadata: read on the repository' : '';
    return `write access could not be read (${(e as Error).message})${hint}`;
  }
}
