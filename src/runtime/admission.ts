/**
 * List-time admission (docs/design.md §11): which of the tools a server lists right now an agent may see
 * and call. A tool is admitted when it is pinned in the contract, its live definition equals the
 * pinned one (per-tool digest: any change of name, text, schema or hints is drift), its class is
 * one the runtime policy allows, and its name passes `runtime.deny` / `runtime.allow-tools`.
 * Pure.
 */
import { minimatch } from 'minimatch';
import type { RuntimePolicy } from '../config/policy-model.js';
import { denies } from '../rules/checks/policy.js';
import type { Surface, SurfaceTool } from '../surface/model.js';
import type { Json } from '../util/json.js';
import { normalizeTool } from '../surface/normalize.js';
import { getOwn, isObject } from '../util/json.js';
import { lessSafeFields } from '../surface/safety-fields.js';

/** Why a listed tool is, or is not, shown to the agent. */
export type AdmissionReason =
  | 'admitted'
  /** The contract does not pin a tool of this name. */
  | 'not-in-contract'
  /** Pinned, but the live definition differs from the pinned one. */
  | 'drifted'
  /** Another tool drifted and `runtime.on-drift` is `refuse-all`. */
  | 'refuse-all'
  /** Its pinned class is not in `runtime.allow` (or it is a disabled OpenAPI operation). */
  | 'class-not-allowed'
  /** Its name matches `runtime.deny`. */
  | 'denied'
  /** `runtime.allow-tools` is set and its name matches none of it. */
  | 'not-in-allow-tools'
  /** On the less safe side of a safety field `runtime.require-safer` names. */
  | 'less-safe'
  /** Listed twice: a client could not know which definition it calls. */
  | 'duplicate-name'
  /** Not a tool object with a string name. */
  | 'malformed';

/** The decision about one listed entry. */
export interface AdmissionDecision {
  /** The listed name (absent when the entry has none). */
  tool?: string;
  admitted: boolean;
  reason: AdmissionReason;
}

/** An admitted tool: what the agent is shown (exactly as the server listed it) and what was pinned. */
export interface AdmittedTool {
  listed: Json;
  pinned: SurfaceTool;
}

/** The result of {@link admit}. */
export interface Admission {
  /** Admitted tools by name, in listing order. */
  tools: Map<string, AdmittedTool>;
  /** One decision per listed entry, in listing order. */
  decisions: AdmissionDecision[];
}

/**
 * `runtime.allow-tools`: minimatch on the name as served, with `/` an ordinary character (tool
 * names are no paths: `a//b` and `x/../y` are names of their own, and an escaped name matches only
 * itself); an allowlist is never loosened by folding.
 */
const allowedBy = (name: string, patterns: readonly string[]) => {
  const plain = (n: string) => n.replaceAll('/', '\u2215');
  return patterns.some((p) => minimatch(plain(name), plain(p), { dot: true }));
};

/**
 * What the `runtime` block alone says of a pinned tool, whatever the server lists: its class must
 * be allowed (a disabled OpenAPI operation never is), its name must pass `deny` (as in
 * toolgate.yml, also as a person reads it: case, look-alikes, invisible characters) and, when set,
 * `allow-tools`, and it must be on the safer side of each of `require-safer`. Shared by the proxy and by `toolgate export`, so both admit the same set.
 * @returns the reason it is refused, or undefined when the runtime policy admits it.
 */
export function runtimeRefusal(pinned: SurfaceTool, runtime: RuntimePolicy): 'class-not-allowed' | 'denied' | 'not-in-allow-tools' | 'less-safe' | undefined {
  if (pinned.safetyClass === 'disabled' || !runtime.allow.includes(pinned.safetyClass)) return 'class-not-allowed';
  if (runtime.deny.some((p) => denies(p, pinned.name))) return 'denied';
  if (runtime.allowTools && !allowedBy(pinned.name, runtime.allowTools)) return 'not-in-allow-tools';
  // The pinned tool's value: the live one equals it, or the tool is drifted and hidden anyway.
  if (runtime.requireSafer && lessSafeFields(pinned, runtime.requireSafer).length > 0) return 'less-safe';
  return undefined;
}

/**
 * Decides, for every tool the server lists now, whether the agent sees it.
 * @param listed the `tools` of every `tools/list` page, concatenated, as served.
 */
export function admit(listed: readonly Json[], contract: Surface, runtime: RuntimePolicy): Admission {
  const pinnedByName = new Map<string, SurfaceTool>();
  const twice = new Set<string>();
  for (const t of contract.tools) {
    if (pinnedByName.has(t.name)) twice.add(t.name);
    pinnedByName.set(t.name, t);
  }
  const names = listed.map((t) => (isObject(t) ? getOwn(t, 'name') : undefined));
  const count = new Map<string, number>();
  for (const n of names) if (typeof n === 'string') count.set(n, (count.get(n) ?? 0) + 1);

  const decisions: AdmissionDecision[] = listed.map((entry, i): AdmissionDecision => {
    const name = names[i];
    if (typeof name !== 'string') return { admitted: false, reason: 'malformed' };
    const no = (reason: AdmissionReason): AdmissionDecision => ({ tool: name, admitted: false, reason });
    if ((count.get(name) ?? 0) > 1 || twice.has(name)) return no('duplicate-name');
    const pinned = pinnedByName.get(name);
    if (!pinned) return no('not-in-contract');
    const live = normalizeTool({ tool: entry }, i);
    if (!('digest' in live) || live.digest !== pinned.digest) return no('drifted');
    const refused = runtimeRefusal(pinned, runtime);
    if (refused) return no(refused);
    return { tool: name, admitted: true, reason: 'admitted' };
  });

  const drift = decisions.some((d) => d.reason === 'drifted');
  const tools = new Map<string, AdmittedTool>();
  decisions.forEach((d, i) => {
    if (!d.admitted || d.tool === undefined) return;
    if (drift && runtime.onDrift === 'refuse-all') {
      decisions[i] = { tool: d.tool, admitted: false, reason: 'refuse-all' };
      return;
    }
    tools.set(d.tool, { listed: listed[i] as Json, pinned: pinnedByName.get(d.tool) as SurfaceTool });
  });
  return { tools, decisions };
}
