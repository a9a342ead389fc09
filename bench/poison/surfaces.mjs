// The surfaces bench/poison audits (README.md, "Data") and one audit of them all through a built
// CLI. Shared by run.mjs (recall, false positives) and hits.mjs (every hit, to compare builds).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { guardbenchCases } from './guardbench.mjs';
import { recordingOf } from './guardbench-adapter.mjs';
import { MCPSECBENCH_MALICIOUS } from './split.mjs';
import {
  AFTER_BENIGN,
  AFTER_POISONED,
  EIGHTH_BENIGN,
  EIGHTH_POISONED,
  FIFTH_POISONED,
  HANDWRITTEN_BENIGN,
  SEVENTH_BENIGN,
  SEVENTH_POISONED,
  SIXTH_BENIGN,
  SIXTH_POISONED,
  HANDWRITTEN_POISONED,
  NINTH_BENIGN,
  NINTH_POISONED,
  NINTH_ROWS_BENIGN,
  VARIED_BENIGN,
  VARIED_POISONED,
} from './data/handwritten/index.mjs';
import { realSurfaces } from './real-tools.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DATA = join(HERE, 'data');
const readJson = (p) => JSON.parse(readFileSync(p, 'utf8'));

/**
 * The handwritten batches, each under its own label: [poisoned cases, benign servers, source]. The
 * later ones were written after rows and run once before rows were written for them.
 */
const BATCHES = [
  [HANDWRITTEN_POISONED, HANDWRITTEN_BENIGN, 'handwritten'],
  [VARIED_POISONED, VARIED_BENIGN, 'handwritten-3'],
  [AFTER_POISONED, AFTER_BENIGN, 'handwritten-4'],
  [FIFTH_POISONED, [], 'handwritten-5'],
  [SIXTH_POISONED, SIXTH_BENIGN, 'handwritten-6'],
  [SEVENTH_POISONED, SEVENTH_BENIGN, 'handwritten-7'],
  [EIGHTH_POISONED, EIGHTH_BENIGN, 'handwritten-8'],
  [NINTH_POISONED, NINTH_BENIGN, 'handwritten-9'],
  [[], NINTH_ROWS_BENIGN, 'handwritten-9-rows'],
];

// The handwritten set is development material whole: it was written to write patterns against.
export const split = new Map([
  ...readJson(join(HERE, 'split.json')).cases.map((c) => [c.id, c.set]),
  ...BATCHES.flatMap(([poisoned]) => poisoned.map((c) => [c.id, 'dev'])),
]);
/** Whether a case is audited: the development set always, the test set only when `test`. */
export const inScope = (id, test) => split.get(id) === 'dev' || (test && split.get(id) === 'test');

/**
 * Every surface to audit: {set, name, tools, instructions?, poisoned?: [{id, source, category, tool}]}.
 * A benign surface counts its tools; a poisoned one names the cases it holds and their tool
 * (`*` for a case whose whole frame is the attack, as guardbench scores a frame).
 */
export function surfaces({ test = false } = {}) {
  const out = [...realSurfaces()];
  for (const c of guardbenchCases()) {
    const rec = recordingOf(c.message);
    if (!rec) continue;
    if (c.expected.action === 'pass') out.push({ set: 'guardbench-benign', name: c.id, ...rec });
    else if (inScope(c.id, test))
      out.push({ set: 'poison', name: c.id, ...rec, poisoned: [{ id: c.id, source: 'guardbench', category: c.category, tool: '*' }] });
  }
  const msb = readJson(join(DATA, 'mcpsecbench', 'tools.json')).tools;
  const labels = readJson(join(DATA, 'mcpsecbench', 'labels.json')).labels;
  for (const server of new Set(msb.map((t) => t.server))) {
    const tools = msb.filter((t) => t.server === server);
    if (!MCPSECBENCH_MALICIOUS.includes(server)) {
      out.push({ set: 'mcpsecbench-benign', name: server, tools: tools.map((t) => t.tool) });
      continue;
    }
    const cases = tools.filter((t) => inScope(t.id, test));
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
    if (inScope(c.id, test))
      out.push({ set: 'poison', name: c.id, tools: c.tools, poisoned: [{ id: c.id, source: 'own', category: c.category, tool: c.poisoned }] });
  for (const [poisoned, benignServers, source] of BATCHES) {
    for (const c of poisoned) out.push({ set: 'poison', name: c.id, tools: c.tools, poisoned: [{ id: c.id, source, category: c.category, tool: c.poisoned }] });
    for (const s of benignServers) out.push({ set: `${source}-benign`, name: s.id, tools: s.tools });
  }
  return out;
}

/** Audits every surface in one run of `cli`; suspicious-text findings by surface index. */
export function auditAll(cli, list) {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-poison-'));
  try {
    const yml = ['sources:'];
    list.forEach((s, i) => {
      const id = `s${String(i).padStart(4, '0')}`;
      writeFileSync(join(dir, `${id}.json`), JSON.stringify({ tools: s.tools, ...(s.instructions !== undefined ? { instructions: s.instructions } : {}) }));
      yml.push(`  - id: ${id}`, `    recorded: ${id}.json`);
    });
    writeFileSync(join(dir, 'toolgate.yml'), `${yml.join('\n')}\n`);
    const run = spawnSync(process.execPath, [cli, 'audit', '-c', 'toolgate.yml', '--format', 'json', '--fail-on', 'never', '--no-list'], {
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
