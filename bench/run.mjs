#!/usr/bin/env node
// toolgate's own cost next to the floor, measured side by side in one run.
//
//   npm run bench                      all cases, 5 measured runs each after one warm-up
//   node bench/run.mjs --runs 7        more runs
//   node bench/run.mjs --only mcp,scale,cold,openapi,schema,sandbox,proxy,tokens
//   node bench/run.mjs --sizes 10,100  scale case sizes (default 10,100,1000,5000)
//   node bench/run.mjs --proxy-total N proxy case: calls through the proxy in all (default 1,000,000)
//   node bench/run.mjs --no-write      print only; do not rewrite bench/RESULTS.md
//
// Measures the committed bundles (dist/): run `npm run build` first after changing src/.
// Every measured command is a fresh `node` process started with `--import bench/lib/peak-rss.mjs`,
// which reports that process's peak RSS (getrusage ru_maxrss) on fd 3 at exit. Wall time is taken
// here, from spawn() to the child's exit. The commands of a pair are interleaved (A B A B ...,
// rotating which goes first) so that load drifts on a shared machine hit both alike; tables show
// medians. See bench/README.md.
import { spawnSync } from 'node:child_process';
import { cpus, totalmem, tmpdir } from 'node:os';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv, fmtMs, interleave as interleaveIn, measure as measureIn, median, pairDelta } from './lib/measure.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BENCH = join(ROOT, 'bench');
const DIST = join(ROOT, 'dist');
const EVERYTHING = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const GITHUB_SPEC = join(ROOT, 'node_modules', '@octokit', 'openapi', 'generated', 'api.github.com.json');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

const argv = process.argv.slice(2);
const arg = (name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : def;
};
const RUNS = Math.max(1, Number(arg('runs', '5')));
const ONLY = new Set(arg('only', 'mcp,scale,cold,openapi,schema,sandbox,proxy,tokens').split(','));
const SIZES = arg('sizes', '10,100,1000,5000').split(',').map(Number);
/** Calls through the proxy in all (case 7's memory run). */
const PROXY_TOTAL = Number(arg('proxy-total', '1000000'));
const WRITE = !argv.includes('--no-write');

for (const f of ['cli.js', 'index.js']) {
  if (!existsSync(join(DIST, f))) {
    process.stderr.write(`bench: dist/${f} is missing; run \`npm run build\` first\n`);
    process.exit(2);
  }
}

const benchStarted = performance.now();
const work = mkdtempSync(join(tmpdir(), 'toolgate-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
// Measure a copy of dist/ taken now, so that a rebuild during the bench (another shell) cannot
// remove the bundles under it. The bundles are self-contained; the worker sits next to them.
cpSync(DIST, join(work, 'dist'), { recursive: true });
const CLI = join(work, 'dist', 'cli.js');
const ACTION = join(work, 'dist', 'index.js');
const log = (s) => process.stderr.write(`${s}\n`);

// ---------------------------------------------------------------------------------------------
// Measuring

const measure = (o) => measureIn({ cwd: work, ...o });
const interleave = (variants, runs = RUNS) => interleaveIn(variants, runs, measure);

/** Median time of each phase mark over runs, as [name, ms since process start]. */
function medianPhases(runs, normalize = (k) => k) {
  const acc = new Map();
  for (const r of runs) {
    for (const [k, v] of Object.entries(r.timing ?? {})) {
      const key = normalize(k);
      if (!acc.has(key)) acc.set(key, []);
      acc.get(key).push(v);
    }
  }
  return [...acc].map(([k, vs]) => [k, median(vs)]).sort((a, b) => a[1] - b[1]);
}

const fmtMB = (kb) => (kb === undefined ? 'n/a' : `${(kb / 1024).toFixed(0)} MB`);
/**
 * The ratio of two interleaved commands, round by round (their runs at the same index ran side
 * by side): `median (min–max)`. `value` is the median, for targets.
 */
function pairRatio(a, b) {
  const rs = a.runs.map((r, i) => r.ms / b.runs[i].ms);
  const value = median(rs);
  return { value, text: `${value.toFixed(2)} (${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})` };
}
const spread = (r) => `${fmtMs(r.min)}–${fmtMs(r.max)}`;
const verdict = (ok) => (ok ? 'yes' : '**no**');

// ---------------------------------------------------------------------------------------------
// Cases

const sections = [];
const summary = [];

/** Writes a policy file and runs `toolgate update` once so `check` has a contract. */
async function prepareContract(dir, policyForUpdate) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'toolgate.update.yml'), policyForUpdate);
  const r = await measure({ args: [CLI, 'update', '--config', 'toolgate.update.yml'], cwd: dir });
  if (r.code !== 0) throw new Error(`bench: toolgate update failed in ${dir}\n${r.stderr}\n${r.stdout.slice(-2000)}`);
}

const yamlArgs = (xs) => `[${xs.map((x) => JSON.stringify(String(x))).join(', ')}]`;
// The servers (node_modules, bench/) live in this repository, outside the bench's directories:
// the sandbox, which reads nothing outside the run's repository unless told, is told.
const mcpPolicy = (id, args, extra = '') =>
  `sources:\n  - id: ${id}\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: ${yamlArgs(args)}\n      readable: [${JSON.stringify(ROOT)}]\n${extra}`;
