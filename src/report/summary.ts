import type { CheckResult, SourceResult } from '../run-check.js';
import type { Finding, Level } from '../rules/types.js';
import { auditFacts, COUNT_LABELS } from './audit.js';
import { escapeMarkdownCode, escapeMarkdownInline } from './escape.js';
import { describeChange } from './changes.js';
import { changedTextOf, renderWordDiffMarkdown, wordDiff } from './text-diff.js';

/** GitHub's job summary limit per step: 1 MiB (DESIGN §9). Leave room for the cut note. */
export const SUMMARY_MAX_BYTES = 1024 * 1024 - 1024;
const LIST_PREVIEW = 30;
const LEVEL_TITLE: Record<Level, string> = { error: 'Errors', warning: 'Warnings', notice: 'Notices' };

function nameList(names: string[]): string {
  if (names.length === 0) return 'none';
  // Escaped plain text, not code spans: backslash escapes would show literally inside code.
  const plain = names.slice(0, LIST_PREVIEW).map((n) => escapeMarkdownInline(n, 80));
  return plain.join(', ') + (names.length > LIST_PREVIEW ? `, and ${names.length - LIST_PREVIEW} more` : '');
}

function headline(result: CheckResult): string {
  const { error, warning, notice } = result.counts;
  const failed = result.sources.filter((s) => s.failure).length;
  if (failed) return `❌ ${failed} source${failed === 1 ? '' : 's'} failed · ${error} error${error === 1 ? '' : 's'}, ${warning} warning${warning === 1 ? '' : 's'}`;
  if (error) return `❌ ${error} error${error === 1 ? '' : 's'}, ${warning} warning${warning === 1 ? '' : 's'}, ${notice} notice${notice === 1 ? '' : 's'}`;
  if (warning) return `⚠️ no errors · ${warning} warning${warning === 1 ? '' : 's'}, ${notice} notice${notice === 1 ? '' : 's'}`;
  return notice ? `✅ no errors or warnings · ${notice} notice${notice === 1 ? '' : 's'}` : '✅ no findings';
}

function sourceSection(r: SourceResult): string {
  const out: string[] = [];
  const s = r.surface;
  const server = s?.server
    ? ` · server ${escapeMarkdownInline(s.server.name ?? '?', 80)} ${escapeMarkdownInline(s.server.version ?? '', 40)} · protocol ${escapeMarkdownInline(s.server.protocolVersion ?? '?', 40)}`
    : '';
  out.push(`### Source ${escapeMarkdownInline(r.id)} (${r.kind}${r.live ? '' : r.kind === 'recorded' ? ': not live' : ', not live'})${server}`, '');
  if (r.failure) {
    out.push(`**Failed:** ${escapeMarkdownInline(r.failure.message, 1000)}`, '');
    if (r.failure.stderrTail) out.push('<details><summary>stderr (last lines)</summary>', '', escapeMarkdownCode(r.failure.stderrTail, 4096), '', '</details>', '');
    return out.join('\n');
  }
  if (!s) return out.join('\n');
  const a = auditFacts(s);
  const cols = COUNT_LABELS.filter(([k]) => k !== 'disabledToolCount' || a.counts.disabledToolCount > 0);
  out.push(`| ${cols.map(([, l]) => l).join(' | ')} |`, `|${cols.map(() => '---:').join('|')}|`, `| ${cols.map(([k]) => a.counts[k]).join(' | ')} |`, '');
  out.push(`- Writes that declare themselves additive: ${nameList(a.additiveWrites)}`);
  out.push(`- Open-world tools: ${nameList(a.openWorld)}`);
  out.push(`- Unannotated tools: ${nameList(a.unannotated)}`);
  if (a.promotions.length) {
    out.push(`- **Read promotions** (non-GET/HEAD operations classed read by a policy): ${nameList(a.promotions.map((t) => `${t.name} (${t.origin?.method} ${t.origin?.path})`))}`);
  }
  if (a.malformed.length) out.push(`- **Malformed tools** (pinned as served; strict clients drop them, lenient ones offer them): ${nameList(a.malformed)}`);
  if (a.disabled.length) out.push(`- Disabled operations (pinned, not reachable): ${nameList(a.disabled.map((t) => t.name))}`);
  out.push(`- Payload: ${a.payloadBytes} bytes · contract: ${escapeMarkdownInline(r.contractFile)} · digest: \`sha256:${a.digest}\``, '');
  for (const [label, list] of [['Changes', r.changes], ['Drift from the contract', r.drift]] as const) {
    if (!list?.length) continue;
    out.push(`#### ${label} (${list.length})`, '');
    for (const c of list.slice(0, 200)) out.push(`- ${escapeMarkdownInline(describeChange(c), 300)}`);
    if (list.length > 200) out.push(`- … and ${list.length - 200} more (see the JSON report)`);
    out.push('');
  }
  return out.join('\n');
}

