import { adHocPolicy } from './config/policy.js';
import type { LoadedContract } from './contract/store.js';
import { diffSurfaces } from './diff/diff-surfaces.js';
import { classifySchemaChanges } from './diff/schema/index.js';
import type { SchemaVerdict } from './rules/context.js';
import { evaluate } from './rules/evaluate.js';
import type { CheckResult } from './run-check.js';

/**
 * `toolgate diff BASE HEAD`: the change review between two saved surfaces, with findings pointing
 * at lines of HEAD (or BASE for removed tools). No drift: HEAD is its own contract.
 */
export async function runDiff(base: LoadedContract, head: LoadedContract, root: string): Promise<CheckResult> {
  const id = head.surface.source.id;
  const policy = adHocPolicy({ id, kind: 'recorded', file: head.file, contract: head.file }, root);
  const changes = diffSurfaces(base.surface, head.surface);
  const pairs = changes.flatMap((c) => (c.kind === 'input-schema-changed' ? [{ tool: c.tool, before: c.base, after: c.head }] : []));
  const verdicts = pairs.length ? await classifySchemaChanges(pairs, { budgetMs: policy.schemaBudgetMs }) : [];
  const schemaVerdicts = new Map<string, SchemaVerdict>(pairs.map((p, i) => [p.tool, verdicts[i] as SchemaVerdict]));
  const findings = evaluate(
    { sourceId: id, head: head.surface, contract: head.surface, base: base.surface, changes, drift: [], malformed: [], policy, schemaVerdicts },
    (t) => {
      // A removed tool is found in BASE; everything else in HEAD.
      const doc = t.tool !== undefined && !head.indexOf.has(t.tool) ? base : head;
      const idx = t.tool === undefined ? undefined : doc.indexOf.get(t.tool);
      const pointer = idx !== undefined ? `/tools/${idx}${t.sub ?? ''}` : (t.sub ?? '');
      return { location: { file: doc.file, line: doc.lineOf(pointer) }, pointer };
    },
  );
  const counts = { error: 0, warning: 0, notice: 0 };
  for (const f of findings) counts[f.level]++;
  return {
    sources: [{ id, kind: head.surface.source.kind, contractFile: head.file, surface: head.surface, contract: base.surface, live: true, malformed: [], findings, ...(changes.length ? { changes } : {}) }],
    findings,
    counts,
    exitCode: counts.error > 0 ? 1 : 0,
  };
}
