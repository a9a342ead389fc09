#!/usr/bin/env node
// What each piece of speed code buys, measured on real cases with a build that has it and one
// that does not, side by side (docs/design.md §13).
//
//   node bench/speed-pieces.mjs                       HEAD against HEAD without each piece
//   node bench/speed-pieces.mjs --build before=REV --build after=HEAD
//                                                     two commits as they are
//   node bench/speed-pieces.mjs --only everything,audit,openapi,interrupt --runs 9 --rounds 3 --no-write
//   node bench/speed-pieces.mjs --section NAME --title TEXT   the section of RESULTS.md written
//
// A build is `NAME=REV` (the commit as it is) or `NAME=REV:PIECE` (the commit with one piece
// turned off by the source edit in PIECES below, the least change that does so). Each is
// extracted with `git archive`, given this checkout's node_modules and built with
// scripts/build.mjs in a temp directory. Cases:
// - everything: `toolgate check` on @modelcontextprotocol/server-everything (stdio, sandboxed),
//   against a contract written once by `update`;
// - openapi: `toolgate check` on an integration of every operation of GitHub's REST description
//   (@octokit/openapi, 1,223 operations);
// - audit: `toolgate audit` of server-everything (stdio, sandboxed), which counts the tokens of
//   every tool and so loads the tokenizer's tables;
// - interrupt: a server listing 100,000 tools on one 45 MB page
//   (test/fixtures/servers/hostile/big-page.mjs, unsandboxed so that it can say when it sent the
//   page), against a contract pinning 99,999 of them; SIGINT in each phase (while the page is
//   parsed, or the moment a `TOOLGATE_TIMING=live` mark is printed), timed to the exit. The
//   bound is 1 s.
// The builds run interleaved (the first of a round rotating); tables show medians with min–max,
// and each build's difference to the first, round by round. The output replaces its section
// (--section) of bench/RESULTS.md (unless --no-write).
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv, fmtMs, interleave, measure, median, pairDelta } from './lib/measure.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const EVERYTHING = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const GITHUB_SPEC = join(ROOT, 'node_modules', '@octokit', 'openapi', 'generated', 'api.github.com.json');
const BIG_PAGE = join(ROOT, 'test', 'fixtures', 'servers', 'hostile', 'big-page.mjs');
const BIG_TOOLS = 100_000;
const BOUND_MS = 1000;
/** A run still going this long after its signal is killed and shown as "> 10 s". */
const GIVE_UP_MS = 10_000;

/**
 * Each piece, and the least source edit that turns it off (`from`: a string that occurs exactly
 * once, or a global RegExp, every match replaced).
 * Steps: every `runInSlices` runs its steps to the end without letting the loop poll.
 */
const PIECES = {
  'early-args': {
    what: 'hand-written command-line reader (src/cli/early-args.ts): policy read and server started before commander loads',
    file: 'src/cli/bin.ts',
    from: 'const early = cwd === undefined ? undefined',
    to: 'const early = true || cwd === undefined ? undefined',
  },
  'background-read': {
    what: 'background contract read (snapshotWhileReading, src/run-check.ts): the contract read while the source lists',
    file: 'src/run-check.ts',
    from: 'new Promise((r) => setImmediate(r)).then(async () => {',
    to: 'snapshotting.then(() => undefined, () => undefined).then(async () => {',
  },
  steps: {
    what: 'step generators run in slices (src/util/slices.ts runInSlices: normalize, contract read and verify, rules, contract serialization)',
    file: 'src/util/slices.ts',
    from: '    if (due()) await yieldToSignals();\n',
    to: '    void due;\n',
  },
  'json-steps': {
    what: "the JSON document reader in steps (parseJsonDocumentSteps, src/util/json-file.ts: the contract's scans and line index)",
    file: 'src/util/json-file.ts',
    from: /^ *yield;\n/gm,
    to: '',
  },
  'tokenizer-json': {
    what: "o200k_base's ranks bundled as a JSON string for JSON.parse instead of a JavaScript array literal (the tokenizer-ranks-as-json plugin, scripts/bundles.mjs)",
    file: 'scripts/bundles.mjs',
    from: ', tokenizerRanksAsJson]',
    to: ']',
  },
  'sliced-parse': {
    what: 'sliced JSON parser of long stdout lines (parseJsonSliced, src/sources/mcp-process.ts)',
    file: 'src/sources/mcp-process.ts',
    from: '  return new SlicedJsonParser(text, to, due, pieceChars).parse(from);',
    to: '  void [due, pieceChars, SlicedJsonParser];\n  return JSON.parse(text.slice(from, to));',
  },
};

