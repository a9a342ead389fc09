import { allowsUnknownArguments } from '../../diff/schema/index.js';
import { argumentsSchema } from '../../surface/normalize.js';
import type { Check, RawFinding } from '../context.js';

const MAX_DELTAS_IN_MESSAGE = 3;

function describeDeltas(deltas: { path: string; what: string }[]): string {
  const shown = deltas.slice(0, MAX_DELTAS_IN_MESSAGE).map((d) => `${d.path || '/'}: ${d.what}`);
  const more = deltas.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/**
 * `schema-widened`, `schema-narrowed`, `schema-unclassified`, `output-schema-changed`. A change
 * that both widens and narrows is one `schema-widened` (its `data.narrowed` holds the rest).
 */
export const schemaChanges: Check = (ctx) => {
  const out: RawFinding[] = [];
  for (const c of ctx.changes) {
    if (c.kind === 'output-schema-changed') {
      out.push({ ruleId: 'output-schema-changed', target: { tool: c.tool, sub: '/outputSchema' }, message: `the outputSchema of tool "${c.tool}" changed` });
      continue;
    }
    if (c.kind !== 'input-schema-changed') continue;
    const v = ctx.schemaVerdicts.get(c.tool) ?? { kind: 'unclassified' as const, reason: 'the change was not classified', deltas: [] };
    const target = { tool: c.tool, sub: '/inputSchema' };
    if (v.kind === 'unchanged') continue;
    if (v.kind === 'unclassified') {
      out.push({
        ruleId: 'schema-unclassified',
        target,
        message: `the inputSchema of tool "${c.tool}" changed and could not be classified: ${v.reason}`,
        data: { reason: v.reason },
      });
      continue;
    }
    const widened = v.deltas.filter((d) => d.direction === 'widened');
    const narrowed = v.deltas.filter((d) => d.direction === 'narrowed');
    // One change, one finding (docs/design.md §6): a schema that accepts new inputs and drops others is
    // one widening, the narrowed part said in the same message.
    if (v.kind === 'widened' || v.kind === 'both') {
      const less = narrowed.length ? `; it also accepts or declares less: ${describeDeltas(narrowed)}` : '';
      out.push({
        ruleId: 'schema-widened',
        target,
        message: `tool "${c.tool}" accepts new inputs: ${describeDeltas(widened)}${less}`,
        data: { deltas: widened, ...(narrowed.length ? { narrowed } : {}) },
      });
    } else {
      out.push({
        ruleId: 'schema-narrowed',
        target,
        message: `tool "${c.tool}" accepts or declares less: ${describeDeltas(narrowed)}`,
        data: { deltas: narrowed },
      });
    }
  }
  return out;
};

/** `open-arguments` on the live surface. */
export const openArguments: Check = (ctx) =>
  ctx.head.tools
    .filter((t) => t.safetyClass !== 'disabled' && allowsUnknownArguments(argumentsSchema(t)))
    .map((t) => ({
      ruleId: 'open-arguments' as const,
      target: { tool: t.name, sub: '/inputSchema' },
      message: `the inputSchema of tool "${t.name}" allows unknown arguments (additionalProperties is not false)`,
    }));
