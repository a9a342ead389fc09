/**
 * One change, one finding (docs/design.md §6): findings that only restate another are folded into their
 * cause. Folding never lowers the verdict: a finding is folded only into one at least as severe,
 * so the exit code is what it would be without folding.
 *
 * - `count-mismatch` restates the per-tool drift when the counts the contract pins are the counts
 *   of the tools it pins (what `toolgate update` writes): folded into `contract-stale`. A count
 *   that matches none of the contract's own tools (a hand edit) stays.
 * - `contract-stale` restates the per-tool findings when every tool that drifted has a finding of
 *   at least its level and nothing but tools, their counts and the server's name/version drifted:
 *   folded into the verdict line, which still says the contract is stale.
 * - The text of an argument that the same change adds (its description, title, default…) is part
 *   of `schema-widened`, which says the argument was added: those texts move into its
 *   `data.texts`, and a `description-changed` left with none is folded into it.
 * - A lowered claim (`risk-claim-lowered`, `annotation-dropped`, `annotation-now-implicit`) on a
 *   tool that also changed class (`read-tool-became-write`, `read-promotion-unreviewed`) is part
 *   of that class change: folded into it, its message appended.
 */
import type { Change } from '../diff/change.js';
import { ruleById } from '../rules/catalog.js';
import { LEVEL_RANK, withoutReviewClause } from '../rules/evaluate.js';
import { textsMessage } from '../rules/checks/text.js';
import type { Finding } from '../rules/types.js';
import { countTools } from '../surface/normalize.js';
import type { Surface, SurfaceCounts } from '../surface/model.js';
import type { FoldedFinding } from './result.js';

/** What folding looks at besides the findings. */
export interface FoldFacts {
  contract?: Surface;
  drift: readonly Change[];
}

const CLAIMS = new Set(['risk-claim-lowered', 'annotation-dropped', 'annotation-now-implicit']);
const CLASS_CHANGES = new Set(['read-tool-became-write', 'read-promotion-unreviewed']);
/** Drift that per-tool findings explain: a server upgrade changes its version and its counts. */
const EXPLAINED_WITHOUT_TOOL = new Set<Change['kind']>(['count-changed', 'server-changed']);

/** One entry of a `description-changed` finding's `data.texts` (rules/checks/text.ts). */
type TextEntry = { field?: string; pointer?: string; base?: string; head?: string; what?: string };

/**
 * Whether `folded` may be folded into `cause`: the cause is at least as severe, and an approval
 * that clears the cause clears the folded one too (a reviewable cause never absorbs a finding no
 * review can clear: after the approval that one would fail alone).
 */
const atLeast = (cause: Finding, folded: Finding) =>
  LEVEL_RANK[cause.level] <= LEVEL_RANK[folded.level] && (ruleById(folded.ruleId)?.reviewable === true || ruleById(cause.ruleId)?.reviewable !== true);

/**
 * Folds restatements among one source's findings. Pure: returns the findings kept (in their
 * order, a cause's message or texts extended where it absorbed one) and those folded. Linear in
 * the findings: causes are looked up by tool, never by scanning (100,000 changed tools).
 */
export function foldRestatements(findings: readonly Finding[], facts: FoldFacts): { findings: Finding[]; folded: FoldedFinding[] } {
  const state = foldState(findings);
  foldClaims(state, findings);
  foldAddedTexts(state, findings);
  foldStale(state, facts);
  return { findings: state.slots.filter((f): f is Finding => f !== null), folded: state.folded };
}

/** The findings as folding goes. */
interface FoldState {
  /** One slot per finding: null once folded, replaced when a cause absorbs something. */
  slots: (Finding | null)[];
  /** The findings folded so far. */
  folded: FoldedFinding[];
  /** Indexes of the findings of each tool (`source\0tool`). */
  byTool: Map<string, number[]>;
}

function foldState(findings: readonly Finding[]): FoldState {
  const slots: (Finding | null)[] = [...findings];
  const byTool = new Map<string, number[]>();
  slots.forEach((f, i) => {
    if (f?.tool === undefined) return;
    const key = `${f.source}\0${f.tool}`;
    const list = byTool.get(key);
    if (list) list.push(i);
    else byTool.set(key, [i]);
  });
  return { slots, folded: [], byTool };
}

/** Index of a kept finding of the same tool that `test` accepts and is at least as severe as `f`. */
function causeOf(state: FoldState, f: Finding, test: (k: Finding) => boolean): number | undefined {
  return state.byTool.get(`${f.source}\0${f.tool}`)?.find((i) => {
    const k = state.slots[i];
    return k !== null && k !== undefined && k !== f && test(k) && atLeast(k, f);
  });
}

/** Folds the finding in slot `i` into the one whose fingerprint is `into` (or the verdict). */
function fold(state: FoldState, i: number, into: string, because: string): void {
  const f = state.slots[i] as Finding;
  state.folded.push({ ...f, foldedInto: into, because });
  state.slots[i] = null;
}

