/**
 * How a change to `overrides` moves rule levels, where the last matching entry decides a tool's
 * level (rules/levels.ts). Whether two patterns match a common tool name is not decided: any two
 * entries may, so the judgement is the one that fails closed. Each function is one pass over the
 * lists (a pull request's policy may hold thousands of entries). Pure.
 *
 * @module
 */
import type { JsonObject } from '../util/json.js';
import { LEVEL_ORDER, ruleLevel, type LevelSettings } from './rule-levels.js';

type Levels = Readonly<Record<string, string>>;

/** The levels an `overrides` entry sets, by rule id. */
export const levelsOf = (o: JsonObject | undefined): Levels =>
  o?.rules !== null && typeof o?.rules === 'object' && !Array.isArray(o.rules) ? (o.rules as Levels) : {};
const rank = (l: string | undefined): number => LEVEL_ORDER[l as keyof typeof LEVEL_ORDER] ?? LEVEL_ORDER.error;

/**
 * For each index in `picked` (entries of `list`), whether some level it sets stands out from
 * `floor(rule)` or a level an earlier entry of `list` sets for that rule: `above` for an entry
 * removed (it hid lower levels), `below` for one added (it overrules higher ones).
 */
function standsOut(list: readonly JsonObject[], picked: ReadonlySet<number>, floor: (rule: string) => number, dir: 'above' | 'below'): Map<number, boolean> {
  const out = new Map<number, boolean>();
  // The lowest (above) or highest (below) level each rule has had so far.
  const seen = new Map<string, number>();
  const bound = (rule: string) => {
    const s = seen.get(rule);
    const f = floor(rule);
    return s === undefined ? f : dir === 'above' ? Math.min(s, f) : Math.max(s, f);
  };
  list.forEach((entry, i) => {
    const levels = Object.entries(levelsOf(entry));
    if (picked.has(i))
      out.set(
        i,
        levels.some(([rule, l]) => (dir === 'above' ? rank(l) > bound(rule) : rank(l) < bound(rule))),
      );
    for (const [rule, l] of levels) {
      const s = seen.get(rule);
      if (s === undefined || (dir === 'above' ? rank(l) < s : rank(l) > s)) seen.set(rule, rank(l));
    }
  });
  return out;
}

/** Entries removed from the base list: relaxed when one set a level above what its tools get without it. */
export function removalsRelax(base: LevelSettings, list: readonly JsonObject[], removed: readonly number[]): Map<number, boolean> {
  return standsOut(list, new Set(removed), (rule) => rank(ruleLevel(base, rule)), 'above');
}

/** Entries added to the head list: relaxed when one set a level below the base's or head's `rules` level, or an earlier entry's. */
export function additionsRelax(base: LevelSettings, head: LevelSettings, list: readonly JsonObject[], added: readonly number[]): Map<number, boolean> {
  return standsOut(list, new Set(added), (rule) => Math.max(rank(ruleLevel(base, rule)), rank(ruleLevel(head, rule))), 'below');
}

/** Two entries on both sides whose order flipped for `rule`: `winner` now comes after `loser` (head indices). */
export interface Flip {
  rule: string;
  winner: number;
  loser: number;
  /** The winner's level is lower than the loser's. */
  relaxed: boolean;
}

/**
 * For each rule, one pair of entries kept on both sides whose order flipped and that set it to
 * different levels (where both match a tool, the one now last decides): a pair that lowers the
 * level when there is one, else one that raises it.
 * @param kept the entries on both sides, as [base index, head index], in base order.
 */
export function orderFlips(b: readonly JsonObject[], kept: readonly [number, number][]): Flip[] {
  const byRule = new Map<string, { hi: number; level: number }[]>();
  for (const [bi, hi] of kept) {
    for (const [rule, l] of Object.entries(levelsOf(b[bi]))) {
      const list = byRule.get(rule);
      if (list) list.push({ hi, level: rank(l) });
      else byRule.set(rule, [{ hi, level: rank(l) }]);
    }
  }
  const out: Flip[] = [];
  for (const [rule, entries] of byRule) {
    // For each level, the earlier entry (in base order) that comes last in the head.
    const last = new Map<number, { hi: number; level: number }>();
    let raised: Flip | undefined;
    let lowered: Flip | undefined;
    for (const y of entries) {
      for (const x of last.values()) {
        if (x.hi < y.hi || x.level === y.level) continue;
        const flip = { rule, winner: x.hi, loser: y.hi, relaxed: x.level < y.level };
        if (flip.relaxed) lowered ??= flip;
        else raised ??= flip;
      }
      if (lowered) break;
      const x = last.get(y.level);
      if (!x || y.hi > x.hi) last.set(y.level, y);
    }
    const flip = lowered ?? raised;
    if (flip) out.push(flip);
  }
  return out;
}
