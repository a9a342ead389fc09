import type { CheckResult, SourceResult } from '../judge/result.js';
import { auditFacts, authParts, COUNT_LABELS, grouped, namedServer, tokenDelta, TOKENS_CAVEAT } from './audit.js';
import { escapeTerminal, escapeTerminalInline } from './escape.js';
import { describeChange } from './changes.js';
import { buildReview } from './review.js';
import { DEFAULT_WIDTH, renderCutTexts, renderEntry, renderFixes, type CutText } from './terminal-entries.js';
import { reportDiffer } from './text-diff.js';

/** How the terminal report is laid out. */
export interface TerminalStyle {
  /** ANSI colours, used only when the output is a TTY (and NO_COLOR is unset). */
  color: boolean;
  /** Print each tool with its class and hints. */
  listTools: boolean;
  /** Every notice on its own line, and the change and drift lists. */
  verbose?: boolean;
  /** The list of every change (`update`, `diff`); default: only with `verbose` or for `update`. */
  changes?: boolean;
  /** Columns to lay out for (wrapped lists, cut texts); default {@link DEFAULT_WIDTH}. */
  width?: number;
}

const LIST_PREVIEW = 12;

function paint(on: boolean, code: string, text: string): string {
  return on ? `\x1b[${code}m${text}\x1b[0m` : text;
}
const OUTCOME: Record<string, [string, string]> = { pass: ['PASS', '32'], fail: ['FAIL', '31'], error: ['ERROR', '31'] };

function names(list: string[]): string {
  if (list.length === 0) return 'none';
  const shown = list.slice(0, LIST_PREVIEW).map((n) => escapeTerminalInline(n, 80));
  return shown.join(', ') + (list.length > shown.length ? `, … (${list.length - shown.length} more)` : '');
}

function renderSourceFacts(r: SourceResult, style: TerminalStyle): string[] {
  const out: string[] = [];
  const title = `source ${r.id} (${r.kind}${r.live ? '' : r.kind === 'recorded' ? ': not live' : ', not live'})`;
  out.push(paint(style.color, '1', title));
  if (r.failure) {
    out.push(`  failed: ${escapeTerminalInline(r.failure.message, 1000)}`);
    if (r.failure.stderrTail) out.push(`  stderr (last lines):\n${escapeTerminal(r.failure.stderrTail, 4096).replace(/^/gm, '    | ')}`);
    return out;
  }
  const s = r.surface;
  if (!s) return out;
  const sv = namedServer(s);
  if (sv) {
    out.push(
      `  server: ${escapeTerminalInline(sv.name ?? '?', 80)} ${escapeTerminalInline(sv.version ?? '', 40)}  protocol ${escapeTerminalInline(sv.protocolVersion ?? '?', 40)}`,
    );
  }
  const sb = r.diagnostics?.sandbox;
  if (sb)
    out.push(
      `  sandbox: ${sb.sandboxed ? `bubblewrap, ${sb.network === 'open' ? "the host's network" : 'loopback only'}` : `none (${escapeTerminalInline(sb.reason, 200)})`}`,
    );
  if (r.diagnostics?.stdoutNoiseLines) out.push(`  stdout noise: ${r.diagnostics.stdoutNoiseLines} non-JSON lines`);
  return out;
}

function renderAudit(r: SourceResult, style: TerminalStyle, mode: CheckResult['mode']): string[] {
  const s = r.surface;
  if (!s) return [];
  const a = auditFacts(s);
  const out = [
    `  [${escapeTerminalInline(r.id, 80)}] ${COUNT_LABELS.filter(([k]) => k !== 'disabledToolCount' || a.counts.disabledToolCount > 0)
      .map(([k, label]) => `${label}: ${a.counts[k]}`)
      .join('  ')}`,
  ];
  out.push(`    writes that declare themselves additive: ${names(a.additiveWrites)}`);
  out.push(`    open-world: ${names(a.openWorld)}`);
  out.push(`    unannotated: ${names(a.unannotated)}`);
  if (a.promotions.length)
    out.push(`    read promotions (need review): ${names(a.promotions.map((t) => `${t.name} (${t.origin?.method} ${t.origin?.path})`))}`);
  if (a.malformed.length) out.push(`    malformed (pinned as served): ${names(a.malformed)}`);
  if (a.disabled.length) out.push(`    disabled operations: ${names(a.disabled.map((t) => `${t.name} (${t.origin?.method} ${t.origin?.path})`))}`);
  if (style.listTools) {
    out.push('    tools:');
    for (const t of s.tools) {
      // destructive/idempotent mean nothing on a read-only tool (spec), as in the counts.
      const ro = t.effectiveHints.readOnlyHint;
      const hints = Object.entries(t.effectiveHints)
        .filter(([h, v]) => v && !(ro && (h === 'destructiveHint' || h === 'idempotentHint')))
        .map(([h]) => h.replace('Hint', ''))
        .join(',');
      out.push(
        `      ${t.safetyClass.padEnd(8)} ${escapeTerminalInline(t.name, 80)}  [${hints}]${Object.keys(t.declaredHints).length === 0 && !t.origin ? ' (unannotated)' : ''}${t.malformed ? ' (malformed)' : ''}`,
      );
    }
  }
  for (const f of r.safety ?? [])
    out.push(
      `    safety field ${escapeTerminalInline(f.name, 80)} (${escapeTerminalInline(f.pointer, 200)}, safer: ${JSON.stringify(f.safer)}): less safe: ${names(f.lessSafe)}`,
    );
  if (s.protectedResource) out.push(`    who authorizes (RFC 9728): ${authParts(s.protectedResource, (x) => escapeTerminalInline(x, 200)).join('; ')}`);
  if (r.tokens) {
    const delta = tokenDelta(r.tokens);
    const top = r.tokens.top?.length
      ? `; most expensive: ${r.tokens.top.map((t) => `${escapeTerminalInline(t.name, 80)} ${grouped(t.tokens)}`).join(', ')}`
      : '';
    out.push(
      `    tokens per turn: ${grouped(r.tokens.perTurn)}${delta ? ` (${delta} from the ${mode === 'update' ? 'contract it replaces' : 'base'})` : ''} (${TOKENS_CAVEAT})${top}`,
    );
  }
  out.push(`    payload: ${a.payloadBytes} bytes  digest: sha256:${a.digest}`);
  return out;
}

