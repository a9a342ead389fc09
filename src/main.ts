import * as core from '@actions/core';
import { resolve } from 'node:path';
import { displayPath, loadPolicy } from './config/policy.js';
import { readActionInputs } from './config/inputs.js';
import { ConfigError } from './util/errors.js';
import { escapeMarkdownCode, escapeWorkflowCommandData, escapeWorkflowCommandProperty } from './report/escape.js';
import { readEventContext } from './github/event.js';
import { assertPullRequestTargetAllowed } from './github/pr-target.js';
import type { Logger } from './util/logger.js';

const logger: Logger = { info: (m) => core.info(m), warn: (m) => core.warning(m), debug: (m) => core.debug(m) };

/** Action entry: inputs → runCheck → log, annotations, job summary, outputs, exit status. */
export async function runAction(): Promise<void> {
  try {
    const inputs = readActionInputs();
    const event = readEventContext();
    const policyPath = resolve(inputs.workspace, inputs.config);
    await assertPullRequestTargetAllowed(event, policyPath, inputs.workspace);
    const policy = await loadPolicy(policyPath);
    // The pipeline (MCP SDK, OpenAPI parser, GitHub client) loads only once the inputs are good.
    const { check } = await import('./action-check.js');
    await check(inputs, event, policy, policyPath, logger);
  } catch (e) {
    if (e instanceof ConfigError) {
      const loc = e.location;
      const file = loc ? displayPath(resolve(process.env.GITHUB_WORKSPACE ?? process.cwd()), loc.file) : '';
      const props = loc ? ` file=${escapeWorkflowCommandProperty(file)}${loc.line ? `,line=${loc.line}` : ''},title=toolgate configuration error` : ' title=toolgate configuration error';
      process.stdout.write(`::error${props}::${escapeWorkflowCommandData(e.describe())}\n`);
      // The message quotes the policy file, which the pull request controls: show it verbatim in
      // a code block, where no Markdown, HTML or mention is live.
      await core.summary.addRaw(`## toolgate: ❌ configuration error\n\n${escapeMarkdownCode(e.describe())}\n`, true).write().catch(() => undefined);
      core.setFailed(`toolgate: configuration error: ${e.describe()}`);
      return;
    }
    core.setFailed(`toolgate: internal error: ${(e as Error)?.stack ?? String(e)}`);
  }
}
