/**
 * What a sandboxed server can read: the system's directories, its interpreter's install
 * directory, the repository and what its source names, and nothing else of the home directory
 * (a fake one: toolgate's HOME points at a temp dir holding a key, an `.npmrc` token and a
 * Docker Desktop-style socket, with the repository outside it). The server still starts when its
 * node is installed where nvm, the runner's tool cache or a global npm prefix put it. Real
 * bubblewrap; each reading probe also runs unsandboxed once, to show it can see what the sandbox
 * hides (so the sandboxed cases are not passing for want of trying).
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { adHocPolicy } from '../../src/config/policy-resolve.js';
import { typedContainment } from '../../src/cli/prepare.js';
import { DEFAULT_CONTAINMENT, type Containment } from '../../src/config/source-config.js';
import { runCheck } from '../../src/run-check.js';
import type { CheckResult } from '../../src/judge/result.js';
import { SandboxState } from '../../src/sources/launch/state.js';
import { silentLogger } from '../../src/util/logger.js';
import { FIXTURES, NODE, tempDir } from '../support/mcp-fixtures.js';

const AVAILABLE = new SandboxState().support().available;
if (!AVAILABLE) console.warn('sandbox-reads.test.ts: skipped, no sandbox here');

const HOSTILE = join(FIXTURES, 'hostile');
const MARKER = `TOOLGATE-KEY-${process.pid}-${Date.now()}`;
const cleanups: (() => void)[] = [];
const listeners: Server[] = [];
let fakeHome = '';
let varTmp = '';
const saved = { PATH: process.env.PATH };

/** A unix socket that accepts and closes, at `path`. */
async function listenAt(path: string): Promise<void> {
  const s = createServer((c) => c.destroy());
  await new Promise<void>((r) => s.listen(path, r));
  listeners.push(s);
}

