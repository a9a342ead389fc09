import * as core from '@actions/core';
import { resolve } from 'node:path';
import { loadPolicy } from './config/policy.js';
import { readActionInputs } from './config/inputs.js';
import { runCheck, type CheckResult } from './run-check.js';
import { renderAnnotations } from './report/annotations.js';
import { renderJson } from './report/json.js';
import { renderSummary } from './report/summary.js';
import { renderTerminal } from './report/terminal.js';
import { writeFileAtomic } from './contract/store.js';
import { sha256 } from './surface/canonical.js';
import { ConfigError } from './util/errors.js';
import { escapeWorkflowCommandData, escapeWorkflowCommandProperty } from './report/escape.js';
import type { Logger } from './util/logger.js';
import { VERSION } from './version.js';

const actionsLogger: Logger = { info: (m) => core.info(m), warn: (m) => core.warning(m), debug: (m) => core.debug(m) };

/** The `digest` output: the source's digest, or one over `id=digest` lines when there are several. */
export function combinedDigest(result: CheckResult): string {
  const ok = result.sources.filter((s) => s.surface);
  if (ok.length === 1) return ok[0]?.surface?.digest ?? '';
  return sha256(ok.map((s) => `${s.id}=${s.surface?.digest}`).sort().join('\n'));
}

/** Action entry: inputs → runCheck → log, annotations, job summary, outputs, exit status. */
export async function runAction(): Promise<void> {
  try {
    const inputs = readActionInputs();
    const policy = await loadPolicy(resolve(inputs.workspace, inputs.config));
    const result = await runCheck({
      policy,
      mode: inputs.mode,
      root: inputs.workspace,
      logger: actionsLogger,
      ...(inputs.sources.length ? { sourceIds: inputs.sources } : {}),
      ...(inputs.exact ? { exact: true } : {}),
    });
    process.stdout.write(renderTerminal(result, { color: false, listTools: false }));
    for (const line of renderAnnotations(result.findings)) process.stdout.write(line + '\n');
    await core.summary.addRaw(renderSummary(result), true).write();
    const reportPath = resolve(inputs.workspace, inputs.reportPath);
    await writeFileAtomic(reportPath, renderJson(result, VERSION));
    core.setOutput('tool-count', result.sources.reduce((n, s) => n + (s.surface?.counts.toolCount ?? 0), 0));
    core.setOutput('error-count', result.counts.error);
    core.setOutput('warning-count', result.counts.warning);
    core.setOutput('digest', combinedDigest(result));
    core.setOutput('report-path', reportPath);
    if (result.exitCode === 3) core.setFailed('toolgate: a source failed (server-failed); see the log and the job summary');
    else if (result.exitCode === 1) core.setFailed(`toolgate: ${result.counts.error} error-level finding${result.counts.error === 1 ? '' : 's'}${inputs.exact ? ` and ${result.counts.warning} warnings (exact mode)` : ''}`);
  } catch (e) {
    if (e instanceof ConfigError) {
      const loc = e.location;
      const props = loc ? ` file=${escapeWorkflowCommandProperty(loc.file)}${loc.line ? `,line=${loc.line}` : ''},title=toolgate configuration error` : ' title=toolgate configuration error';
      process.stdout.write(`::error${props}::${escapeWorkflowCommandData(e.describe())}\n`);
      core.setFailed(`toolgate: configuration error: ${e.describe()}`);
      return;
    }
    core.setFailed(`toolgate: internal error: ${(e as Error)?.stack ?? String(e)}`);
  }
}
