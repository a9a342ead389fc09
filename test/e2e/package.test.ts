/**
 * The package as npm ships it: `npm pack` of this repository, installed from the tarball into an
 * empty project with `npm install --omit=dev --offline` (no registry: the package must need
 * nothing besides itself), then run from node_modules/.bin with the Node running the tests.
 * One pack and one install, shared by the assertions; everything in one temp directory.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runProcess, tempWorkspace, type RunResult } from '../support/run-dist.js';

const FIXTURES = join(REPO, 'test/fixtures');

/** Every file under `dir`, as paths relative to `base` with `/`. */
function walk(dir: string, base: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name), base) : [relative(base, join(dir, e.name)).split('\\').join('/')],
  );
}

let cleanup = () => {};
let project = '';
let env: Record<string, string> = {};
let packed: string[] = [];
let install: RunResult;

beforeAll(async () => {
  const w = tempWorkspace('tg-package-');
  cleanup = w.cleanup;
  const home = join(w.dir, 'home');
  project = join(w.dir, 'project');
  for (const d of [home, project, join(w.dir, 'pack')]) mkdirSync(d);
  for (const f of ['npmrc-user', 'npmrc-global']) writeFileSync(join(w.dir, f), '');
  // npm and toolgate see no configuration of the machine or of an npm script that runs vitest
  // (npm_config_*), an empty cache, and this Node first on PATH (the bin's `env node`).
  env = {
    PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
    HOME: home,
    npm_config_userconfig: join(w.dir, 'npmrc-user'),
    npm_config_globalconfig: join(w.dir, 'npmrc-global'),
    npm_config_cache: join(w.dir, 'npm-cache'),
    npm_config_update_notifier: 'false',
    ...(process.env.TOOLGATE_SANDBOX_UNAVAILABLE ? { TOOLGATE_SANDBOX_UNAVAILABLE: process.env.TOOLGATE_SANDBOX_UNAVAILABLE } : {}),
  };

  const pack = await runProcess('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', join(w.dir, 'pack')], {
    cwd: REPO,
    env,
    timeoutMs: 120_000,
  });
  expect(pack.code, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = info!.files.map((f) => f.path).sort();
  const tarball = join(w.dir, 'pack', info!.filename);

  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }) + '\n');
  install = await runProcess('npm', ['install', '--omit=dev', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, env, timeoutMs: 120_000 });
}, 300_000);

afterAll(() => cleanup());

const toolgate = (args: string[], timeoutMs = 60_000) => runProcess(join(project, 'node_modules/.bin/toolgate'), args, { cwd: project, env, timeoutMs });

