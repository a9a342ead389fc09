/**
 * A server started through the real `npx`, sandboxed: with the README's npm cache recipe
 * ("A server published on npm"): the cache lives in the repository (`writable: [.npm-cache]`,
 * npm's variables named in `env`), filled once outside toolgate, and npx runs the server from it
 * offline. The registry is a local one on 127.0.0.1 (test/support/local-registry.ts), so the test
 * needs no network; toolgate's HOME points at a fake home with an `.npmrc` token the server must
 * not see. Without the cache, the install is blocked: the source fails in seconds with a
 * headline naming the registry and the README's recipe, and no path in the deleted scratch HOME.
 * On the pull request that adds the recipe, the base branch's containment still applies: the
 * failure says which change that is and how to go on.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adHocPolicy } from '../../src/config/policy-resolve.js';
import { judgingPolicy } from '../../src/config/policy-diff.js';
import { DEFAULT_CONTAINMENT, type Containment } from '../../src/config/source-config.js';
import { runCheck } from '../../src/run-check.js';
import { SandboxState } from '../../src/sources/launch/state.js';
import { silentLogger } from '../../src/util/logger.js';
import { startRegistry, type LocalRegistry } from '../support/local-registry.js';
import { runProcess } from '../support/run-dist.js';
import { FIXTURES, tempDir } from '../support/mcp-fixtures.js';

const AVAILABLE = new SandboxState().support().available;
const NPX = spawnSync('npx', ['--version'], { encoding: 'utf8' }).status === 0;
if (!AVAILABLE || !NPX) console.warn('sandbox-npx.test.ts: skipped, no sandbox or no npx here');

const PKG = 'toolgate-reader-server';
const VERSION = '1.0.0';
const MARKER = `TOOLGATE-NPMRC-${process.pid}`;
const cleanups: (() => void)[] = [];
let registry: LocalRegistry;
let fakeHome = '';

beforeAll(async () => {
  if (!AVAILABLE || !NPX) return;
  const work = tempDir('tg-npx-');
  cleanups.push(work.cleanup);
  // The package: the reader fixture as an npm bin.
  const pkg = join(work.path, 'pkg');
  mkdirSync(pkg);
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: PKG, version: VERSION, type: 'module', bin: { [PKG]: 'reader.mjs' } }));
  writeFileSync(join(pkg, 'reader.mjs'), `#!/usr/bin/env node\n${readFileSync(join(FIXTURES, 'hostile/reader.mjs'), 'utf8')}`, { mode: 0o755 });
  copyFileSync(join(FIXTURES, 'hostile/_raw.mjs'), join(pkg, '_raw.mjs'));
  mkdirSync(join(work.path, 'packs'));
  registry = await startRegistry([pkg], join(work.path, 'packs'));
  fakeHome = join(work.path, 'home');
  mkdirSync(fakeHome);
  writeFileSync(join(fakeHome, '.npmrc'), `//registry.npmjs.org/:_authToken=${MARKER}\n`);
  vi.stubEnv('HOME', fakeHome);
}, 120_000);
afterAll(async () => {
  vi.unstubAllEnvs();
  await registry?.close();
  cleanups.splice(0).forEach((c) => c());
});

/** npm as the README's cache recipe sets it: offline, from `cache`, `registry` named (taken back in afterAll). */
function stubNpm(cache: string, registry: string): void {
  for (const [k, v] of Object.entries({ npm_config_cache: cache, npm_config_offline: 'true', npm_config_registry: registry })) vi.stubEnv(k, v);
}

/** This process's environment as strings (what `runProcess` takes). */
function cleanEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** A repository whose one source runs `npx -y toolgate-reader-server@1.0.0`, as the README's recipe has it. */
function npxRepository(containment: Partial<Containment>) {
  const repo = tempDir('tg-npx-repo-');
  cleanups.push(repo.cleanup);
  mkdirSync(join(repo.path, '.git'));
  mkdirSync(join(repo.path, '.npm-cache'));
  const policy = adHocPolicy(
    {
      id: 'npx-reader',
      kind: 'mcp',
      contract: join(repo.path, 'c.json'),
      mcp: {
        transport: 'stdio',
        command: 'npx',
        args: ['-y', `${PKG}@${VERSION}`, '--', join(fakeHome, '.npmrc')],
        cwd: repo.path,
        env: ['npm_config_cache', 'npm_config_offline', 'npm_config_registry'],
        capabilities: {},
        timeouts: { startupMs: 60_000, requestMs: 10_000, totalMs: 90_000 },
        limits: { maxPages: 5, maxBytes: 1 << 20 },
        containment: { ...DEFAULT_CONTAINMENT, ...containment, writable: (containment.writable ?? []).map((w) => join(repo.path, w)) },
      },
    },
    repo.path,
  );
  return { repo: repo.path, policy };
}