function findingRow(f: Finding): string {
  const where = f.location ? escapeMarkdownInline(`${f.location.file}${f.location.line ? `:${f.location.line}` : ''}`) : '';
  return `| \`${f.ruleId}\` | ${escapeMarkdownInline(f.source)} | ${f.tool !== undefined ? escapeMarkdownInline(f.tool, 80) : ''} | ${escapeMarkdownInline(f.message, 600)} | ${escapeMarkdownInline(f.fix, 400)} | ${where} |`;
}

/** At most this many items in "Changed text", and at most this many UTF-8 bytes of them. */
const CHANGED_TEXT_ITEMS = 50;
const CHANGED_TEXT_BYTES = 256 * 1024;

/**
 * "Changed text (old → new)": one list item per `description-changed` finding, with the tool,
 * what changed and the word diff of the old and new text. Bounded by {@link CHANGED_TEXT_ITEMS}
 * and {@link CHANGED_TEXT_BYTES} (the first item is always shown: one diff is at most ~100 KB),
 * then a line saying how many more there are.
 *
 * The diff uses the Markdown form without HTML (`[-~~old~~-]{+**new**+}`): the summary holds no
 * raw HTML built from server text, which test/hostile/reports.test.ts checks as "no raw `<`".
 */
function changedTextSection(findings: Finding[]): string[] {
  const list = findings.flatMap((f) => {
    const c = changedTextOf(f);
    return c ? [{ f, c }] : [];
  });
  if (list.length === 0) return [];
  const out = ['### Changed text (old → new)', ''];
  let bytes = 0;
  let shown = 0;
  for (const { f, c } of list) {
    if (shown === CHANGED_TEXT_ITEMS) break;
    const tool = f.tool !== undefined ? `${escapeMarkdownInline(f.tool, 80)} ` : '';
    const what = [c.field ?? 'text', c.pointer].filter((x) => x !== undefined).map((x) => escapeMarkdownInline(x, 200)).join(' ');
    const item = `- ${tool}(source ${escapeMarkdownInline(f.source, 80)}) · ${what}: ${renderWordDiffMarkdown(wordDiff(c.base, c.head), { html: false })}`;
    const size = Buffer.byteLength(item, 'utf8') + 1;
    if (shown > 0 && bytes + size > CHANGED_TEXT_BYTES) break;
    out.push(item);
    bytes += size;
    shown++;
  }
  if (shown < list.length) out.push(`- … and ${list.length - shown} more, see the JSON report`);
  out.push('');
  return out;
}

/**
 * The job summary / PR comment body in GitHub-flavoured Markdown: headline, the audit per source,
 * findings grouped by level, the changed text as word diffs, digests. Every server-provided string is escaped; the whole text is
 * cut below {@link SUMMARY_MAX_BYTES} with a visible note.
 */
export function renderSummary(result: CheckResult, title = 'toolgate'): string {
  const out: string[] = [`## ${escapeMarkdownInline(title)}: ${headline(result)}`, ''];
  for (const r of result.sources) out.push(sourceSection(r));
  for (const level of ['error', 'warning', 'notice'] as const) {
    const list = result.findings.filter((f) => f.level === level);
    if (list.length === 0) continue;
    out.push(`### ${LEVEL_TITLE[level]} (${list.length})`, '', '| Rule | Source | Tool | Message | Fix | Where |', '|---|---|---|---|---|---|');
    for (const f of list) out.push(findingRow(f));
    out.push('');
  }
  out.push(...changedTextSection(result.findings));
  return capBytes(out.join('\n'), SUMMARY_MAX_BYTES);
}

/** Cuts Markdown at a line boundary below `max` UTF-8 bytes and says so. */
export function capBytes(text: string, max: number): string {
  if (Buffer.byteLength(text, 'utf8') <= max) return text;
  const note = '\n\n_… summary cut to fit GitHub’s size limit; see the JSON report for every finding._\n';
  let cut = Buffer.from(text, 'utf8').subarray(0, max - Buffer.byteLength(note)).toString('utf8');
  cut = cut.slice(0, Math.max(0, cut.lastIndexOf('\n')));
  return cut + note;
}