describe('npm pack: what the package ships', () => {
  it('dist/ (every file of it), schema/, LICENSE, the third-party licenses, README, the docs/ pages it links, action.yml', () => {
    for (const f of [
      'package.json',
      'README.md',
      'LICENSE',
      'action.yml',
      'dist/cli.js',
      'dist/index.js',
      'dist/package.json',
      'dist/schema-worker.mjs',
      'dist/THIRD-PARTY-LICENSES.txt',
      'schema/toolgate.schema.json',
      'schema/contract.schema.json',
      'schema/integration.schema.json',
      'schema/report.schema.json',
    ]) {
      expect(packed, f).toContain(f);
    }
    for (const f of walk(join(REPO, 'dist'), REPO)) expect(packed, f).toContain(f);
    // The README's links into docs/ resolve in node_modules/toolgate too, and the error messages cite these pages.
    for (const f of walk(join(REPO, 'docs'), REPO)) expect(packed, f).toContain(f);
  });

  it('nothing else: no sources, tests, fixtures or node_modules', () => {
    const unexpected = packed.filter((f) => !/^(dist|schema|docs)\//.test(f) && !['package.json', 'README.md', 'LICENSE', 'action.yml'].includes(f));
    expect(unexpected).toEqual([]);
    expect(packed.filter((f) => /(^|\/)(node_modules|fixtures|test|src)\//.test(f))).toEqual([]);
  });
});

describe('npm install --omit=dev of the tarball, on ' + process.version, () => {
  it('installs offline, only toolgate itself, without any npm warning', () => {
    expect(install.code, install.stderr).toBe(0);
    expect(install.stderr).not.toMatch(/EBADENGINE/);
    expect(install.stderr).not.toMatch(/\bwarn/i);
    expect(install.stdout).toMatch(/added 1 package\b/);
    const installed = readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.'));
    expect(installed).toEqual(['toolgate']);
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules/toolgate/package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(existsSync(join(project, 'node_modules/.bin/toolgate'))).toBe(true);
  });

  it('toolgate --help and --version', async () => {
    const help = await toolgate(['--help']);
    expect(help.code, help.stderr).toBe(0);
    for (const cmd of ['audit', 'check', 'update', 'proxy']) expect(help.stdout).toContain(cmd);
    const version = await toolgate(['--version']);
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version);
  });

  it('toolgate audit --tools-json on a recorded server (tokens counted: the lazily loaded tokenizer chunk)', async () => {
    copyFileSync(join(FIXTURES, 'surfaces/@modelcontextprotocol+server-memory/2026.8.31.json'), join(project, 'memory.json'));
    const r = await toolgate(['audit', '--tools-json', 'memory.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('(recorded: not live)');
    expect(r.stdout).toMatch(/tools: 9 /);
    expect(r.stdout).toMatch(/tokens per turn: \d+ \(o200k_base/);
  });

  it('toolgate audit of a live stdio server (the bundled MCP client)', async () => {
    copyFileSync(join(FIXTURES, 'servers/modern.mjs'), join(project, 'modern.mjs'));
    const r = await toolgate(['audit', '--', 'node', 'modern.mjs']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('server: fixture-modern');
    expect(r.stdout).toMatch(/tools: 1 /);
  });

  it('a repository with a recorded source: toolgate update, then toolgate check exits 0', async () => {
    const repo = join(project, 'repo');
    mkdirSync(repo);
    copyFileSync(join(FIXTURES, 'surfaces/@modelcontextprotocol+server-memory/2026.8.31.json'), join(repo, 'memory-tools.json'));
    writeFileSync(join(repo, 'toolgate.yml'), 'sources:\n  - id: memory\n    recorded: memory-tools.json\n');
    const update = await runProcess(join(project, 'node_modules/.bin/toolgate'), ['update'], { cwd: repo, env, timeoutMs: 60_000 });
    expect(update.code, update.stderr).toBe(0);
    expect(existsSync(join(repo, '.toolgate/memory.surface.json'))).toBe(true);
    const check = await runProcess(join(project, 'node_modules/.bin/toolgate'), ['check'], { cwd: repo, env, timeoutMs: 60_000 });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toMatch(/PASS/);
  });

  it('toolgate diff of two releases classifies every schema change (the schema-diff worker runs)', async () => {
    for (const [v, out] of [
      ['1.12.0', 'old'],
      ['3.26.0', 'new'],
    ] as const) {
      copyFileSync(join(FIXTURES, `upgrades/firecrawl-mcp/${v}.json`), join(project, `firecrawl-${out}.json`));
      const snap = await toolgate(['snapshot', '--tools-json', `firecrawl-${out}.json`, '-o', `${out}.surface.json`]);
      expect(snap.code, snap.stderr).toBe(0);
    }
    const r = await toolgate(['diff', 'old.surface.json', 'new.surface.json', '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as { findings: Array<{ ruleId: string }>; folded?: Array<{ ruleId: string }> };
    const rules = [...report.findings, ...(report.folded ?? [])].map((f) => f.ruleId);
    expect(rules).toContain('schema-widened');
    expect(rules).not.toContain('schema-unclassified');
  });
});
