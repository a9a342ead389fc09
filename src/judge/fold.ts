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
  const folded: FoldedFinding[] = [];
  // One slot per finding: null once folded, replaced when a cause absorbs something.
  const slots: (Finding | null)[] = [...findings];
  const byTool = new Map<string, number[]>();
  slots.forEach((f, i) => {
    if (f?.tool === undefined) return;
    const key = `${f.source}\0${f.tool}`;
    const list = byTool.get(key);
    if (list) list.push(i);
    else byTool.set(key, [i]);
  });
  /** Index of a kept finding of the same tool that `test` accepts and is at least as severe as `f`. */
  const causeOf = (f: Finding, test: (k: Finding) => boolean): number | undefined =>
    byTool.get(`${f.source}\0${f.tool}`)?.find((i) => {
      const k = slots[i];
      return k !== null && k !== undefined && k !== f && test(k) && atLeast(k, f);
    });
  const fold = (i: number, into: string, because: string) => {
    const f = slots[i] as Finding;
    folded.push({ ...f, foldedInto: into, because });
    slots[i] = null;
  };

  // Lowered claims into the class change of the same tool.
  findings.forEach((f, i) => {
    if (!CLAIMS.has(f.ruleId) || f.tool === undefined) return;
    const c = causeOf(f, (k) => CLASS_CHANGES.has(k.ruleId));
    if (c === undefined) return;
    const cause = slots[c] as Finding;
    const claim = withoutReviewClause(f).replace(`tool "${f.tool}" `, '');
    slots[c] = { ...cause, message: `${withoutReviewClause(cause)}; it also ${claim.slice(0, 200)}${cause.reviewClause ?? ''}` };
    fold(i, cause.fingerprint, `part of the class change of tool "${f.tool}"`);
  });

  // Texts of arguments the schema change adds, into the schema-widened finding.
  findings.forEach((f, i) => {
    if (f.ruleId !== 'description-changed' || f.tool === undefined || slots[i] === null) return;
    const c = causeOf(f, (k) => k.ruleId === 'schema-widened');
    if (c === undefined) return;
    const widened = slots[c] as Finding;
    const deltas = (widened.data?.deltas as { path?: unknown; what?: unknown }[] | undefined) ?? [];
    // Only a property the schema change adds (`property "x" added …`), not an enum value added to one.
    const added = deltas.filter((d) => typeof d.path === 'string' && typeof d.what === 'string' && /^property ".*" added\b/s.test(d.what)).map((d) => `${String(d.path)}/`);
    if (added.length === 0) return;
    const texts = (f.data?.texts as TextEntry[] | undefined) ?? [];
    const arrived = (t: TextEntry) => t.field === 'inputSchema' && t.base === undefined && typeof t.pointer === 'string' && added.some((p) => (t.pointer as string).startsWith(p));
    const moved = texts.filter(arrived);
    if (moved.length === 0) return;
    slots[c] = { ...widened, data: { ...widened.data, texts: [...((widened.data?.texts as TextEntry[] | undefined) ?? []), ...moved] } };
    const left = texts.filter((t) => !arrived(t));
    if (left.length === 0) {
      fold(i, widened.fingerprint, 'the texts are those of arguments the schema change adds');
      return;
    }
    const { what: _w, ...top } = left[0] as TextEntry;
    const message = textsMessage(f.tool, left.map((t) => ({ what: String(t.what) }))) + (f.reviewClause ?? '');
    slots[i] = { ...f, message, data: { ...top, texts: left } };
  });

  const staleAt = slots.findIndex((k) => k?.ruleId === 'contract-stale');
  const stale = staleAt >= 0 ? (slots[staleAt] as Finding) : undefined;
  const contract = facts.contract;
  if (stale && contract) {
    const ownCounts = countTools(contract.tools);
    slots.forEach((f, i) => {
      if (f?.ruleId !== 'count-mismatch') return;
      const count = f.data?.count as keyof SurfaceCounts | undefined;
      if (count === undefined || contract.counts[count] !== ownCounts[count] || !atLeast(stale, f)) return;
      fold(i, stale.fingerprint, `the contract's ${count} is the count of the tools it pins: the per-tool drift explains it`);
    });
    const drifted = new Set<string>();
    let onlyTools = stale.data?.missing !== true && facts.drift.length > 0;
    for (const c of facts.drift) {
      if ('tool' in c) drifted.add(c.tool);
      else if (!EXPLAINED_WITHOUT_TOOL.has(c.kind)) onlyTools = false;
    }
    const covered = [...drifted].every((tool) => causeOf({ ...stale, tool }, () => true) !== undefined);
    const countsLeft = slots.some((k) => k?.ruleId === 'count-mismatch');
    if (onlyTools && drifted.size > 0 && covered && !countsLeft) {
      for (const f of folded) if (f.foldedInto === stale.fingerprint) f.foldedInto = 'verdict';
      fold(staleAt, 'verdict', 'every tool that differs from the contract has a finding of its own; the verdict says the contract is stale');
    }
  }
  return { findings: slots.filter((f): f is Finding => f !== null), folded };
}