const stripId = (k) => k.replace(/^[a-z0-9._-]+: /, '').replace(/ \(.*\)$/, '');

async function caseMcp() {
  log('bench: case 1, floor vs toolgate on @modelcontextprotocol/server-everything');
  const dir = join(work, 'everything');
  const server = [EVERYTHING, 'stdio'];
  await prepareContract(dir, mcpPolicy('everything', server));
  writeFileSync(join(dir, 'toolgate.yml'), mcpPolicy('everything', server));
  const [raw, tg, v2, v1] = await interleave([
    { label: 'raw floor (bench/raw-floor.mjs, no client library)', args: [join(BENCH, 'raw-floor.mjs'), '--timing', '--', process.execPath, ...server] },
    { label: 'toolgate check (dist/cli.js)', args: [CLI, 'check'], cwd: dir, expect: [0] },
    { label: 'SDK 2.x floor (@modelcontextprotocol/client), context', args: [join(BENCH, 'floor.mjs'), '--timing', '--', process.execPath, ...server] },
    {
      label: 'SDK 1.x floor (@modelcontextprotocol/sdk), context',
      args: [join(BENCH, 'floor.mjs'), '--sdk', 'v1', '--timing', '--', process.execPath, ...server],
    },
  ]);
  const toRaw = pairRatio(tg, raw);
  const rows = [raw, tg, v2, v1].map(
    (r) => `| ${r.label} | ${fmtMs(r.ms)} | ${spread(r)} | ${fmtMB(r.rssKB)} | ${r === raw ? '1.00' : pairRatio(r, raw).text} |`,
  );
  const phaseRows = (ph) => {
    let prev = 0;
    return ph.map(([k, t]) => {
      const row = `| ${k} | ${fmtMs(t)} | +${Math.round(t - prev)} ms |`;
      prev = t;
      return row;
    });
  };
  sections.push(
    `## 1. Floor vs toolgate on a real server\n\n` +
      `\`@modelcontextprotocol/server-everything\` over stdio (13 tools to a client without capabilities). ` +
      `Raw floor: \`bench/raw-floor.mjs\`, the least any program pays: spawn the server in its own process group, write \`initialize\` at once, list every page, SIGKILL the group; no client library. ` +
      `Every ratio here is to it, round by round (median, min–max). The SDK floors (\`bench/floor.mjs\`: the same steps through each SDK's Client, ending with its graceful close) are context. ` +
      `toolgate: \`node dist/cli.js check\` against a contract written once by \`toolgate update\` (clean: exit 0), its server in the bubblewrap sandbox (the default; the raw floor runs it bare, case 6 prices the sandbox alone). ` +
      `Peak RSS is the measured Node process's own (not the server's).\n\n` +
      `| command | median | min–max | peak RSS | ratio to the raw floor |\n|---|---|---|---|---|\n${rows.join('\n')}\n\n` +
      `Where the time goes (median of each mark over the measured runs, ms since the Node process started; ` +
      `toolgate with \`TOOLGATE_TIMING=1\`, the floors with \`--timing\`):\n\n` +
      `| toolgate phase | at | step |\n|---|---|---|\n${phaseRows(medianPhases(tg.runs, stripId)).join('\n')}\n\n` +
      `| raw floor phase | at | step |\n|---|---|---|\n${phaseRows(medianPhases(raw.runs)).join('\n')}\n\n` +
      `| SDK 2.x floor phase | at | step |\n|---|---|---|\n${phaseRows(medianPhases(v2.runs)).join('\n')}\n`,
  );
  summary.push(
    `| 1 | server-everything: toolgate check / raw floor | ${toRaw.text}; ${fmtMs(tg.ms)} / ${fmtMs(raw.ms)} | ≤ 1.1 | ${verdict(toRaw.value <= 1.1)} |`,
  );
}

/**
 * Case 6: what the sandbox costs per server start. The same `toolgate check` on the same server,
 * sandboxed (bubblewrap) and not (`TOOLGATE_SANDBOX_UNAVAILABLE`), interleaved; plus bare
 * `bwrap` around `node -e 0` against `node -e 0`, the sandbox's own start-up.
 */
