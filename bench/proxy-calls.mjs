#!/usr/bin/env node
// Per-call cost of `toolgate proxy` (docs/design.md §11): a raw JSON-RPC client (no SDK, so the
// client adds nothing) calls one small tool of test/fixtures/servers/proxy-target.mjs N times in
// sequence, directly and through the proxy, interleaved in rounds; then pipelined calls for
// throughput; then the rest of --total calls in six segments, the proxy's RSS after each.
//   node bench/proxy-calls.mjs --cli dist/cli.js --dir DIR --calls 10000 --total 100000
// Prints one JSON line. DIR must hold the toolgate.yml and contract of the target (run.mjs makes it).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const argv = process.argv.slice(2);
const arg = (n, d) => (argv.includes(`--${n}`) ? argv[argv.indexOf(`--${n}`) + 1] : d);
const CLI = arg('cli');
const DIR = arg('dir');
const TARGET = arg('target');
const CALLS = Number(arg('calls', '10000'));
const TOTAL = Number(arg('total', '100000'));
const ROUNDS = 4;
const SEGMENTS = 6;

/** A connection: spawn, initialize, then `call()` resolves with the answer to one request. */
async function open(command, args) {
  const child = spawn(command, args, { cwd: DIR, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      return;
    }
    const w = waiting.get(m.id);
    if (w) {
      waiting.delete(m.id);
      w(m);
    }
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((resolve) => {
      const i = ++id;
      waiting.set(i, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: i, method, params })}\n`);
    });
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  await request('tools/list', {});
  const call = () => request('tools/call', { name: 'read_doc', arguments: { id: 'a' } });
  return { child, call, close: () => new Promise((r) => (child.once('exit', r), child.stdin.end())) };
}

const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function sequential(conn, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await conn.call();
    out.push(performance.now() - t0);
    if (!r.result || r.result.isError) throw new Error(`bench: call failed: ${JSON.stringify(r).slice(0, 300)}`);
  }
  return out;
}

async function pipelined(conn, n, depth = 32) {
  const t0 = performance.now();
  let sent = 0;
  const worker = async () => {
    while (sent < n) {
      sent++;
      await conn.call();
    }
  };
  await Promise.all(Array.from({ length: depth }, worker));
  return (n / (performance.now() - t0)) * 1000;
}

const direct = await open(process.execPath, [TARGET]);
const proxied = await open(process.execPath, [CLI, 'proxy', '--log', '/dev/null']);
const lat = { direct: [], proxied: [] };
const per = Math.ceil(CALLS / ROUNDS);
for (let r = 0; r < ROUNDS; r++) {
  // Interleaved rounds, the first side alternating, so load drift hits both.
  const order = r % 2 ? ['proxied', 'direct'] : ['direct', 'proxied'];
  for (const side of order) lat[side].push(...(await sequential(side === 'direct' ? direct : proxied, per)));
}
const rate = { direct: await pipelined(direct, 5000), proxied: await pipelined(proxied, 5000) };
const rssAfter10k = rss(proxied.child.pid);
// A leak grows RSS in every segment; V8 sizing its heap makes a step or two, at a moment that
// varies from run to run. Six samples tell the two apart (run.mjs judges the median segment).
const rest = Math.max(0, TOTAL - CALLS - 5000);
const segments = [];
for (let s = 0, done = 0; s < SEGMENTS; s++) {
  const n = Math.round((rest * (s + 1)) / SEGMENTS) - done;
  await sequential(proxied, n);
  done += n;
  segments.push({ calls: CALLS + 5000 + done, rssKB: rss(proxied.child.pid) });
}
await direct.close();
await proxied.close();
const summary = (xs) => ({ median: pct(xs, 50), p99: pct(xs, 99) });
process.stdout.write(
  `${JSON.stringify({ calls: lat.direct.length, direct: summary(lat.direct), proxied: summary(lat.proxied), callsPerSecond: rate, rssKB: { after10k: rssAfter10k, segments, total: TOTAL } })}\n`,
);
