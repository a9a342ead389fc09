/**
 * The job summary, the PR comment, the check run's summary and `--format markdown`: the one
 * report shape (review.ts, docs/design.md §6) in GitHub-flavoured Markdown, bounded by construction.
 *
 * Every server-provided string goes through escape.ts; the only HTML is toolgate's own
 * `<details>`/`<summary>` and the word diff's `<del>`/`<ins>`, always balanced.
 */
import type { Change } from '../diff/change.js';
import type { CheckResult, SourceResult } from '../judge/result.js';
import type { Finding, Level } from '../rules/types.js';
import { auditFacts, authParts, COUNT_LABELS, grouped, namedServer, tokenDelta, TOKENS_CAVEAT } from './audit.js';
import { describeChange } from './changes.js';
import { escapeMarkdownCode, escapeMarkdownInline } from './escape.js';
import { fixKey, runMessage, runsOf, type ChangePart } from './grouping.js';
import { buildReview, type ReviewEntry } from './review.js';
import { focusDiff, FOCUS_CHARS, FOCUS_OVER, renderWordDiffMarkdown, reportDiffer, type ChangedText, type DiffSegment } from './text-diff.js';

/** GitHub's job summary limit per step: 1 MiB. Leave room for the cut note. */
export const SUMMARY_MAX_BYTES = 1024 * 1024 - 1024;
/**
 * The PR comment (65,536 characters), the check run's `output.summary` (65,535) and `--format
 * markdown`: UTF-8 bytes are never fewer than UTF-16 units, so a byte bound is a character bound;
 * 1,536 bytes are left for the sticky marker and the check run's "not annotated" note.
 */
export const COMMENT_MAX_BYTES = 65_536 - 1_536;

const LIST_PREVIEW = 30;
const LEVEL_ICON: Record<Level, string> = { error: '❌', warning: '⚠️', notice: 'ℹ️' };
const VERDICT_ICON: Record<string, string> = { pass: '✅', fail: '❌', error: '❌' };

/** Options of {@link renderSummary}. */
export interface SummaryOptions {
  /** Heading; default `toolgate`. */
  title?: string;
  /** Size bound in UTF-8 bytes; default {@link COMMENT_MAX_BYTES}. */
  maxBytes?: number;
  /** Every notice listed, not one line per rule. */
  verbose?: boolean;
}

/**
 * Lines appended in report order until the next would pass the bound; then the rest is counted,
 * open `<details>` are closed and a note says what was cut and where everything is.
 */
class Bounded {
  private readonly parts: string[] = [];
  private used = 0;
  private open = 0;
  private cutFindings = 0;
  private cut = false;
  private static readonly RESERVE = 600;

  constructor(private readonly max: number) {}

  /**
   * Adds a unit (one or more lines) covering `findings` findings; all or nothing. A function is
   * called only while the report is not cut (word diffs of what is cut are never computed).
   */
  add(unit: string | (() => string), findings = 0, html?: 'open' | 'close'): void {
    if (this.cut && html !== 'close') {
      this.cutFindings += findings;
      return;
    }
    if (this.cut) return;
    const text = typeof unit === 'string' ? unit : unit();
    const size = Buffer.byteLength(text, 'utf8') + 1;
    if (this.used + size + Bounded.RESERVE + this.open * 12 > this.max) {
      this.cut = true;
      this.cutFindings += findings;
      return;
    }
    this.parts.push(text);
    this.used += size;
    if (html === 'open') this.open++;
    if (html === 'close') this.open--;
  }

  text(): string {
    if (this.cut) {
      for (; this.open > 0; this.open--) this.parts.push('', '</details>');
      const what = this.cutFindings
        ? `${this.cutFindings} more finding${this.cutFindings === 1 ? '' : 's'} and the rest of the report`
        : 'the rest of the report';
      this.parts.push(
        '',
        `> [!WARNING]`,
        `> Cut to fit GitHub's size limit: ${what} are in the JSON report (\`toolgate check --format json\`; in the Action, the file at \`report-path\`).`,
      );
    }
    return this.parts.join('\n') + '\n';
  }
}

const md = (s: string, max = 200) => escapeMarkdownInline(s, max);
type Differ = (before: string | undefined, after: string | undefined) => DiffSegment[];

