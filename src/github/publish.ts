import type { CheckResult } from '../judge/result.js';
import type { Logger } from '../util/logger.js';
import { renderSummary } from '../report/summary.js';
import { findingsToAnnotations, publishCheckRun } from './check-run.js';
import { isPermissionError, type GitHubClient, type RepoRef } from './client.js';
import { stickyMarker, upsertStickyComment } from './comment.js';

/** How the two-workflow pattern is explained when a fork PR's token cannot comment. */
export const FORK_HINT =
  'Fork pull requests get a read-only token: annotations and the job summary still work. To comment, upload toolgate-report.json as an artifact and post it from a `workflow_run` workflow (docs/action.md, "Fork pull requests").';

/**
 * Most annotations one check run carries (GitHub stops showing more); findings are sorted most
 * severe first, so the ones left out are the least severe.
 */
export const MAX_CHECK_ANNOTATIONS = 1000;

function droppedNote(n: number): string {
  return `${n} finding${n === 1 ? ' is' : 's are'} not annotated: a check run shows at most ${MAX_CHECK_ANNOTATIONS} annotations (the most severe are kept); every finding is in the JSON report.`;
}

/**
 * The check run's default name. It differs from the workflow job's (conventionally `toolgate`),
 * so that branch protection can require the check run, which carries the findings and the review
 * state, by a name that is not also the job's.
 */
export const DEFAULT_CHECK_NAME = 'toolgate review';

/**
 * Publishes a check run with every finding as an annotation (batches of 50).
 * @returns true when the check run carries the annotations (workflow-command annotations are then
 *   not needed); false when the token may not (`checks: write` missing, fork PR).
 */
export async function publishChecks(
  octokit: GitHubClient,
  repo: RepoRef,
  headSha: string,
  result: CheckResult,
  fallbackFile: string,
  logger: Logger,
  name = DEFAULT_CHECK_NAME,
): Promise<boolean> {
  const { error, warning, notice } = result.counts;
  const dropped = Math.max(0, result.findings.length - MAX_CHECK_ANNOTATIONS);
  try {
    const r = await publishCheckRun(octokit, repo, headSha, {
      name,
      conclusion: result.exitCode === 0 ? 'success' : 'failure',
      title: `${error} error${error === 1 ? '' : 's'}, ${warning} warning${warning === 1 ? '' : 's'}, ${notice} notice${notice === 1 ? '' : 's'}`,
      summary: dropped > 0 ? `> [!WARNING]\n> ${droppedNote(dropped)}\n\n${renderSummary(result)}` : renderSummary(result),
      annotations: findingsToAnnotations(result.findings, fallbackFile),
      maxAnnotations: MAX_CHECK_ANNOTATIONS,
    });
    if (r.ok) {
      logger.info(`toolgate: check run ${r.id} carries ${r.annotationsSent} annotation${r.annotationsSent === 1 ? '' : 's'}`);
      if (r.annotationsDropped > 0) logger.warn(`toolgate: ${droppedNote(r.annotationsDropped)}`);
      return true;
    }
    logger.info(
      `toolgate: no check run (${r.reason}); using workflow-command annotations instead. Grant \`checks: write\` to get every finding as an annotation.`,
    );
    return false;
  } catch (e) {
    logger.warn(`toolgate: check run failed: ${(e as Error).message}; using workflow-command annotations instead`);
    return false;
  }
}

/** Creates or updates the one sticky PR comment; a 403 degrades to a hint, never a crash. */
export async function publishComment(
  octokit: GitHubClient,
  repo: RepoRef,
  prNumber: number,
  result: CheckResult,
  key: string,
  logger: Logger,
  author = 'github-actions[bot]',
): Promise<void> {
  try {
    // `author` is the login the token comments as (the `comment-author` input for an App or a PAT):
    // only its comments are searched for the marker, so every run edits one comment.
    const r = await upsertStickyComment(octokit, repo, prNumber, stickyMarker(key), renderSummary(result), { author });
    logger.info(`toolgate: ${r.action} PR comment ${r.id}`);
  } catch (e) {
    if (isPermissionError(e)) logger.warn(`toolgate: cannot comment on the pull request (${(e as Error).message}). ${FORK_HINT}`);
    else logger.warn(`toolgate: PR comment failed: ${(e as Error).message}`);
  }
}
