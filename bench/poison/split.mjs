#!/usr/bin/env node
/**
 * Splits the poisoned cases into a development set and a test set, before anyone reads them
 * (bench/poison/README.md, "Method"). Deterministic: within each stratum (a source and its attack
 * category), cases are ordered by sha256 of their id and the first round(60 %) go to `dev`, the
 * rest to `test`. The assignment of a case depends only on the ids of its own stratum, so adding
 * a case elsewhere moves nothing.
 *
 * Reads ids and categories only, never the texts: guardbench's from data/guardbench/ids.json,
 * MCPSecBench's from data/mcpsecbench/tools.json (stratum: the server script; the benign servers
 * are not split), ours from data/own/cases.json. Writes split.json (`--check`: fails when it
 * differs).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const DEV_SHARE = 0.6;
/** MCPSecBench's server scripts its README calls malicious; the others it calls normal servers. */
export const MCPSECBENCH_MALICIOUS = ['code/maliciousadd.py', 'code/squatting.py'];

const readJson = (p) => JSON.parse(readFileSync(join(HERE, p), 'utf8'));

/** Every poisoned case as `{id, source, stratum}`, from ids and categories only. */
export function pool() {
  const guardbench = readJson('data/guardbench/ids.json').cases.map((c) => ({ id: c.id, source: 'guardbench', stratum: c.category }));
  const mcpsecbench = readJson('data/mcpsecbench/tools.json')
    .tools.filter((t) => MCPSECBENCH_MALICIOUS.includes(t.server))
    .map((t) => ({ id: t.id, source: 'mcpsecbench', stratum: t.server }));
  const own = readJson('data/own/cases.json').cases.map((c) => ({ id: c.id, source: 'own', stratum: c.category }));
  return [...guardbench, ...mcpsecbench, ...own];
}

const sha = (s) => createHash('sha256').update(s, 'utf8').digest('hex');

/** `{id: 'dev' | 'test'}` for every case of the pool. */
export function split(cases) {
  const strata = new Map();
  for (const c of cases) {
    const key = `${c.source}\u0000${c.stratum}`;
    strata.set(key, [...(strata.get(key) ?? []), c]);
  }
  const out = {};
  for (const members of strata.values()) {
    const ordered = members.map((c) => ({ id: c.id, h: sha(c.id) })).sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0));
    const dev = Math.round(ordered.length * DEV_SHARE);
    ordered.forEach((c, i) => (out[c.id] = i < dev ? 'dev' : 'test'));
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cases = pool();
  const assigned = split(cases);
  const rows = cases.map((c) => ({ ...c, set: assigned[c.id] }));
  const text = `${JSON.stringify({ method: 'sha256(id) order within source+stratum; first round(60 %) dev', cases: rows }, null, 2)}\n`;
  const file = join(HERE, 'split.json');
  if (process.argv.includes('--check')) {
    if (readFileSync(file, 'utf8') !== text) {
      console.error('split.json is not what split.mjs gives: run node bench/poison/split.mjs');
      process.exit(1);
    }
  } else writeFileSync(file, text);
  const count = (set) => rows.filter((r) => r.set === set).length;
  console.log(`${rows.length} poisoned cases: ${count('dev')} dev, ${count('test')} test`);
}
