import * as core from '@actions/core';
import { resolve } from 'node:path';
import { loadPolicy } from '../config/policy-file.js';
import { displayPath } from '../util/display-path.js';
import { mark } from '../util/timing.js';
import type { Launcher } from '../sources/launch/index.js';
import { readActionInputs } from './inputs.js';
import { ConfigError } from '../util/errors.js';
import { breakRunnerCommands, escapeMarkdownCode, escapeWorkflowCommandData, escapeWorkflowCommandProperty, sanitizeText } from '../report/escape.js';
import { readEventContext } from '../github/event.js';
import { setActionOutputs } from './outputs.js';
import { assertPullRequestTargetAllowed } from '../github/pr-target.js';
import type { Logger } from '../util/logger.js';

const logger: Logger = { info: (m) => core.info(m), warn: (m) => core.warning(m), debug: (m) => core.debug(m) };

/** The same error (and its `others`) with file paths relative to the workspace, as annotations need. */
function relativeTo(workspace: string, e: ConfigError): ConfigError {
  const loc = e.location;
  const out = new ConfigError(e.message, loc ? { ...loc, file: displayPath(workspace, loc.file) } : undefined, e.fix, e.ruleId);
  out.others = e.others.map((o) => relativeTo(workspace, o));
  out.othersOmitted = e.othersOmitted;
  return out;
}

/** Prints a workflow-command error annotation for one configuration problem, on its file and line. */
function annotateConfigError(e: ConfigError): void {
  const loc = e.location;
  const props = loc
    ? ` file=${escapeWorkflowCommandProperty(loc.file)}${loc.line ? `,line=${loc.line}` : ''},title=toolgate configuration error`
    : ' title=toolgate configuration error';
  process.stdout.write(`::error${props}::${escapeWorkflowCommandData(e.headline())}\n`);
}

/** Action entry: inputs → runCheck → log, annotations, job summary, outputs, exit status. */
export async function runAction(): Promise<void> {
  // Paths in messages are relative to where the run looks (working-directory), once it is known.
  let workspace = resolve(process.env.GITHUB_WORKSPACE ?? process.cwd());
  // Starts the run's servers; it holds the server started early until the snapshot takes it.
  let launcher: Launcher | undefined;
  try {
    const inputs = readActionInputs();
    workspace = inputs.workspace;
    const event = readEventContext();
    const policyPath = resolve(inputs.workspace, inputs.config);
    await assertPullRequestTargetAllowed(event, policyPath, inputs.workspace);
    const policy = await loadPolicy(policyPath);
    // Outside a pull request's check, the policy just read is the one that runs the servers: the
    // first starts now and boots while the pipeline loads (docs/design.md §13). In a pull request the base
    // branch's policy decides how servers are contained, so nothing starts before it is read.
    const { Launcher } = await import('../sources/launch/index.js');
    launcher = new Launcher();
    if (!(event.pullRequest && inputs.mode === 'check')) {
      const { startFirstServer } = await import('../sources/select.js');
      await startFirstServer(policy, inputs.sources, inputs.workspace, launcher);
    }
    // The pipeline (MCP SDK, OpenAPI parser, GitHub client) loads only once the inputs are good.
    const { check } = await import('./check.js');
    mark('pipeline loaded');
    await check(inputs, event, policy, policyPath, logger, launcher);
  } catch (e) {
    if (e instanceof ConfigError) {
      const err = relativeTo(workspace, e);
      // One annotation per problem, on its own line; GitHub shows 10 errors per step and
      // setFailed below is one of them.
      for (const problem of [err, ...err.others].slice(0, 9)) annotateConfigError(problem);
      // The message quotes the policy file, which the pull request controls: show it verbatim in
      // a code block, where no Markdown, HTML or mention is live.
      if (process.env.GITHUB_STEP_SUMMARY) {
        await core.summary
          .addRaw(`## toolgate: ❌ configuration error\n\n${escapeMarkdownCode(err.describe())}\n`, true)
          .write()
          .catch(() => undefined);
      }
      // What is known: one error, no surface (so no digest to pin).
      setActionOutputs({ result: 'error', errorCount: 1, warningCount: 0, noticeCount: 0, digest: '' });
      // The message quotes the policy: no escape, bidi or control character reaches the log.
      core.setFailed(`toolgate: configuration error: ${breakRunnerCommands(sanitizeText(err.describe()))}`);
      return;
    }
    // `result` is set in every case: a workflow that goes on after the step may branch on it.
    setActionOutputs({ result: 'error' });
    core.setFailed(`toolgate: internal error: ${(e as Error)?.stack ?? String(e)}`);
  } finally {
    // A server started early that no snapshot took (the run stopped first) is ended here.
    await launcher?.discardEarly();
  }
}