describe.skipIf(!AVAILABLE || !NPX)("npx in the sandbox, with the README's cache recipe", () => {
  it('the cache filled once outside toolgate; the sandboxed server starts from it offline and sees no .npmrc of the home', async () => {
    const { repo, policy } = npxRepository({ writable: ['.npm-cache'] });
    const cache = join(repo, '.npm-cache');
    // "download once, outside toolgate" (asynchronously: the registry answers from this process)
    const fill = await runProcess('npm', ['exec', '--yes', `--package=${PKG}@${VERSION}`, '--', 'true'], {
      cwd: repo,
      env: { ...cleanEnv(), npm_config_cache: cache, npm_config_registry: registry.url, npm_config_update_notifier: 'false' },
      timeoutMs: 120_000,
    });
    expect(fill.code, fill.stderr).toBe(0);
    const before = registry.requests();
    stubNpm(cache, registry.url);
    const r = await runCheck({ policy, mode: 'audit', root: repo, logger: silentLogger });
    const src = r.sources[0]!;
    expect(src.failure?.message).toBeUndefined();
    expect(src.diagnostics?.sandbox).toEqual({ sandboxed: true, network: 'loopback' });
    const report = JSON.parse(src.surface!.tools[0]!.description!) as { read: Record<string, string> };
    expect(report.read[join(fakeHome, '.npmrc')]).toMatch(/^no \(ENOENT\)/);
    // Offline: nothing asked of the registry (it is not reachable from the sandbox anyway).
    expect(registry.requests()).toBe(before);
  }, 180_000);
  it('without a cache the install is blocked: a headline naming the registry and the recipe, no path of the deleted HOME', async () => {
    const { repo, policy } = npxRepository({ writable: ['.npm-cache'] });
    for (const k of ['npm_config_cache', 'npm_config_offline', 'npm_config_registry']) vi.stubEnv(k, undefined);
    const started = performance.now();
    const r = await runCheck({ policy, mode: 'audit', root: repo, logger: silentLogger });
    console.log(`sandbox-npx: a blocked npx install failed in ${Math.round(performance.now() - started)} ms`);
    const failure = r.sources[0]!.failure!;
    expect(failure.reason).toBe('exited');
    expect(failure.message).toMatch(
      /^MCP server `npx -y toolgate-reader-server@1\.0\.0 .*` could not start: it tried to reach registry\.npmjs\.org, which the sandbox blocks \(no network\); use the npm cache recipe \(README, "A server published on npm"\), or give the source `network: open`/,
    );
    expect(JSON.stringify(r)).not.toContain('toolgate-home-');
    expect(failure.stderrTail).toMatch(/npm error .*EAI_AGAIN registry\.npmjs\.org/);
    expect(failure.stderrTail).toContain('$HOME/.npm/_logs/');
    expect(r.findings.find((f) => f.ruleId === 'server-network-blocked')?.message).toContain('registry.npmjs.org');
  }, 120_000);

  it('on the pull request that adds the recipe, the base containment applies: the failure names that change and the way forward', async () => {
    const base = npxRepository({});
    const head = npxRepository({ writable: ['.npm-cache'] });
    const cache = join(head.repo, '.npm-cache');
    const fill = await runProcess('npm', ['exec', '--yes', `--package=${PKG}@${VERSION}`, '--', 'true'], {
      cwd: head.repo,
      env: { ...cleanEnv(), npm_config_cache: cache, npm_config_registry: registry.url, npm_config_update_notifier: 'false' },
      timeoutMs: 120_000,
    });
    expect(fill.code, fill.stderr).toBe(0);
    stubNpm(cache, registry.url);
    // The head's source judged as the base contains it (no writable path yet): what a pull request runs.
    const judged = judgingPolicy({ ...base.policy, root: head.repo }, head.policy);
    const r = await runCheck({ policy: judged, mode: 'audit', root: head.repo, logger: silentLogger });
    const failure = r.sources[0]!.failure!;
    expect(failure.message).toMatch(
      /^this pull request gives source "npx-reader" `writable: \.npm-cache`, which applies once it is merged; until then its server runs as the base branch contains it, and it failed so\. Merge that containment change first/,
    );
    // npm's own error comes after (ENOTCACHED: it cannot use a cache it may not write), with the keys that allow it.
    expect(failure.stderrTail).toMatch(/npm error code ENOTCACHED/);
    expect(failure.message).toMatch(/The server's error: MCP server `npx .*` exited with code 1 during start-up/);
    expect(failure.message).toContain('to let the server write .npm-cache/_logs, name it (or its directory) in `writable:`');
    expect(failure.message).toContain('npm found no cached copy of the package: fill the npm cache before toolgate runs (README, "A server published on npm")');
    expect(JSON.stringify(r)).not.toContain('toolgate-home-');
  }, 180_000);
});
