#!/usr/bin/env node
// Scores toolgate on getmcpm/mcp-guardbench with guardbench's own published scoring (its
// README, "Reading a scoreboard"; runner/run.mjs): recall = detected attacks / attacks (attack
// and warn buckets: any non-pass verdict counts), fp-rate = benign flagged / benign, precision =
// detected / all non-pass verdicts, exact-action = verdicts equal to the expected action. Cases the
// adapter declares `unsupported` are left out of every rate in both directions; a missing verdict or
// an `error` fails the run. The cases are bench/poison/data/guardbench/cases (copied, MIT).
//
//   npm run build && node bench/poison/guardbench.mjs            all 57 cases
//   node bench/poison/guardbench.mjs --ids a,b,c                    only these
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const CASES = join(HERE, 'data', 'guardbench', 'cases');

/** Every case file of the copied corpus, by bucket. */
export function guardbenchCases() {
  const out = [];
  for (const bucket of ['attacks', 'benign', 'warn'])
    for (const f of readdirSync(join(CASES, bucket))
      .filter((x) => x.endsWith('.json'))
      .sort())
      out.push(JSON.parse(readFileSync(join(CASES, bucket, f), 'utf8')));
  return out;
}

/** Runs the adapter on `cases` (one process, NDJSON both ways); verdicts by id. */
export async function runAdapter(cases) {
  const child = spawn(process.execPath, [join(HERE, 'guardbench-adapter.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const verdicts = new Map();
  const done = new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const v = JSON.parse(line);
      verdicts.set(v.id, v);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`adapter exited ${code}`))));
  });
  for (const c of cases) child.stdin.write(`${JSON.stringify({ id: c.id, message: c.message })}\n`);
  child.stdin.end();
  await done;
  return verdicts;
}

const rate = (a, b) => (b === 0 ? null : a / b);

/** guardbench's metrics over `cases` and their `verdicts`. Throws on a missing verdict or an adapter error. */
export function score(cases, verdicts) {
  let tp = 0;
  let fn = 0;
  let fp = 0;
  let tn = 0;
  let exact = 0;
  const unsupported = [];
  const misses = [];
  const byCategory = {};
  for (const c of cases) {
    const v = verdicts.get(c.id);
    if (!v || v.action === 'error') throw new Error(`case ${c.id}: ${v ? `adapter error: ${v.error}` : 'no verdict'}`);
    if (v.action === 'unsupported') {
      unsupported.push(c.id);
      continue;
    }
    const flagged = v.action === 'warn' || v.action === 'block';
    if (v.action === c.expected.action) exact++;
    if (c.expected.action !== 'pass') {
      const cat = (byCategory[c.category ?? 'uncategorized'] ??= { detected: 0, total: 0 });
      cat.total++;
      if (flagged) {
        tp++;
        cat.detected++;
      } else {
        fn++;
        misses.push(`${c.id}: missed (expected ${c.expected.action})`);
      }
    } else if (flagged) {
      fp++;
      misses.push(`${c.id}: false positive (${v.action})`);
    } else tn++;
  }
  const scored = cases.length - unsupported.length;
  return {
    corpus: cases.length,
    scored,
    unsupported,
    recall: rate(tp, tp + fn),
    fpRate: rate(fp, fp + tn),
    precision: rate(tp, tp + fp),
    exactAction: rate(exact, scored),
    confusion: { tp, fn, fp, tn },
    byCategory,
    misses,
  };
}

const pct = (x) => (x === null ? '—' : `${(x * 100).toFixed(1)} %`);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--ids');
  const only = i > 0 ? new Set(process.argv[i + 1].split(',')) : undefined;
  const cases = guardbenchCases().filter((c) => !only || only.has(c.id));
  const s = score(cases, await runAdapter(cases));
  console.log(`toolgate on mcp-guardbench: ${s.corpus} cases, ${s.scored} scored, ${s.unsupported.length} unsupported`);
  console.log(`recall ${pct(s.recall)}  fp-rate ${pct(s.fpRate)}  precision ${pct(s.precision)}  exact-action ${pct(s.exactAction)}`);
  console.log(`confusion: TP ${s.confusion.tp} FN ${s.confusion.fn} FP ${s.confusion.fp} TN ${s.confusion.tn}`);
  for (const m of s.misses) console.log(`  ${m}`);
}
