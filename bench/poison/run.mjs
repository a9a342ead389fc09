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
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { guardbenchCases, runAdapter, score } from './guardbench.mjs';
import { recordingOf } from './guardbench-adapter.mjs';
import { recallRows, writeResults } from './results.mjs';
import { MCPSECBENCH_MALICIOUS } from './split.mjs';
import { HANDWRITTEN_BENIGN, HANDWRITTEN_POISONED } from './data/handwritten/index.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const DATA = join(HERE, 'data');
const TEST = process.argv.includes('--test');
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const readJson = (p) => JSON.parse(readFileSync(p, 'utf8'));

if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first');
// The handwritten set is development material whole: it was written to write patterns against.
const split = new Map([...readJson(join(HERE, 'split.json')).cases.map((c) => [c.id, c.set]), ...HANDWRITTEN_POISONED.map((c) => [c.id, 'dev'])]);
const inScope = (id) => split.get(id) === 'dev' || (TEST && split.get(id) === 'test');

/** Docker's catalog lists arguments as `arguments: [{name, type, desc}]`; as an MCP tool, an inputSchema. */
function asMcpTool(t) {
  if (t.inputSchema || !t.arguments) return t;
  const { arguments: args, ...rest } = t;
  const properties = Object.fromEntries(
    args.map((a) => [a.name, { type: a.type, ...(a.desc ? { description: a.desc } : {}), ...(a.items ? { items: a.items } : {}) }]),
  );
  return { ...rest, inputSchema: { type: 'object', properties } };
}

/**
 * Every surface to audit: {set, name, tools, instructions?, poisoned?: [{id, source, category, tool}]}.
 * A benign surface counts its tools; a poisoned one names the cases it holds and their tool
 * (`*` for a case whose whole frame is the attack, as guardbench scores a frame).
 */
function surfaces() {
  const out = [];
  const docker = readJson(join(DATA, 'docker-mcp-registry', 'tools.json'));
  for (const [server, tools] of Object.entries(docker.servers)) out.push({ set: 'docker', name: server, tools: tools.map(asMcpTool) });
  for (const dir of ['test/fixtures/surfaces', 'test/fixtures/upgrades'])
    for (const pkg of readdirSync(join(ROOT, dir)).filter((p) => statSync(join(ROOT, dir, p)).isDirectory()))
      for (const f of readdirSync(join(ROOT, dir, pkg)).filter((x) => /^\d[\w.-]*\.json$/.test(x))) {
        const ins = join(ROOT, dir, pkg, f.replace(/\.json$/, '.instructions.txt'));
        const rec = readJson(join(ROOT, dir, pkg, f));
        out.push({ set: 'recorded', name: `${pkg}/${f}`, tools: rec.tools ?? rec, ...(existsSync(ins) ? { instructions: readFileSync(ins, 'utf8') } : {}) });
      }
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
  for (const c of HANDWRITTEN_POISONED)
    out.push({ set: 'poison', name: c.id, tools: c.tools, poisoned: [{ id: c.id, source: 'handwritten', category: c.category, tool: c.poisoned }] });
  for (const s of HANDWRITTEN_BENIGN) out.push({ set: 'handwritten-benign', name: s.id, tools: s.tools });
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

/**
 * Milliseconds suspicious-text takes in `audit` of 1,000 real tools, one fresh process a run after a
 * warm-up: wall time between its two TOOLGATE_TIMING marks, and the process's CPU time between them
 * (on a shared machine the wall time also measures the neighbours).
 */
function timing(list) {
  const pool = list.filter((s) => s.set === 'docker' || s.set === 'recorded').flatMap((s) => s.tools);
  // Names stay as served (a tool's text names its siblings); only a repeated name gets a suffix.
  const seen = new Set();
  const tools = pool.slice(0, 1000).map((t) => {
    let name = t.name;
    for (let k = 2; seen.has(name); k++) name = `${t.name}_${k}`;
    seen.add(name);
    return { ...t, name };
  });
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-poison-time-'));
  try {
    writeFileSync(join(dir, 'tools.json'), JSON.stringify({ tools }));
    const wall = [];
    const cpu = [];
    for (let r = 0; r < RUNS + 1; r++) {
      const run = spawnSync(process.execPath, [CLI, 'audit', '--tools-json', 'tools.json', '--format', 'json', '--fail-on', 'never'], {
        cwd: dir,
        encoding: 'utf8',
        maxBuffer: 256 << 20,
        env: { ...process.env, TOOLGATE_TIMING: '1' },
      });
      const json = (name) => JSON.parse(new RegExp(`^${name} (.*)$`, 'm').exec(run.stderr)?.[1] ?? 'null');
      const [w, c] = [json('toolgate-timing-json'), json('toolgate-timing-cpu-json')];
      if (!w?.['suspicious-text done'] || !c) throw new Error(`no suspicious-text timing in: ${run.stderr.slice(-500)}`);
      if (r === 0) continue;
      wall.push(w['suspicious-text done'] - w['suspicious-text started']);
      cpu.push(c['suspicious-text done'] - c['suspicious-text started']);
    }
    return { tools: tools.length, wall: wall.sort((a, b) => a - b), cpu: cpu.sort((a, b) => a - b) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const pct = (a, b) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)} %`);

const list = surfaces();
const findings = auditAll(list);
const cases = recall(list, findings);
const benign = benignHits(list, findings);
const explained = readJson(join(HERE, 'benign-hits.json'));
const gbCases = guardbenchCases().filter((c) => c.expected.action === 'pass' || inScope(c.id));
const gb = score(gbCases, await runAdapter(gbCases));
const time = timing(list);

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
