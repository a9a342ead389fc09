// Writes bench/poison/RESULTS.md from a full run (`run.mjs --test`) and counts the test-set run in
// test-runs.json: the test set is read to report, not to tune, and the count says how often.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const pct = (a, b) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)} %`);
const rate = (x) => (x === null ? '—' : `${(x * 100).toFixed(1)} %`);

/** The recall table of one set: per source and category, and in all. */
export function recallRows(cases, set) {
  const rows = new Map();
  for (const c of cases.filter((x) => x.set === set)) {
    const key = `${c.source} | ${c.category}`;
    const r = rows.get(key) ?? { n: 0, d: 0 };
    r.n++;
    if (c.detected) r.d++;
    rows.set(key, r);
  }
  const all = cases.filter((x) => x.set === set);
  const d = all.filter((x) => x.detected).length;
  return [
    '| source | category | detected | recall |',
    '|---|---|---|---|',
    ...[...rows].sort().map(([k, r]) => `| ${k} | ${r.d} / ${r.n} | ${pct(r.d, r.n)} |`),
    `| **all** | | **${d} / ${all.length}** | **${pct(d, all.length)}** |`,
  ];
}

/**
 * A recorded file of runs (`{about, runs: [{counts}]}`) as a section: its heading, what it is, and
 * a table of each run's counts after the columns `lead` names (one per run field).
 */
function runsSection(file, heading, lead) {
  const recorded = JSON.parse(readFileSync(join(HERE, file), 'utf8'));
  const cats = Object.keys(recorded.runs[0].counts);
  return [
    heading,
    '',
    recorded.about,
    '',
    `| ${lead.map(([name]) => name).join(' | ')} | ${cats.join(' | ')} |`,
    `|${lead.map(() => '---').join('|')}|${cats.map(() => '---').join('|')}|`,
    ...recorded.runs.map((r) => `| ${lead.map(([, cell]) => cell(r)).join(' | ')} | ${cats.map((c) => r.counts[c]).join(' | ')} |`),
    '',
  ];
}

/** The blind-set runs recorded in blind-runs.json (the set itself is not in this repository). */
const blindSection = () => runsSection('blind-runs.json', '## Blind set (not in this repository, never read here)', [['run', (r) => `${r.when}: ${r.commit}`]]);

/** The handwritten batches' first, untuned runs recorded in batch-runs.json. */
const batchSection = () =>
  runsSection('batch-runs.json', '### Handwritten batches, run once before any row was written for them', [
    ['batch', (r) => r.batch],
    ['run', (r) => r.when],
  ]);

/** Rewrites RESULTS.md; appends this run to test-runs.json. */
export function writeResults({ cases, benign, explained, gb, time, base, load }) {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const runsFile = join(HERE, 'test-runs.json');
  const runs = JSON.parse(readFileSync(runsFile, 'utf8'));
  const test = cases.filter((c) => c.set === 'test');
  runs.runs.push({ date: new Date().toISOString().slice(0, 10), commit, detected: test.filter((c) => c.detected).length, of: test.length });
  writeFileSync(runsFile, `${JSON.stringify(runs, null, 2)}\n`);
  const realTools = ['docker', 'recorded'].reduce((a, s) => a + (benign.sets[s]?.tools ?? 0), 0);
  const realHit = ['docker', 'recorded'].reduce((a, s) => a + (benign.sets[s]?.hit ?? 0), 0);
  const median = (xs) => xs[Math.floor(xs.length / 2)];
  const list = (xs) => xs.map((x) => `${x.toFixed(1)} ms`).join(', ');
  const md = [
    '# suspicious-text, measured',
    '',
    `Written by \`npm run bench:poison -- --test\` at commit ${commit} on ${new Date().toISOString().slice(0, 10)} (load average ${load.map((x) => x.toFixed(1)).join(' ')}). Do not edit by hand. How the sets were gathered and split: [README.md](README.md). The test set has been run ${runs.runs.length} time${runs.runs.length === 1 ? '' : 's'} ([test-runs.json](test-runs.json)).`,
    '',
    '## Recall on poisoned descriptions',
    '',
    'A case counts as detected when `toolgate audit` raises `suspicious-text` on its poisoned tool (on its frame, for guardbench).',
    '',
    '### Development set (the patterns were written looking at these)',
    '',
    ...recallRows(cases, 'dev'),
    '',
    ...batchSection(),
    '### Test set (not read while writing patterns)',
    '',
    ...recallRows(cases, 'test'),
    '',
    ...(test.some((c) => !c.detected)
      ? ['Missed in the test set:', '', ...test.filter((c) => !c.detected).map((c) => `- \`${c.id}\` (${c.source}, ${c.category})`), '']
      : []),
    '## False positives on benign tools',
    '',
    '| set | tools | tools raised | rate |',
    '|---|---|---|---|',
    ...Object.entries(benign.sets).map(([s, v]) => `| ${s} | ${v.tools} | ${v.hit} | ${pct(v.hit, v.tools)} |`),
    `| **real benign tools** (Docker's catalog and the recorded servers) | **${realTools}** | **${realHit}** | **${pct(realHit, realTools)}** |`,
    '',
    'Every hit, read:',
    '',
    ...benign.hits.map((h) => `- \`${h.key}\`: ${h.message}\n  - ${explained[h.key]}`),
    '',
    '## guardbench (getmcpm/mcp-guardbench, its own scoring)',
    '',
    `toolgate answers every case; it scores the ${gb.scored} tools/list and initialize frames (the text a server offers a model) and declares the other ${gb.unsupported.length} unsupported (tool responses, tools/call arguments, prompts, resources, sampling requests), which guardbench leaves out of every rate.`,
    '',
    '| guard | recall | fp-rate | precision | exact-action | scored |',
    '|---|---|---|---|---|---|',
    `| toolgate (this commit, \`suspicious-text\` at its default level: every hit is \`warn\`) | ${rate(gb.recall)} | ${rate(gb.fpRate)} | ${rate(gb.precision)} | ${rate(gb.exactAction)} | ${gb.scored}/${gb.corpus} |`,
    '',
    `Confusion: TP ${gb.confusion.tp}, FN ${gb.confusion.fn}, FP ${gb.confusion.fp}, TN ${gb.confusion.tn}.${gb.misses.length ? ` Misses: ${gb.misses.join('; ')}.` : ''}`,
    '',
    ...blindSection(),
    '## Time',
    '',
    `\`suspicious-text\` in \`toolgate audit\` of ${time.tools} real tools (Docker's catalog and the recorded servers, one recorded surface), between its two \`TOOLGATE_TIMING\` marks, one fresh process a run after a warm-up. Goal: under 200 ms.`,
    '',
    '| measure | runs | median |',
    '|---|---|---|',
    `| wall time | ${list(time.wall)} | ${median(time.wall).toFixed(1)} ms |`,
    `| CPU time of the process (user + system, all its threads) | ${list(time.cpu)} | ${median(time.cpu).toFixed(1)} ms |`,
    ...(base
      ? [
          `| the base build's wall time (\`--base\`, the same interleaved runs) | ${list(base.wall)} | ${median(base.wall).toFixed(1)} ms |`,
          `| the base build's CPU time | ${list(base.cpu)} | ${median(base.cpu).toFixed(1)} ms |`,
        ]
      : []),
    '',
    `On a machine shared with other jobs (load average above) the wall time also measures the neighbours; the CPU time does not, but counts the process's other threads (garbage collection, compilation).`,
    '',
  ];
  writeFileSync(join(HERE, 'RESULTS.md'), md.join('\n'));
}
