/**
 * One change, one entry (docs/design.md §4): the same change on several tools is one entry of a
 * report naming the tools, not one block per tool. A report layout only: the findings stay as
 * they are (the JSON report and SARIF list each one).
 *
 * Each finding is cut into the parts it reports ({@link partsOf}): a schema change into its
 * deltas and the texts of the arguments it adds, a text change into its texts, any other finding
 * whole. A part's key leaves the tool out, so equal keys are the same change (same rule, same
 * field, same before → after) on different tools. Parts whose key is on two or more tools go to
 * one entry per set of tools; each tool's own parts of a rule go to one entry of that rule with a
 * line per tool (one tool's alone: its own entry, with its class-stating parts); the parts that
 * state what a tool is stay in the tool's own entry ({@link groupEntries}).
 *
 * What is never grouped away: a new tool's description is its own (every tool of an entry of new
 * tools keeps its text line), and new tools and read → write flips group only with tools whose
 * class and hints are the same, which their entry then states.
 */
import { withoutReviewClause } from '../rules/evaluate.js';
import type { Finding, FindingLocation } from '../rules/types.js';
import type { SurfaceTool } from '../surface/model.js';
import { changedTextsOf, type ChangedText } from './text-diff.js';

/** How a part reads: a whole finding, a delta of a schema change, or one changed text. */
export type PartKind = 'whole' | 'new-tool' | 'widened' | 'narrowed' | 'text';

/** One change a finding reports, cut from it so that other tools can share it. */
export interface ChangePart {
  /** Equal keys: the same change, on whichever tool. */
  key: string;
  kind: PartKind;
  finding: Finding;
  /**
   * What it says without the tool: the message with `tool "x"` as `each tool` (whole), the
   * delta's `path: what`, or the text's "what changed" (`the description of argument "q"`).
   */
  says: string;
  /** A changed text (`text`), or a new tool's description (`new-tool`, kept per tool). */
  text?: ChangedText;
}

/** One entry of a report section: one tool, or the tools that share the same changes. */
export interface ReviewEntry {
  source: string;
  /** Its tools, in name order; empty for a finding about the source or the policy itself. */
  tools: string[];
  /** Lowest rank of its parts (riskiest first; see review.ts). */
  rank: number;
  /** "new destructive, open-world write tool", "accepts new inputs", … */
  headline: string;
  /** Class and hints (`write · readOnlyHint false, …`) when all its tools have the same. */
  hints?: string;
  /** Where its one tool is pinned (an entry of several tools points at each in its findings). */
  location?: FindingLocation;
  /**
   * Set on an entry of one rule whose tools each have a change of their own (not shared): its
   * parts are laid out per tool, each tool's with its class and contract line.
   */
  byTool?: boolean;
  /** With `byTool`: each tool's parts, by tool name, with its class and contract line. */
  own?: OwnChange[];
  /** With `byTool`: what each tool has of its own, "change" ("finding" in an audit, which compares nothing). */
  ownKind?: 'change' | 'finding';
  /** Its parts, riskiest rule first, in the order their findings came. */
  parts: ChangePart[];
  /** The findings it shows parts of, in that order. */
  findings: Finding[];
}

