/**
 * parseLockfile and installedManifest on lockfiles the package managers wrote (npm 6 and 11,
 * pnpm 7, 8 and 9, Yarn 1 and 4: test/fixtures/lockfiles/README.md and the init fixtures'
 * READMEs) and on hostile ones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installedManifest, parseLockfile, type Lockfile } from '../../src/init/lockfile.js';
import { REPO } from '../support/run-dist.js';

const read = (p: string) => readFileSync(join(REPO, 'test/fixtures', p), 'utf8');

function parsed(file: string, text: string, importer = ''): Lockfile {
  const lock = parseLockfile(file, text, importer);
  if ('error' in lock) throw new Error(lock.error);
  return lock;
}

const MEMORY = '@modelcontextprotocol/server-memory';
const EVERYTHING = '@modelcontextprotocol/server-everything';
const SDK = '@modelcontextprotocol/sdk';

describe('parseLockfile on real lockfiles', () => {
  it('npm lockfileVersion 3: the version, where it is installed, its bins and dependencies', () => {
    const lock = parsed('package-lock.json', read('init/consumer-npm/package-lock.json'));
    expect(lock.manager).toBe('npm');
    expect(lock.lookup(MEMORY)).toEqual({
      version: '2026.8.31',
      lockfile: 'package-lock.json',
      installPath: `node_modules/${MEMORY}`,
      bin: { 'mcp-server-memory': 'dist/index.js' },
      dependencies: [SDK],
      registry: true,
    });
    // A package the project does not have, and a name that is not one.
    expect(lock.lookup('left-pad')).toBeUndefined();
    expect(lock.lookup('../../etc')).toBeUndefined();
  });

  it('npm lockfileVersion 1 (npm 6): the version and what it requires; no bins in that format', () => {
    const lock = parsed('package-lock.json', read('lockfiles/npm-v1/package-lock.json'));
    expect(lock.lookup(MEMORY)).toMatchObject({ version: '2026.8.31', dependencies: [SDK], registry: true });
    expect(lock.lookup(MEMORY)?.bin).toBeUndefined();
    expect(lock.lookup('zod')?.version).toBe('3.25.76');
    // v1 records the root project only.
    expect(parsed('package-lock.json', read('lockfiles/npm-v1/package-lock.json'), 'apps/web').lookup(MEMORY)).toBeUndefined();
  });

  it('pnpm 9, 8 and 7 (lockfileVersion 9.0, 6.0, 5.4): the version without the peer suffix, hasBin, the dependencies', () => {
    for (const file of ['init/consumer-pnpm/pnpm-lock.yaml', 'lockfiles/pnpm-v6/pnpm-lock.yaml', 'lockfiles/pnpm-v5/pnpm-lock.yaml']) {
      const lock = parsed('pnpm-lock.yaml', read(file));
      expect(lock.manager, file).toBe('pnpm');
      expect(lock.lookup(MEMORY), file).toEqual({ version: '2026.8.31', lockfile: 'pnpm-lock.yaml', bin: true, dependencies: [SDK], registry: true });
      expect(lock.lookup(EVERYTHING)?.version, file).toBe('2026.8.31');
      expect(lock.lookup('zod'), file).toMatchObject({ version: '3.25.76', dependencies: [] });
      expect(lock.lookup('zod')?.bin, file).toBeUndefined();
    }
    // pnpm 9 files a workspace package under importers: another directory has no entry here.
    expect(parsed('pnpm-lock.yaml', read('init/consumer-pnpm/pnpm-lock.yaml'), 'packages/other').lookup(MEMORY)).toBeUndefined();
  });

  it('Yarn classic: the entry for the range package.json asks for', () => {
    const lock = parsed('yarn.lock', read('init/consumer-yarn/yarn.lock'));
    expect(lock.manager).toBe('yarn');
    expect(lock.lookup(MEMORY, '^2026.7.4')).toEqual({ version: '2026.8.31', lockfile: 'yarn.lock', dependencies: [SDK], registry: true });
    expect(lock.lookup('zod', '^3.25.0')?.version).toBe('3.25.76');
    // The SDK's entry lists its own dependencies, quoted names included.
    expect(lock.lookup(SDK, '^1.30.0')?.dependencies).toContain('@hono/node-server');
  });

  it('Yarn Berry: the entry under name@npm:range, with its bins', () => {
    const lock = parsed('yarn.lock', read('init/consumer-berry/yarn.lock'));
    expect(lock.lookup(MEMORY, '^2026.7.4')).toEqual({
      version: '2026.8.31',
      lockfile: 'yarn.lock',
      bin: { 'mcp-server-memory': 'dist/index.js' },
      dependencies: [SDK],
      registry: true,
    });
    // Without the range, the one version every entry of the name agrees on.
    expect(lock.lookup(EVERYTHING)?.version).toBe('2026.8.31');
    // zod is locked twice (^3.25.0 for the project, ^4.0.0 for server-everything): only the range decides.
    expect(lock.lookup('zod', '^3.25.0')?.version).toBe('3.25.76');
    expect(lock.lookup('zod')).toBeUndefined();
  });

  it('a lockfile of a folder above: the package.json in a subfolder is looked up under its own node_modules first', () => {
    const text = JSON.stringify({
      lockfileVersion: 3,
      packages: {
        'apps/agent/node_modules/srv': { version: '2.0.0', bin: { srv: 'cli.js' } },
        'node_modules/srv': { version: '1.0.0' },
        'node_modules/hoisted': { version: '3.1.4' },
      },
    });
    const lock = parsed('package-lock.json', text, 'apps/agent');
    expect(lock.lookup('srv')).toMatchObject({ version: '2.0.0', installPath: 'apps/agent/node_modules/srv', bin: { srv: 'cli.js' } });
    expect(lock.lookup('hoisted')).toMatchObject({ version: '3.1.4', installPath: 'node_modules/hoisted' });
  });
});

describe('parseLockfile on hostile lockfiles', () => {
  it('takes exact versions only, never a link, never an inherited key', () => {
    const text = JSON.stringify({
      lockfileVersion: 3,
      packages: {
        'node_modules/ranged': { version: '^1.0.0' },
        'node_modules/newline': { version: '1.0.0\n# injected' },
        'node_modules/linked': { version: '1.0.0', link: true, resolved: 'packages/linked' },
        'node_modules/from-git': { version: '1.0.0', resolved: 'git+ssh://git@github.com/a/b.git#0123456789abcdef0123456789abcdef01234567' },
        'node_modules/bins': { version: '1.0.0', bin: { ok: 'cli.js', n: 5 } },
      },
    });
    const lock = parsed('package-lock.json', text);
    expect(lock.lookup('ranged')).toBeUndefined();
    expect(lock.lookup('newline')).toBeUndefined();
    expect(lock.lookup('linked')).toBeUndefined();
    expect(lock.lookup('__proto__')).toBeUndefined();
    expect(lock.lookup('constructor')).toBeUndefined();
    expect(lock.lookup('from-git')).toMatchObject({ version: '1.0.0', registry: false });
    expect(lock.lookup('bins')?.bin).toEqual({ ok: 'cli.js' });
  });

  it('a file that does not parse is an error, not an empty lockfile', () => {
    expect(parseLockfile('package-lock.json', '{"lockfileVersion": 3,', '')).toMatchObject({ error: expect.stringContaining('not valid JSON') });
    expect(parseLockfile('pnpm-lock.yaml', 'a: [', '')).toMatchObject({ error: expect.stringContaining('not valid YAML') });
    expect(parseLockfile('package-lock.json', '[]', '')).toEqual({ error: 'not a JSON object' });
  });

  it('a YAML alias bomb in pnpm-lock.yaml is refused', () => {
    const bomb = read('hostile-repo/bomb.yaml');
    expect(parseLockfile('pnpm-lock.yaml', bomb, '')).toMatchObject({ error: expect.stringContaining('not valid YAML') });
  });
});

describe('installedManifest', () => {
  const real = readFileSync(join(REPO, 'node_modules', MEMORY, 'package.json'), 'utf8');
  const at = (texts: Record<string, string>) => (p: string) => texts[p];

  it("the installed copy's version, bins and dependencies (the real server-memory package.json)", () => {
    expect(installedManifest('.', MEMORY, at({ [`node_modules/${MEMORY}/package.json`]: real }))).toEqual({
      version: '2026.8.31',
      bin: { 'mcp-server-memory': 'dist/index.js' },
      dependencies: [SDK],
      installPath: `node_modules/${MEMORY}`,
    });
    expect(installedManifest('apps/a', MEMORY, at({ [`apps/a/node_modules/${MEMORY}/package.json`]: real }))?.installPath).toBe(
      `apps/a/node_modules/${MEMORY}`,
    );
  });

  it('a copy that names another package, or no exact version, is not that package', () => {
    const other = JSON.stringify({ name: 'evil', version: '1.0.0', bin: 'x.js' });
    expect(installedManifest('.', MEMORY, at({ [`node_modules/${MEMORY}/package.json`]: other }))).toBeUndefined();
    const ranged = JSON.stringify({ name: 'srv', version: 'latest' });
    expect(installedManifest('.', 'srv', at({ 'node_modules/srv/package.json': ranged }))).toBeUndefined();
    expect(installedManifest('.', '../x', at({ 'node_modules/../x/package.json': other }))).toBeUndefined();
    // A string bin is named after the package (without its scope).
    expect(
      installedManifest('.', '@a/srv', at({ 'node_modules/@a/srv/package.json': JSON.stringify({ name: '@a/srv', version: '1.0.0', bin: 'cli.js' }) }))?.bin,
    ).toEqual({
      srv: 'cli.js',
    });
  });
});
