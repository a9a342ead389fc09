/**
 * The one launcher (src/sources/launch/): its entry `start(spec, containment, role)` returns a
 * value, started or not, with the same diagnostics either way; the role decides the network; the
 * sandbox state is the run's own and only moves forward. Real processes, real bubblewrap where
 * the machine has it.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONTAINMENT } from '../../src/config/source-config.js';
import { Launcher, type Launch, type LaunchSpec } from '../../src/sources/launch/index.js';
import { SandboxState, THIS_MACHINE } from '../../src/sources/launch/state.js';
import { NODE, tempDir } from '../support/mcp-fixtures.js';

const AVAILABLE = new SandboxState().support().available;
const cleanups: (() => void)[] = [];
afterAll(() => cleanups.splice(0).forEach((c) => c()));

/** A repository with `connect.mjs`, which connects to 127.0.0.1:<argv[2]> and exits 0 (connected) or 3. */
function repository(): string {
  const dir = tempDir('tg-launcher-');
  cleanups.push(dir.cleanup);
  mkdirSync(join(dir.path, '.git'));
  writeFileSync(
    join(dir.path, 'connect.mjs'),
    "import { connect } from 'node:net';\nconst s = connect({ host: '127.0.0.1', port: Number(process.argv[2]) }, () => process.exit(0));\ns.on('error', () => process.exit(3));\n",
  );
  return dir.path;
}

const spec = (root: string, command: string, args: string[]): LaunchSpec => ({ command, args, cwd: root, env: [], root });

async function ended(l: Launch): Promise<number | null | undefined> {
  if (!l.ok) return undefined;
  const exit = await l.proc.waitExit(20_000);
  await l.proc.stop();
  await l.home.dispose();
  return exit?.code;
}

describe('Launcher.start(spec, containment, role)', () => {
  it('started and not started are both values, with the same diagnostics; nothing is left of a start that did not happen', async () => {
    const root = repository();
    const launcher = new Launcher();
    const off = { ...DEFAULT_CONTAINMENT, sandbox: 'off' as const };
    const homes = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`toolgate-home-${process.pid}-`)).length;
    const ok = await launcher.start(spec(root, NODE, ['-e', '0']), off, 'stdio-server');
    const before = homes();
    const missing = await launcher.start(spec(root, 'toolgate-no-such-command', []), off, 'stdio-server');
    expect(homes()).toBe(before);
    expect(ok.ok).toBe(true);
    expect(missing.ok).toBe(false);
    if (missing.ok || !ok.ok) return;
    expect(missing.error.reason).toBe('spawn-failed');
    expect(missing.error.message).toMatch(/could not start MCP server `toolgate-no-such-command`: command not found/);
    expect(missing.diagnostics).toEqual({ sandbox: { sandboxed: false, reason: 'the source sets `sandbox: off`' } });
    expect(ok.diagnostics).toEqual(missing.diagnostics);
    expect(existsSync(ok.home.path)).toBe(true);
    expect(await ended(ok)).toBe(0);
  }, 30_000);

  it.skipIf(!AVAILABLE)(
    "the role decides the network: a stdio server has loopback only, an HTTP start command the host's",
    async () => {
      const root = repository();
      const listener = createServer((s) => s.destroy());
      await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
      const port = String((listener.address() as { port: number }).port);
      try {
        const launcher = new Launcher();
        const server = await launcher.start(spec(root, NODE, ['connect.mjs', port]), DEFAULT_CONTAINMENT, 'stdio-server');
        const start = await launcher.start(spec(root, NODE, ['connect.mjs', port]), { ...DEFAULT_CONTAINMENT, startNetwork: true }, 'http-start');
        expect(server.diagnostics.sandbox).toEqual({ sandboxed: true, network: 'loopback' });
        expect(start.diagnostics.sandbox).toEqual({ sandboxed: true, network: 'open' });
        expect(await ended(server)).toBe(3);
        expect(await ended(start)).toBe(0);
      } finally {
        await new Promise((r) => listener.close(r));
      }
    },
    30_000,
  );
});

describe('the sandbox state: the run own, forward only', () => {
  it.skipIf(!AVAILABLE)(
    'untried until a start reports its namespaces, then works for the rest of the run',
    async () => {
      const launcher = new Launcher();
      expect(launcher.sandbox.phase).toBe('untried');
      expect(launcher.sandbox.expected()).toMatchObject({ untried: true });
      const l = await launcher.start(spec(repository(), NODE, ['-e', '0']), DEFAULT_CONTAINMENT, 'stdio-server');
      expect(l.ok && (await l.namespacesMade)).toBe(true);
      expect(launcher.sandbox.phase).toBe('works');
      await ended(l);
      // Another run (another launcher) knows nothing of it.
      expect(new Launcher().sandbox.phase).toBe('untried');
    },
    30_000,
  );

  it('a machine without a sandbox settles at none, and nothing moves it back', () => {
    const state = new SandboxState({ ...THIS_MACHINE, env: { TOOLGATE_SANDBOX_UNAVAILABLE: 'a test machine' } });
    expect(state.expected()).toEqual({ available: false, reason: 'TOOLGATE_SANDBOX_UNAVAILABLE is set (a test machine)' });
    expect(state.phase).toBe('none');
    state.worked('/usr/bin/bwrap');
    expect(state.phase).toBe('none');
    expect(new SandboxState({ ...THIS_MACHINE, env: {}, platform: 'darwin' }).support()).toEqual({
      available: false,
      reason: 'no sandbox on darwin (toolgate sandboxes with bubblewrap, on Linux)',
    });
  });
});