const argv = process.argv.slice(2);
const arg = (name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : def;
};
const RUNS = Number(arg('runs', '9'));
const ROUNDS = Number(arg('rounds', '3'));
const ONLY = new Set(arg('only', 'everything,audit,openapi,interrupt').split(','));
const WRITE = !argv.includes('--no-write');
/** The section of bench/RESULTS.md this run replaces (by name), and its title. */
const SECTION = arg('section', 'with-and-without');
const TITLE = arg('title', 'with and without');
const buildSpecs = argv.flatMap((a, i) => (a === '--build' ? [argv[i + 1]] : []));
/** The builds the interrupt case runs (by name; default: every build). */
const INTERRUPT_BUILDS = arg('interrupt-builds', '');
const BUILDS = (buildSpecs.length ? buildSpecs : ['head=HEAD', ...Object.keys(PIECES).map((p) => `no-${p}=HEAD:${p}`)]).map((spec) => {
  const [name, target] = spec.split('=');
  const [rev, piece] = target.split(':');
  if (piece && !PIECES[piece]) throw new Error(`bench: unknown piece ${piece} (known: ${Object.keys(PIECES).join(', ')})`);
  return { name, rev, piece };
});

const log = (s) => process.stderr.write(`${s}\n`);
const work = mkdtempSync(join(tmpdir(), 'toolgate-pieces-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const loadAtStart = loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');
const started = performance.now();

/** Extracts `rev`, turns `piece` off, and builds it; returns the build's dist/cli.js. */
function build({ name, rev, piece }) {
  const dir = join(work, 'builds', name);
  mkdirSync(dir, { recursive: true });
  const commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', rev], { encoding: 'utf8' }).trim();
  execFileSync('sh', ['-c', `git -C "${ROOT}" archive ${commit} | tar -x -C "${dir}"`]);
  if (piece) {
    const { file, from, to } = PIECES[piece];
    const text = readFileSync(join(dir, file), 'utf8');
    const count = from instanceof RegExp ? (text.match(from) ?? []).length : text.split(from).length - 1;
    if (count === 0 || (typeof from === 'string' && count > 1)) throw new Error(`bench: ${name}: the edit for ${piece} does not apply to ${file} at ${commit}`);
    writeFileSync(join(dir, file), text.replace(from, to));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  log(`bench: built ${name} (${commit}${piece ? ` without ${piece}` : ''})`);
  return { name, commit, piece, cli: join(dir, 'dist', 'cli.js') };
}

const yamlArgs = (xs) => `[${xs.map((x) => JSON.stringify(String(x))).join(', ')}]`;

/** Writes `policy` to toolgate.yml in `dir` and runs `update` with the first build. */
async function workspace(dir, policy, cli) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'toolgate.yml'), policy);
  const r = await measure({ args: [cli, 'update'], cwd: dir, env: benchEnv(envOf(dir)) });
  if (r.code !== 0) throw new Error(`bench: update failed in ${dir}\n${r.stderr.slice(-3000)}`);
}
const fmtRun = (x) => (x === Infinity ? `> ${GIVE_UP_MS / 1000} s` : fmtMs(x));
const envOf = (dir) => (dir.endsWith('interrupt') ? { TOOLGATE_SANDBOX_UNAVAILABLE: 'bench: the server says when it sent its page' } : {});

