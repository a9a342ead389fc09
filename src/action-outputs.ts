import * as core from '@actions/core';

/** The Action's outputs (action.yml `outputs`); what is not known is left unset. */
export interface ActionOutputs {
  toolCount?: number;
  errorCount: number;
  warningCount: number;
  /** Empty when there is no whole surface to pin (a source failed, or the configuration did). */
  digest: string;
  reportPath?: string;
}

/** Sets every output the run knows. The one place outputs are written (a configuration error sets some too). */
export function setActionOutputs(o: ActionOutputs): void {
  if (o.toolCount !== undefined) core.setOutput('tool-count', o.toolCount);
  core.setOutput('error-count', o.errorCount);
  core.setOutput('warning-count', o.warningCount);
  core.setOutput('digest', o.digest);
  if (o.reportPath !== undefined) core.setOutput('report-path', o.reportPath);
}
