import * as core from '@actions/core';
import type { Policy } from '../config/policy-model.js';
import { policyInputs } from '../config/policy.js';
import { displayPath } from '../util/display-path.js';
import { resolveInside } from '../util/safe-path.js';
import { setActionOutputs, type ActionOutputs } from './outputs.js';
import type { ActionInputs } from './inputs.js';
import type { Launcher } from '../sources/launch/index.js';
import { checkRunOptions, runCheck } from '../run-check.js';
import { failsOn, type CheckResult, type FailOn } from '../judge/result.js';
import { renderAnnotations } from '../report/annotations.js';
import { renderJson } from '../report/json.js';
import { renderSummary, SUMMARY_MAX_BYTES } from '../report/summary.js';
import { renderTerminal } from '../report/terminal.js';
import { guardLogOutput } from '../report/escape.js';
import { buildSarifLog } from '../report/sarif.js';
import { RULES } from '../rules/catalog.js';
import { writeFileAtomic } from '../contract/store.js';
import { sha256 } from '../surface/canonical.js';
import type { EventContext, PullRequestContext } from '../github/event.js';
import { createGitHubClient, type GitHubClient } from '../github/client.js';
import { readApproval } from '../github/pr-context.js';
import { apiBaseReader, gitBaseReader } from '../github/base-files.js';
import { checkedOutCommit, repositoryPrefix, resolveCommit } from '../github/base-contract.js';
import { readBaseState, type BaseState } from '../review/base-state.js';
import { assertNoRunnerSecrets } from '../config/policy-diff.js';
import { DEFAULT_CHECK_NAME, FORK_HINT, publishChecks, publishComment } from '../github/publish.js';
import type { Logger } from '../util/logger.js';
import { VERSION } from '../version.js';
import { entryFrom } from '../export/entries.js';

/**
 * The `digest` output: the source's digest, or one over `id=digest` lines when there are several;
 * empty when a source has no surface (it failed): a digest of part of the surface pins nothing.
 */
export function combinedDigest(result: CheckResult): string {
  if (result.sources.length === 0 || result.sources.some((s) => !s.surface)) return '';
  if (result.sources.length === 1) return result.sources[0]?.surface?.digest ?? '';
  return sha256(
    result.sources
      .map((s) => `${s.id}=${s.surface?.digest}`)
      .sort()
      .join('\n'),
  );
}

/**
 * Writes the job summary. Runners without one (`GITHUB_STEP_SUMMARY` unset: GHES before 3.6,
 * act, Gitea and Forgejo runners) get a notice instead; the report and outputs are still written.
 */
export async function writeJobSummary(markdown: string, logger: Logger): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) {
    logger.info('toolgate: this runner has no job summary (GITHUB_STEP_SUMMARY is unset); the report is in the log and in the JSON report');
    return;
  }
  await core.summary.addRaw(markdown, true).write();
}

function outputPath(workspace: string, path: string, what: string, policy: Policy): Promise<string> {
  return resolveInside(workspace, path, { what, allowedRoots: [process.env.RUNNER_TEMP], notOnto: policyInputs(policy), display: path });
}

/**
 * The base of a pull request: its policy (which judges), its contracts, and how the head's policy
 * differs. Read from the GitHub API at the base commit when there is a token, else with git; the
 * base commit must be in the checkout either way (approvals are compared with git).
 */
async function readPullRequestBase(
  pr: PullRequestContext,
  policy: Policy,
  workspace: string,
  octokit: GitHubClient | undefined,
  event: EventContext,
  logger: Logger,
): Promise<BaseState> {
  await resolveCommit({ cwd: workspace, sha: pr.baseSha });
  const git = gitBaseReader(workspace, pr.baseSha);
  // working-directory may be a folder of the repository: the API reads from the repository's root.
  const prefix = (await repositoryPrefix(workspace)) ?? '';
  const read = octokit && event.repo ? apiBaseReader(octokit, event.repo, pr.baseSha, git, logger, prefix) : git;
  const base = await readBaseState(policy, workspace, read, `base ${pr.baseSha.slice(0, 7)}`);
  if (!base.basePolicy)
    logger.info(`toolgate: no ${displayPath(workspace, policy.file)} at the base commit: first adoption, the head policy applies and is one change to approve`);
  const firsts = [...base.contracts].filter(([, s]) => s === null).map(([id]) => id);
  if (firsts.length) logger.info(`toolgate: no contract at the base commit for ${firsts.join(', ')}: first adoption: every tool is new in this pull request`);
  return base;
}

/**
 * The Action's work after the policy is loaded: PR context, the pipeline, and every sink.
 * Loaded on demand by main.ts, so a configuration error is reported without loading the SDK.
 */