async function caseSandbox() {
  log('bench: case 6, sandbox cost per start');
  const bwrap = ['/usr/bin/bwrap', '/bin/bwrap'].find((p) => existsSync(p));
  const probe = bwrap && spawnSync(bwrap, ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', 'true']);
  if (!bwrap || probe.status !== 0) {
    sections.push(`## 6. Sandbox cost per start

Not measured: bubblewrap ${bwrap ? 'cannot create namespaces here' : 'is not installed'}.
`);
    summary.push('| 6 | sandbox: extra ms per server start | n/a | ≤ 30 ms | n/a |');
    return;
  }
  const dir = join(work, 'sandbox');
  const server = [EVERYTHING, 'stdio'];
  await prepareContract(dir, mcpPolicy('everything', server));
  writeFileSync(join(dir, 'toolgate.yml'), mcpPolicy('everything', server));
  const nsArgs = [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--',
  ];
  const [sandboxed, plain] = await interleave([
    { label: 'toolgate check, server sandboxed (default)', args: [CLI, 'check'], cwd: dir, expect: [0] },
    { label: 'toolgate check, server unsandboxed', args: [CLI, 'check'], cwd: dir, expect: [0], env: benchEnv({ TOOLGATE_SANDBOX_UNAVAILABLE: 'bench' }) },
  ]);
  // The sandbox alone: a Node process that spawns `node -e 0` inside bwrap, and one that spawns it bare.
  const spawnIn = (cmd) => [
    '-e',
    `const { spawnSync } = require('node:child_process'); const r = spawnSync(${JSON.stringify(cmd[0])}, ${JSON.stringify(cmd.slice(1))}); process.exit(r.status);`,
  ];
  const [inBwrap, bare] = await interleave([
    { label: 'spawn `bwrap … node -e 0`', args: spawnIn([bwrap, ...nsArgs, process.execPath, '-e', '0']) },
    { label: 'spawn `node -e 0`', args: spawnIn([process.execPath, '-e', '0']) },
  ]);
  const delta = sandboxed.ms - plain.ms;
  const own = inBwrap.ms - bare.ms;
  sections.push(
    `## 6. Sandbox cost per start\n\n` +
      `\`toolgate check\` on \`@modelcontextprotocol/server-everything\` (stdio), its server in the bubblewrap sandbox and not; ` +
      `and bubblewrap's own start-up: a process spawning \`node -e 0\` inside \`bwrap\` (the namespaces and mounts toolgate uses) against one spawning it bare.\n\n` +
      `| command | median | min–max |\n|---|---|---|\n` +
      [sandboxed, plain, inBwrap, bare].map((r) => `| ${r.label} | ${fmtMs(r.ms)} | ${spread(r)} |`).join('\n') +
      `\n\nExtra per start: ${Math.round(delta)} ms in \`toolgate check\`, ${Math.round(own)} ms for bubblewrap alone.\n`,
  );
  summary.push(
    `| 6 | sandbox: extra ms per server start (toolgate check; bwrap alone) | ${Math.round(delta)} ms; ${Math.round(own)} ms | ≤ 30 ms | ${verdict(delta <= 30)} |`,
  );
}

async function caseScale() {
  log(`bench: case 2, scale (synthetic server, ${SIZES.join(', ')} tools)`);
  const rows = [];
  const results = [];
  for (const n of SIZES) {
    log(`bench:   ${n} tools`);
    const dir = join(work, `synthetic-${n}`);
    const seedArgs = [join(BENCH, 'synthetic-server.mjs'), '--tools', n, '--seed', 1];
    const headArgs = [...seedArgs, '--change-seed', 7, '--change-every', 100];
    await prepareContract(dir, mcpPolicy('synthetic', seedArgs));
    writeFileSync(join(dir, 'toolgate.yml'), mcpPolicy('synthetic', headArgs));
    const [fl, tg] = await interleave([
      { label: 'raw floor', args: [join(BENCH, 'raw-floor.mjs'), '--timing', '--', process.execPath, ...headArgs.map(String)] },
      // Exit 1: the 1% changed tools are error-level findings (annotation-dropped, schema-widened).
      { label: 'toolgate check', args: [CLI, 'check', '--format', 'json'], cwd: dir, expect: [0, 1] },
    ]);
    const report = JSON.parse(tg.runs[0].stdout);
    const findings = report.findings?.length ?? report.counts ?? 'n/a';
    const ph = Object.fromEntries(medianPhases(tg.runs, stripId));
    const afterListing = ph['rules evaluated'] !== undefined && ph['tools listed'] !== undefined ? ph['rules evaluated'] - ph['tools listed'] : undefined;
    results.push({ n, fl, tg, r: pairRatio(tg, fl) });
    rows.push(
      `| ${n} | ${fmtMs(fl.ms)} | ${fmtMs(tg.ms)} | ${pairRatio(tg, fl).text} | ${fmtMs(ph['tools listed'] - ph['initialized'])} | ${fmtMs(afterListing)} | ${fmtMB(fl.rssKB)} | ${fmtMB(tg.rssKB)} | ${typeof findings === 'number' ? findings : 'n/a'} |`,
    );
  }
  const big = results.at(-1);
  const small = results.find((r) => r.n >= 100) ?? results[0];
  const perTool = (r, s) => ((r.tg.ms - s.tg.ms) / (r.n - s.n)).toFixed(2);
  sections.push(
    `## 2. Scale: synthetic server\n\n` +
      `\`bench/synthetic-server.mjs\`: raw JSON-RPC over stdio, N generated tools (descriptions of 200–500 characters, ` +
      `5–20 properties, \`$defs\` in every 4th tool, ~3.2 KB of JSON per tool), 100 tools per page, cursors it follows itself. ` +
      `The contract is written by \`update\` from seed 1; \`check\` runs against the same server with every 100th tool changed ` +
      `(rotating: description changed, a hint dropped, an optional property added; the last tool when N < 100). ` +
      `toolgate's default limits suffice (5,000 tools = 50 pages, ~16 MB, under \`max-pages\` 100 and \`max-bytes\` 32 MiB), so the bench's toolgate.yml sets none. ` +
      `Floor: \`bench/raw-floor.mjs\` (no client library; ratios round by round, median and min–max). ` +
      `"listing" is toolgate's initialize→listed step, "after listing" everything from the last page to rules evaluated (normalize, diff, schema classification, rules).\n\n` +
      `| tools | raw floor | toolgate check | ratio | toolgate listing | after listing | floor peak RSS | toolgate peak RSS | findings |\n|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n` +
      (big && small && big !== small
        ? `\nGrowth: toolgate adds ${perTool(big, small)} ms per tool between ${small.n} and ${big.n} tools (floor: ${((big.fl.ms - small.fl.ms) / (big.n - small.n)).toFixed(2)} ms).\n`
        : ''),
  );
  if (big) {
    summary.push(
      `| 2 | ${big.n} tools: toolgate check / raw floor | ${big.r.text}; ${fmtMs(big.tg.ms)} / ${fmtMs(big.fl.ms)} | ≤ 2 | ${verdict(big.r.value <= 2)} |`,
    );
    summary.push(`| 2 | ${big.n} tools: toolgate peak RSS | ${fmtMB(big.tg.rssKB)} | ≤ 300 MB | ${verdict(big.tg.rssKB <= 300 * 1024)} |`);
  }
}

async function caseCold() {
  log('bench: case 3, cold start');
  const empty = join(work, 'cold');
  mkdirSync(empty, { recursive: true });
  // Timed without the peak-RSS preload (see measure); peak RSS from one preloaded run of each after.
  const variants = [
    { label: 'bare `node -e 0` (Node itself)', args: ['-e', '0'] },
    // No inputs and no toolgate.yml: fails fast on the missing config (exit 1 from core.setFailed).
    { label: '`node dist/index.js` (Action, no inputs: config error)', args: [ACTION], cwd: empty, expect: [1] },
    { label: '`node dist/cli.js --help`', args: [CLI, '--help'] },
    // No toolgate.yml in the directory: a configuration error (exit 2) naming the file.
    { label: '`node dist/cli.js check` (no toolgate.yml: config error)', args: [CLI, 'check'], cwd: empty, expect: [2] },
  ].map((v) => ({ ...v, preload: false }));
  const timed = await interleave(variants);
  for (const [i, r] of timed.entries()) r.rssKB = (await measure({ ...variants[i], preload: true })).rssKB;
  const [bare, action, help, missing] = timed;
  // Where an ES module's first line runs in bare Node (what "modules loaded" is compared with).
  const firstLine = [];
  for (let i = 0; i < RUNS; i++) {
    const script = "process.stderr.write('floor-timing ' + JSON.stringify({ first: performance.now() }) + '\\n')";
    firstLine.push((await measure({ args: ['--input-type=module', '-e', script], preload: false })).timing?.first);
  }
  // The bundles are split: a bundle's size is its entry file plus every chunk it can load
  // (static and dynamic imports, followed transitively).
  // The tokenizer's tables (the o200k_base chunk, ~2.7 MB of data) load only when tokens are
  // counted (case 8): reported apart, not in a bundle's code size.
  const isData = (f) => /[\\/]o200k_base-[^/\\]*\.js$/.test(f);
  const reach = (entry) => {
    const seen = new Set();
    const visit = (f) => {
      if (seen.has(f) || !existsSync(f)) return;
      seen.add(f);
      for (const m of readFileSync(f, 'utf8').matchAll(/(?:from\s*|import\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g)) visit(resolve(dirname(f), m[1]));
    };
    visit(entry);
    return [...seen];
  };
  const size = (entry) =>
    reach(entry)
      .filter((f) => !isData(f))
      .reduce((n, f) => n + statSync(f).size, 0);
  const dataSize = [...new Set(['index.js', 'cli.js'].flatMap((f) => reach(join(work, 'dist', f))))].filter(isData).reduce((n, f) => n + statSync(f).size, 0);
  const files = ['index.js', 'cli.js', 'schema-worker.mjs'].map((f) => join(work, 'dist', f)).filter(existsSync);
  const rows = [bare, action, help, missing].map(
    (r) => `| ${r.label} | ${fmtMs(r.ms)} | ${spread(r)} | ${r === bare ? '' : pairDelta(r, bare).text} | ${fmtMB(r.rssKB)} |`,
  );
  const phase = (r) => median(r.runs.map((x) => x.timing?.['modules loaded']));
  sections.push(
    `## 3. Cold start\n\n"Over bare Node" is taken round by round against \`node -e 0\` run beside it (median, min–max). These runs are timed without the peak-RSS preload (an ES module, which would make bare Node start the ES module loader too); peak RSS is from one preloaded run of each.\n\n| command | median | min–max | over bare Node | peak RSS |\n|---|---|---|---|---|\n${rows.join('\n')}\n\n` +
      `Module load (median "modules loaded" mark, ms since process start): Action ${fmtMs(phase(action))}, CLI ${fmtMs(phase(help))}; an empty ES module's first line runs at ${fmtMs(median(firstLine))} in bare Node here.\n\n` +
      `| bundle (entry + every chunk it can load) | size |\n|---|---|\n${files.map((f) => `| dist/${f.split('/').pop()} | ${(size(f) / 1024 / 1024).toFixed(2)} MB |`).join('\n')}\n\n` +
      `Not counted above: the tokenizer's tables (\`o200k_base\` chunk, ${(dataSize / 1024 / 1024).toFixed(2)} MB of data), loaded only when tokens are counted (case 8).\n`,
  );
  for (const [r, what] of [
    [action, '`node dist/index.js` (Action, missing config)'],
    [help, '`node dist/cli.js --help`'],
    [missing, '`node dist/cli.js check` (missing config)'],
  ]) {
    const d = pairDelta(r, bare);
    summary.push(`| 3 | ${what}: cold start over bare \`node -e 0\` | ${d.text}; ${fmtMs(r.ms)} | ≤ 30 ms | ${verdict(d.value <= 30)} |`);
  }
  const biggest = Math.max(...files.map(size));
  summary.push(`| 3 | largest bundle | ${(biggest / 1024 / 1024).toFixed(2)} MB | ≤ 3 MB | ${verdict(biggest <= 3 * 1024 * 1024)} |`);
}

async function caseOpenApi() {
  log('bench: case 4, OpenAPI (GitHub REST description)');
  const doc = JSON.parse(readFileSync(GITHUB_SPEC, 'utf8'));
  const ids = [];
  for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) if (op?.operationId) ids.push(op.operationId);
  const every = Math.floor(ids.length / 50);
  const sets = [
    { name: 'github-50', include: ids.filter((_, i) => i % every === 0).slice(0, 50) },
    { name: 'github-all', include: ids },
  ];
  const rows = [];
  const loaderRows = [];
  for (const s of sets) {
    const dir = join(work, s.name);
    mkdirSync(dir, { recursive: true });
    // toolgate reads no file outside the repository (the policy's directory): the spec goes in it.
    cpSync(GITHUB_SPEC, join(dir, 'api.github.com.json'));
    writeFileSync(join(dir, 'integration.json'), JSON.stringify({ id: s.name, type: 'openapi', spec: 'api.github.com.json', include: s.include }, null, 2));
    const policy = `sources:\n  - id: ${s.name}\n    openapi: integration.json\n`;
    await prepareContract(dir, policy);
    writeFileSync(join(dir, 'toolgate.yml'), policy);
    log(`bench:   ${s.name}: ${s.include.length} operations`);
    const [fl, tg] = await interleave([
      { label: 'floor', args: [join(BENCH, 'openapi-floor.mjs'), join(dir, 'integration.json')] },
      { label: 'toolgate check', args: [CLI, 'check', '--format', 'json'], cwd: dir, expect: [0, 1] },
    ]);
    s.tg = tg;
    rows.push(
      `| ${s.include.length} | ${fmtMs(fl.ms)} | ${fmtMs(tg.ms)} | ${spread(tg)} | ${pairRatio(tg, fl).text} | ${fmtMB(fl.rssKB)} | ${fmtMB(tg.rssKB)} |`,
    );
    if (existsSync(TSX)) {
      // The loader alone, in process, with and without the parser's document validation.
      const [on, off] = await interleave(
        [
          { label: 'validate', args: [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(BENCH, 'openapi-load.mjs'), join(dir, 'integration.json')] },
          {
            label: 'no validate',
            args: [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(BENCH, 'openapi-load.mjs'), join(dir, 'integration.json'), '--no-validate'],
          },
        ],
        Math.min(RUNS, 3),
      );
      const inner = (r) => median(r.runs.map((x) => JSON.parse(x.stdout.trim().split('\n').pop()).ms));
      loaderRows.push(`| ${s.include.length} | ${fmtMs(inner(on))} | ${fmtMs(inner(off))} | ${fmtMs(inner(on) - inner(off))} |`);
    }
  }
  sections.push(
    `## 4. OpenAPI: GitHub's REST description\n\n` +
      `\`node_modules/@octokit/openapi/generated/api.github.com.json\` (${(statSync(GITHUB_SPEC).size / 1024 / 1024).toFixed(1)} MB, ${ids.length} operations). ` +
      `An integration of 50 operations (every ${every}th) and one of all of them; \`toolgate check\` against a contract written by \`update\`. ` +
      `Floor: \`bench/openapi-floor.mjs\` (read + JSON.parse the document, find each operationId).\n\n` +
      `| operations | floor | toolgate check | min–max | ratio | floor peak RSS | toolgate peak RSS |\n|---|---|---|---|---|---|---|\n${rows.join('\n')}\n` +
      (loaderRows.length
        ? `\nThe OpenAPI loader alone (\`snapshotOpenApi\` from source via tsx, in-process time, median of ${Math.min(RUNS, 3)}), with the parser's document validation (the default) and without (\`validate: false\`, an API option; toolgate.yml has no switch for it):\n\n` +
          `| operations | validate (default) | no validation | validation costs |\n|---|---|---|---|\n${loaderRows.join('\n')}\n`
        : ''),
  );
  summary.push(
    `| 4 | OpenAPI, ${sets[0].include.length} operations: toolgate check | ${fmtMs(sets[0].tg.ms)}, ${fmtMB(sets[0].tg.rssKB)} | ≤ 3 s | ${verdict(sets[0].tg.ms <= 3000)} |`,
  );
  summary.push(
    `| 4 | OpenAPI, ${sets[1].include.length} operations: toolgate check | ${fmtMs(sets[1].tg.ms)}, ${fmtMB(sets[1].tg.rssKB)} | ≤ 10 s | ${verdict(sets[1].tg.ms <= 10_000)} |`,
  );
}

/**
 * Hook for the schema-diff case: bench/schema-ghes.mjs (owned by the schema module) classifies
 * every changed request schema between GitHub Enterprise Server versions. When the script exists
 * it runs once (from source, via tsx) and its output is included as it printed it.
 */
async function caseSchema() {
  const script = join(BENCH, 'schema-ghes.mjs');
  if (!existsSync(script) || !existsSync(TSX)) {
    sections.push(`## 5. Schema diffs\n\nNot run: bench/schema-ghes.mjs (or tsx) is missing.\n`);
    return;
  }
  log('bench: case 5, schema diffs (bench/schema-ghes.mjs)');
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), script, '--no-baseline'], {
    cwd: ROOT,
    env: benchEnv({ TOOLGATE_TIMING: '' }),
    encoding: 'utf8',
    timeout: 180_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  const status = r.error ? `failed: ${r.error.message}` : `exit ${r.status}`;
  const out = `${r.stdout ?? ''}${r.status !== 0 ? `\n${(r.stderr ?? '').slice(-2000)}` : ''}`.trim();
  sections.push(
    `## 5. Schema diffs (bench/schema-ghes.mjs)\n\n` +
      `\`tsx bench/schema-ghes.mjs --no-baseline\`, run once (${status}, ${fmtMs(ms)} wall including loading the GHES descriptions). Its output:\n\n` +
      `\`\`\`text\n${out.length > 12_000 ? `${out.slice(0, 12_000)}\n... (cut)` : out}\n\`\`\`\n`,
  );
}