function nameList(names: string[]): string {
  if (names.length === 0) return 'none';
  const plain = names.slice(0, LIST_PREVIEW).map((n) => md(n, 80));
  return plain.join(', ') + (names.length > LIST_PREVIEW ? `, and ${names.length - LIST_PREVIEW} more` : '');
}

function sourceLine(r: SourceResult): string {
  const s = r.surface;
  const kind = `${r.kind}${r.live ? '' : r.kind === 'recorded' ? ': not live' : ', not live'}`;
  const sv = namedServer(s);
  const server = sv ? ` · server ${md(sv.name ?? '?', 80)} ${md(sv.version ?? '', 40)} · protocol ${md(sv.protocolVersion ?? '?', 40)}` : '';
  const sb = r.diagnostics?.sandbox;
  const sandbox = sb
    ? ` · sandbox: ${sb.sandboxed ? `bubblewrap, ${sb.network === 'open' ? "the host's network" : 'loopback only'}` : `none (${md(sb.reason, 200)})`}`
    : '';
  const tools = s ? ` · ${s.counts.toolCount} tool${s.counts.toolCount === 1 ? '' : 's'} · \`sha256:${s.digest.slice(0, 12)}\`` : '';
  const delta = r.tokens ? tokenDelta(r.tokens) : undefined;
  const tokens = r.tokens ? ` · ${grouped(r.tokens.perTurn)} tokens per turn${delta ? ` (${delta})` : ''}` : '';
  return `- Source **${md(r.id)}** (${kind})${server}${tools}${tokens}${sandbox}`;
}

/**
 * Whether the servers toolgate started ran sandboxed, as one line under the sources; a warning
 * block naming each server that did not and why (its code could read the machine's files and
 * reach its network), with the way to a sandbox. Undefined when no source started a command.
 */
export function sandboxLine(result: CheckResult): string | undefined {
  const started = result.sources.flatMap((r) => (r.diagnostics?.sandbox ? [{ id: r.id, sb: r.diagnostics.sandbox }] : []));
  if (started.length === 0) return undefined;
  const bare = started.flatMap((x) => (x.sb.sandboxed ? [] : [`**${md(x.id)}** (${md(x.sb.reason, 300)})`]));
  if (bare.length === 0) {
    const open = started.filter((x) => x.sb.sandboxed && x.sb.network === 'open').map((x) => md(x.id));
    const who = started.length === 1 ? 'The server' : `All ${started.length} servers`;
    return `🔒 **Sandbox:** ${who} ran in bubblewrap${open.length ? `, with the host's network: ${open.join(', ')}` : ', loopback only'}.`;
  }
  return [
    '> [!WARNING]',
    `> **Servers ran unsandboxed:** ${bare.join('; ')}. Their code could read this machine's files and reach its network. In a workflow, run \`uses: toolgate/toolgate/setup-sandbox@v0\` before toolgate; set \`sandbox: required\` in toolgate.yml to fail instead of running unsandboxed.`,
  ].join('\n');
}

/** A text's label in a list item: `description`, `inputSchema /properties/q/description`. */
function textLabel(t: ChangedText): string {
  return [t.field ?? 'text', t.pointer]
    .filter((x) => x !== undefined)
    .map((x) => md(x, 200))
    .join(' ');
}

/**
 * The text-change item: its label and the word diff; a long text with the changed words first
 * ({@link focusDiff}: unchanged text around each change kept short; every change shown).
 */
export function textChangeItem(label: string, t: ChangedText, diff: Differ): string {
  return `  - ${label}: ${renderWordDiffMarkdown(focusDiff(diff(t.base, t.head), FOCUS_CHARS, FOCUS_OVER))}`;
}

/** Names a list folds in its `<details>` at most; the rest are counted (the JSON report has them). */
const MAX_FOLDED_NAMES = 1000;