beforeAll(async () => {
  const h = tempDir('tg-fakehome-');
  cleanups.push(h.cleanup);
  fakeHome = h.path;
  mkdirSync(join(fakeHome, '.ssh'));
  writeFileSync(join(fakeHome, '.ssh/id_rsa'), `${MARKER} private key\n`);
  writeFileSync(join(fakeHome, '.npmrc'), `//registry.npmjs.org/:_authToken=${MARKER}\n`);
  mkdirSync(join(fakeHome, '.docker/desktop'), { recursive: true });
  await listenAt(join(fakeHome, '.docker/desktop/docker.sock'));
  varTmp = mkdtempSync('/var/tmp/tg-sock-');
  cleanups.push(() => rmSync(varTmp, { recursive: true, force: true }));
  await listenAt(join(varTmp, 'agent.sock'));
});
beforeEach(() => {
  vi.stubEnv('HOME', fakeHome);
});
afterAll(async () => {
  await Promise.all(listeners.map((s) => new Promise((r) => s.close(r))));
  cleanups.splice(0).forEach((c) => c());
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** A repository (outside the fake HOME, with `.git`) holding the reader server in `server/`. */
function repository(): string {
  const dir = tempDir('tg-reads-repo-');
  cleanups.push(dir.cleanup);
  mkdirSync(join(dir.path, '.git'));
  mkdirSync(join(dir.path, 'server'));
  for (const f of ['reader.mjs', '_raw.mjs']) copyFileSync(join(HOSTILE, f), join(dir.path, 'server', f));
  return dir.path;
}

interface Report {
  read: Record<string, string>;
  socket: Record<string, string>;
  mountinfo: string;
  execPath: string;
}

/**
 * Runs `command args` (the reader's reads and sockets appended) from `at` (toolgate.yml's
 * directory: `repo` unless said) and returns its report.
 */
async function run(
  repo: string,
  command: string,
  args: string[],
  probe: { reads?: string[]; sockets?: string[] },
  containment: Partial<Containment> = {},
  at = repo,
) {
  const policy = adHocPolicy(
    {
      id: 'reader',
      kind: 'mcp',
      contract: join(repo, 'c.json'),
      mcp: {
        transport: 'stdio',
        command,
        args: [...args, '--', (probe.reads ?? []).join(','), (probe.sockets ?? []).join(',')],
        cwd: at,
        env: [],
        capabilities: {},
        timeouts: { startupMs: 20_000, requestMs: 10_000, totalMs: 30_000 },
        limits: { maxPages: 5, maxBytes: 1 << 20 },
        containment: { ...DEFAULT_CONTAINMENT, ...containment },
      },
    },
    at,
  );
  const r: CheckResult = await runCheck({ policy, mode: 'audit', root: at, logger: silentLogger });
  const failure = r.sources[0]!.failure;
  const report = failure ? undefined : (JSON.parse(r.sources[0]!.surface!.tools[0]!.description!) as Report);
  return { r, failure, report };
}

/** `node` hard-linked (or copied, across file systems) to `dir/bin/node`. */
function installNode(prefix: string): string {
  const bin = join(prefix, 'bin');
  mkdirSync(bin, { recursive: true });
  const node = join(bin, 'node');
  try {
    linkSync(NODE, node);
  } catch {
    copyFileSync(NODE, node);
  }
  return bin;
}

describe.skipIf(!AVAILABLE)('a sandboxed server reads only what it needs', () => {
  const secrets = () => [join(fakeHome, '.ssh/id_rsa'), join(fakeHome, '.npmrc')];
  const sockets = () => [join(fakeHome, '.docker/desktop/docker.sock'), join(varTmp, 'agent.sock')];

  it('unsandboxed, the reader reaches the keys and the sockets (the probes work)', async () => {
    vi.stubEnv('TOOLGATE_SANDBOX_UNAVAILABLE', 'test: the control run');
    const repo = repository();
    const { failure, report } = await run(repo, NODE, ['server/reader.mjs'], { reads: secrets(), sockets: sockets() });
    expect(failure?.message).toBeUndefined();
    for (const p of secrets()) expect(report!.read[p]).toContain(MARKER);
    for (const p of sockets()) expect(report!.socket[p]).toBe('yes');
  }, 30_000);

  it("nothing of the home directory, no socket in it or in /var/tmp, not through a link, /proc/1/root or toolgate's /proc entry", async () => {
    const repo = repository();
    symlinkSync(join(fakeHome, '.ssh/id_rsa'), join(repo, 'key-link'));
    const reads = [...secrets(), join(repo, 'key-link'), `/proc/1/root${fakeHome}/.ssh/id_rsa`, `/proc/${process.pid}/environ`, '/etc/hostname'];
    const { failure, report } = await run(repo, NODE, ['server/reader.mjs'], { reads, sockets: sockets() });
    expect(failure?.message).toBeUndefined();
    for (const p of reads.slice(0, -1)) expect(report!.read[p], p).toMatch(/^no \(ENOENT\)/);
    // The system's directories are still there.
    expect(report!.read['/etc/hostname']).toMatch(/^yes/);
    for (const p of sockets()) expect(report!.socket[p], p).toMatch(/^no \(ENOENT\)/);
    // Its view of the mounts names the repository, not the home directory.
    expect(report!.mountinfo).toContain(repo);
    expect(report!.mountinfo).not.toContain(fakeHome);
    expect(report!.mountinfo).not.toMatch(/ \/var\b| \/run\b| \/root\b/);
  }, 30_000);

  // Root reads files of /sys that carry modes 0400 (firmware tables, serial numbers): as root,
  // those subtrees are hidden; what runtimes read there (CPUs, cgroup limits) stays.
  const rootOnlyInSys = ['/sys/firmware/acpi/tables/DSDT', '/sys/firmware/dmi/tables/DMI', '/sys/devices/virtual/dmi/id/product_uuid'];
  it.skipIf(process.getuid?.() !== 0)(
    'run as root, the firmware tables and serial numbers in /sys are hidden; CPU facts are not',
    async () => {
      const present = rootOnlyInSys.filter((p) => existsSync(p));
      expect(present.length, 'no root-only file of /sys on this machine to probe').toBeGreaterThan(0);
      const reads = [...present, '/sys/devices/system/cpu/online'];
      vi.stubEnv('TOOLGATE_SANDBOX_UNAVAILABLE', 'test: the control run');
      const control = await run(repository(), NODE, ['server/reader.mjs'], { reads });
      vi.stubEnv('TOOLGATE_SANDBOX_UNAVAILABLE', undefined);
      for (const p of reads) expect(control.report!.read[p], p).toMatch(/^yes/);
      const { failure, report } = await run(repository(), NODE, ['server/reader.mjs'], { reads });
      expect(failure?.message).toBeUndefined();
      for (const p of present) expect(report!.read[p], p).toMatch(/^no \(ENOENT\)/);
      expect(report!.read['/sys/devices/system/cpu/online']).toMatch(/^yes: \d/);
    },
    30_000,
  );

  it('a `readable` path shows that path only; one that leads to the home directory is refused', async () => {
    const repo = repository();
    mkdirSync(join(fakeHome, '.cache/tool'), { recursive: true });
    writeFileSync(join(fakeHome, '.cache/tool/data.txt'), 'cached');
    const cache = join(fakeHome, '.cache/tool/data.txt');
    const ok = await run(repo, NODE, ['server/reader.mjs'], { reads: [cache, ...secrets()] }, { readable: [join(fakeHome, '.cache/tool')] });
    expect(ok.failure?.message).toBeUndefined();
    expect(ok.report!.read[cache]).toBe('yes: cached');
    for (const p of secrets()) expect(ok.report!.read[p]).toMatch(/^no/);

    symlinkSync(fakeHome, join(repo, 'cache'));
    const refused = await run(repo, NODE, ['server/reader.mjs'], {}, { readable: [join(repo, 'cache')] });
    expect(refused.failure?.reason).toBe('spawn-failed');
    expect(refused.failure?.message).toMatch(/a `readable` path .*cache \(it leads to .*tg-fakehome-.*\) is a home directory/);
    const parent = await run(repo, NODE, ['server/reader.mjs'], {}, { readable: [dirname(fakeHome)] });
    expect(parent.failure?.message).toMatch(/is a home directory or holds one/);
  }, 30_000);

  it('node installed with nvm in the home directory: its prefix is shown, the rest of the home is not', async () => {
    const repo = repository();
    const prefix = join(fakeHome, '.nvm/versions/node/v22.99.0');
    vi.stubEnv('PATH', `${installNode(prefix)}:${saved.PATH}`);
    const { failure, report } = await run(repo, 'node', ['server/reader.mjs'], { reads: secrets() });
    expect(failure?.message).toBeUndefined();
    expect(report!.execPath).toBe(join(prefix, 'bin/node'));
    for (const p of secrets()) expect(report!.read[p]).toMatch(/^no \(ENOENT\)/);
    expect(report!.mountinfo).toContain(prefix);
    expect(report!.mountinfo).not.toContain(join(fakeHome, '.ssh'));
  }, 30_000);

  it("a global npm install under a custom prefix: the `#!/usr/bin/env node` script runs with nvm's node", async () => {
    const repo = repository();
    const prefix = join(fakeHome, '.nvm/versions/node/v22.99.1');
    vi.stubEnv('PATH', `${installNode(prefix)}:${saved.PATH}`);
    const pkg = join(fakeHome, '.npm-global/lib/node_modules/reader-server');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{"name":"reader-server","version":"1.0.0","bin":"reader.mjs"}\n');
    writeFileSync(join(pkg, 'reader.mjs'), `#!/usr/bin/env node\n${readFileSync(join(HOSTILE, 'reader.mjs'), 'utf8')}`, { mode: 0o755 });
    copyFileSync(join(HOSTILE, '_raw.mjs'), join(pkg, '_raw.mjs'));
    mkdirSync(join(fakeHome, '.npm-global/bin'));
    symlinkSync('../lib/node_modules/reader-server/reader.mjs', join(fakeHome, '.npm-global/bin/reader-server'));
    vi.stubEnv('PATH', `${join(fakeHome, '.npm-global/bin')}:${process.env.PATH}`);
    const { failure, report } = await run(repo, 'reader-server', [], { reads: secrets() });
    expect(failure?.message).toBeUndefined();
    expect(report!.execPath).toBe(join(prefix, 'bin/node'));
    for (const p of secrets()) expect(report!.read[p]).toMatch(/^no/);
  }, 30_000);

  it("node from a tool cache (the runner's /opt/hostedtoolcache/<tool>/<ver>/<arch> layout): that prefix only", async () => {
    const repo = repository();
    const opt = tempDir('tg-opt-');
    cleanups.push(opt.cleanup);
    writeFileSync(join(opt.path, 'other-tool-secret'), MARKER);
    const prefix = join(opt.path, 'hostedtoolcache/node/22.99.0/x64');
    vi.stubEnv('PATH', `${installNode(prefix)}:${saved.PATH}`);
    const { failure, report } = await run(repo, 'node', ['server/reader.mjs'], { reads: [join(opt.path, 'other-tool-secret')] });
    expect(failure?.message).toBeUndefined();
    expect(report!.execPath).toBe(join(prefix, 'bin/node'));
    expect(report!.read[join(opt.path, 'other-tool-secret')]).toMatch(/^no \(ENOENT\)/);
  }, 30_000);

  it('a repository in the home directory shows, but its neighbours do not; toolgate.yml in the home itself is refused', async () => {
    const repo = join(fakeHome, 'projects/app');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'server'));
    for (const f of ['reader.mjs', '_raw.mjs']) copyFileSync(join(HOSTILE, f), join(repo, 'server', f));
    mkdirSync(join(fakeHome, 'projects/other'));
    writeFileSync(join(fakeHome, 'projects/other/.env'), MARKER);
    const { failure, report } = await run(repo, NODE, ['server/reader.mjs'], { reads: [join(fakeHome, 'projects/other/.env'), ...secrets()] });
    expect(failure?.message).toBeUndefined();
    for (const p of Object.keys(report!.read)) expect(report!.read[p]).toMatch(/^no \(ENOENT\)/);

    copyFileSync(join(HOSTILE, 'reader.mjs'), join(fakeHome, 'reader.mjs'));
    const atHome = await run(fakeHome, NODE, ['reader.mjs'], {});
    expect(atHome.failure?.message).toMatch(/the repository .* is a home directory/);
  }, 30_000);
  it("a policy in a monorepo's package sees the repository from its git root: the hoisted node_modules", async () => {
    const repo = repository();
    const app = join(repo, 'packages/app');
    mkdirSync(join(app, 'server'), { recursive: true });
    for (const f of ['reader.mjs', '_raw.mjs']) copyFileSync(join(HOSTILE, f), join(app, 'server', f));
    // The server imports a package that npm hoisted to the repository's root.
    mkdirSync(join(repo, 'node_modules/hoisted'), { recursive: true });
    writeFileSync(join(repo, 'node_modules/hoisted/package.json'), '{"name":"hoisted","type":"module","main":"index.mjs"}\n');
    writeFileSync(join(repo, 'node_modules/hoisted/index.mjs'), 'export const ok = true;\n');
    writeFileSync(join(app, 'server/start.mjs'), "import { ok } from 'hoisted';\nif (ok) await import('./reader.mjs');\n");
    writeFileSync(join(repo, 'package.json'), '{"private":true,"workspaces":["packages/*"]}\n');
    writeFileSync(join(repo, '.git/config'), `[remote "origin"]\n  url = https://${MARKER}@example.com/x.git\n`);
    const reads = [join(repo, 'package.json'), join(repo, '.git/config')];
    const { failure, report } = await run(repo, NODE, ['server/start.mjs'], { reads }, {}, app);
    expect(failure?.message).toBeUndefined();
    expect(report!.read[join(repo, 'package.json')]).toMatch(/^yes: .*workspaces/);
    // The repository's .git stays hidden (the remote's credentials, the hooks).
    expect(report!.read[join(repo, '.git/config')]).toMatch(/^no \(ENOENT\)/);
  }, 30_000);

  it("a path in a policy source's arguments opens nothing outside the repository; one typed after `--` does", async () => {
    const repo = repository();
    const outside = tempDir('tg-reads-outside-');
    cleanups.push(outside.cleanup);
    writeFileSync(join(outside.path, 'secret.txt'), MARKER);
    const secret = join(outside.path, 'secret.txt');
    const dotted = `../${basename(outside.path)}/secret.txt`;
    for (const named of [secret, dotted]) {
      // The argument is exactly the path (the reader reads its third argument).
      const { failure, report } = await run(repo, NODE, ['server/reader.mjs'], { reads: [named] });
      expect(failure?.message).toBeUndefined();
      expect(report!.read[named], named).toMatch(/^no \(ENOENT\)/);
    }
    // The same command line typed by the user (`toolgate audit -- node server/reader.mjs -- <path>`).
    const typed = typedContainment([NODE, 'server/reader.mjs', '--', secret, ''], repo);
    expect(typed.readable).toEqual([secret]);
    const { report } = await run(repo, NODE, ['server/reader.mjs'], { reads: [secret] }, typed);
    expect(report!.read[secret]).toBe(`yes: ${MARKER}`);
  }, 30_000);
});