// ---------------------------------------------------------------------------------------------

function machine() {
  const info = readFileSyncSafe('/proc/cpuinfo');
  const model = /model name\s*:\s*(.*)/.exec(info)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  const load = readFileSyncSafe('/proc/loadavg').split(' ').slice(0, 3).join(' ');
  return { model, cores: cpus().length, memGB: (totalmem() / 1024 ** 3).toFixed(1), node: process.version, load };
}
function readFileSyncSafe(f) {
  try {
    return readFileSync(f, 'utf8');
  } catch {
    return '';
  }
}

const before = machine();
async function caseTokens() {
  const n = SIZES.at(-1);
  log(`bench: case 8, counting tokens per turn (synthetic server, ${n} tools)`);
  const dir = join(work, `tokens-${n}`);
  const args = [join(BENCH, 'synthetic-server.mjs'), '--tools', n, '--seed', 1];
  await prepareContract(dir, mcpPolicy('synthetic', args));
  writeFileSync(join(dir, 'pinned.yml'), mcpPolicy('synthetic', args));
  // A limit makes check count every tool (o200k_base), whatever the contract pins.
  writeFileSync(join(dir, 'counted.yml'), mcpPolicy('synthetic', args, 'limits:\n  max-tokens: 1000000000\n'));
  const [pinned, counted] = await interleave([
    { label: '`toolgate check`, total pinned in the contract (nothing counted)', args: [CLI, 'check', '--config', 'pinned.yml', '--format', 'json'], cwd: dir },
    { label: '`toolgate check` with `limits.max-tokens` (every tool counted)', args: [CLI, 'check', '--config', 'counted.yml', '--format', 'json'], cwd: dir },
  ]);
  const perTurn = JSON.parse(counted.runs[0].stdout).sources[0]?.tokens?.perTurn;
  // The tokens step: from the step before it (the contract verified, or else normalized) to the
  // "tokens …" mark of the same run.
  const step = (r) =>
    median(
      r.runs.map((x) => {
        const t = Object.entries(x.timing ?? {}).map(([k, v]) => [stripId(k), v]);
        const at = (name) => t.find(([k]) => k.startsWith(name))?.[1];
        const from = at('contract verified') ?? at('normalized');
        return at('tokens') !== undefined && from !== undefined ? at('tokens') - from : undefined;
      }),
    );
  const extra = counted.ms - pinned.ms;
  sections.push(
    `## 8. Counting tokens per turn\n\n` +
      `\`toolgate check\` on the synthetic server with ${n} tools (seed 1, unchanged since \`update\`), interleaved: once taking the total the contract pins for the same digest, once with \`limits.max-tokens\` set, which counts every tool with \`o200k_base\` (gpt-tokenizer; loading its tables is most of the cost). ` +
      `Tokens per turn of the ${n} tools: ${perTurn?.toLocaleString('en') ?? 'n/a'}.\n\n` +
      `| command | median | min–max | tokens step (contract verified → tokens) | peak RSS |\n|---|---|---|---|---|\n` +
      [pinned, counted].map((r) => `| ${r.label} | ${fmtMs(r.ms)} | ${spread(r)} | ${fmtMs(step(r))} | ${fmtMB(r.rssKB)} |`).join('\n') +
      `\n\nCounting adds ${Math.round(extra)} ms (ratio ${pairRatio(counted, pinned).text}).\n`,
  );
  summary.push(
    `| 8 | ${n} tools: extra time to count tokens per turn | ${Math.round(extra)} ms (ratio ${pairRatio(counted, pinned).text}) | ≤ 1,000 ms | ${verdict(extra <= 1000)} |`,
  );
}