/**
 * `toolgate ARGS` (default `check`) in `dir` with every build, interleaved: a table row per build,
 * its difference to the first.
 */
async function checkTable(builds, dir, expect, args = ['check']) {
  const res = await interleave(
    builds.map((b) => ({ label: b.name, args: [b.cli, ...args], cwd: dir, expect })),
    RUNS,
  );
  return res.map((r, i) => {
    const b = builds[i];
    const what = b.piece ? `without ${b.piece}` : `as committed`;
    const delta = i === 0 ? '' : pairDelta(r, res[0]).text;
    // Phase marks (TOOLGATE_TIMING, ms since the process started): when the server was spawned,
    // and the whole run's CPU time, which load on a shared machine changes less than wall time.
    const at = (k) => fmtMs(median(r.runs.map((x) => x.timing?.[k])));
    const cpu = fmtMs(median(r.runs.map((x) => /^toolgate-timing-cpu-json (\{.*\})$/m.exec(x.stderr)?.[1]).map((j) => j && JSON.parse(j).exit)));
    return `| ${b.name} (${b.commit}, ${what}) | ${fmtMs(r.ms)} | ${fmtMs(r.min)}–${fmtMs(r.max)} | ${delta} | ${at('server spawned')} | ${cpu} |`;
  });
}
const TABLE_HEAD = `| build | median | min–max | minus ${'${first}'}, round by round: median (min to max) | server spawned at | CPU time |\n|---|---|---|---|---|---|`;
const tableHead = (builds) => TABLE_HEAD.replace('${first}', builds[0].name);

async function caseEverything(builds) {
  log('bench: server-everything check');
  const dir = join(work, 'everything');
  await workspace(
    dir,
    `sources:\n  - id: everything\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: ${yamlArgs([EVERYTHING, 'stdio'])}\n      readable: ${yamlArgs([join(ROOT, 'node_modules')])}\n`,
    builds[0].cli,
  );
  const rows = await checkTable(builds, dir, [0]);
  return `### \`check\` on server-everything\n\n\`@modelcontextprotocol/server-everything\` over stdio, sandboxed, clean against its contract (exit 0); ${RUNS} interleaved rounds after one warm-up.\n\n${tableHead(builds)}\n${rows.join('\n')}\n`;
}

async function caseAudit(builds) {
  log('bench: server-everything audit');
  const dir = join(work, 'audit');
  mkdirSync(dir, { recursive: true });
  const rows = await checkTable(builds, dir, [0], ['audit', '--format', 'json', '--', process.execPath, EVERYTHING, 'stdio']);
  return `### \`audit\` of server-everything\n\n\`toolgate audit -- node …/server-everything stdio\`, sandboxed, which counts every tool's tokens (the tokenizer's tables are loaded); ${RUNS} interleaved rounds after one warm-up.\n\n${tableHead(builds)}\n${rows.join('\n')}\n`;
}

async function caseOpenApi(builds) {
  log('bench: OpenAPI check (GitHub REST, every operation)');
  const dir = join(work, 'openapi');
  mkdirSync(dir, { recursive: true });
  const doc = JSON.parse(readFileSync(GITHUB_SPEC, 'utf8'));
  const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => (op?.operationId ? [op.operationId] : [])));
  cpSync(GITHUB_SPEC, join(dir, 'api.github.com.json'));
  writeFileSync(join(dir, 'integration.json'), JSON.stringify({ id: 'github', type: 'openapi', spec: 'api.github.com.json', include: ids }, null, 2));
  await workspace(dir, `sources:\n  - id: github\n    openapi: integration.json\n`, builds[0].cli);
  const rows = await checkTable(builds, dir, [0, 1]);
  return `### \`check\` on GitHub's REST description\n\nAn integration of all ${ids.length} operations of \`@octokit/openapi\`'s \`api.github.com.json\`, against its contract; ${RUNS} interleaved rounds after one warm-up.\n\n${tableHead(builds)}\n${rows.join('\n')}\n`;
}

