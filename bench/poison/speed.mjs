#!/usr/bin/env node
// The time suspicious-text takes in `toolgate audit` of 1,000 real tools (Docker's catalog, then
// the recorded servers, one recorded surface), each run a fresh process, so that it includes
// compiling the pattern table. The time is the process's CPU time (user + system) between the
// rule's two TOOLGATE_TIMING marks, and the wall time between them. Several builds are compared
// side by side: their runs are interleaved (A B A B ..., the first of each round rotating) after
// one warm-up round, so that load on a shared machine hits them alike.
//
//   npm run build && node bench/poison/speed.mjs                  dist/cli.js, 9 runs
//   node bench/poison/speed.mjs --runs 15 /tmp/base/dist/cli.js dist/cli.js
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realTools } from './real-tools.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs `cli` once on `dir/tools.json`; the rule's {wall, cpu} ms. */
function once(cli, dir) {
  const run = spawnSync(process.execPath, [cli, 'audit', '--tools-json', 'tools.json', '--format', 'json', '--fail-on', 'never'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    env: { ...process.env, TOOLGATE_TIMING: '1', NODE_OPTIONS: '' },
  });
  const json = (name) => JSON.parse(new RegExp(`^${name} (.*)$`, 'm').exec(run.stderr)?.[1] ?? 'null');
  const [w, c] = [json('toolgate-timing-json'), json('toolgate-timing-cpu-json')];
  if (!w?.['suspicious-text done'] || !c) throw new Error(`${cli}: no suspicious-text timing in: ${run.stderr.slice(-500)}`);
  return { wall: w['suspicious-text done'] - w['suspicious-text started'], cpu: c['suspicious-text done'] - c['suspicious-text started'] };
}

/**
 * Times each CLI `runs` times on the first `n` real tools, interleaved; per CLI the sorted wall
 * and CPU times (ms).
 */
export function speed(clis, { runs = 9, n = 1000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-poison-speed-'));
  try {
    const tools = realTools(n);
    writeFileSync(join(dir, 'tools.json'), JSON.stringify({ tools }));
    const out = clis.map((cli) => ({ cli, tools: tools.length, wall: [], cpu: [] }));
    for (let r = 0; r <= runs; r++)
      for (let k = 0; k < clis.length; k++) {
        const i = (k + r) % clis.length;
        const t = once(clis[i], dir);
        if (r === 0) continue;
        out[i].wall.push(t.wall);
        out[i].cpu.push(t.cpu);
      }
    for (const o of out) for (const xs of [o.wall, o.cpu]) xs.sort((a, b) => a - b);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `median (min–max) ms` of sorted times. */
export const summary = (xs) => `${xs[Math.floor(xs.length / 2)].toFixed(1)} ms (${xs[0].toFixed(1)}–${xs[xs.length - 1].toFixed(1)})`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--runs');
  const runs = at >= 0 ? Number(argv[at + 1]) : 9;
  const clis = argv.filter((a, i) => !a.startsWith('--') && i !== at + 1).map((p) => resolve(p));
  if (clis.length === 0) clis.push(join(ROOT, 'dist', 'cli.js'));
  for (const cli of clis) if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);
  const load = loadavg().map((x) => x.toFixed(1));
  for (const o of speed(clis, { runs }))
    console.log(`${o.cli}: suspicious-text on ${o.tools} tools, ${runs} runs: CPU ${summary(o.cpu)}, wall ${summary(o.wall)}`);
  console.log(
    `load average at start ${load.join(' ')}, at end ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
}