/** Every change of a list, one line each, never cut (the terminal has no size limit). */
function renderChanges(label: string, list: readonly import('../diff/change.js').Change[]): string[] {
  return [`  ${label} (${list.length}):`, ...list.map((c) => `    ${escapeTerminalInline(describeChange(c), 300)}`)];
}

/**
 * The terminal report, in the one shape of docs/design.md §6: the verdict; per source how it ran; "needs
 * your attention" (every failing finding, by tool, riskiest first, never cut); everything else by
 * tool; notices one line per rule (each with `verbose`); the audit and digest. `update` also lists
 * every change it wrote to the contract.
 */
export function renderTerminal(result: CheckResult, style: TerminalStyle): string {
  const review = buildReview(result, { verbose: style.verbose === true });
  const diff = reportDiffer();
  const [word, code] = OUTCOME[review.verdict.outcome] as [string, string];
  const out: string[] = [`toolgate: ${paint(style.color, code, word)} · ${escapeTerminalInline(review.verdict.text, 600)}`];
  for (const r of result.sources) out.push(...renderSourceFacts(r, style));
  // What `update` wrote is what the reviewer will be asked to approve: first, and whole.
  if (result.mode === 'update') {
    for (const r of result.sources)
      if (r.changes?.length) out.push('', ...renderChanges(`[${r.id}] what a reviewer will be asked to approve: contract changes`, r.changes));
  }
  const layout = { color: style.color, width: style.width ?? DEFAULT_WIDTH, clause: review.clause, diff, previous: {} };
  // Each fix said once in the report, under attention or the warnings.
  const fixed = new Set<string>();
  if (review.attention.length) {
    const n = review.attention.length;
    const files = [...new Set(review.attention.flatMap((e) => (e.location ? [`[${escapeTerminalInline(e.source, 80)}] ${e.location.file}`] : [])))];
    const contracts = files.length ? ` (contract lines: ${files.join(', ')})` : '';
    out.push('', paint(style.color, '1', `Needs your attention: ${n} ${n === 1 ? 'entry' : 'entries'}, riskiest first`) + contracts);
    const cut: CutText[] = [];
    for (const e of review.attention) out.push(...renderEntry(e, { ...layout, cut }));
    out.push('', paint(style.color, '1', 'What to do'), ...renderFixes(review.attention, undefined, fixed));
    if (cut.length) out.push('', paint(style.color, '1', 'Texts in full (cut above)'), ...renderCutTexts(cut, layout));
  }
  if (review.rest.length) {
    out.push('', paint(style.color, '1', 'Everything else, by tool'));
    const rest = { ...layout, previous: {} };
    for (const e of review.rest) out.push(...renderEntry(e, rest));
    // A warning says what to do too (a notice, for information, does not); each fix once.
    const fixes = renderFixes(review.rest, (f) => f.level === 'warning', fixed);
    if (fixes.length) out.push('', paint(style.color, '1', 'What to do about the warnings'), ...fixes);
  }
  if (review.notices.length) {
    out.push('', paint(style.color, '1', 'Notices, one line per rule (--verbose lists each)'));
    for (const n of review.notices)
      out.push(`  ${n.ruleId}: ${n.count} ${n.tools.length ? `tool${n.count === 1 ? '' : 's'}: ${names(n.tools)}` : `finding${n.count === 1 ? '' : 's'}`}`);
  }
  if (review.foldedCount)
    out.push(
      '',
      `${review.foldedCount} finding${review.foldedCount === 1 ? ' that restates another is' : 's that restate others are'} folded into ${review.foldedCount === 1 ? 'it' : 'them'} (--format json lists them)`,
    );
  const audits = result.sources.flatMap((r) => renderAudit(r, style, result.mode));
  if (audits.length) out.push('', paint(style.color, '1', 'Audit'), ...audits);
  for (const r of result.sources) {
    if (r.changes?.length && result.mode !== 'update' && (style.verbose || style.changes)) out.push('', ...renderChanges(`[${r.id}] changes`, r.changes));
    if (r.drift?.length && style.verbose) out.push('', ...renderChanges(`[${r.id}] drift from the contract`, r.drift));
  }
  const { error, warning, notice } = result.counts;
  out.push('', `${error} error${error === 1 ? '' : 's'}, ${warning} warning${warning === 1 ? '' : 's'}, ${notice} notice${notice === 1 ? '' : 's'}`);
  return out.join('\n') + '\n';
}
