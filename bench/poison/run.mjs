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
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { guardbenchCases, runAdapter, score } from './guardbench.mjs';
import { recordingOf } from './guardbench-adapter.mjs';
import { recallRows, writeResults } from './results.mjs';
import { MCPSECBENCH_MALICIOUS } from './split.mjs';
import {
  AFTER_BENIGN,
  AFTER_POISONED,
  FIFTH_POISONED,
  SEVENTH_BENIGN,
  SEVENTH_POISONED,
  SIXTH_BENIGN,
  SIXTH_POISONED,
  HANDWRITTEN_BENIGN,
  HANDWRITTEN_POISONED,
  VARIED_BENIGN,
  VARIED_POISONED,
} from './data/handwritten/index.mjs';
import { realSurfaces } from './real-tools.mjs';
import { speed } from './speed.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const DATA = join(HERE, 'data');
const TEST = process.argv.includes('--test');
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const readJson = (p) => JSON.parse(readFileSync(p, 'utf8'));

if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first');
// The handwritten set is development material whole: it was written to write patterns against.
const split = new Map([
  ...readJson(join(HERE, 'split.json')).cases.map((c) => [c.id, c.set]),
  ...[...HANDWRITTEN_POISONED, ...VARIED_POISONED, ...AFTER_POISONED, ...FIFTH_POISONED, ...SIXTH_POISONED, ...SEVENTH_POISONED].map((c) => [c.id, 'dev']),
]);
const inScope = (id) => split.get(id) === 'dev' || (TEST && split.get(id) === 'test');

/**
 * Every surface to audit: {set, name, tools, instructions?, poisoned?: [{id, source, category, tool}]}.
 * A benign surface counts its tools; a poisoned one names the cases it holds and their tool
 * (`*` for a case whose whole frame is the attack, as guardbench scores a frame).
 */
function surfaces() {
  const out = [...realSurfaces()];
  for (const c of guardbenchCases()) {
    const rec = recordingOf(c.message);
    if (!rec) continue;
    if (c.expected.action === 'pass') out.push({ set: 'guardbench-benign', name: c.id, ...rec });
    else if (inScope(c.id)) out.push({ set: 'poison', name: c.id, ...rec, poisoned: [{ id: c.id, source: 'guardbench', category: c.category, tool: '*' }] });
  }
  const msb = readJson(join(DATA, 'mcpsecbench', 'tools.json')).tools;
  const labels = readJson(join(DATA, 'mcpsecbench', 'labels.json')).labels;
  for (const server of new Set(msb.map((t) => t.server))) {
    const tools = msb.filter((t) => t.server === server);
    if (!MCPSECBENCH_MALICIOUS.includes(server)) {
      out.push({ set: 'mcpsecbench-benign', name: server, tools: tools.map((t) => t.tool) });
      continue;
    }
    const cases = tools.filter((t) => inScope(t.id));
    for (const t of cases) if (!labels[t.id]) throw new Error(`${t.id} has no label in data/mcpsecbench/labels.json`);
    out.push({
      set: 'poison',
      name: server,
      tools: tools.map((t) => t.tool),
      poisoned: cases
        .filter((t) => labels[t.id].poisoned)
        .map((t) => ({ id: t.id, source: 'mcpsecbench', category: labels[t.id].category, tool: t.tool.name })),
      benign: cases.filter((t) => !labels[t.id].poisoned).map((t) => t.tool.name),
    });
  }
  for (const c of readJson(join(DATA, 'own', 'cases.json')).cases)
    if (inScope(c.id)) out.push({ set: 'poison', name: c.id, tools: c.tools, poisoned: [{ id: c.id, source: 'own', category: c.category, tool: c.poisoned }] });
  // Each handwritten batch under its own label: the later ones were written after rows and run once.
  for (const [poisoned, benignServers, source] of [
    [HANDWRITTEN_POISONED, HANDWRITTEN_BENIGN, 'handwritten'],
    [VARIED_POISONED, VARIED_BENIGN, 'handwritten-3'],
    [AFTER_POISONED, AFTER_BENIGN, 'handwritten-4'],
    [FIFTH_POISONED, [], 'handwritten-5'],
    [SIXTH_POISONED, SIXTH_BENIGN, 'handwritten-6'],
    [SEVENTH_POISONED, SEVENTH_BENIGN, 'handwritten-7'],
  ]) {
    for (const c of poisoned) out.push({ set: 'poison', name: c.id, tools: c.tools, poisoned: [{ id: c.id, source, category: c.category, tool: c.poisoned }] });
    for (const s of benignServers) out.push({ set: `${source}-benign`, name: s.id, tools: s.tools });
  }
  return out;
}

/** Audits every surface in one CLI run; suspicious-text findings by surface index. */
function auditAll(list) {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-poison-'));
  try {
    const yml = ['sources:'];
    list.forEach((s, i) => {
      const id = `s${String(i).padStart(4, '0')}`;
      writeFileSync(join(dir, `${id}.json`), JSON.stringify({ tools: s.tools, ...(s.instructions !== undefined ? { instructions: s.instructions } : {}) }));
      yml.push(`  - id: ${id}`, `    recorded: ${id}.json`);
    });
    writeFileSync(join(dir, 'toolgate.yml'), `${yml.join('\n')}\n`);
    const run = spawnSync(process.execPath, [CLI, 'audit', '-c', 'toolgate.yml', '--format', 'json', '--fail-on', 'never', '--no-list'], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 256 << 20,
    });
    if (run.status !== 0) throw new Error(`toolgate audit exited ${run.status}: ${run.stderr}`);
    const report = JSON.parse(run.stdout);
    const failed = report.sources.filter((s) => s.failure);
    if (failed.length) throw new Error(`sources failed: ${failed.map((s) => `${s.id}: ${s.failure.message}`).join('; ')}`);
    const bySource = new Map();
    for (const f of report.findings.filter((x) => x.ruleId === 'suspicious-text')) bySource.set(f.source, [...(bySource.get(f.source) ?? []), f]);
    return list.map((_, i) => bySource.get(`s${String(i).padStart(4, '0')}`) ?? []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pattern ids a finding's message names, in order: `(pattern-id)`. */
const patternsOf = (f) => [...f.message.matchAll(/\(([a-z]+(?:-[a-z]+)*)\) "/g)].map((m) => m[1]);

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

const list = surfaces();
const findings = auditAll(list);
const cases = recall(list, findings);
const benign = benignHits(list, findings);
const explained = readJson(join(HERE, 'benign-hits.json'));
const gbCases = guardbenchCases().filter((c) => c.expected.action === 'pass' || inScope(c.id));
const gb = score(gbCases, await runAdapter(gbCases));
const [time] = speed([CLI], { runs: RUNS });

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
if (unexplained.length) {
  console.error(`\n${unexplained.length} benign hit(s) nobody has read: explain each in bench/poison/benign-hits.json`);
  process.exitCode = 1;
}
if (TEST && !unexplained.length) writeResults({ cases, benign, explained, gb, time, load: loadavg() });
