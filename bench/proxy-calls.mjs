#!/usr/bin/env node
// What `toolgate proxy` adds per tool call (docs/design.md §8, §9): a real SDK 2.x client
// (`@modelcontextprotocol/client`) calls server-everything's `get-sum` (a small result) and
// `get-env` (a ~40 KB result: the server's environment holds BENCH_RESULT_PAD) on one connection
// per variant, interleaved in rounds in one run:
//   direct      the client spawns server-everything itself
//   proxy       `toolgate proxy` in DIR (pinned contract, default runtime block, arguments
//               validated, decision log to a file, the server in the sandbox where bwrap works)
//   floor-pipe  bench/proxy-floor.mjs --mode pipe: one more process, bytes piped through
//   floor-json  bench/proxy-floor.mjs --mode json: one more process, every line parsed and
//               written again (the least a relay that reads messages pays)
//   floor-cat   one `cat` each way: the same hops through a program with no JavaScript
// and, when named in --variants: floor-pipe-fd and floor-json-fd (the Node floors writing with
// fs.writeSync on the descriptor).
// Measures, per variant: latency of each sequential call (median, p99; added = variant − direct,
// taken round by round), the relay's CPU per call (from /proc/PID/task/*/schedstat, all threads:
// steadier than wall time on a loaded machine), calls per second one at a time and 32 in
// flight; then --total calls through the proxy, 32 in flight, with its RSS sampled.
//   node bench/proxy-calls.mjs --cli dist/cli.js --dir DIR --server EVERYTHING [--calls 2000]
//     [--rounds 10] [--total 1000000] [--pad 40000] [--variants direct,proxy,floor-pipe,floor-json]
//     [--proxy-node '--cpu-prof --cpu-prof-dir=DIR']
// Prints one JSON line. DIR holds toolgate.yml and the contract (run.mjs makes them).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const argv = process.argv.slice(2);
const arg = (n, d) => (argv.includes(`--${n}`) ? argv[argv.indexOf(`--${n}`) + 1] : d);
const CLI = resolve(arg('cli'));
/** Other builds of the CLI, `--alt NAME=PATH` (each a variant NAME), to compare builds side by side. */
const ALT = argv.flatMap((a, i) => (a === '--alt' ? [argv[i + 1].split('=')] : []));
const DIR = resolve(arg('dir'));
const SERVER = resolve(arg('server'));
const CALLS = Number(arg('calls', '2000'));
const ROUNDS = Number(arg('rounds', '10'));
const TOTAL = Number(arg('total', '1000000'));
const PAD = Number(arg('pad', '40000'));
const VARIANTS = arg('variants', ['direct', 'proxy', ...ALT.map(([n]) => n), 'floor-pipe', 'floor-json', 'floor-cat'].join()).split(',');
/** Node options for the proxy's process only (e.g. `--cpu-prof --cpu-prof-dir=DIR`). */
const PROXY_NODE = arg('proxy-node', '').split(' ').filter(Boolean);
const DEPTH = 32;
/** Calls per variant per round of the throughput phase (4 rounds; 0 skips it). */
const PIPELINED = Number(arg('pipelined', '2000'));
const SAMPLES = 20;
const FLOOR = join(dirname(fileURLToPath(import.meta.url)), 'proxy-floor.mjs');
const node = process.execPath;