/** The phases a signal is sent in: command, and the mark after which it is sent (`page`: once the server sent its page). */
const PHASES = [
  ['check', 'page', 'parsing the 45 MB page'],
  ['check', `big: tools listed (${BIG_TOOLS} tools, 1 pages)`, 'ending the server, reading the contract (one JSON.parse of it, then its scans)'],
  ['check', 'big: snapshot done', 'normalizing (the contract read meanwhile, or then)'],
  ['check', 'big: normalized', 'verifying the contract against the listing'],
  ['check', 'big: diffed (1 changes)', 'rules, contract line index, locating findings'],
  ['update', 'big: normalized', 'reading the old contract, serializing the new one'],
];

/** Runs `cli command` in `dir`, sends SIGINT at `mark`; resolves with ms from the signal to the exit, and the exit code. */
function interrupted(cli, command, mark, dir) {
  const sent = join(dir, 'sent');
  rmSync(sent, { force: true });
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [cli, command], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: benchEnv({ ...envOf(dir), TOOLGATE_TIMING: 'live' }),
    });
    let signalled = 0;
    let stderr = '';
    let killer;
    const signal = () => {
      if (signalled) return;
      signalled = performance.now();
      child.kill('SIGINT');
      // Far past the bound: the rest of the run is not measured (its time is the run's own).
      killer = setTimeout(() => child.kill('SIGKILL'), GIVE_UP_MS);
    };
    child.stderr.on('data', (d) => {
      stderr += d.toString();
      if (mark !== 'page' && stderr.includes(`toolgate-mark ${mark}\n`)) signal();
    });
    const poll = mark === 'page' ? setInterval(() => existsSync(sent) && signal(), 2) : undefined;
    child.on('close', (code, how) => {
      clearInterval(poll);
      clearTimeout(killer);
      if (how === 'SIGKILL') return resolvePromise({ code: 130, ms: Infinity, stderr });
      resolvePromise({ code, ms: signalled ? performance.now() - signalled : undefined, stderr });
    });
  });
}

