/**
 * `toolgate init` in repositories that use published MCP servers (test/fixtures/init/consumer-*
 * and client-configs, each with a README saying where it comes from): a real `npm ci` of
 * @modelcontextprotocol/server-memory, then init, then `toolgate update` starting the pinned copy
 * in the sandbox; client configs in the shapes VS Code, Cursor and Claude Desktop document;
 * lockfiles written by pnpm and Yarn; unpinned starts flagged; hostile installed packages.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPolicy } from '../../src/config/policy-file.js';
import { detect } from '../../src/init/detect.js';
import { render } from '../../src/init/render.js';
import type { ScannedRepo } from '../../src/init/types.js';
import { REPO, runCli, runProcess, tempWorkspace } from '../support/run-dist.js';

const FIXTURES = join(REPO, 'test/fixtures/init');
const MEMORY = '@modelcontextprotocol/server-memory';
const MEMORY_TOOLS = [
  'add_observations',
  'create_entities',
  'create_relations',
  'delete_entities',
  'delete_observations',
  'delete_relations',
  'open_nodes',
  'read_graph',
  'search_nodes',
];

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

/** `<tmp>/repo` holding a copy of the fixture, and `<tmp>/outside` beside it. */
function repoFrom(fixture: string): { repo: string; outside: string } {
  const w = tempWorkspace('tg-init-use-');
  cleanups.push(w.cleanup);
  const repo = join(w.dir, 'repo');
  const outside = join(w.dir, 'outside');
  mkdirSync(outside);
  cpSync(join(FIXTURES, fixture), repo, { recursive: true });
  return { repo, outside };
}

const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');