export async function check(inputs: ActionInputs, event: EventContext, policy: Policy, policyPath: string, logger: Logger, launcher?: Launcher): Promise<void> {
  const pr = event.pullRequest;
  // Where the report and SARIF go, checked before anything runs: inside the workspace or
  // RUNNER_TEMP (the usual place for artifacts), links resolved, never onto an input of the run.
  const reportPath = await outputPath(inputs.workspace, inputs.reportPath, 'the report (report-path)', policy);
  const sarifPath = inputs.sarifPath ? await outputPath(inputs.workspace, inputs.sarifPath, 'the SARIF log (sarif-path)', policy) : undefined;
  const octokit: GitHubClient | undefined = inputs.token ? createGitHubClient({ token: inputs.token, onRetry: (m) => logger.info(m) }) : undefined;
  // Everything the base says is read before any code of the pull request starts in this run.
  const base = pr && inputs.mode === 'check' ? await readPullRequestBase(pr, policy, inputs.workspace, octokit, event, logger) : undefined;
  if (!base) assertNoRunnerSecrets(policy, policy.allowRunnerEnv);
  const approval = pr
    ? await readApproval(octokit, event.repo, pr, base?.policy ?? policy, base ? { workspace: inputs.workspace, watched: base.watched } : undefined)
    : undefined;
  const result = await runCheck(
    checkRunOptions({
      ...(launcher ? { launcher } : {}),
      policy,
      mode: inputs.mode,
      root: inputs.workspace,
      logger,
      sourceIds: inputs.sources,
      exact: inputs.exact,
      failOn: inputs.failOn,
      ...(base ? { base } : {}),
      ...(approval ? { approval } : {}),
      extraExports: inputs.exports.map((e) =>
        entryFrom(policy, inputs.workspace, { ...e, ...(inputs.sources.length === 1 ? { source: inputs.sources[0] } : {}) }),
      ),
    }),
  );

  process.stdout.write(guardLogOutput(renderTerminal(result, { color: false, listTools: false }), 'text'));
  const policyFile = displayPath(inputs.workspace, policyPath);
  // Under pull_request_target the checkout is whatever the workflow chose (the base, by default):
  // a result is posted on the commit that was checked, never on a PR head that was not.
  const headSha = event.pullRequestTarget ? ((await checkedOutCommit(inputs.workspace)) ?? event.sha) : (pr?.headSha ?? event.sha);
  let annotatedByCheckRun = false;
  if (octokit && event.repo && headSha && inputs.checkRun && !pr?.fork) {
    // One check run per job: a matrix over sources gets one per source.
    const name = inputs.checkName ?? (inputs.sources.length ? `${DEFAULT_CHECK_NAME} (${inputs.sources.join(', ')})` : DEFAULT_CHECK_NAME);
    annotatedByCheckRun = await publishChecks(octokit, event.repo, headSha, result, policyFile, logger, name);
  }
  // A failing step adds its own error annotation (core.setFailed): keep a slot for it.
  if (!annotatedByCheckRun) for (const line of renderAnnotations(result.findings, { error: result.exitCode === 0 ? 0 : 1 })) process.stdout.write(line + '\n');
  await writeJobSummary(renderSummary(result, { maxBytes: SUMMARY_MAX_BYTES }), logger);
  if (pr && inputs.comment) {
    if (pr.fork) logger.warn(`toolgate: not commenting on a fork pull request. ${FORK_HINT}`);
    else if (octokit && event.repo)
      await publishComment(octokit, event.repo, pr.number, result, inputs.sources.join(',') || 'all', logger, inputs.commentAuthor);
  }

  await writeFileAtomic(reportPath, renderJson(result, VERSION), { what: 'the report (report-path)' });
  if (sarifPath) {
    const sarif = buildSarifLog(result.findings, RULES, { version: VERSION, fallbackFile: policyFile });
    await writeFileAtomic(sarifPath, JSON.stringify(sarif, null, 2) + '\n', { what: 'the SARIF log (sarif-path)' });
  }
  const verdict = stepVerdict(result, inputs, { reportPath, ...(sarifPath ? { sarifPath } : {}) });
  setActionOutputs(verdict.outputs);
  if (verdict.failure) core.setFailed(verdict.failure);
}

/**
 * What the step reports for a finished run (pure): its outputs, and the message it fails with
 * (`core.setFailed`, exit 1) when the result is not a pass. `result` is `error` when a source
 * failed (whatever `fail-on` says: nothing was judged), `fail` when a finding reached `fail-on`
 * (runCheck's exit code 1), else `pass`.
 */
export function stepVerdict(
  result: CheckResult,
  inputs: Pick<ActionInputs, 'failOn' | 'exact'>,
  files: { reportPath: string; sarifPath?: string },
): { outputs: ActionOutputs; failure?: string } {
  const outputs: ActionOutputs = {
    result: result.exitCode === 3 ? 'error' : result.exitCode === 1 ? 'fail' : 'pass',
    toolCount: result.sources.reduce((n, s) => n + (s.surface?.counts.toolCount ?? 0), 0),
    errorCount: result.counts.error,
    warningCount: result.counts.warning,
    noticeCount: result.counts.notice,
    digest: combinedDigest(result),
    ...files,
  };
  if (result.exitCode === 3) return { outputs, failure: 'toolgate: a source failed (server-failed); see the log and the job summary' };
  if (result.exitCode === 1) return { outputs, failure: `toolgate: ${failureText(result.counts, inputs.failOn, inputs.exact)}` };
  return { outputs };
}

/** "3 error-level findings", "… and 2 warnings (exact mode: release gating)", "… (fail-on: notice)". */
export function failureText(counts: CheckResult['counts'], failOn: FailOn, exact: boolean): string {
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`;
  const more = [failsOn('warning', failOn) ? n(counts.warning, 'warning') : '', failsOn('notice', failOn) ? n(counts.notice, 'notice') : ''].filter(Boolean);
  const why = exact && failOn === 'warning' ? 'exact mode: release gating' : `fail-on: ${failOn}`;
  return `${n(counts.error, 'error-level finding')}${more.length ? ` and ${more.join(' and ')} (${why})` : ''}`;
}