/**
 * Case 7: what `toolgate proxy` adds per call (bench/proxy-calls.mjs): an SDK 2.x client calling
 * server-everything directly, through the proxy and through two floors of any relay, interleaved;
 * then PROXY_TOTAL calls in all through the proxy with its RSS sampled.
 */
async function caseProxy() {
  log('bench: case 7, proxy per-call cost');
  const dir = join(work, 'proxy');
  // get-env answers with the server's environment: BENCH_RESULT_PAD (passed through) makes it ~40 KB.
  const policy = mcpPolicy('everything', [EVERYTHING, 'stdio'], '').replace(/\n$/, '\n      env: [BENCH_RESULT_PAD]\n');
  await prepareContract(dir, policy);
  writeFileSync(join(dir, 'toolgate.yml'), policy);
  const r = spawnSync(
    process.execPath,
    [join(BENCH, 'proxy-calls.mjs'), '--cli', CLI, '--dir', dir, '--server', EVERYTHING, '--calls', '2000', '--total', String(PROXY_TOTAL)],
    { encoding: 'utf8', env: benchEnv({ TOOLGATE_TIMING: '' }), maxBuffer: 1 << 20 },
  );
  if (r.status !== 0) throw new Error(`bench: proxy-calls failed\n${r.stderr.slice(-3000)}`);
  const m = JSON.parse(r.stdout.trim().split('\n').at(-1));
  const v = m.variants;
  const us = (x) => (x === undefined ? '' : `${Math.round(x * 1000)} µs`);
  const pct = (x) => (x === undefined ? '' : `${Math.round(x * 100)} %`);
  const row = (name, label) => {
    const x = v[name];
    const cells = (k) => [
      us(x[k].median),
      us(x[k].p99),
      x[k].added ? `${us(x[k].added.median)} (rounds ${us(x[k].added.rounds[0])} to ${us(x[k].added.rounds[1])})` : '',
      us(x[k].added?.p99),
      x[k].cpuUsPerCall === undefined ? '' : `${Math.round(x[k].cpuUsPerCall)} µs`,
    ];
    return `| ${label} | ${[...cells('small'), ...cells('large'), pct(x.small.ratio), `${Math.round(x.pipelined.callsPerSecond).toLocaleString('en')} (${pct(x.pipelined.ratio)})`].join(' | ')} |`;
  };
  // Memory: the least-squares slope of the proxy's RSS over the second half of the long run.
  const half = m.rss.slice(Math.floor(m.rss.length / 2));
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const cx = mean(half.map((p) => p.calls));
  const ck = mean(half.map((p) => p.kb));
  const slope = half.reduce((a, p) => a + (p.calls - cx) * (p.kb - ck), 0) / half.reduce((a, p) => a + (p.calls - cx) ** 2, 0);
  const perMillionMB = (slope * 1e6) / 1024;
  const last = m.rss.at(-1);
  const rb = m.resultBytes;
  sections.push(
    `## 7. Proxy: per-call cost\n\n` +
      `A real SDK 2.x client (\`@modelcontextprotocol/client\`) calls server-everything's \`get-sum\` (a ${rb['direct:small']}-byte result) and \`get-env\` (a ${rb['direct:large'].toLocaleString('en')}-byte result: the server's environment holds a ${m.pad.toLocaleString('en')}-byte variable) ${m.calls.toLocaleString('en')} times each, one call at a time, on one connection per variant, in ${m.rounds} interleaved rounds: ` +
      `directly; through \`toolgate proxy\` (the contract pinned by \`toolgate update\`, the default runtime block, arguments validated against the pinned inputSchema, the decision log to a file, the server in the sandbox); ` +
      `and through the floors of a stdio relay: two in Node (\`bench/proxy-floor.mjs\`), one more process piping the bytes through and one that parses every line and writes it again, and one with no JavaScript, a \`cat\` each way (its CPU is not measured). ` +
      `Added = the variant's quantile − direct's, over the same rounds (beside it, the spread of the per-round medians' difference). Relay CPU: the relay process's CPU time per call (all threads, from /proc), steadier than wall time on a loaded machine. ` +
      `Throughput: one call at a time (the calls' wall time, direct / variant, round by round), and 2,000 \`get-sum\` calls 32 in flight, 4 interleaved rounds.\n\n` +
      `| variant | get-sum median | p99 | added median | added p99 | relay CPU | get-env median | p99 | added median | added p99 | relay CPU | throughput one at a time, of direct | calls/s 32 in flight (of direct) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n` +
      [
        ['direct', 'direct'],
        ['proxy', '**toolgate proxy**'],
        ['floor-json', 'floor: parse and write each line again'],
        ['floor-pipe', 'floor: bytes piped through'],
        ['floor-cat', 'floor: a `cat` each way (no JavaScript)'],
      ]
        .map(([n, l]) => row(n, l))
        .join('\n') +
      `\n\nThen ${(last.calls - m.rss[0].calls).toLocaleString('en')} more \`get-sum\` calls through the proxy, 32 in flight (${Math.round(m.memorySeconds)} s; ${last.calls.toLocaleString('en')} calls in all). Proxy RSS at ${m.rss
        .filter((_, i) => i % 4 === 0 || i === m.rss.length - 1)
        .map((p) => `${Math.round(p.calls / 1000).toLocaleString('en')}k calls: ${(p.kb / 1024).toFixed(1)} MB`)
        .join(', ')}. ` +
      `Trend over the second half (least squares): ${perMillionMB >= 0 ? '+' : ''}${perMillionMB.toFixed(1)} MB per million calls.\n`,
  );
  const a = v.proxy.small.added;
  summary.push(
    `| 7 | proxy: added per call, get-sum, median / p99 (floor: parse and write again) | ${us(a.median)} / ${us(a.p99)} (${us(v['floor-json'].small.added.median)} / ${us(v['floor-json'].small.added.p99)}) | ≤ 100 µs / ≤ 1,000 µs | ${verdict(a.median <= 0.1 && a.p99 <= 1)} |`,
  );
  summary.push(
    `| 7 | proxy: added per call, get-env (~40 KB), median (floor) | ${us(v.proxy.large.added.median)} (${us(v['floor-json'].large.added.median)}) | ≤ 300 µs | ${verdict(v.proxy.large.added.median <= 0.3)} |`,
  );
  summary.push(
    `| 7 | proxy: throughput at one connection, of direct: one call at a time; 32 in flight | ${pct(v.proxy.small.ratio)}; ${pct(v.proxy.pipelined.ratio)} (floors one at a time: parse and write again ${pct(v['floor-json'].small.ratio)}, bytes piped ${pct(v['floor-pipe'].small.ratio)}, \`cat\` ${pct(v['floor-cat'].small.ratio)}) | ≥ 60 % | ${verdict(v.proxy.small.ratio >= 0.6 && v.proxy.pipelined.ratio >= 0.6)} |`,
  );
  summary.push(
    `| 7 | proxy: RSS trend over the second half of ${last.calls.toLocaleString('en')} calls | ${perMillionMB >= 0 ? '+' : ''}${perMillionMB.toFixed(1)} MB per million calls | ≤ 5 MB (flat) | ${verdict(perMillionMB <= 5)} |`,
  );
}

