import { HINT_NAMES, type SurfaceTool } from '../../surface/model.js';
import type { Check, RawFinding } from '../context.js';

/**
 * How a reviewer should read a new tool, from its class and effective hints (MCP spec defaults
 * applied): `destructive, open-world write tool`, `read-only, closed-world tool`,
 * `operation POST /orders promoted to read by a policy`. Destructive and idempotent only mean
 * something for a tool that is not read-only (spec), so a read tool is never called destructive.
 */
export function describeReach(t: SurfaceTool): string {
  if (t.origin) {
    const op = `operation ${t.origin.method} ${t.origin.path}`;
    return t.origin.promoted ? `${op} promoted to read by a policy` : `read ${op}`;
  }
  const e = t.effectiveHints;
  if (e.readOnlyHint) return `read-only, ${e.openWorldHint ? 'open-world' : 'closed-world'} tool`;
  const traits = [e.destructiveHint ? 'destructive' : 'additive', ...(e.idempotentHint ? ['idempotent'] : []), e.openWorldHint ? 'open-world' : 'closed-world'];
  return `${traits.join(', ')} write tool`;
}

/**
 * `readOnlyHint false (default), destructiveHint true (default), …`: what a client applies. On a
 * read-only tool destructiveHint and idempotentHint mean nothing (spec) and are left out.
 */
export function describeHints(t: SurfaceTool): string {
  const ro = t.effectiveHints.readOnlyHint;
  return HINT_NAMES.filter((h) => !(ro && (h === 'destructiveHint' || h === 'idempotentHint')))
    .map((h) => `${h} ${String(t.effectiveHints[h])}${t.declaredHints[h] === undefined ? ' (default)' : ''}`)
    .join(', ');
}

/**
 * `tool-added` (docs/design.md §7, widening): a reachable tool that the base of the change review lacks.
 * A tool the committed contract does not list is `unlisted-tool` instead (the contract must name
 * it before it can be reviewed), so one new tool gives one finding. Disabled OpenAPI operations
 * are not reachable; promoting one later is a read promotion.
 */
export const toolAdditions: Check = (ctx) => {
  if (!ctx.base) return [];
  const listed = new Set(ctx.contract?.tools.map((t) => t.name));
  const out: RawFinding[] = [];
  for (const c of ctx.changes) {
    // A disabled OpenAPI operation that is reachable now without a `policies` promotion (its verb
    // became GET or HEAD) is as new to the agent as an added tool; a promotion is judged as one.
    const enabled = c.kind === 'class-changed' && c.base === 'disabled' && c.head !== 'disabled' && !c.headTool.origin?.promoted;
    if (!enabled && (c.kind !== 'tool-added' || c.head.safetyClass === 'disabled')) continue;
    if (!listed.has(c.tool)) continue;
    const t = c.kind === 'tool-added' ? c.head : c.kind === 'class-changed' ? c.headTool : undefined;
    if (!t) continue;
    out.push({
      ruleId: 'tool-added',
      target: t.origin ? { tool: t.name, in: 'integration' } : { tool: t.name },
      message: enabled
        ? `tool "${t.name}" is reachable now: ${describeReach(t)} (it was a disabled operation)`
        : t.origin
          ? `new tool "${t.name}": ${describeReach(t)}`
          : `new ${describeReach(t)} "${t.name}" (${describeHints(t)})`,
      data: {
        safetyClass: t.safetyClass,
        effectiveHints: t.effectiveHints,
        declaredHints: t.declaredHints,
        ...(t.origin ? { origin: t.origin } : {}),
        // What the model will be told about it: reports show it whole (text-diff `changedTextsOf`).
        ...(t.description !== undefined ? { description: t.description } : {}),
      },
    });
  }
  return out;
};
