import type { CheckResult, SourceResult } from '../run-check.js';
import type { Finding, Level } from '../rules/types.js';
import { auditFacts, COUNT_LABELS } from './audit.js';
import { escapeTerminal, escapeTerminalInline } from './escape.js';
import { describeChange } from './changes.js';
import { changedTextOf, renderWordDiffTerminal, wordDiff } from './text-diff.js';

/** ANSI colours, used only when the output is a TTY (and NO_COLOR is unset). */
export interface TerminalStyle {
  color: boolean;
  /** Print each tool with its class and hints. */
  listTools: boolean;
}

const LIST_PREVIEW = 12;
const CHANGE_PREVIEW = 20;

function paint(on: boolean, code: string, text: string): string {
  return on ? `\x1b[${code}m${text}\x1b[0m` : text;
}
const LEVEL_CODE: Record<Level, string> = { error: '31', warning: '33', notice: '36' };

function names(list: string[]): string {
  if (list.length === 0) return 'none';
  const shown = list.slice(0, LIST_PREVIEW).map((n) => escapeTerminalInline(n, 80));
  return shown.join(', ') + (list.length > shown.length ? `, … (${list.length - shown.length} more)` : '');
}

/**
 * One finding, two lines: `level rule-id tool: message` and the fix with its location; a
 * `description-changed` finding gets a line between them with the word diff of its old and new
 * text (`text: … [-old-]{+new+} …`, bounded and escaped, see text-diff.ts).
 */
export function renderFindingLine(f: Finding, style: TerminalStyle): string {
  const where = f.location ? `${f.location.file}${f.location.line ? `:${f.location.line}` : ''}` : '';
  // One line: a message quotes server text, and in the Action's log a line that server text
  // starts (`::error ...`, `##[error]`) would be read by the runner as a workflow command.
  const head = `${paint(style.color, LEVEL_CODE[f.level], f.level.padEnd(7))} ${f.ruleId}  ${escapeTerminalInline(f.message, 400)}`;
  const changed = changedTextOf(f);
  const text = changed ? `\n         text: ${renderWordDiffTerminal(wordDiff(changed.base, changed.head), style.color)}` : '';
  return `${head}${text}\n         ${where ? `${where}  ` : ''}fix: ${f.fix}`;
}

function renderSource(r: SourceResult, style: TerminalStyle): string {
  const out: string[] = [];
  const title = `source ${r.id} (${r.kind}${r.live ? '' : r.kind === 'recorded' ? ': not live' : ', not live'})`;
  out.push(paint(style.color, '1', title));
  if (r.failure) {
    out.push(`  failed: ${escapeTerminalInline(r.failure.message, 1000)}`);
    if (r.failure.stderrTail) out.push(`  stderr (last lines):\n${escapeTerminal(r.failure.stderrTail, 4096).replace(/^/gm, '    | ')}`);
    return out.join('\n');
  }
  const s = r.surface;
  if (!s) return out.join('\n');
  if (s.server) {
    const sv = s.server;
    out.push(`  server: ${escapeTerminalInline(sv.name ?? '?', 80)} ${escapeTerminalInline(sv.version ?? '', 40)}  protocol ${escapeTerminalInline(sv.protocolVersion ?? '?', 40)}`);
  }
  const a = auditFacts(s);
  out.push('  ' + COUNT_LABELS.filter(([k]) => k !== 'disabledToolCount' || a.counts.disabledToolCount > 0).map(([k, label]) => `${label}: ${a.counts[k]}`).join('  '));
  out.push(`  payload: ${a.payloadBytes} bytes  digest: sha256:${a.digest}`);
  out.push(`  writes that declare themselves additive: ${names(a.additiveWrites)}`);
  out.push(`  open-world: ${names(a.openWorld)}`);
  out.push(`  unannotated: ${names(a.unannotated)}`);
  if (a.promotions.length) out.push(`  read promotions (need review): ${names(a.promotions.map((t) => `${t.name} (${t.origin?.method} ${t.origin?.path})`))}`);
  if (a.malformed.length) out.push(`  malformed (pinned as served): ${names(a.malformed)}`);
  if (a.disabled.length) out.push(`  disabled operations: ${names(a.disabled.map((t) => `${t.name} (${t.origin?.method} ${t.origin?.path})`))}`);
  if (style.listTools) {
    out.push('  tools:');
    for (const t of s.tools) {
      // destructive/idempotent mean nothing on a read-only tool (spec), as in the counts.
      const ro = t.effectiveHints.readOnlyHint;
      const hints = Object.entries(t.effectiveHints)
        .filter(([h, v]) => v && !(ro && (h === 'destructiveHint' || h === 'idempotentHint')))
        .map(([h]) => h.replace('Hint', ''))
        .join(',');
      out.push(`    ${t.safetyClass.padEnd(8)} ${escapeTerminalInline(t.name, 80)}  [${hints}]${Object.keys(t.declaredHints).length === 0 && !t.origin ? ' (unannotated)' : ''}${t.malformed ? ' (malformed)' : ''}`);
    }
  }
  const sb = r.diagnostics?.sandbox;
  if (sb) out.push(`  sandbox: ${sb.sandboxed ? `bubblewrap, ${sb.network === 'open' ? "the host's network" : 'loopback only'}` : `none (${escapeTerminalInline(sb.reason, 200)})`}`);
  if (r.diagnostics?.stdoutNoiseLines) out.push(`  stdout noise: ${r.diagnostics.stdoutNoiseLines} non-JSON lines`);
  for (const [label, list] of [['changes', r.changes], ['drift from the contract', r.drift]] as const) {
    if (!list?.length) continue;
    out.push(`  ${label} (${list.length}):`);
    for (const c of list.slice(0, CHANGE_PREVIEW)) out.push(`    ${escapeTerminalInline(describeChange(c), 200)}`);
    if (list.length > CHANGE_PREVIEW) out.push(`    … and ${list.length - CHANGE_PREVIEW} more (--format json lists all)`);
  }
  return out.join('\n');
}

/** The terminal audit: per source the counts and lists, then findings most severe first. */
export function renderTerminal(result: CheckResult, style: TerminalStyle): string {
  const out: string[] = result.sources.map((r) => renderSource(r, style));
  if (result.findings.length === 0) {
    out.push(paint(style.color, '32', 'no findings'));
  } else {
    out.push('');
    for (const f of result.findings) out.push(`[${f.source}] ${renderFindingLine(f, style)}`);
    const { error, warning, notice } = result.counts;
    out.push('', `${error} error${error === 1 ? '' : 's'}, ${warning} warning${warning === 1 ? '' : 's'}, ${notice} notice${notice === 1 ? '' : 's'}`);
  }
  return out.join('\n') + '\n';
}
