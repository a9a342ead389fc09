import { HINT_DEFAULTS, HINT_NAMES, type HintName, type SurfaceTool } from '../../surface/model.js';
import { isUnannotated } from '../../surface/normalize.js';
import type { Check, RawFinding } from '../context.js';

/** The value of each hint on its less risky side (MCP spec: hints are claims about risk). */
const SAFER: Record<HintName, boolean> = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * Hint changes between base and head: `annotation-dropped`, `annotation-now-implicit`,
 * `risk-claim-lowered`. readOnlyHint false→true is judged by `read-promotion-unreviewed`
 * instead, so one change yields one finding. idempotentHint false→true is a lowered claim too
 * (docs/design.md §2, §7): a client may retry an idempotent call without asking.
 */
export const hintChanges: Check = (ctx) => {
  const out: RawFinding[] = [];
  const headByName = new Map(ctx.head.tools.map((t) => [t.name, t]));
  for (const c of ctx.changes) {
    if (c.kind !== 'hint-changed') continue;
    const sub = `/annotations/${c.hint}`;
    const headTool = headByName.get(c.tool);
    // destructive/idempotent only mean something for a tool that is not read-only (spec).
    const meaningful = c.hint === 'readOnlyHint' || c.hint === 'openWorldHint' || !headTool?.effectiveHints.readOnlyHint;
    // A value that is not a boolean, newly sent or changed: spec clients ignore it, lenient ones
    // coerce it (pydantic reads "true" as true), so it may claim the safer side: fail closed.
    if (c.head.invalid !== undefined && meaningful) {
      out.push({
        ruleId: 'risk-claim-lowered',
        target: { tool: c.tool, sub },
        message: `tool "${c.tool}" now sends ${c.hint}: ${JSON.stringify(c.head.invalid).slice(0, 40)}, not a boolean; clients that coerce it may read a lower risk than the spec default`,
        data: { hint: c.hint, base: c.base.effective, head: c.head.effective, invalid: c.head.invalid },
      });
      continue;
    }
    if (c.base.declared !== undefined && c.head.declared === undefined) {
      // On a read-only tool destructive/idempotent carry no meaning (spec), so dropping them changes nothing.
      if (c.base.effective !== c.head.effective && meaningful) {
        out.push({
          ruleId: 'annotation-dropped',
          target: { tool: c.tool, sub },
          message: `tool "${c.tool}" no longer declares ${c.hint}: ${String(c.base.declared)}; the spec default makes it ${String(HINT_DEFAULTS[c.hint])}`,
          data: { hint: c.hint, base: c.base, head: c.head },
        });
        continue;
      }
      out.push({
        ruleId: 'annotation-now-implicit',
        target: { tool: c.tool, sub },
        message: `tool "${c.tool}" no longer declares ${c.hint}; ${meaningful ? `its effective value is still ${String(c.head.effective)}` : 'it carries no meaning on a read-only tool'}`,
        data: { hint: c.hint },
      });
      continue;
    }
    if (c.hint === 'readOnlyHint' || !meaningful) continue;
    if (c.base.effective !== c.head.effective && c.head.effective === SAFER[c.hint]) {
      out.push({
        ruleId: 'risk-claim-lowered',
        target: { tool: c.tool, sub },
        message: `tool "${c.tool}" now claims ${c.hint}: ${String(c.head.effective)} (${c.base.declared === undefined ? 'undeclared before: default' : 'was'} ${String(c.base.effective)})`,
        data: { hint: c.hint, base: c.base.effective, head: c.head.effective },
      });
    }
  }
  return out;
};

/**
 * A tool that was in the base and is now classed read without having been read there. A new tool
 * is `tool-added` (its message names the class), so one new read tool is one finding.
 */
function isPromotion(tool: SurfaceTool, before: SurfaceTool | undefined): boolean {
  if (tool.safetyClass !== 'read' || !before) return false;
  if (tool.origin) {
    // OpenAPI: GET/HEAD are read by their verb; only a policy promotion needs review.
    if (!tool.origin.promoted) return false;
    return !(before.safetyClass === 'read' && before.origin?.promoted);
  }
  return before.safetyClass !== 'read';
}

/** `read-promotion-unreviewed` and `read-tool-became-write`: class changes. */
export const classChanges: Check = (ctx) => {
  const out: RawFinding[] = [];
  const baseByName = new Map(ctx.base?.tools.map((t) => [t.name, t]));
  if (ctx.base) {
    for (const tool of ctx.head.tools) {
      const before = baseByName.get(tool.name);
      if (isPromotion(tool, before)) {
        out.push({
          ruleId: 'read-promotion-unreviewed',
          target: tool.origin ? { tool: tool.name, in: 'integration' } : { tool: tool.name, sub: '/safetyClass' },
          message: tool.origin
            ? `operation ${tool.origin.method} ${tool.origin.path} is promoted to read by a policy`
            : `tool "${tool.name}" is newly classed read (readOnlyHint was not true)`,
          data: { tool: tool.name, promoted: tool.origin?.promoted ?? false, new: false },
        });
      }
      if (before?.safetyClass === 'read' && !tool.effectiveHints.readOnlyHint && tool.safetyClass !== 'disabled') {
        out.push({
          ruleId: 'read-tool-became-write',
          target: { tool: tool.name, sub: '/safetyClass' },
          message: `tool "${tool.name}" was classed read and now claims it is not read-only`,
        });
      }
    }
  }
  return out;
};

/** `unannotated-tool`, `partially-annotated-tool`, `contradictory-annotations` on the live surface. */
export const annotationHygiene: Check = (ctx) => {
  const out: RawFinding[] = [];
  for (const t of ctx.head.tools) {
    if (t.origin) continue; // OpenAPI hints are derived by toolgate, not declared by a server.
    const declared = HINT_NAMES.filter((h) => t.declaredHints[h] !== undefined);
    if (isUnannotated(t.declaredHints)) {
      out.push({
        ruleId: 'unannotated-tool',
        target: { tool: t.name },
        message: `tool "${t.name}" declares no hints, so clients treat it as destructive and open-world`,
      });
    } else {
      // destructiveHint and idempotentHint mean nothing on a read-only tool (spec, ToolAnnotations):
      // not declaring them there leaves nothing out.
      const applies = (h: HintName) => !(t.effectiveHints.readOnlyHint && (h === 'destructiveHint' || h === 'idempotentHint'));
      const missing = HINT_NAMES.filter((h) => !declared.includes(h) && applies(h));
      if (missing.length > 0)
        out.push({
          ruleId: 'partially-annotated-tool',
          target: { tool: t.name, sub: '/annotations' },
          message: `tool "${t.name}" does not declare ${missing.join(', ')}`,
          data: { missing },
        });
    }
    for (const h of HINT_NAMES) {
      const v = (t.annotations as Record<string, unknown> | undefined)?.[h];
      if (v === undefined || v === null || typeof v === 'boolean') continue;
      out.push({
        ruleId: 'invalid-annotation',
        target: { tool: t.name, sub: `/annotations/${h}` },
        message: `tool "${t.name}" declares ${h} as ${JSON.stringify(v).slice(0, 40)}, not a boolean: clients treat it as undeclared (effective ${String(t.effectiveHints[h])})`,
        data: { hint: h, value: v },
      });
    }
    if (t.declaredHints.readOnlyHint === true && t.declaredHints.destructiveHint === true) {
      out.push({
        ruleId: 'contradictory-annotations',
        target: { tool: t.name, sub: '/annotations/destructiveHint' },
        message: `tool "${t.name}" declares readOnlyHint: true and destructiveHint: true`,
      });
    }
  }
  return out;
};
