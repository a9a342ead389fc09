#!/usr/bin/env node
// Instructions `toolgate proxy` executes per tool call, counted by valgrind (callgrind): a figure
// that a loaded machine does not move, for comparing two builds where wall time and CPU time are
// too noisy (what the kernel does for the proxy's reads and writes is not counted). The same SDK
// 2.x client and calls as bench/proxy-calls.mjs; the proxy runs under
// `valgrind --tool=callgrind --instr-atstart=no`, instrumentation is switched on after a warm-up,
// and `callgrind_control -e` reads the counters before and after each kind's calls.
//   node bench/proxy-instructions.mjs --dir DIR --cli dist/cli.js [--cli other/cli.js ...] [--calls 500]
//     [--floor path/to/server-everything/dist/index.js [--floor-modes json,json-fd,pipe,pipe-fd]]
// DIR holds toolgate.yml and the contract, as for proxy-calls.mjs. Prints one JSON line:
// instructions per call by build and kind. Each build takes a few minutes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const argv = process.argv.slice(2);
const arg = (n, d) => (argv.includes(`--${n}`) ? argv[argv.indexOf(`--${n}`) + 1] : d);
const DIR = resolve(arg('dir'));
const CLIS = argv.flatMap((a, i) => (a === '--cli' ? [resolve(argv[i + 1])] : []));
/** `--floor SERVER`: also count bench/proxy-floor.mjs (every line parsed and written again) in front of SERVER. */
const FLOOR_SERVER = arg('floor') === undefined ? undefined : resolve(arg('floor'));
/** The bench/proxy-floor.mjs modes counted with `--floor` (default: json). */
const FLOOR_MODES = arg('floor-modes', 'json').split(',');
const CALLS = Number(arg('calls', '500'));
const PAD = Number(arg('pad', '40000'));
const CALL = {
  small: { name: 'get-sum', arguments: { a: 1, b: 2 } },
  large: { name: 'get-env', arguments: {} },
};
const out = mkdtempSync(join(tmpdir(), 'proxy-instructions-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));

/** Instructions the process has executed with instrumentation on (callgrind_control -e). */
function counted(pid) {
  const text = execFileSync('callgrind_control', ['-e', 'Ir', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  // "Totals: Ir" then one line per thread: "Th 1  265".
  const threads = [...text.matchAll(/^\s*Th\s+\d+\s+([\d,]+)\s*$/gm)];
  if (threads.length === 0) throw new Error(`bench: no counter in callgrind_control's answer:\n${text}`);
  return threads.reduce((sum, m) => sum + Number(m[1].replaceAll(',', '')), 0);
}

/** `relay`: the relay's arguments to node. */
async function measure(relay) {
  const transport = new StdioClientTransport({
    command: 'valgrind',
    args: ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(out, 'cg.%p')}`, process.execPath, ...relay],
    cwd: DIR,
    env: { BENCH_RESULT_PAD: 'x'.repeat(PAD) },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'proxy-bench', version: '1.0.0' }, { capabilities: {} });
  const slow = { timeout: 600_000 };
  await client.connect(transport, slow);
  await client.listTools(undefined, slow);
  const pid = transport.pid;
  const run = async (kind, n) => {
    for (let i = 0; i < n; i++) {
      const r = await client.callTool(CALL[kind], slow);
      if (r.isError) throw new Error(`bench: ${kind} call failed: ${JSON.stringify(r).slice(0, 300)}`);
    }
  };
  for (const kind of Object.keys(CALL)) await run(kind, 200);
  execFileSync('callgrind_control', ['-i', 'on', String(pid)], { stdio: 'ignore' });
  const per = {};
  for (const kind of Object.keys(CALL)) {
    const before = counted(pid);
    await run(kind, CALLS);
    per[kind] = Math.round((counted(pid) - before) / CALLS);
  }
  await client.close();
  return per;
}

const result = [];
for (const cli of CLIS) result.push({ cli, ...(await measure([cli, 'proxy', '--log', join(out, 'log.jsonl')])) });
if (FLOOR_SERVER) {
  const floor = join(dirname(fileURLToPath(import.meta.url)), 'proxy-floor.mjs');
  for (const mode of FLOOR_MODES)
    result.push({ cli: `floor-${mode}`, ...(await measure([floor, '--mode', mode, '--', process.execPath, FLOOR_SERVER, 'stdio'])) });
}
process.stdout.write(`${JSON.stringify({ calls: CALLS, instructionsPerCall: result })}\n`);