/** Every file of a fixture as the scan gives it to detect, plus `extra` texts (installed packages). */
function scanned(fixture: string, extra: Record<string, string> = {}): ScannedRepo {
  const dir = join(FIXTURES, fixture);
  const paths = (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
  const texts = new Map([...paths.map((p) => [p, read(dir, p)] as const), ...Object.entries(extra)]);
  return { paths: [...paths, ...Object.keys(extra)], texts };
}

/** The source of `id` in a detection, as written. */
const sourceOf = (d: ReturnType<typeof detect>, id: string) => d.findings.find((f) => f.id === id);

describe('a project that depends on server-memory, installed by npm ci', () => {
  it('init starts the installed copy the lockfile pins; update lists its tools in the sandbox; check passes', async () => {
    const { repo } = repoFrom('consumer-npm');
    // npm ci from the machine's npm cache (the one that installed toolgate's devDependencies, server-memory among them).
    const env = {
      PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
      HOME: process.env.HOME ?? '/tmp',
      ...(process.env.npm_config_cache ? { npm_config_cache: process.env.npm_config_cache } : {}),
      npm_config_update_notifier: 'false',
    };
    const ci = await runProcess('npm', ['ci', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], { cwd: repo, env, timeoutMs: 240_000 });
    expect(ci.code, `npm ci --offline (the npm cache must hold toolgate's devDependencies: run npm ci in toolgate first)\n${ci.stderr}`).toBe(0);

    const r = await runCli(['init'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Pinned to the version the lockfile installs:\n  memory  @modelcontextprotocol/server-memory 2026.8.31 from package-lock.json');
    expect(r.stdout).not.toContain('Not pinned');
    const text = read(repo, 'toolgate.yml');
    expect(text).toContain('# pinned to @modelcontextprotocol/server-memory 2026.8.31, the version package-lock.json installs');
    expect(text).toContain('write @modelcontextprotocol/server-memory@2026.8.31 there too');
    const policy = await loadPolicy(join(repo, 'toolgate.yml'));
    expect(policy.sources).toHaveLength(1);
    expect(policy.sources[0]).toMatchObject({
      id: 'memory',
      mcp: { transport: 'stdio', command: 'node', args: [`node_modules/${MEMORY}/dist/index.js`], env: [] },
    });
    expect(read(repo, '.github/workflows/toolgate.yml')).toContain('- run: npm ci\n');

    // The file as init wrote it works: the server starts in the sandbox, from node_modules.
    const up = await runCli(['update'], { cwd: repo, timeoutMs: 120_000 });
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout + up.stderr).toContain('sandbox: bubblewrap');
    const contract = JSON.parse(read(repo, '.toolgate/memory.surface.json')) as { server: { name: string }; tools: { name: string }[] };
    expect(contract.server.name).toBe('memory-server');
    expect(contract.tools.map((t) => t.name)).toEqual(MEMORY_TOOLS);
    const check = await runCli(['check'], { cwd: repo, timeoutMs: 120_000 });
    expect(check.code, check.stderr + check.stdout).toBe(0);
  }, 400_000);
});

describe('client configs in the shapes VS Code, Cursor and Claude Desktop document', () => {
  it('each server a source; npx starts of a locked package run its installed copy; what nothing pins is flagged in toolgate.yml and the summary', async () => {
    const { repo } = repoFrom('client-configs');
    const r = await runCli(['init'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const policy = await loadPolicy(join(repo, 'toolgate.yml'));
    const byId = Object.fromEntries(policy.sources.map((s) => [s.id, s]));
    expect(Object.keys(byId)).toEqual([
      'playwright',
      'context7-key',
      'perplexity',
      'context7',
      'myapi',
      'docs',
      'memory',
      'filesystem',
      'git',
      'fetch',
      'time',
      'github',
    ]);
    const fs = `node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`;
    // Pinned by package-lock.json: the installed copy, the config's arguments kept (`${workspaceFolder}/docs` is `docs`).
    expect(byId.filesystem).toMatchObject({ mcp: { command: 'node', args: [fs, '/Users/username/Desktop', '/path/to/other/allowed/dir'] } });
    expect(byId.docs).toMatchObject({ mcp: { command: 'node', args: [fs, 'docs'] } });
    // Pinned by the config itself: kept as written (Windows' `cmd /c` dropped), env by name.
    expect(byId.time).toMatchObject({ mcp: { command: 'uvx', args: ['mcp-server-time==2025.9.25', '--local-timezone', 'Europe/Paris'] } });
    expect(byId.github).toMatchObject({
      mcp: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github@2025.4.8'], env: ['GITHUB_PERSONAL_ACCESS_TOKEN'] },
    });
    // Not pinned: copied as written, never silently.
    expect(byId.playwright).toMatchObject({ mcp: { command: 'npx', args: ['-y', '@playwright/mcp@latest'] } });
    expect(byId.memory).toMatchObject({ mcp: { command: 'npx', args: ['-y', MEMORY] } });
    expect(byId.git).toMatchObject({ mcp: { command: 'docker' } });
    expect(byId.fetch).toMatchObject({ mcp: { command: 'uvx', args: ['mcp-server-fetch'] } });
    expect(byId.perplexity).toMatchObject({ mcp: { env: ['PERPLEXITY_API_KEY'] } });
    // Headers: `${env:NAME}` (Cursor) and VS Code's `${input:id}`, by variable name.
    expect(byId['context7-key']).toMatchObject({ mcp: { transport: 'http', headers: [{ name: 'CONTEXT7_API_KEY', env: 'CONTEXT7_API_KEY' }] } });
    expect(byId.myapi).toMatchObject({ mcp: { headers: [{ name: 'Authorization', env: 'API_TOKEN', prefix: 'Bearer ' }] } });
    expect(byId.context7).toMatchObject({ mcp: { url: 'https://mcp.context7.com/mcp', headers: [] } });

    const summary = r.stdout.slice(r.stdout.indexOf('Pinned to the version'), r.stdout.indexOf('wrote toolgate.yml'));
    expect(summary.split('\n').filter((l) => l.startsWith('  '))).toEqual([
      '  docs  @modelcontextprotocol/server-filesystem 2026.8.31 from package-lock.json',
      '  filesystem  @modelcontextprotocol/server-filesystem 2026.8.31 from package-lock.json',
      '  playwright  npx -y @playwright/mcp@latest: no version pinned',
      '  perplexity  npx -y server-perplexity-ask: no version pinned',
      '  memory  npx -y @modelcontextprotocol/server-memory: no version pinned',
      '  git  docker run mcp/git: no tag or digest',
      '  fetch  uvx mcp-server-fetch: no version pinned',
    ]);
    const text = read(repo, 'toolgate.yml');
    // A TODO above each unpinned source says why and how to pin it.
    const above = (id: string) =>
      text
        .slice(0, text.indexOf(`- id: ${id}\n`))
        .split('\n  - id:')
        .at(-1) ?? '';
    expect(above('playwright')).toContain('# TODO: not pinned: `npx -y @playwright/mcp@latest` fetches whatever version of @playwright/mcp is tagged "latest"');
    expect(above('memory')).toContain('npm install --save-exact @modelcontextprotocol/server-memory');
    expect(above('git')).toContain('# TODO: not pinned: the image mcp/git has no tag or digest');
    expect(above('fetch')).toContain('# TODO: not pinned: `uvx mcp-server-fetch` runs the newest release each time it starts');
    for (const id of ['time', 'github', 'filesystem', 'docs']) expect(above(id), id).not.toContain('TODO: not pinned');
    expect(above('docs')).toContain('TODO: the client also loads variables from its envFile');
    expect(above('github')).toContain("written without Windows' `cmd /c` in front");
    expect(above('myapi')).toContain('header "Authorization" is VS Code\'s input "api-token"');
    // No value from a config is copied: the input's prompt text, the token placeholder.
    expect(text).not.toMatch(/YOUR_TOKEN|Perplexity API Key/);
  });

  it('an exact version the lockfile does not install is kept, and the difference said', () => {
    const d = detect(
      scanned('client-configs', {
        '.mcp.json': JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem@2026.7.4', '/data'] } } }),
      }),
    );
    const fs = sourceOf(d, 'fs');
    expect(fs?.source).toEqual({ mcp: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem@2026.7.4', '/data'], env: [] } });
    expect(fs?.comments).toContain('.mcp.json asks for 2026.7.4; package-lock.json installs 2026.8.31: this checks 2026.7.4, what the client starts');
    expect(fs?.pin).toBeUndefined();
  });
  it('a config that already starts node_modules/<pkg>: pinned when a lockfile lists it, flagged when none does', () => {
    const config = JSON.stringify({
      mcpServers: { fs: { command: 'node', args: ['node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', '/data'] } },
    });
    const locked = sourceOf(detect(scanned('client-configs', { '.mcp.json': config })), 'fs');
    expect(locked?.source).toEqual({
      mcp: { command: 'node', args: ['node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', '/data'], env: [] },
    });
    expect(locked?.pin).toEqual({ state: 'locked', text: '@modelcontextprotocol/server-filesystem 2026.8.31 from package-lock.json' });
    const loose = sourceOf(detect({ paths: ['.mcp.json'], texts: new Map([['.mcp.json', config]]) }), 'fs');
    expect(loose?.pin).toEqual({ state: 'unpinned', text: 'node_modules/@modelcontextprotocol/server-filesystem: no lockfile pins it' });
    expect(loose?.comments.join('\n')).toContain('TODO: not pinned: no lockfile lists @modelcontextprotocol/server-filesystem');
  });
});

describe('package.json dependencies on published servers', () => {
  const expected = (lockfile: string) => [
    ['server-memory', `${MEMORY} 2026.8.31 from ${lockfile}`],
    ['server-everything', `@modelcontextprotocol/server-everything 2026.8.31 from ${lockfile}`],
  ];

  it('pnpm, Yarn classic and Yarn Berry lockfiles: each server pinned to the locked version; zod (a library) is not a server', () => {
    for (const [fixture, lockfile, install] of [
      ['consumer-pnpm', 'pnpm-lock.yaml', 'corepack enable && pnpm install --frozen-lockfile'],
      ['consumer-yarn', 'yarn.lock', 'corepack enable && yarn install --immutable'],
      ['consumer-berry', 'yarn.lock', 'corepack enable && yarn install --immutable'],
    ] as const) {
      const d = detect(scanned(fixture));
      expect(
        d.findings.map((f) => [f.id, f.pin?.text]),
        fixture,
      ).toEqual(expected(lockfile));
      // Not installed here: npx fetches the locked version of the package.
      expect(sourceOf(d, 'server-memory')?.source, fixture).toEqual({ mcp: { command: 'npx', args: ['-y', `${MEMORY}@2026.8.31`], env: [] } });
      expect(sourceOf(d, 'server-memory')?.comments.join('\n'), fixture).toContain(`node_modules/${MEMORY} is not installed here`);
      expect(render(d).workflowYml, fixture).toContain(`- run: "${install}"`);
      // A devDependency may serve tests only: its comment says so.
      expect(sourceOf(d, 'server-everything')?.comments.join('\n'), fixture).toMatch(
        /lists it in devDependencies.*\n[^]*remove this source if only tests use the server/,
      );
    }
    // Why each is a server: its metadata where the lockfile has it, else its name.
    expect(sourceOf(detect(scanned('consumer-pnpm')), 'server-memory')?.comments[0]).toContain('it has a bin and depends on @modelcontextprotocol/sdk');
    expect(sourceOf(detect(scanned('consumer-yarn')), 'server-memory')?.comments[0]).toContain('an MCP reference server (@modelcontextprotocol/server-*)');
  });

  it('installed per the lockfile (its package.json in node_modules at the locked version): node starts that copy; another version is not used', () => {
    const manifest = readFileSync(join(REPO, 'node_modules', MEMORY, 'package.json'), 'utf8');
    const at = `node_modules/${MEMORY}/package.json`;
    const d = detect(scanned('consumer-pnpm', { [at]: manifest }));
    expect(sourceOf(d, 'server-memory')?.source).toEqual({ mcp: { command: 'node', args: [`node_modules/${MEMORY}/dist/index.js`], env: [] } });
    // The installed package.json is no project of the repository.
    expect(d.findings).toHaveLength(2);
    const older = manifest.replace('"version": "2026.8.31"', '"version": "2026.7.4"');
    expect(sourceOf(detect(scanned('consumer-pnpm', { [at]: older })), 'server-memory')?.source).toMatchObject({ mcp: { command: 'npx' } });
  });

  it('without a lockfile: an exact version is started with npx; a range is flagged', () => {
    const pkg = JSON.stringify({ name: 'a', dependencies: { 'acme-mcp-server': '^1.2.0', '@modelcontextprotocol/server-memory': '2026.8.31', zod: '^3' } });
    const d = detect({ paths: ['package.json'], texts: new Map([['package.json', pkg]]) });
    expect(d.findings.map((f) => [f.id, f.source, f.pin])).toEqual([
      [
        'acme-mcp-server',
        { mcp: { command: 'npx', args: ['-y', 'acme-mcp-server'], env: [] } },
        { state: 'unpinned', text: 'acme-mcp-server: package.json asks for "^1.2.0" and no lockfile pins it' },
      ],
      ['server-memory', { mcp: { command: 'npx', args: ['-y', `${MEMORY}@2026.8.31`], env: [] } }, undefined],
    ]);
    expect(sourceOf(d, 'acme-mcp-server')?.comments[0]).toBe('acme-mcp-server (package.json depends on it: its name says mcp-server)');
  });

  it('SDKs, clients and bridges are not servers, though they have a bin and depend on the SDK; a workspace package is the repository\u2019s own', () => {
    // Their entries as toolgate's own package-lock.json has them, and mcp-remote's shape.
    const own = (JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> }).packages;
    const names = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/inspector', '@modelcontextprotocol/inspector-cli', MEMORY];
    const lock = JSON.stringify({
      lockfileVersion: 3,
      packages: {
        ...Object.fromEntries(names.map((n) => [`node_modules/${n}`, own[`node_modules/${n}`]])),
        'node_modules/mcp-remote': { version: '0.1.29', bin: { 'mcp-remote': 'dist/proxy.js' }, dependencies: { '@modelcontextprotocol/sdk': '^1.13.0' } },
      },
    });
    const pkg = JSON.stringify({
      name: 'a',
      dependencies: { 'mcp-remote': '0.1.29', 'my-mcp-server': 'workspace:*' },
      devDependencies: Object.fromEntries(names.map((n) => [n, '*'])),
    });
    const d = detect({
      paths: ['package.json', 'package-lock.json'],
      texts: new Map([
        ['package.json', pkg],
        ['package-lock.json', lock],
      ]),
    });
    expect(d.findings.map((f) => [f.id, f.comments[0]])).toEqual([
      [
        'server-memory',
        `${MEMORY} 2026.8.31 (package.json lists it in devDependencies: it has a bin and depends on @modelcontextprotocol/sdk), pinned by package-lock.json`,
      ],
    ]);
  });
});

describe('hostile lockfiles and installed packages', () => {
  it('a bin leading out of its package is not run; the installed copy must be the package it claims', () => {
    const lock = JSON.stringify({
      lockfileVersion: 3,
      packages: {
        '': { dependencies: { 'evil-mcp-server': '1.0.0', 'other-mcp-server': '1.0.0' } },
        'node_modules/evil-mcp-server': { version: '1.0.0', bin: { 'evil-mcp-server': '../../../outside.js' } },
        'node_modules/other-mcp-server': { version: '1.0.0', bin: { 'other-mcp-server': 'cli.js\n  - id: injected' } },
      },
    });
    const pkg = JSON.stringify({ dependencies: { 'evil-mcp-server': '1.0.0', 'other-mcp-server': '1.0.0' } });
    const d = detect({
      paths: ['package.json', 'package-lock.json'],
      texts: new Map([
        ['package.json', pkg],
        ['package-lock.json', lock],
      ]),
    });
    for (const id of ['evil-mcp-server', 'other-mcp-server'])
      expect(sourceOf(d, id)?.source, id).toMatchObject({ mcp: { command: 'npx', args: ['-y', `${id}@1.0.0`] } });
    expect(render(d).toolgateYml).not.toMatch(/outside\.js|injected/);
  });

  it('node_modules linked out of the repository is not read, and says so', async () => {
    const { repo, outside } = repoFrom('consumer-pnpm');
    mkdirSync(join(outside, MEMORY), { recursive: true });
    writeFileSync(join(outside, MEMORY, 'package.json'), JSON.stringify({ name: MEMORY, version: '2026.8.31', bin: { m: '../../../../../../bin/sh' } }));
    symlinkSync(outside, join(repo, 'node_modules'));
    const r = await runCli(['init'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`node_modules/${MEMORY}/package.json: not read`);
    expect(r.stderr).toMatch(/outside/);
    const policy = await loadPolicy(join(repo, 'toolgate.yml'));
    expect(policy.sources[0]).toMatchObject({ id: 'server-memory', mcp: { command: 'npx', args: ['-y', `${MEMORY}@2026.8.31`] } });
  });
});
