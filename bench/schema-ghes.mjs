#!/usr/bin/env node
// Benchmark: classify every changed JSON request-body schema between consecutive GitHub
// Enterprise Server REST descriptions (@octokit/openapi, already-dereferenced *.deref.json).
//
//   npx tsx bench/schema-ghes.mjs [3.17 3.18 3.19 ...] [--budget 2000] [--no-baseline]
//
// Runs from source via tsx (it imports src/diff/schema/index.ts). For each consecutive version
// pair: pair operations by operationId, keep those whose request schema's canonical JSON
// changed, then
//   1. classify each pair on its own, timing each call (slowest single comparison);
//   2. classify all pairs in one classifySchemaChanges() batch (total wall time);
//   3. baseline: json-schema-diff alone on the whole (normalized) schemas, same worker pool and
//      budget, to show what toolgate's own comparison saves.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { classifySchemaChange, classifySchemaChanges, closeSchemaWorkers, normalizeSchema } from '../src/diff/schema/index.ts';
import { canonicalJson } from '../src/util/json.ts';
import { runJsonSchemaDiff } from '../src/diff/schema/json-schema-diff-adapter.ts';
import { toDraft07 } from '../src/diff/schema/classify.ts';

const args = process.argv.slice(2);
const budgetAt = args.indexOf('--budget');
const budgetMs = budgetAt >= 0 ? Number(args[budgetAt + 1]) : 2000;
const baseline = !args.includes('--no-baseline');
const versions = args.filter((a, i) => /^\d+\.\d+$/.test(a) && i !== budgetAt + 1);
if (versions.length < 2) versions.splice(0, versions.length, '3.17', '3.18', '3.19');

const require = createRequire(import.meta.url);
const generated = join(dirname(require.resolve('@octokit/openapi/package.json')), 'generated');

function requestSchemas(version) {
  const t0 = performance.now();
  const doc = JSON.parse(readFileSync(join(generated, `ghes-${version}.deref.json`), 'utf8'));
  const byId = new Map();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      const content = op?.requestBody?.content;
      if (!op?.operationId || !content) continue;
      const type = Object.keys(content).find((t) => t === 'application/json') ?? Object.keys(content).find((t) => /json/.test(t));
      if (type && content[type]?.schema !== undefined) byId.set(op.operationId, content[type].schema);
    }
  }
  return { byId, loadMs: performance.now() - t0 };
}

const ms = (x) => `${x.toFixed(1)} ms`;
const cache = new Map();
const load = (v) => {
  if (!cache.has(v)) cache.set(v, requestSchemas(v));
  return cache.get(v);
};

for (let i = 0; i + 1 < versions.length; i++) {
  const [va, vb] = [versions[i], versions[i + 1]];
  const A = load(va);
  const B = load(vb);
  const pairs = [];
  for (const [id, before] of A.byId) {
    const after = B.byId.get(id);
    if (after !== undefined && canonicalJson(before) !== canonicalJson(after)) pairs.push({ id, before, after });
  }
  console.log(
    `\n== ghes-${va} → ghes-${vb}: ${A.byId.size} / ${B.byId.size} operations with a JSON body, ${pairs.length} changed (load ${ms(A.loadMs + B.loadMs)}) ==`,
  );

  // Warm the worker pool so that a cold start is not billed to one pair.
  await classifySchemaChange({ anyOf: [{ type: 'string' }, { type: 'number' }] }, { anyOf: [{ type: 'string' }] });

  const timings = [];
  const counts = { unchanged: 0, widened: 0, narrowed: 0, both: 0, unclassified: 0 };
  const t0 = performance.now();
  for (const p of pairs) {
    const s = performance.now();
    const v = await classifySchemaChange(p.before, p.after, { budgetMs });
    const d = performance.now() - s;
    timings.push({ id: p.id, ms: d, v });
    counts[v.kind]++;
  }
  const sequentialMs = performance.now() - t0;
  timings.sort((x, y) => y.ms - x.ms);

  const b0 = performance.now();
  const batch = await classifySchemaChanges(pairs, { budgetMs });
  const batchMs = performance.now() - b0;
  const agree = batch.every((v, k) => JSON.stringify(v) === JSON.stringify(timings.find((t) => t.id === pairs[k].id).v));

  console.log(`classify, one at a time: total ${ms(sequentialMs)}, slowest ${ms(timings[0]?.ms ?? 0)} (${timings[0]?.id ?? '-'})`);
  console.log(`classifySchemaChanges batch: total ${ms(batchMs)} (same verdicts: ${agree})`);
  console.log(
    `verdicts: ${Object.entries(counts)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  for (const t of timings) {
    if (t.v.kind === 'unchanged') continue;
    const detail = t.v.kind === 'unclassified' ? t.v.reason : t.v.deltas.map((d) => `${d.direction} ${d.path}`).join('; ');
    console.log(`  ${t.v.kind.padEnd(12)} ${ms(t.ms).padStart(9)}  ${t.id}: ${detail.slice(0, 160)}`);
  }

  if (baseline) {
    // json-schema-diff alone on the whole schemas. They are normalized first (nullable, $schema,
    // draft-07 form), as json-schema-diff would otherwise ignore `nullable` and reject 2020-12.
    let jsdSlowest = { ms: 0, id: '-' };
    const jsdCounts = { additions: 0, removals: 0, neither: 0, failed: 0 };
    const j0 = performance.now();
    for (const p of pairs) {
      const s = performance.now();
      const o = await runJsonSchemaDiff(
        [{ path: '', before: toDraft07(normalizeSchema(p.before).schema), after: toDraft07(normalizeSchema(p.after).schema) }],
        budgetMs,
      );
      const d = performance.now() - s;
      if (d > jsdSlowest.ms) jsdSlowest = { ms: d, id: p.id };
      if (!o.ok) jsdCounts.failed++;
      else {
        const r = o.results[0];
        if (r.additionsFound) jsdCounts.additions++;
        if (r.removalsFound) jsdCounts.removals++;
        if (!r.additionsFound && !r.removalsFound) jsdCounts.neither++;
      }
    }
    const jsdTotal = performance.now() - j0;
    console.log(
      `baseline json-schema-diff alone (budget ${budgetMs} ms): total ${ms(jsdTotal)}, slowest ${ms(jsdSlowest.ms)} (${jsdSlowest.id}); additions ${jsdCounts.additions}, removals ${jsdCounts.removals}, neither ${jsdCounts.neither}, timed out/failed ${jsdCounts.failed}`,
    );
  }
}
await closeSchemaWorkers();