const cases = {
  mcp: caseMcp,
  scale: caseScale,
  cold: caseCold,
  openapi: caseOpenApi,
  schema: caseSchema,
  sandbox: caseSandbox,
  proxy: caseProxy,
  tokens: caseTokens,
};
try {
  for (const [name, fn] of Object.entries(cases)) if (ONLY.has(name)) await fn();
} catch (e) {
  log(e.stack ?? String(e));
  process.exit(1);
}
const after = machine();
const total = (performance.now() - benchStarted) / 1000;
const doc =
  `# toolgate benchmark results\n\n` +
  `Generated by \`npm run bench\` (bench/run.mjs) on ${new Date().toISOString()}; do not edit by hand.\n\n` +
  `Machine: ${before.model}, ${before.cores} cores, ${before.memGB} GB RAM, Node ${before.node}, ${process.platform}/${process.arch}. ` +
  `Load average (1/5/15 min) ${before.load} at start, ${after.load} at the end: the machine may be shared, which is why pairs are interleaved and ratios matter more than absolute times.\n\n` +
  `${RUNS} measured runs per command after one warm-up (OpenAPI loader split: ${Math.min(RUNS, 3)}); medians. Whole bench: ${total.toFixed(0)} s.\n\n` +
  `## Targets\n\n| case | measure | got | target | met |\n|---|---|---|---|---|\n${summary.join('\n')}\n\n` +
  sections.join('\n');
process.stdout.write(doc);
if (WRITE && ONLY.size === Object.keys(cases).length && SIZES.join() === '10,100,1000,5000' && PROXY_TOTAL === 1_000_000) {
  // The speed pieces' section is written by bench/speed-pieces.mjs: kept as it is.
  const results = join(BENCH, 'RESULTS.md');
  const pieces = existsSync(results) ? /\n<!-- speed-pieces [\s\S]*<!-- \/speed-pieces [^>]*-->\n/.exec(readFileSync(results, 'utf8')) : null;
  writeFileSync(results, doc + (pieces ? pieces[0] : ''));
  log('bench: wrote bench/RESULTS.md');
} else if (WRITE) {
  log('bench: partial run (--only/--sizes): bench/RESULTS.md not rewritten');
}