async function caseInterrupt(builds) {
  log(`bench: SIGINT during a ${BIG_TOOLS.toLocaleString('en')}-tool listing`);
  const dir = join(work, 'interrupt');
  const policy =
    `sources:\n  - id: big\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: ${yamlArgs([BIG_PAGE, join(dir, 'pid'), BIG_TOOLS, join(dir, 'sent')])}\n` +
    `      startup-timeout-ms: 120000\n      request-timeout-ms: 120000\n      total-timeout-ms: 300000\n      max-bytes: 67108864\n`;
  await workspace(dir, policy, builds[0].cli);
  // One tool fewer pinned: `check` has a change to judge, `update` a contract to write.
  const contract = join(dir, '.toolgate', 'big.surface.json');
  const doc = JSON.parse(readFileSync(contract, 'utf8'));
  doc.tools.pop();
  const pinned = `${JSON.stringify(doc, null, 2)}\n`;
  const results = new Map();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [p, [command, mark]] of PHASES.entries()) {
      for (let k = 0; k < builds.length; k++) {
        const b = builds[(k + round + p) % builds.length];
        writeFileSync(contract, pinned);
        const r = await interrupted(b.cli, command, mark, dir);
        const key = `${b.name}\0${p}`;
        if (!results.has(key)) results.set(key, []);
        results.get(key).push(r.code === 130 ? r.ms : r.ms === undefined ? `not signalled (exit ${r.code})` : `exit ${r.code}`);
        log(`bench:   ${b.name} ${command} after "${mark}": ${r.code === 130 ? fmtRun(r.ms) : `exit ${r.code}`}`);
      }
    }
  }
  const cell = (xs) => {
    const ms = xs.filter((x) => typeof x === 'number');
    const bad = xs.filter((x) => typeof x !== 'number');
    const over = ms.some((x) => x > BOUND_MS) || bad.length > 0;
    const text = ms.length ? `${fmtRun(median(ms))} (${fmtRun(Math.min(...ms))}–${fmtRun(Math.max(...ms))})` : '';
    return `${over ? '**' : ''}${text}${bad.length ? ` ${bad.join(', ')}` : ''}${over ? '**' : ''}`;
  };
  const rows = PHASES.map(
    ([command, mark, what], p) =>
      `| \`${command}\`, ${what} (signal ${mark === 'page' ? 'once the page is sent' : `at "${mark}"`}) | ${builds.map((b) => cell(results.get(`${b.name}\0${p}`))).join(' | ')} |`,
  );
  return (
    `### SIGINT during a ${BIG_TOOLS.toLocaleString('en')}-tool listing\n\n` +
    `\`test/fixtures/servers/hostile/big-page.mjs\`: ${BIG_TOOLS.toLocaleString('en')} tools on one 45 MB page, against a contract pinning all but one; ` +
    `SIGINT once the server has sent its page, or the moment \`TOOLGATE_TIMING=live\` prints a mark. Time from the signal to the exit (130), median (min–max) of ${ROUNDS} rounds; **bold**: over the ${BOUND_MS / 1000} s bound at least once.\n\n` +
    `| phase signalled | ${builds.map((b) => `${b.name} (${b.commit}${b.piece ? `, without ${b.piece}` : ''})`).join(' | ')} |\n|---|${builds.map(() => '---|').join('')}\n${rows.join('\n')}\n`
  );
}

const builds = BUILDS.map(build);
const sections = [];
try {
  // Each section is printed as it is done, too: a long run that fails later keeps it.
  const done = (section) => (sections.push(section), log(section));
  if (ONLY.has('everything')) done(await caseEverything(builds));
  if (ONLY.has('audit')) done(await caseAudit(builds));
  if (ONLY.has('openapi')) done(await caseOpenApi(builds));
  const only = INTERRUPT_BUILDS ? builds.filter((b) => INTERRUPT_BUILDS.split(',').includes(b.name)) : builds;
  if (ONLY.has('interrupt')) done(await caseInterrupt(only));
} catch (e) {
  log(e.stack ?? String(e));
  process.exit(1);
}
const pieces = builds
  .filter((b) => b.piece)
  .map((b) => `- ${b.name}: ${PIECES[b.piece].what}.`)
  .join('\n');
const open = `<!-- speed-pieces ${SECTION} -->`;
const close = `<!-- /speed-pieces ${SECTION} -->`;
const doc =
  `${open}\n## Speed pieces: ${TITLE}\n\n` +
  `Generated by \`${['node bench/speed-pieces.mjs', ...argv].join(' ')}\` on ${new Date().toISOString()}; do not edit by hand. ` +
  `${cpus().length} cores, Node ${process.versions.node}; load average (1/5/15 min) ${loadAtStart} at start, ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} at the end; ${((performance.now() - started) / 1000).toFixed(0)} s.\n\n` +
  (pieces ? `${pieces}\n\n` : '') +
  `${sections.join('\n')}${close}\n`;
process.stdout.write(doc);
if (WRITE) {
  // The section of the same name is replaced; the others (and bench/run.mjs's part) are kept.
  const file = join(ROOT, 'bench', 'RESULTS.md');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const from = old.indexOf(open);
  const to = old.indexOf(close);
  writeFileSync(file, from >= 0 && to > from ? `${old.slice(0, from)}${doc}${old.slice(to + close.length + 1)}` : `${old.trimEnd()}\n\n${doc}`);
  log(`bench: wrote the speed-pieces section "${SECTION}" of bench/RESULTS.md`);
}