/** Lowered claims into the class change of the same tool, whose message says what it lowered. */
function foldClaims(state: FoldState, findings: readonly Finding[]): void {
  findings.forEach((f, i) => {
    if (!CLAIMS.has(f.ruleId) || f.tool === undefined) return;
    const c = causeOf(state, f, (k) => CLASS_CHANGES.has(k.ruleId));
    if (c === undefined) return;
    const cause = state.slots[c] as Finding;
    const claim = withoutReviewClause(f).replace(`tool "${f.tool}" `, '');
    state.slots[c] = { ...cause, message: `${withoutReviewClause(cause)}; it also ${claim.slice(0, 200)}${cause.reviewClause ?? ''}` };
    fold(state, i, cause.fingerprint, `part of the class change of tool "${f.tool}"`);
  });
}

/**
 * Texts of arguments the schema change adds, into the schema-widened finding: a
 * `description-changed` left with no text is folded, one left with some keeps only those.
 */
function foldAddedTexts(state: FoldState, findings: readonly Finding[]): void {
  const { slots } = state;
  findings.forEach((f, i) => {
    if (f.ruleId !== 'description-changed' || f.tool === undefined || slots[i] === null) return;
    const c = causeOf(state, f, (k) => k.ruleId === 'schema-widened');
    if (c === undefined) return;
    const widened = slots[c] as Finding;
    const added = addedPropertyPaths(widened);
    if (added.length === 0) return;
    const texts = (f.data?.texts as TextEntry[] | undefined) ?? [];
    const arrived = (t: TextEntry) =>
      t.field === 'inputSchema' && t.base === undefined && typeof t.pointer === 'string' && added.some((p) => (t.pointer as string).startsWith(p));
    const moved = texts.filter(arrived);
    if (moved.length === 0) return;
    slots[c] = { ...widened, data: { ...widened.data, texts: [...((widened.data?.texts as TextEntry[] | undefined) ?? []), ...moved] } };
    const left = texts.filter((t) => !arrived(t));
    if (left.length === 0) {
      fold(state, i, widened.fingerprint, 'the texts are those of arguments the schema change adds');
      return;
    }
    const { what: _w, ...top } = left[0] as TextEntry;
    const message =
      textsMessage(
        f.tool,
        left.map((t) => ({ what: String(t.what) })),
      ) + (f.reviewClause ?? '');
    slots[i] = { ...f, message, data: { ...top, texts: left } };
  });
}

/** The schema paths (each ending in `/`) of the properties a `schema-widened` finding's change adds. */
function addedPropertyPaths(widened: Finding): string[] {
  const deltas = (widened.data?.deltas as { path?: unknown; what?: unknown }[] | undefined) ?? [];
  // Only a property the schema change adds (`property "x" added …`), not an enum value added to one.
  return deltas
    .filter((d) => typeof d.path === 'string' && typeof d.what === 'string' && /^property ".*" added\b/s.test(d.what))
    .map((d) => `${String(d.path)}/`);
}

/**
 * `count-mismatch` findings the per-tool drift explains into `contract-stale`; then
 * `contract-stale` into the verdict when the per-tool findings explain all the drift.
 */
function foldStale(state: FoldState, facts: FoldFacts): void {
  const { slots } = state;
  const staleAt = slots.findIndex((k) => k?.ruleId === 'contract-stale');
  const stale = staleAt >= 0 ? (slots[staleAt] as Finding) : undefined;
  const contract = facts.contract;
  if (!stale || !contract) return;
  const ownCounts = countTools(contract.tools);
  slots.forEach((f, i) => {
    if (f?.ruleId !== 'count-mismatch') return;
    const count = f.data?.count as keyof SurfaceCounts | undefined;
    if (count === undefined || contract.counts[count] !== ownCounts[count] || !atLeast(stale, f)) return;
    fold(state, i, stale.fingerprint, `the contract's ${count} is the count of the tools it pins: the per-tool drift explains it`);
  });
  const drifted = new Set<string>();
  let onlyTools = stale.data?.missing !== true && facts.drift.length > 0;
  for (const c of facts.drift) {
    if ('tool' in c) drifted.add(c.tool);
    else if (!EXPLAINED_WITHOUT_TOOL.has(c.kind)) onlyTools = false;
  }
  const covered = [...drifted].every((tool) => causeOf(state, { ...stale, tool }, () => true) !== undefined);
  const countsLeft = slots.some((k) => k?.ruleId === 'count-mismatch');
  if (onlyTools && drifted.size > 0 && covered && !countsLeft) {
    for (const f of state.folded) if (f.foldedInto === stale.fingerprint) f.foldedInto = 'verdict';
    fold(state, staleAt, 'verdict', 'every tool that differs from the contract has a finding of its own; the verdict says the contract is stale');
  }
}
