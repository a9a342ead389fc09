// Measuring for the bench scripts (bench/run.mjs, bench/speed-pieces.mjs): one fresh `node`
// process per measured command, wall time from spawn() to its exit, peak RSS from the
// bench/lib/peak-rss.mjs preload, and interleaved rounds so that load drifts on a shared machine
// hit every variant alike. See bench/README.md.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PRELOAD = join(dirname(fileURLToPath(import.meta.url)), 'peak-rss.mjs');

/** Environment for measured processes: ours minus anything that changes toolgate's behaviour. */
export function benchEnv(extra = {}) {
  const env = { ...process.env, NO_COLOR: '1', TOOLGATE_TIMING: '1' };
  for (const k of Object.keys(env)) if (k.startsWith('GITHUB_') || k.startsWith('INPUT_') || k.startsWith('RUNNER_')) delete env[k];
  delete env.TOOLGATE_DEBUG;
  delete env.NODE_OPTIONS;
  // Read at every Node start (~40 ms on Node 20 with a full CA bundle): set on some hosts, not on
  // GitHub's runners. Left in, it slows every process but toolgate's sandboxed servers, which get
  // a minimal environment, and so flatters toolgate against the floors.
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.TOOLGATE_SANDBOX_UNAVAILABLE;
  return { ...env, ...extra };
}

/**
 * Runs `node --import peak-rss <args>` once in `cwd`. Resolves with wall ms, peak RSS (KB), exit
 * code, stdout, stderr and the phase timings found on stderr (toolgate-timing-json /
 * floor-timing). `preload: false` runs `node <args>` alone (no peak RSS): the preload is an ES
 * module, and for `node -e 0` it would add the ES module loader's start-up (~8 ms) that bare Node
 * does not pay.
 */
export function measure({ args, cwd, env = benchEnv(), node = [], preload = true }) {
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [...node, ...(preload ? ['--import', PRELOAD] : []), ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let ms;
    const out = [];
    const err = [];
    const fd3 = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.stdio[3].on('data', (c) => fd3.push(c));
    child.once('error', reject);
    child.once('exit', () => (ms = performance.now() - t0));
    child.once('close', (code) => {
      const stderr = Buffer.concat(err).toString();
      let rss;
      try {
        rss = JSON.parse(Buffer.concat(fd3).toString()).maxRssKB;
      } catch {
        rss = undefined;
      }
      const m = /^(?:toolgate-timing-json|floor-timing) (\{.*\})$/m.exec(stderr);
      resolvePromise({ ms, rssKB: rss, code, stdout: Buffer.concat(out).toString(), stderr, timing: m ? JSON.parse(m[1]) : undefined });
    });
  });
}

export const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (s.length === 0) return undefined;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Runs every variant once as warm-up, then `runs` interleaved rounds (the first variant of a
 * round rotates). `expect` per variant: allowed exit codes; anything else aborts the bench with
 * the command's stderr, so a broken setup never produces numbers. `run` measures one variant
 * (default {@link measure}).
 */
export async function interleave(variants, runs, run = measure) {
  const results = variants.map(() => []);
  for (let round = -1; round < runs; round++) {
    const order = variants.map((_, i) => (i + Math.max(round, 0)) % variants.length);
    for (const i of order) {
      const v = variants[i];
      const r = await run(v);
      const ok = v.expect ?? [0];
      if (!ok.includes(r.code)) {
        throw new Error(`bench: ${v.label} exited ${r.code} (expected ${ok.join(' or ')})\n${r.stderr.slice(-3000)}\n${r.stdout.slice(-2000)}`);
      }
      if (round >= 0) results[i].push(r);
    }
  }
  return variants.map((v, i) => ({
    label: v.label,
    runs: results[i],
    ms: median(results[i].map((r) => r.ms)),
    rssKB: median(results[i].map((r) => r.rssKB)),
    min: Math.min(...results[i].map((r) => r.ms)),
    max: Math.max(...results[i].map((r) => r.ms)),
  }));
}

export const fmtMs = (x) => (x === undefined ? 'n/a' : x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`);

/** `a` minus `b` in ms, round by round (runs at the same index ran side by side): `median (min–max)`. */
export function pairDelta(a, b) {
  const ds = a.runs.map((r, i) => r.ms - b.runs[i].ms);
  const value = median(ds);
  const f = (x) => `${x >= 0 ? '+' : ''}${Math.round(x)} ms`;
  return { value, min: Math.min(...ds), max: Math.max(...ds), text: `${f(value)} (${f(Math.min(...ds))} to ${f(Math.max(...ds))})` };
}
