import type { Finding, Level } from '../rules/types.js';
import { escapeWorkflowCommandData, escapeWorkflowCommandProperty } from './escape.js';

/**
 * GitHub shows at most 10 workflow-command annotations of each level per step (and 50 per job);
 * the rest are dropped silently, so we choose which ones and say how many more (docs/design.md §6, §14).
 */
export const ANNOTATIONS_PER_LEVEL = 10;

const COMMAND: Record<Level, string> = { error: 'error', warning: 'warning', notice: 'notice' };

/** One workflow command for a finding: `::error file=…,line=…,title=…::message%0AFix: …`. */
export function annotationCommand(f: Finding): string {
  const props: string[] = [];
  if (f.location) {
    props.push(`file=${escapeWorkflowCommandProperty(f.location.file)}`);
    if (f.location.line) props.push(`line=${f.location.line}`);
  }
  props.push(`title=${escapeWorkflowCommandProperty(`toolgate ${f.ruleId} [${f.source}]`)}`);
  return `::${COMMAND[f.level]} ${props.join(',')}::${escapeWorkflowCommandData(`${f.message}\nFix: ${f.fix}`)}`;
}

/**
 * Workflow-command lines for findings already sorted most severe first: at most
 * {@link ANNOTATIONS_PER_LEVEL} per level (less the `reserved` slots), then one plain log line saying
 * how many more there are.
 * Pure; the caller writes the lines to stdout.
 */
export function renderAnnotations(findings: readonly Finding[], reserved: Partial<Record<Level, number>> = {}): string[] {
  // `reserved`: slots the caller needs itself (the step's own failure message is an error).
  const used: Record<Level, number> = { error: reserved.error ?? 0, warning: reserved.warning ?? 0, notice: reserved.notice ?? 0 };
  const lines: string[] = [];
  let dropped = 0;
  for (const f of findings) {
    if (used[f.level] >= ANNOTATIONS_PER_LEVEL) {
      dropped++;
      continue;
    }
    used[f.level]++;
    lines.push(annotationCommand(f));
  }
  if (dropped > 0) {
    lines.push(
      `toolgate: ${dropped} more finding${dropped === 1 ? ' is' : 's are'} not shown as annotations (GitHub shows ${ANNOTATIONS_PER_LEVEL} per level per step); all are in the job summary.`,
    );
  }
  return lines;
}
