/** The child's environment: allowlist only, scratch HOME (docs/design.md §9). */
import { MARKER_NAME } from '../../src/sources/launch/escape-scan.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CHILD_ENV_NAMES, SDK_INHERITED_ENV_VARS, buildChildEnv, makeScratchHome } from '../../src/sources/launch/env.js';
import { snapshotMcp } from '../../src/sources/mcp.js';
import { nodeFixture } from '../support/mcp-fixtures.js';

const SOURCE = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/runner',
  USER: 'runner',
  LOGNAME: 'runner',
  SHELL: '/bin/bash',
  TERM: 'xterm',
  BASH_FUNC_x: '() { :; }',
  GITHUB_TOKEN: 'ghs_secret',
  INPUT_GITHUB_TOKEN: 'ghs_secret',
  ACTIONS_RUNTIME_TOKEN: 'secret',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://example.invalid',
  MY_API_URL: 'https://api.example.com',
  SHELL_FN: '() { echo hi; }',
};

describe('buildChildEnv', () => {
  it('passes the defaults and the named variables, nothing else, with a scratch HOME', () => {
    const env = buildChildEnv({ names: ['MY_API_URL', 'NOT_SET'], source: SOURCE, home: '/tmp/h', platform: 'linux' });
    expect(env).toEqual({
      PATH: '/usr/bin:/bin',
      USER: 'runner',
      LOGNAME: 'runner',
      SHELL: '/bin/bash',
      TERM: 'xterm',
      MY_API_URL: 'https://api.example.com',
      HOME: '/tmp/h',
    });
  });

  it('passes GITHUB_TOKEN only when named explicitly (the user reviewed that choice)', () => {
    expect(buildChildEnv({ names: [], source: SOURCE, home: '/h', platform: 'linux' })).not.toHaveProperty('GITHUB_TOKEN');
    expect(buildChildEnv({ names: ['GITHUB_TOKEN'], source: SOURCE, home: '/h', platform: 'linux' }).GITHUB_TOKEN).toBe('ghs_secret');
  });

  it('never lets a named HOME replace the scratch home', () => {
    expect(buildChildEnv({ names: ['HOME'], source: SOURCE, home: '/scratch', platform: 'linux' }).HOME).toBe('/scratch');
  });

  it('sets USERPROFILE on Windows and skips exported shell functions', () => {
    const env = buildChildEnv({ names: ['SHELL_FN'], source: SOURCE, home: 'C:\\h', platform: 'win32', defaults: ['PATH', 'SHELL_FN'] });
    expect(env).toEqual({ PATH: '/usr/bin:/bin', SHELL_FN: '() { echo hi; }', HOME: 'C:\\h', USERPROFILE: 'C:\\h' });
    const defaultsOnly = buildChildEnv({ names: [], source: SOURCE, home: '/h', defaults: ['PATH', 'SHELL_FN'] });
    expect(defaultsOnly).not.toHaveProperty('SHELL_FN');
  });

  it('follows the SDK default list, without home variables', () => {
    if (process.platform !== 'win32') expect([...DEFAULT_CHILD_ENV_NAMES].sort()).toEqual(['LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER']);
  });

  it("keeps its copy of the SDK's list equal to the SDK's, here and on Windows", async () => {
    const { DEFAULT_INHERITED_ENV_VARS } = await import('@modelcontextprotocol/client/stdio');
    expect(SDK_INHERITED_ENV_VARS).toEqual(DEFAULT_INHERITED_ENV_VARS);
    // The Windows branch, from the SDK's own source: `….platform === "win32" ? [...] : [...]`.
    const text = readFileSync(createRequire(import.meta.url).resolve('@modelcontextprotocol/client/stdio'), 'utf8');
    const m = /DEFAULT_INHERITED_ENV_VARS = [\w.]*platform === "win32" \? \[([^\]]*)\] : \[([^\]]*)\]/.exec(text);
    expect(m).not.toBeNull();
    const names = (list: string) => [...list.matchAll(/"([^"]+)"/g)].map((x) => x[1]);
    const [win32, posix] = [names(m![1]!), names(m![2]!)];
    expect(process.platform === 'win32' ? win32 : posix).toEqual([...SDK_INHERITED_ENV_VARS]);
    expect(win32).toContain('USERPROFILE');
    const source = readFileSync(new URL('../../src/sources/launch/env.ts', import.meta.url), 'utf8');
    const ours = /\? \[([^\]]*)\]\s*: \[([^\]]*)\]/.exec(source);
    expect(ours && names(ours[1]!.replace(/'/g, '"'))).toEqual(win32);
  });
});

describe('spawned server environment', () => {
  const realHome = process.env.HOME;
  beforeEach(() => {
    for (const [k, v] of Object.entries({
      GITHUB_TOKEN: 'ghs_test',
      INPUT_GITHUB_TOKEN: 'ghs_test',
      INPUT_CONFIG: 'toolgate.yml',
      ACTIONS_RUNTIME_TOKEN: 'x',
      TOOLGATE_TEST_ALLOWED: 'yes',
      TOOLGATE_TEST_OTHER: 'no',
    }))
      vi.stubEnv(k, v);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('sees only the defaults, the named variables and a scratch HOME', async () => {
    const snap = await snapshotMcp('env', nodeFixture('env-echo.mjs', [], { env: ['TOOLGATE_TEST_ALLOWED', 'TOOLGATE_TEST_UNSET'] }));
    const [names, home] = snap.tools.map((t) => (t.tool as { description: string }).description);
    const seen = names!.split(',');
    expect(seen).toContain('TOOLGATE_TEST_ALLOWED');
    expect(seen).toContain('HOME');
    expect(seen).toContain('PATH');
    // Also the run marker (every process toolgate starts carries it: launch/escape-scan.ts) and, in
    // the sandbox, PWD (bubblewrap sets it to the working directory).
    const allowed = new Set([...DEFAULT_CHILD_ENV_NAMES, 'HOME', 'TOOLGATE_TEST_ALLOWED', MARKER_NAME, 'PWD']);
    expect(seen).toContain(MARKER_NAME);
    expect(seen.filter((n) => !allowed.has(n))).toEqual([]);
    expect(seen.some((n) => n === 'GITHUB_TOKEN' || n.startsWith('INPUT_') || n.startsWith('ACTIONS_'))).toBe(false);
    expect(home).not.toBe(realHome);
    expect(home).toMatch(/toolgate-home-/);
  });
});

describe('scratch homes of killed runs', () => {
  it('are deleted by the next run; a live run keeps its own', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const orphan = join(tmpdir(), `toolgate-home-${dead}-Ab12Cd`);
    const live = join(tmpdir(), `toolgate-home-${process.pid}-Zz9Yy8`);
    mkdirSync(join(orphan, '.cache'), { recursive: true });
    mkdirSync(live, { recursive: true });
    try {
      const home = await makeScratchHome();
      expect(existsSync(orphan)).toBe(false);
      expect(existsSync(live)).toBe(true);
      expect(home.path).toMatch(new RegExp(`toolgate-home-${process.pid}-`));
      await home.dispose();
      expect(existsSync(home.path)).toBe(false);
    } finally {
      rmSync(orphan, { recursive: true, force: true });
      rmSync(live, { recursive: true, force: true });
    }
  });
});