const commands = {
  direct: [SERVER, 'stdio'],
  proxy: [...PROXY_NODE, CLI, 'proxy', '--log', join(DIR, 'decisions.jsonl')],
  ...Object.fromEntries(ALT.map(([name, cli]) => [name, [...PROXY_NODE, resolve(cli), 'proxy', '--log', join(DIR, `decisions-${name}.jsonl`)]])),
  'floor-pipe': [FLOOR, '--mode', 'pipe', '--', node, SERVER, 'stdio'],
  'floor-json': [FLOOR, '--mode', 'json', '--', node, SERVER, 'stdio'],
  // Not run unless named in --variants: the same floors writing with fs.writeSync on the descriptor.
  'floor-pipe-fd': [FLOOR, '--mode', 'pipe-fd', '--', node, SERVER, 'stdio'],
  'floor-json-fd': [FLOOR, '--mode', 'json-fd', '--', node, SERVER, 'stdio'],
  // One more hop each way through a program with no JavaScript (cat, one per direction): its
  // relay CPU is not measured (the pid is the shell's).
  'floor-cat': { command: '/bin/sh', args: ['-c', `cat | '${node}' '${SERVER}' stdio | cat`] },
};

/** A connected SDK client whose transport spawned `node args`; `pid` is that process's. */
async function open(name) {
  const env = { BENCH_RESULT_PAD: 'x'.repeat(PAD) };
  const c = Array.isArray(commands[name]) ? { command: node, args: commands[name] } : commands[name];
  const transport = new StdioClientTransport({ ...c, cwd: DIR, env, stderr: 'ignore' });
  const client = new Client({ name: 'proxy-bench', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  const { tools } = await client.listTools();
  for (const t of ['get-sum', 'get-env']) if (!tools.some((x) => x.name === t)) throw new Error(`bench: ${name} lists no ${t}`);
  return { name, client, pid: transport.pid };
}

const ALL_CALLS = {
  small: { name: 'get-sum', arguments: { a: 1, b: 2 } },
  large: { name: 'get-env', arguments: {} },
};
/** The kinds of call measured (`--kinds small` profiles one alone). */
const CALL = Object.fromEntries(
  arg('kinds', 'small,large')
    .split(',')
    .map((k) => [k, ALL_CALLS[k]]),
);
/** Bytes of each kind's result as the client got it (first call). */
const resultBytes = {};

async function call(conn, kind) {
  const r = await conn.client.callTool(ALL_CALLS[kind]);
  if (r.isError) throw new Error(`bench: ${conn.name} ${kind} call failed: ${JSON.stringify(r).slice(0, 300)}`);
  resultBytes[`${conn.name}:${kind}`] ??= Buffer.byteLength(JSON.stringify(r));
}

/** CPU time of every thread of `pid` so far, in ns (schedstat's first field). */
function cpuNs(pid) {
  let ns = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return ns;
}
const rssKB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const median = (xs) => quantile(xs, 0.5);

/** `n` sequential calls: each call's ms, the calls' wall ms, and the relay's CPU ns. */
async function sequential(conn, kind, n) {
  const ms = [];
  const cpu0 = cpuNs(conn.pid);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call(conn, kind);
    ms.push(performance.now() - t);
  }
  const wall = performance.now() - t0;
  return { ms, wall, cpuNs: cpuNs(conn.pid) - cpu0 };
}

/** `n` calls with {@link DEPTH} in flight: calls per second, and the relay's CPU ns. */
async function pipelined(conn, kind, n) {
  const cpu0 = cpuNs(conn.pid);
  const t0 = performance.now();
  let sent = 0;
  const worker = async () => {
    while (sent < n) {
      sent++;
      await call(conn, kind);
    }
  };
  await Promise.all(Array.from({ length: DEPTH }, worker));
  return { rate: (n / (performance.now() - t0)) * 1000, cpuNs: cpuNs(conn.pid) - cpu0 };
}

const conns = [];
for (const v of VARIANTS) conns.push(await open(v));
// Warm-up: JIT, the proxy's first listing, validators compiled.
for (const c of conns) for (const kind of Object.keys(CALL)) await sequential(c, kind, 200);

// Latency: every round runs each variant's block of calls, the first variant rotating.
const per = Math.ceil(CALLS / ROUNDS);
const lat = {};
for (const c of conns) lat[c.name] = { small: { ms: [], rounds: [], cpuNs: 0, wall: 0, n: 0 }, large: { ms: [], rounds: [], cpuNs: 0, wall: 0, n: 0 } };
for (let r = 0; r < ROUNDS; r++) {
  for (const kind of Object.keys(CALL)) {
    const order = conns.map((_, i) => conns[(i + r) % conns.length]);
    for (const c of order) {
      const s = await sequential(c, kind, per);
      const l = lat[c.name][kind];
      l.ms.push(...s.ms);
      l.rounds.push({ median: median(s.ms), wall: s.wall });
      l.cpuNs += s.cpuNs;
      l.wall += s.wall;
      l.n += per;
    }
  }
}

// Throughput 32 in flight, interleaved likewise.
const rate = {};
for (const c of conns) rate[c.name] = { rates: [], cpuNs: 0, n: 0 };
if (PIPELINED > 0)
  for (let r = 0; r < 4; r++)
    for (const c of conns.map((_, i) => conns[(i + r) % conns.length])) {
      const p = await pipelined(c, 'small', PIPELINED);
      rate[c.name].rates.push(p.rate);
      rate[c.name].cpuNs += p.cpuNs;
      rate[c.name].n += PIPELINED;
    }

// Memory: the proxy alone, --total calls in all, RSS sampled SAMPLES times.
const proxy = conns.find((c) => c.name === 'proxy');
const rss = [];
const done = Object.keys(CALL).length * (200 + per * ROUNDS) + 4 * PIPELINED;
const memoryStarted = performance.now();
if (proxy && TOTAL > done) {
  const rest = TOTAL - done;
  rss.push({ calls: done, kb: rssKB(proxy.pid) });
  for (let s = 1; s <= SAMPLES; s++) {
    const n = Math.round((rest * s) / SAMPLES) - Math.round((rest * (s - 1)) / SAMPLES);
    await pipelined(proxy, 'small', n);
    rss.push({ calls: done + Math.round((rest * s) / SAMPLES), kb: rssKB(proxy.pid) });
  }
}
const memorySeconds = (performance.now() - memoryStarted) / 1000;
for (const c of conns) await c.client.close();

const out = { calls: per * ROUNDS, rounds: ROUNDS, pad: PAD, resultBytes, variants: {}, rss, memorySeconds };
for (const c of conns) {
  const v = {};
  const relay = c.name !== 'direct';
  /** The relay's CPU is read from its process (floor-cat's is a shell's: not measured). */
  const cpu = relay && c.name !== 'floor-cat';
  for (const kind of Object.keys(CALL)) {
    const l = lat[c.name][kind];
    const d = lat.direct?.[kind];
    // Against direct over the same interleaved rounds; the per-round spread of the medians' difference beside it.
    const perRound = d ? l.rounds.map((x, i) => x.median - d.rounds[i].median) : [];
    v[kind] = {
      median: median(l.ms),
      p99: quantile(l.ms, 0.99),
      added:
        d && relay
          ? { median: median(l.ms) - median(d.ms), p99: quantile(l.ms, 0.99) - quantile(d.ms, 0.99), rounds: [Math.min(...perRound), Math.max(...perRound)] }
          : undefined,
      cpuUsPerCall: cpu ? l.cpuNs / l.n / 1000 : undefined,
      callsPerSecond: (l.n / l.wall) * 1000,
      // One call at a time: the same calls' wall time, direct / this variant, round by round.
      ratio: d ? median(l.rounds.map((x, i) => d.rounds[i].wall / x.wall)) : undefined,
    };
  }
  const p = rate[c.name];
  v.pipelined = {
    callsPerSecond: median(p.rates),
    ratio: rate.direct?.rates.length ? median(p.rates.map((x, i) => x / rate.direct.rates[i])) : undefined,
    cpuUsPerCall: cpu && p.n ? p.cpuNs / p.n / 1000 : undefined,
  };
  out.variants[c.name] = v;
}
process.stdout.write(`${JSON.stringify(out)}\n`);
