#!/usr/bin/env node
// Measures suspicious-text where it cannot be tuned (bench/poison/README.md): recall on poisoned
// tool descriptions, per attack category, on the development set (and, with --test, the test set);
// false positives on real benign tools (Docker's MCP registry catalog, the recorded published
// servers, guardbench's benign tools/list and initialize cases, MCPSecBench's benign tools); the
// guardbench score with guardbench's own scoring; the time suspicious-text takes in an audit of
// 1,000 tools. Everything runs through the built CLI (`npm run build` first): each set is written as
// recorded surfaces and audited with `node dist/cli.js audit`.
//
//   npm run bench:poison                      development set, benign sets, guardbench's dev and benign cases; prints
//   npm run bench:poison -- --test            also the test set and the whole guardbench corpus; rewrites
//                                             RESULTS.md and counts the run in test-runs.json
//   node bench/poison/run.mjs --runs 7        timing runs (default 5)
//   ... --base /tmp/base/dist/cli.js          also times another build, interleaved, and reports both
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { guardbenchCases, runAdapter, score } from './guardbench.mjs';
import { recallRows, writeResults } from './results.mjs';
import { speed } from './speed.mjs';
import { auditAll, inScope, split, surfaces } from './surfaces.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const TEST = process.argv.includes('--test');
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const BASE = process.argv.includes('--base') ? resolve(process.argv[process.argv.indexOf('--base') + 1]) : undefined;
const readJson = (p) => JSON.parse(readFileSync(p, 'utf8'));

if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first');

/** Pattern ids of a finding's hits, in order. */
const patternsOf = (f) => (f.data?.hits ?? []).map((h) => h.pattern);

/** Recall of the poisoned cases, by set, source and category; and each case's verdict. */
function recall(list, findings) {
  const cases = [];
  list.forEach((s, i) => {
    for (const p of s.poisoned ?? []) {
      const hits = findings[i].filter((f) => p.tool === '*' || f.tool === p.tool);
      cases.push({ ...p, set: split.get(p.id), detected: hits.length > 0, patterns: [...new Set(hits.flatMap(patternsOf))] });
    }
  });
  return cases;
}

/** Benign items hit: each tool (and each server's instructions) with a suspicious-text finding. */
function benignHits(list, findings) {
  const sets = {};
  const hits = [];
  list.forEach((s, i) => {
    // A poisoned surface's other tools count only where a label says their text is benign.
    if (s.set === 'poison' && !s.benign) return;
    const names = s.set === 'poison' ? s.benign : s.tools.map((t) => t.name);
    const set = s.set === 'poison' ? 'mcpsecbench-benign' : s.set;
    const acc = (sets[set] ??= { tools: 0, hit: 0, instructions: 0, instructionsHit: 0 });
    acc.tools += names.length;
    if (s.set !== 'poison' && s.instructions !== undefined) acc.instructions++;
    for (const f of findings[i]) {
      if (f.tool === undefined && s.set === 'poison') continue;
      if (f.tool !== undefined && !names.includes(f.tool)) continue;
      if (f.tool !== undefined) acc.hit++;
      else acc.instructionsHit++;
      hits.push({ key: `${set}:${s.name}:${f.tool ?? '(instructions)'}`, message: f.message });
    }
  });
  return { sets, hits };
}

const pct = (a, b) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)} %`);

const list = surfaces({ test: TEST });
const findings = auditAll(CLI, list);
const cases = recall(list, findings);
const benign = benignHits(list, findings);
const explained = readJson(join(HERE, 'benign-hits.json'));
const gbCases = guardbenchCases().filter((c) => c.expected.action === 'pass' || inScope(c.id, TEST));
const gb = score(gbCases, await runAdapter(gbCases));
// With a base build, both are timed in the same interleaved runs: the load hits them alike.
const [time, base] = speed(BASE ? [CLI, BASE] : [CLI], { runs: RUNS });

for (const set of TEST ? ['dev', 'test'] : ['dev']) console.log(`\n${set}\n${recallRows(cases, set).join('\n')}`);
for (const c of cases.filter((x) => !x.detected)) console.log(`missed (${c.set}): ${c.id} [${c.category}]`);
console.log('\nbenign');
for (const [set, s] of Object.entries(benign.sets)) console.log(`  ${set}: ${s.hit} of ${s.tools} tools hit (${pct(s.hit, s.tools)})`);
const unexplained = benign.hits.filter((h) => !explained[h.key]);
for (const h of benign.hits) console.log(`  ${explained[h.key] ? 'read' : 'UNEXPLAINED'} ${h.key}: ${h.message}`);
console.log(
  `\nguardbench: ${gb.scored} of ${gb.corpus} scored; recall ${pct(gb.confusion.tp, gb.confusion.tp + gb.confusion.fn)}, fp-rate ${pct(gb.confusion.fp, gb.confusion.fp + gb.confusion.tn)}`,
);
for (const m of gb.misses) console.log(`  ${m}`);
const median = (xs) => xs[Math.floor(xs.length / 2)].toFixed(1);
console.log(
  `\nsuspicious-text in an audit of ${time.tools} tools: wall ${median(time.wall)} ms, CPU ${median(time.cpu)} ms (medians of ${time.wall.length} runs)`,
);
if (base) console.log(`the base build ${BASE}: wall ${median(base.wall)} ms, CPU ${median(base.cpu)} ms`);
if (unexplained.length) {
  console.error(`\n${unexplained.length} benign hit(s) nobody has read: explain each in bench/poison/benign-hits.json`);
  process.exitCode = 1;
}
if (TEST && !unexplained.length) writeResults({ cases, benign, explained, gb, time, base, load: loadavg() });
