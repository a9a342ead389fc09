/**
 * Readers of files at a pull request's base commit, for {@link readBaseState}. The API reader is
 * preferred: the workspace may hold code from the pull request that already ran (an install
 * script), and git objects in the workspace can be rewritten by it; the GitHub API cannot.
 */
import type { BaseFileReader } from '../review/base-state.js';
import { ConfigError } from '../util/errors.js';
import type { Logger } from '../util/logger.js';
import { readFileAtCommit } from './base-contract.js';
import type { GitHubClient, RepoRef } from './client.js';

/** Reads with git from the checkout at `sha` (replace refs and grafts ignored). */
export function gitBaseReader(workspace: string, sha: string): BaseFileReader {
  return (path) => readFileAtCommit({ cwd: workspace, sha, path });
}

/**
 * Reads with `GET /repos/{owner}/{repo}/contents/{prefix}{path}?ref={sha}` (raw media type, files
 * up to 100 MB; `prefix` is where the run's directory lies in the repository, `sub/` or ''). A 404 means the file is absent at the base. When the token may not read contents
 * (401/403) it says so once and reads with `fallback` (git) instead.
 * @throws ConfigError when the path is a directory at the base, or the API fails otherwise.
 */
export function apiBaseReader(octokit: GitHubClient, repo: RepoRef, sha: string, fallback: BaseFileReader, logger: Logger, prefix = ''): BaseFileReader {
  let useGit = false;
  // "Absent" turns a review into a first adoption, so the API's 404 must agree with the checkout:
  // a token that cannot see a private repository gets 404 for every path.
  const confirmAbsent = async (path: string): Promise<undefined> => {
    if ((await fallback(path)) === undefined) return undefined;
    throw new ConfigError(
      `the GitHub API says ${path} does not exist at the base commit ${sha}, but the checkout has it there`,
      { file: path },
      'Give the job a token that can read this repository (`permissions: contents: read`); toolgate does not read the base as a first adoption on a 404 it cannot confirm.',
    );
  };
  return async (path) => {
    if (useGit) return fallback(path);
    try {
      // The API knows the repository's root; `path` is relative to the run's directory in it.
      const { data } = await octokit.rest.repos.getContent({
        owner: repo.owner,
        repo: repo.repo,
        path: `${prefix}${path}`,
        ref: sha,
        mediaType: { format: 'raw' },
      });
      if (typeof data !== 'string') throw new ConfigError(`${path} is a directory at the base commit ${sha}, not a file`, { file: path });
      return data;
    } catch (e) {
      if (e instanceof ConfigError) throw e;
      const status = (e as { status?: number }).status;
      // A ref GitHub does not know is not "no such file": never read it as a first adoption.
      if (status === 404 && /no commit found/i.test((e as Error).message)) {
        throw new ConfigError(
          `the base commit ${sha} is not in ${repo.owner}/${repo.repo} (GitHub API: ${(e as Error).message})`,
          undefined,
          'Re-run the job from the pull request; the event payload names the base commit.',
        );
      }
      if (status === 404) return confirmAbsent(path);
      if (status === 401 || status === 403) {
        logger.warn(
          `toolgate: the token cannot read repository contents (${status}); reading the base commit with git instead. Give the workflow \`permissions: contents: read\` so that code from the pull request cannot forge the base.`,
        );
        useGit = true;
        return fallback(path);
      }
      throw new ConfigError(
        `${path} could not be read at the base commit ${sha} from the GitHub API: ${(e as Error).message}`,
        { file: path },
        'Re-run the job; if it persists, check the API status and the token.',
      );
    }
  };
}
