import * as core from '@actions/core';

/**
 * The Action's outputs (action.yml `outputs`); what is not known is left unset.
 * `result`: `pass` (the step succeeded), `fail` (findings at or above `fail-on`), `error` (a
 * configuration error, or a source that failed: nothing could be judged).
 */
export interface ActionOutputs {
  result: 'pass' | 'fail' | 'error';
  toolCount?: number;
  /** The counts and the digest are unknown after an internal error: left unset then. */
  errorCount?: number;
  warningCount?: number;
  noticeCount?: number;
  /** Empty when there is no whole surface to pin (a source failed, or the configuration did). */
  digest?: string;
  reportPath?: string;
  /** Absolute path of the SARIF log, when one was written. */
  sarifPath?: string;
}

/** Sets every output the run knows. The one place outputs are written (a configuration error sets some too). */
export function setActionOutputs(o: ActionOutputs): void {
  core.setOutput('result', o.result);
  if (o.toolCount !== undefined) core.setOutput('tool-count', o.toolCount);
  if (o.errorCount !== undefined) core.setOutput('error-count', o.errorCount);
  if (o.warningCount !== undefined) core.setOutput('warning-count', o.warningCount);
  if (o.noticeCount !== undefined) core.setOutput('notice-count', o.noticeCount);
  if (o.digest !== undefined) core.setOutput('digest', o.digest);
  if (o.reportPath !== undefined) core.setOutput('report-path', o.reportPath);
  if (o.sarifPath !== undefined) core.setOutput('sarif-path', o.sarifPath);
}
