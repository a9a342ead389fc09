/**
 * The one locator: where a finding goes in the files people edit (docs/design.md §1, Finding),
 * for `check`, `update`, `audit` and `diff` alike. A target (tool, pointer below it, which file)
 * becomes a file, a line and a JSON pointer: the tool's entry in a contract, the line where a
 * missing entry would go, the source's own file (a recording, an integration config), or the
 * source's entry in toolgate.yml when there is no contract yet.
 * @module
 */
import type { Policy } from '../config/policy-model.js';
import type { LoadedContract } from '../contract/store.js';
import type { Target } from '../rules/context.js';
import type { Locate } from '../rules/evaluate.js';
import type { RawSnapshot, SourceLocation } from '../sources/types.js';
import type { Surface } from '../surface/model.js';
import { compareNames } from '../surface/normalize.js';
import { displayPath } from '../util/display-path.js';

/** Places a target in toolgate.yml: its `sub` pointer, else `fallbackPointer` (a source's entry). */
export function policyLocator(opts: { policy: Policy; root: string }, fallbackPointer: string): Locate {
  const file = opts.policy.file ? displayPath(opts.root, opts.policy.file) : undefined;
  return (t: Target) => {
    const pointer = t.sub ?? fallbackPointer;
    return file ? { location: { file, line: opts.policy.lineOf(pointer) }, pointer } : { pointer };
  };
}

/**
 * Places a target in contracts: the entry of its tool in the first contract that lists it, else
 * (`/tools`) the line where its entry is missing in the first, before the next tool in name
 * order. `toolgate diff` passes HEAD then BASE, so a removed tool is found in BASE.
 */
export function contractsLocator(contracts: readonly [LoadedContract, ...LoadedContract[]]): Locate {
  const [first] = contracts;
  return (t: Target) => {
    if (t.tool === undefined) return { location: { file: first.file, line: first.lineOf(t.sub ?? '') }, pointer: t.sub ?? '' };
    for (const c of contracts) {
      const idx = c.indexOf.get(t.tool);
      if (idx === undefined) continue;
      const pointer = `/tools/${idx}${t.sub ?? ''}`;
      return { location: { file: c.file, line: c.lineOf(pointer) }, pointer };
    }
    const next = firstAfter(first.surface.tools, t.tool);
    const line = next ? first.lineOf(`/tools/${first.indexOf.get(next.name)}`) : first.lineOf('/tools');
    return { location: { file: first.file, line }, pointer: '/tools' };
  };
}

/** What {@link sourceLocator} places findings of one source in. */
export interface SourceFiles {
  policy: Policy;
  root: string;
  /** JSON pointer of the source's entry in toolgate.yml. */
  sourcePointer: string;
  raw: RawSnapshot;
  /** The committed contract, when there is one. */
  loaded: LoadedContract | undefined;
  /** The live surface. */
  surface: Surface;
}

/** Places the findings of one source of a run: in toolgate.yml, its own file, or its contract. */
export function sourceLocator(f: SourceFiles): Locate {
  const { raw, loaded, surface, sourcePointer } = f;
  const policyLocate = policyLocator(f, sourcePointer);
  const inContract = loaded ? contractsLocator([loaded]) : undefined;
  const rawByName = new Map(raw.tools.map((t) => [(t.tool as { name?: unknown })?.name, t]));
  // Lookups per finding must not scan the tool list: thousands of tools, thousands of findings.
  const liveIndex = new Map<string, number>();
  surface.tools.forEach((t, i) => {
    if (!liveIndex.has(t.name)) liveIndex.set(t.name, i);
  });
  // Where the source itself says a tool is (a recording's or an integration config's line).
  const inSource = (loc: SourceLocation, sub = '') => ({
    location: { file: displayPath(f.root, loc.file), ...(loc.line ? { line: loc.line } : {}) },
    pointer: `${loc.pointer ?? ''}${sub}`,
  });
  return (t: Target) => {
    if (t.in === 'policy') return policyLocate(t);
    const listed = t.listingIndex !== undefined ? raw.tools[t.listingIndex]?.location : undefined;
    if (listed && !raw.live) return inSource(listed);
    const loc = t.tool !== undefined ? rawByName.get(t.tool)?.location : undefined;
    if (loc && t.in === 'integration') return inSource(loc);
    if (inContract) return inContract(t);
    // No contract yet, and the source is a file with lines (a recording): point into it.
    if (loc && !raw.live) return inSource(loc, t.sub);
    // No contract yet: point at the source entry in the policy that the contract would pin.
    const idx = t.tool !== undefined ? liveIndex.get(t.tool) : undefined;
    const pointer = idx !== undefined ? `/tools/${idx}${t.sub ?? ''}` : (t.sub ?? '');
    const pl = policyLocate({ sub: sourcePointer });
    return { ...(pl.location ? { location: pl.location } : {}), pointer };
  };
}

/** The first tool whose name sorts after `name` (tools are sorted by UTF-8 bytes): binary search. */
function firstAfter(tools: readonly { name: string }[], name: string): { name: string } | undefined {
  let lo = 0;
  let hi = tools.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareNames((tools[mid] as { name: string }).name, name) > 0) hi = mid;
    else lo = mid + 1;
  }
  return tools[lo];
}