/** One tool's own change in an entry of several (`byTool`). */
export interface OwnChange {
  tool: string;
  /** `read`, `write`, `disabled`, when known. */
  safetyClass?: string;
  /** Where its finding points. */
  location?: FindingLocation;
  parts: ChangePart[];
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** `tool "x"` as the findings' messages name their tool. */
const named = (tool: string) => `tool "${tool}"`;

/** The message without its tool: `tool "x" now claims …` → `each tool now claims …`. */
export function withoutTool(message: string, tool: string | undefined): string {
  return tool === undefined ? message : message.split(named(tool)).join('each tool');
}

function key(f: Finding, kind: PartKind, says: string, text?: ChangedText): string {
  return JSON.stringify([
    f.source,
    f.ruleId,
    f.level,
    f.reviewClause ?? null,
    kind,
    says,
    text?.field ?? null,
    text?.pointer ?? null,
    text?.base ?? null,
    text?.head ?? null,
  ]);
}

function part(f: Finding, kind: PartKind, says: string, text?: ChangedText): ChangePart {
  return { key: key(f, kind, says, text), kind, finding: f, says, ...(text ? { text } : {}) };
}

/** The schema deltas a finding carries in `data[field]`, read defensively. */
function deltasOf(f: Finding, field: 'deltas' | 'narrowed'): { path: string; what: string }[] {
  const list = f.data?.[field];
  if (!Array.isArray(list)) return [];
  return list.flatMap((d: unknown) => {
    const o = d as Record<string, unknown> | null;
    const [path, what] = [str(o?.path), str(o?.what)];
    return path !== undefined && what !== undefined ? [{ path, what }] : [];
  });
}

/** What a text entry of `data.texts` says changed, without the tool. */
function textSays(f: Finding, i: number, t: ChangedText): string {
  const entries = Array.isArray(f.data?.texts) ? (f.data.texts as unknown[]) : [];
  const what = str((entries[i] as Record<string, unknown> | null)?.what);
  if (what !== undefined && f.tool !== undefined) return what.replace(` of ${named(f.tool)}`, '');
  return [t.field ?? 'text', t.pointer].filter((x) => x !== undefined).join(' ');
}

/**
 * The parts of one finding. A new tool is one `new-tool` part (its description rides along, not in
 * the key); `schema-widened` and `schema-narrowed` one part per delta and per text of an added
 * argument; `description-changed` one part per text; anything else, or a finding whose data does
 * not have that shape, one `whole` part.
 */
export function partsOf(f: Finding): ChangePart[] {
  const says = withoutTool(withoutReviewClause(f), f.tool);
  if (f.tool === undefined) {
    // The server's instructions: said whole, their text shown beside (added, changed or removed).
    const [text] = f.ruleId === 'instructions-changed' ? changedTextsOf(f) : [];
    return [{ ...part(f, 'whole', says), ...(text ? { text } : {}) }];
  }
  if (f.ruleId === 'tool-added' || f.ruleId === 'unlisted-tool') {
    const [text] = changedTextsOf(f);
    // Keyed by what it is (class and hints, in the message), not by its name; its text is its own.
    return [{ ...part(f, 'new-tool', withoutReviewClause(f).replace(` "${f.tool}"`, '')), ...(text ? { text } : {}) }];
  }
  const texts = f.ruleId === 'description-changed' || f.ruleId === 'schema-widened' ? changedTextsOf(f) : [];
  if (f.ruleId === 'schema-widened' || f.ruleId === 'schema-narrowed') {
    const [first, rest] = f.ruleId === 'schema-widened' ? (['widened', 'narrowed'] as const) : (['narrowed', 'widened'] as const);
    const deltas = [
      ...deltasOf(f, 'deltas').map((d) => part(f, first, `${d.path || '/'}: ${d.what}`)),
      ...deltasOf(f, 'narrowed').map((d) => part(f, rest, `${d.path || '/'}: ${d.what}`)),
    ];
    if (deltas.length === 0) return [part(f, 'whole', says)];
    return [...deltas, ...texts.map((t, i) => part(f, 'text', textSays(f, i, t), t))];
  }
  if (f.ruleId === 'description-changed' && texts.length > 0 && Array.isArray(f.data?.texts)) return texts.map((t, i) => part(f, 'text', textSays(f, i, t), t));
  return [part(f, 'whole', says)];
}

/** A finding's message without the review clause, when it is the one the verdict already says. */
function withoutClause(f: Finding, clause: string | undefined): string {
  return clause !== undefined && f.reviewClause === clause ? withoutReviewClause(f) : f.message;
}

/** Texts and schema deltas a rule's line names in an entry; the rest are counted. */
const MAX_TEXTS = 3;
const MAX_DELTAS = 3;

/** The parts of an entry in runs of one rule, in their order. */
export function runsOf(parts: readonly ChangePart[]): ChangePart[][] {
  const byRule = new Map<string, ChangePart[]>();
  for (const p of parts) {
    const run = byRule.get(p.finding.ruleId);
    if (run) run.push(p);
    else byRule.set(p.finding.ruleId, [p]);
  }
  return [...byRule.values()];
}

/** `a; b; c; and 2 more`. */
function listed(items: readonly string[], max: number): string {
  const more = items.length - max;
  return items.slice(0, max).join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/**
 * What one rule's parts in an entry of `tools` tools say, on the rule's line, raw (renderers
 * escape it): the schema deltas, what texts changed, or the message (the tool left out when
 * several share it), without the review clause the verdict says once.
 */
export function runMessage(run: readonly ChangePart[], tools: number, clause: string | undefined): string {
  const f = (run[0] as ChangePart).finding;
  const kinds = new Set(run.map((p) => p.kind));
  const extra = f.reviewClause !== undefined && f.reviewClause !== clause ? f.reviewClause : '';
  if (kinds.has('widened') || kinds.has('narrowed')) {
    const wider = run.filter((p) => p.kind === 'widened').map((p) => p.says);
    const less = run.filter((p) => p.kind === 'narrowed').map((p) => p.says);
    const lead = wider.length ? `accepts new inputs: ${listed(wider, MAX_DELTAS)}` : '';
    const tail = less.length ? `${lead ? '; it also ' : ''}accepts or declares less: ${listed(less, MAX_DELTAS)}` : '';
    return `${lead}${tail}${extra}`;
  }
  if (kinds.has('text')) {
    const texts = run.filter((p) => p.kind === 'text');
    const lead =
      texts.length === 1
        ? (texts[0] as ChangePart).says
        : `${texts.length} texts: ${listed(
            texts.map((p) => p.says),
            MAX_TEXTS,
          )}`;
    return `${lead}${extra}`;
  }
  if (kinds.has('new-tool')) return tools > 1 ? `${tools} new tools, each with its description:` : 'description of the new tool:';
  return tools > 1 ? `${run.map((p) => p.says).join('; ')}${extra}` : run.map((p) => withoutClause(p.finding, clause)).join('; ');
}

/** Facts of a tool the entries need: its class and hints, and what ranks a finding. */
export interface EntryFacts {
  /** The tool a finding is about (the live one, or the contract's when it is gone). */
  tool(f: Finding): SurfaceTool | undefined;
  /** `write · readOnlyHint false, …` of a tool. */
  hints(t: SurfaceTool): string;
  /** A part's rank, lower first. */
  rank(p: ChangePart, t: SurfaceTool | undefined): number;
  /** An entry's headline from its riskiest part, and how many tools it has. */
  headline(first: ChangePart, tool: SurfaceTool | undefined, tools: number): string;
  /** What a tool of a `byTool` entry has of its own: "change", or "finding" in an audit. */
  ownKind?: 'change' | 'finding';
}

/** Parts that say what a tool is (a new tool, a flip): they group only with tools of the same class and hints. */
/**
 * What makes two findings' fixes the same, for saying each once in a report: the rule and the
 * fix's words (a rule may have a fix per place, as suspicious-text does on a tool and on the
 * server's instructions).
 */
export const fixKey = (f: Finding): string => `${f.ruleId}\u0000${f.fix}`;

export const CLASS_RULES: ReadonlySet<string> = new Set(['tool-added', 'unlisted-tool', 'read-tool-became-write', 'read-promotion-unreviewed']);

/**
 * The entries of one report section, from its findings (in report order). Parts on two or more
 * tools of a source make one entry per set of tools; a tool's other parts of a rule join the
 * other tools' in one entry of that rule (`byTool`), or, alone, the tool's own entry; a finding
 * about no tool is in the source's entry. Pure; linear in the parts, apart from sorting.
 */
export function groupEntries(findings: readonly Finding[], facts: EntryFacts): ReviewEntry[] {
  const parts = findings.flatMap(partsOf);
  // A class-stating part is keyed with its tool's class and hints, so a group of them shares both.
  const keyOf = (p: ChangePart) => {
    const t = CLASS_RULES.has(p.finding.ruleId) ? facts.tool(p.finding) : undefined;
    return t ? `${p.key}\0${facts.hints(t)}` : p.key;
  };
  const toolsOf = new Map<string, Set<string>>();
  for (const p of parts) {
    if (p.finding.tool === undefined) continue;
    const k = keyOf(p);
    const set = toolsOf.get(k) ?? new Set<string>();
    set.add(p.finding.tool);
    toolsOf.set(k, set);
  }
  const entries = new Map<string, Building>();
  // The entry of each set of tools, made once per key (a key can be on 100,000 tools).
  const sharedAt = new Map<string, string>();
  for (const p of parts) {
    const tool = p.finding.tool;
    const k = tool !== undefined ? keyOf(p) : '';
    const shared = tool !== undefined ? toolsOf.get(k) : undefined;
    if (shared && shared.size > 1) {
      let at = sharedAt.get(k);
      if (at === undefined) sharedAt.set(k, (at = JSON.stringify([p.finding.source, [...shared].sort(cmp)])));
      add(entries, at, p, false);
    } else if (tool === undefined || CLASS_RULES.has(p.finding.ruleId))
      add(entries, JSON.stringify([p.finding.source, tool === undefined ? [] : [tool]]), p, false);
    // A change of its own: with the other tools' own changes of the rule, a line each.
    else add(entries, JSON.stringify([p.finding.source, p.finding.ruleId, p.finding.level]), p, true);
  }
  for (const [at, e] of entries) {
    if (!e.entry.byTool || e.tools.size > 1) continue;
    // One tool with a change of its own: in that tool's own entry.
    entries.delete(at);
    const [tool] = e.tools;
    const own = JSON.stringify([e.entry.source, [tool]]);
    const into = entries.get(own);
    if (into) for (const p of e.entry.parts) add(entries, own, p, false);
    else entries.set(own, { ...e, entry: { ...e.entry, byTool: false } });
  }
  const out = [...entries.values()].map((e) => ({ ...e.entry, tools: e.entry.tools.length ? e.entry.tools : [...e.tools].sort(cmp) }));
  for (const e of out) finish(e, facts);
  return out;
}

/** An entry while it is filled. */
interface Building {
  entry: ReviewEntry;
  findings: Set<Finding>;
  keys: Set<string>;
  /** The tools of an entry of changes of their own (the others name theirs when made). */
  tools: Set<string>;
}

/** Adds a part to the entry at `at`, making it when it is new. */
function add(entries: Map<string, Building>, at: string, p: ChangePart, byTool: boolean): void {
  let e = entries.get(at);
  if (!e) {
    const [, tools] = JSON.parse(at) as [string, unknown];
    e = {
      entry: {
        source: p.finding.source,
        tools: Array.isArray(tools) ? (tools as string[]) : [],
        rank: 0,
        headline: '',
        parts: [],
        findings: [],
        ...(byTool ? { byTool } : {}),
      },
      findings: new Set(),
      keys: new Set(),
      tools: new Set(),
    };
    entries.set(at, e);
  }
  if (p.finding.tool !== undefined) e.tools.add(p.finding.tool);
  if (!e.findings.has(p.finding)) {
    e.findings.add(p.finding);
    e.entry.findings.push(p.finding);
  }
  // A shared change is said once; a new tool's description, and each tool's own change, are its own.
  if (byTool || p.kind === 'new-tool' || !e.keys.has(p.key)) e.entry.parts.push(p);
  e.keys.add(p.key);
}

/** Rank, order of parts, headline, hints and location of a filled entry. */
function finish(e: ReviewEntry, facts: EntryFacts): void {
  const rankOf = (p: ChangePart) => facts.rank(p, facts.tool(p.finding));
  e.parts = e.parts
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rankOf(a.p) - rankOf(b.p) || a.i - b.i)
    .map((x) => x.p);
  e.rank = e.parts.reduce((r, p) => Math.min(r, rankOf(p)), Number.MAX_SAFE_INTEGER);
  const first = e.parts[0] as ChangePart;
  const tool = facts.tool(first.finding);
  const ownKind = facts.ownKind ?? 'change';
  e.headline = facts.headline(first, tool, e.tools.length) + (e.byTool ? ` (each tool its own ${ownKind})` : '');
  const hints = new Set(e.findings.map((f) => facts.tool(f)).map((t) => (t ? facts.hints(t) : '')));
  const [only] = hints;
  if (hints.size === 1 && only) e.hints = only;
  // An unlisted tool has no contract line of its own (its finding says where the entry is missing).
  const located = e.tools.length === 1 ? e.findings.find((f) => f.location && f.ruleId !== 'unlisted-tool') : undefined;
  if (located?.location) e.location = located.location;
  if (e.byTool) {
    e.own = ownChanges(e.parts, facts);
    e.ownKind = ownKind;
  }
}

/** The parts of an entry of changes of their own, per tool in name order. */
function ownChanges(parts: readonly ChangePart[], facts: EntryFacts): OwnChange[] {
  const byTool = new Map<string, OwnChange>();
  for (const p of parts) {
    const tool = p.finding.tool ?? '';
    let own = byTool.get(tool);
    if (!own) {
      const t = facts.tool(p.finding);
      own = { tool, ...(t ? { safetyClass: t.safetyClass } : {}), ...(p.finding.location ? { location: p.finding.location } : {}), parts: [] };
      byTool.set(tool, own);
    }
    own.parts.push(p);
  }
  return [...byTool.values()].sort((a, b) => cmp(a.tool, b.tool));
}

/** Code-unit order: the same on every machine (no locale). */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