/** A tool's name, escaped; quoted when it has a comma, a quote or a blank (it cannot pass for several). */
function toolName(n: string): string {
  return n === '' ? '(empty name)' : /[\s,"]/.test(n) ? `"${md(n, 120)}"` : md(n, 120);
}

/** Every name, the ones past {@link LIST_PREVIEW} folded in a `<details>` (at most {@link MAX_FOLDED_NAMES} of them). */
function toolList(names: readonly string[]): string {
  const shown = names.slice(0, LIST_PREVIEW).map(toolName);
  const more = names.slice(LIST_PREVIEW, LIST_PREVIEW + MAX_FOLDED_NAMES).map(toolName);
  if (more.length === 0) return shown.join(', ');
  const rest = names.length - LIST_PREVIEW - more.length;
  const counted = rest > 0 ? `, and ${rest} more (the JSON report names each)` : '';
  return `${shown.join(', ')}\n\n<details><summary>and ${names.length - LIST_PREVIEW} more</summary>\n\n${more.join(', ')}${counted}\n\n</details>`;
}

/** A piece of an entry that the size bound takes or cuts whole, and the findings it shows. */
interface Unit {
  text: () => string;
  findings: readonly Finding[];
}

/** The rule's list item of a run: level, rule, what its parts say, and the tool's contract line. */
function runHead(run: readonly ChangePart[], e: ReviewEntry, clause: string | undefined, tools = e.tools.length): string {
  const f = (run[0] as ChangePart).finding;
  const at = e.tools.length === 1 && f.location ? ` · ${md(`${f.location.file}${f.location.line ? `:${f.location.line}` : ''}`)}` : '';
  const says = run.every((p) => p.kind === 'new-tool') && tools > 1 ? `${tools} new tools, each with its description:` : runMessage(run, tools, clause);
  return `- ${LEVEL_ICON[f.level]} **\`${f.ruleId}\`** ${md(says, 600)}${at}`;
}

/**
 * One rule's parts of an entry: the rule's item with what changed and its texts, then the fix
 * once. A new tool's description (all new: whole) and a tool's own change are each a unit of
 * their own, under the tool's name, so that a size bound cuts between tools, not a whole entry.
 */
function runUnits(run: readonly ChangePart[], e: ReviewEntry, withFix: boolean, clause: string | undefined, diff: Differ): Unit[] {
  const f = (run[0] as ChangePart).finding;
  const units: Unit[] = [];
  if (e.own) {
    units.push({ text: () => `- ${LEVEL_ICON[f.level]} **\`${f.ruleId}\`** ${e.tools.length} tools, each its own ${e.ownKind ?? 'change'}:`, findings: [] });
    for (const o of e.own) {
      const facts = [o.safetyClass, o.location ? `contract ${md(`${o.location.file}${o.location.line ? `:${o.location.line}` : ''}`)}` : undefined];
      const texts = o.parts.filter((p) => p.text && p.kind === 'text');
      units.push({
        text: () =>
          [
            `  - **${toolName(o.tool)}** (${facts.filter(Boolean).join(', ')}): ${md(runMessage(o.parts, 1, clause), 600)}`,
            ...texts.map((p) => `  ${textChangeItem(textLabel(p.text as ChangedText), p.text as ChangedText, diff)}`),
          ].join('\n'),
        findings: [...new Set(o.parts.map((p) => p.finding))],
      });
    }
  } else if (run.every((p) => p.kind === 'new-tool') && e.tools.length > 1) {
    units.push({ text: () => runHead(run, e, clause), findings: [] });
    for (const p of run)
      units.push({
        text: () => `  - **${toolName(p.finding.tool ?? '')}**: ${renderWordDiffMarkdown(diff(p.text?.base, p.text?.head))}`,
        findings: [p.finding],
      });
  } else {
    const texts = run.filter((p) => p.text && (p.kind === 'text' || p.kind === 'new-tool' || p.kind === 'whole'));
    const line = (p: ChangePart) =>
      p.kind === 'new-tool'
        ? `  - description: ${renderWordDiffMarkdown(diff(p.text?.base, p.text?.head))}`
        : textChangeItem(textLabel(p.text as ChangedText), p.text as ChangedText, diff);
    units.push({ text: () => [runHead(run, e, clause), ...texts.map(line)].join('\n'), findings: [...new Set(run.map((p) => p.finding))] });
  }
  if (withFix) units.push({ text: () => `  - fix: ${md(f.fix, 400)}`, findings: [] });
  return units;
}

function entryHeading(e: ReviewEntry, level: string): string {
  // Escaped text, not a code span: inside one, Markdown escapes and entities show literally.
  const one = e.tools[0];
  const who = e.tools.length > 1 ? `${e.tools.length} tools · ` : one !== undefined ? `${toolName(one)} · ` : '';
  return `${level} ${who}${md(e.headline)} (source ${md(e.source, 80)})`;
}

/**
 * One entry: heading, the tools of a shared change, class and hints, contract line (one unit),
 * then the units of each rule's parts ({@link runUnits}); a blank line ends it.
 */
function entryUnits(e: ReviewEntry, level: string, fixOnce: (f: Finding) => boolean, clause: string | undefined, diff: Differ): Unit[] {
  const facts = [
    e.hints ? md(e.hints, 300) : undefined,
    e.location ? `contract ${md(`${e.location.file}${e.location.line ? `:${e.location.line}` : ''}`)}` : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
  const named = e.tools.length > 1 && !e.own && !e.parts.every((p) => p.kind === 'new-tool') ? [`Tools: ${toolList(e.tools)}`, ''] : [];
  const head: Unit = { text: () => [entryHeading(e, level), '', ...named, ...(facts ? [facts, ''] : [])].join('\n'), findings: [] };
  const runs = (e.own ? [e.parts] : runsOf(e.parts)).flatMap((run) => runUnits(run, e, fixOnce((run[0] as ChangePart).finding), clause, diff));
  return [head, ...runs, { text: () => '', findings: [] }];
}

function auditSection(r: SourceResult): string {
  const s = r.surface;
  if (r.failure) {
    const out = [`**${md(r.id)} failed:** ${md(r.failure.message, 1000)}`];
    if (r.failure.stderrTail)
      out.push('', '<details><summary>stderr (last lines)</summary>', '', escapeMarkdownCode(r.failure.stderrTail, 4096), '', '</details>');
    return out.join('\n');
  }
  if (!s) return '';
  const a = auditFacts(s);
  const cols = COUNT_LABELS.filter(([k]) => k !== 'disabledToolCount' || a.counts.disabledToolCount > 0);
  const out = [
    `**Source ${md(r.id)}**`,
    '',
    `| ${cols.map(([, l]) => l).join(' | ')} |`,
    `|${cols.map(() => '---:').join('|')}|`,
    `| ${cols.map(([k]) => a.counts[k]).join(' | ')} |`,
    '',
  ];
  out.push(`- Writes that declare themselves additive: ${nameList(a.additiveWrites)}`);
  out.push(`- Open-world tools: ${nameList(a.openWorld)}`);
  out.push(`- Unannotated tools: ${nameList(a.unannotated)}`);
  if (a.promotions.length)
    out.push(
      `- **Read promotions** (non-GET/HEAD operations classed read by a policy): ${nameList(a.promotions.map((t) => `${t.name} (${t.origin?.method} ${t.origin?.path})`))}`,
    );
  if (a.malformed.length) out.push(`- **Malformed tools** (pinned as served; strict clients drop them, lenient ones offer them): ${nameList(a.malformed)}`);
  if (a.disabled.length) out.push(`- Disabled operations (pinned, not reachable): ${nameList(a.disabled.map((t) => t.name))}`);
  for (const f of r.safety ?? [])
    out.push(`- Safety field ${md(f.name, 80)} (${md(f.pointer, 200)}, safer: ${md(JSON.stringify(f.safer), 80)}): less safe: ${nameList(f.lessSafe)}`);
  if (s.protectedResource) out.push(`- Who authorizes (RFC 9728 metadata): ${authParts(s.protectedResource, (x) => md(x, 200)).join(' · ')}`);
  if (r.tokens) {
    const delta = tokenDelta(r.tokens);
    const top = r.tokens.top?.length ? ` · most expensive: ${r.tokens.top.map((t) => `${md(t.name, 120)} (${grouped(t.tokens)})`).join(', ')}` : '';
    out.push(`- Tokens per turn: **${grouped(r.tokens.perTurn)}**${delta ? ` (${delta} from the base)` : ''} (${TOKENS_CAVEAT})${top}`);
  }
  out.push(`- Payload: ${a.payloadBytes} bytes · contract: ${md(r.contractFile)} · digest: \`sha256:${a.digest}\``);
  return out.join('\n');
}

function changeList(label: string, list: readonly Change[]): string {
  return [`<details><summary>${label} (${list.length})</summary>`, '', ...list.map((c) => `- ${md(describeChange(c), 300)}`), '', '</details>'].join('\n');
}

/**
 * The Markdown report: verdict → sources → needs your attention (by tool, riskiest first) →
 * everything else by tool (folded) → notices, one line per rule (folded) → audit and digest
 * (folded) → every change (folded). Cut from the bottom below `maxBytes` with a note (see {@link Bounded}).
 */
export function renderSummary(result: CheckResult, opts: SummaryOptions = {}): string {
  const review = buildReview(result, { verbose: opts.verbose === true });
  // A finding is counted once, at the first unit that shows a part of it (what a cut leaves out).
  const counted = new Set<Finding>();
  const newFindings = (findings: readonly Finding[]) => findings.filter((f) => !counted.has(f) && counted.add(f) !== undefined).length;
  const out = new Bounded(opts.maxBytes ?? COMMENT_MAX_BYTES);
  const diff = reportDiffer();
  // Each fix once (a rule may have one per place, as suspicious-text does): the same words under every entry bury the entries.
  const fixed = new Set<string>();
  const fixOnce = (f: Finding) => !!f.fix && !fixed.has(fixKey(f)) && fixed.add(fixKey(f)) !== undefined;
  out.add(`## ${md(opts.title ?? 'toolgate')}: ${VERDICT_ICON[review.verdict.outcome]} ${md(review.verdict.text, 1000)}\n`);
  out.add(result.sources.map(sourceLine).join('\n') + '\n');
  const sandbox = sandboxLine(result);
  if (sandbox) out.add(`${sandbox}\n`);
  if (review.attention.length) {
    out.add(`### Needs your attention (${review.attention.length})\n`);
    for (const e of review.attention) for (const u of entryUnits(e, '####', fixOnce, review.clause, diff)) out.add(u.text, newFindings(u.findings));
  }
  if (review.rest.length) {
    const n = new Set(review.rest.flatMap((e) => e.findings)).size;
    out.add(`<details><summary>Everything else: ${n} finding${n === 1 ? '' : 's'}, by tool</summary>\n`, 0, 'open');
    // A warning says what to do too; a notice, for information, does not.
    const warningFix = (f: Finding) => f.level === 'warning' && fixOnce(f);
    for (const e of review.rest) for (const u of entryUnits(e, '#####', warningFix, review.clause, diff)) out.add(u.text, newFindings(u.findings));
    out.add('</details>\n', 0, 'close');
  }
  if (review.notices.length) {
    const n = review.notices.reduce((k, x) => k + x.count, 0);
    out.add(`<details><summary>Notices: ${n}, one line per rule</summary>\n`, 0, 'open');
    for (const x of review.notices)
      out.add(
        `- ℹ️ \`${x.ruleId}\`: ${x.count} ${x.tools.length ? `tool${x.count === 1 ? '' : 's'}: ${nameList(x.tools)}` : `finding${x.count === 1 ? '' : 's'}`}`,
        x.count,
      );
    out.add('\n</details>\n', 0, 'close');
  }
  if (review.foldedCount)
    out.add(
      `_${review.foldedCount} finding${review.foldedCount === 1 ? '' : 's'} that only restated another ${review.foldedCount === 1 ? 'is' : 'are'} folded into ${review.foldedCount === 1 ? 'it' : 'them'} (listed in the JSON report)._\n`,
    );
  out.add('<details><summary>Audit and digest</summary>\n', 0, 'open');
  for (const r of result.sources) out.add(auditSection(r) + '\n');
  out.add('</details>\n', 0, 'close');
  // Last: every change one line; long lists are what a size limit cuts first.
  for (const r of result.sources) {
    if (r.changes?.length) out.add(changeList(`Changes of ${md(r.id)}`, r.changes) + '\n');
    if (r.drift?.length) out.add(changeList(`Drift of ${md(r.id)} from the contract`, r.drift) + '\n');
  }
  return out.text();
}
