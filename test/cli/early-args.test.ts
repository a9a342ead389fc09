/**
 * The CLI's early reading of a command line (cli/early-args.ts): a plain `audit`,
 * `check` or `update` has its policy read and its first server started before commander loads.
 * Commander still decides: what was prepared early is used only when commander reads the same run
 * (cli/prepare.ts), so these tests hold the early reading to commander's own, option by option and
 * on command lines of every shape, and show what happens when the two differ.
 */
import '../support/unsandboxed.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { earlyRun, OPTIONS, runKey } from '../../src/cli/early-args.js';
import { prepareEarly, prepareRun } from '../../src/cli/prepare.js';
import type { Launcher } from '../../src/sources/launch/index.js';
import { fixture, livePidsInGroup, NODE, tempDir } from '../support/mcp-fixtures.js';

const SOURCE_COMMANDS = ['audit', 'check', 'update'] as const;

function commandOf(name: string): Command {
  const cmd = buildProgram(() => undefined).commands.find((c) => c.name() === name);
  if (!cmd) throw new Error(`no command ${name}`);
  return cmd;
}

/** What commander reads from `args`: the source flags and the server command, as a run key. */
async function commanderKey(args: string[]): Promise<string> {
  const program = buildProgram(() => undefined);
  let key: string | undefined;
  for (const c of program.commands)
    c.action(function (this: Command) {
      key = runKey(this.opts(), this.args, '/cwd');
    });
  await program.parseAsync(['node', 'toolgate', ...args]);
  if (key === undefined) throw new Error('commander ran no action');
  return key;
}

describe('earlyRun', () => {
  it.each(SOURCE_COMMANDS)('knows every option of `%s` as program.ts declares it, with its arity', (name) => {
    const shape = (o: Option) => ({
      flags: [o.short, o.long].filter((f): f is string => f !== undefined).sort(),
      key: o.attributeName(),
      arity: o.variadic ? 'many' : o.required || o.optional ? 'one' : 'none',
      ...(o.argChoices ? { choices: [...o.argChoices] } : {}),
    });
    const declared = commandOf(name).options.map(shape);
    const known = OPTIONS[name].map((o) => ({ ...o, flags: [...o.flags].sort(), ...(o.choices ? { choices: [...o.choices] } : {}) }));
    const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    expect(known.sort(byKey)).toEqual(declared.sort(byKey));
  });

  const plain: string[][] = [
    ['check'],
    ['check', '--config', 'a.yml'],
    ['check', '-c', 'a.yml', '-s', 'one', 'two', '--format', 'json'],
    ['check', '--source', 'a', '--source', 'b', 'c'],
    ['check', '--config', 'a.yml', '--config', 'b.yml'],
    ['check', '--base', 'origin/main', '--exact', '-v', '--list'],
    ['check', '--export', 'a.json', 'b.json', '--to', 'claude-code', 'toolhive', '--server', 's', '--gateway', 'g'],
    ['audit', '--env', 'A', 'B', '-e', 'C', '--', 'node', 'server.js', '--flag', '-x'],
    ['audit', '--no-list', '--fail-on', 'warning', '--capabilities', '{"roots":{}}', '--', 'node', 's.js'],
    ['audit', '--url', 'http://127.0.0.1:3000/mcp'],
    ['audit', '--tools-json', 't.json', '--id', 'saved'],
    ['audit', '--openapi', 'integration.json'],
    ['update', '--id', 'x', '-f', 'json', '--', 'node', 's.js'],
    ['update', '--'],
  ];
  it.each(plain.map((a) => [a]))('reads %j as commander does', async (args) => {
    const early = earlyRun(args);
    expect(early).toBeDefined();
    expect(runKey(early!.flags, early!.command, '/cwd')).toBe(await commanderKey(args));
  });

  const notPlain: string[][] = [
    [],
    ['--version'],
    ['snapshot'],
    ['proxy', '--', 'node', 's.js'],
    ['init'],
    ['check', '--help'],
    ['check', '-h'],
    ['check', 'server.js'],
    ['check', '--config=a.yml'],
    ['check', '-vc', 'a.yml'],
    ['check', '--conf', 'a.yml'],
    ['check', '--config'],
    ['check', '--config', '-x'],
    ['check', '--source', '--exact'],
    ['update', '--exact'],
    ['audit', '--base', 'main'],
    ['check', '--format', 'yaml'],
    ['audit', '--fail-on', 'fatal'],
    ['check', '-f', 'json', '--format', 'html'],
  ];
  it.each(notPlain.map((a) => [a]))('leaves %j to commander alone', (args) => {
    expect(earlyRun(args)).toBeUndefined();
  });
});

describe('prepareRun after prepareEarly', () => {
  const cleanups: (() => void)[] = [];
  /** The launchers of the runs prepared: what no snapshot took is ended after each test. */
  const launchers: Launcher[] = [];
  const run = async (flags: Parameters<typeof prepareRun>[0], cwd: string) => {
    const prepared = await prepareRun(flags, [], cwd);
    launchers.push(prepared.launcher);
    return prepared;
  };
  afterEach(async () => {
    for (const l of launchers.splice(0)) await l.discardEarly();
    cleanups.splice(0).forEach((c) => c());
  });

  /** Two policy files whose servers append their pid (their process group) to a file of their own at each start. */
  function twoPolicies() {
    const dir = tempDir('tg-early-args-');
    cleanups.push(dir.cleanup);
    const make = (name: string) => {
      const starts = join(dir.path, `${name}.starts`);
      const script = `echo $$ >> "$0"; exec ${JSON.stringify(NODE)} ${JSON.stringify(fixture('annotated.mjs'))}`;
      writeFileSync(
        join(dir.path, `${name}.yml`),
        `sources:\n  - id: ${name}\n    mcp:\n      command: sh\n      args: ${JSON.stringify(['-c', script, starts])}\n`,
      );
      const pids = () => {
        try {
          return readFileSync(starts, 'utf8').trim().split('\n').filter(Boolean).map(Number);
        } catch {
          return [];
        }
      };
      return { config: join(dir.path, `${name}.yml`), pids };
    };
    return { dir: dir.path, a: make('a'), b: make('b') };
  }
  const waitFor = async (ok: () => boolean) => {
    for (let waited = 0; !ok() && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  };

  it('hands over the run commander reads the same: the same policy, its server started once', async () => {
    const { dir, a } = twoPolicies();
    const early = earlyRun(['check', '--config', a.config])!;
    const { launcher: earlyLauncher } = await prepareEarly(early, dir);
    const { policy, launcher } = await run({ config: a.config, id: 'cli' }, dir);
    expect(launcher).toBe(earlyLauncher);
    expect(policy.sources.map((s) => s.id)).toEqual(['a']);
    // The server started early is for this very policy's source: its snapshot adopts it.
    const source = policy.sources[0]!;
    const started = source.kind === 'mcp' && source.mcp.transport === 'stdio' ? launcher.takeEarly(source.mcp, dir) : undefined;
    expect(started).toBeDefined();
    const launch = await started!.launch;
    expect(launch.ok).toBe(true);
    // Spawned is not yet run: the server's shell writes its pid only once it runs, and a stop
    // before that (a loaded machine) would leave the file empty. Wait for it, then end it.
    await waitFor(() => a.pids().length > 0);
    if (launch.ok) {
      await launch.proc.stop();
      await launch.home.dispose();
    }
    expect(a.pids()).toHaveLength(1);
    // Taken once: a second run reads the policy again.
    const again = await run({ config: a.config, id: 'cli' }, dir);
    expect(again.policy).not.toBe(policy);
  });

  it('when commander reads another run, ends what was started early and prepares that run', async () => {
    const { dir, a, b } = twoPolicies();
    await prepareEarly(earlyRun(['check', '--config', a.config])!, dir);
    await waitFor(() => a.pids().length > 0);
    const { policy } = await run({ config: b.config, id: 'cli' }, dir);
    expect(policy.sources.map((s) => s.id)).toEqual(['b']);
    await waitFor(() => b.pids().length > 0);
    expect(a.pids()).toHaveLength(1);
    expect(livePidsInGroup(a.pids()[0]!)).toEqual([]);
    expect(b.pids()).toHaveLength(1);
  });

  it('keeps an early failure for the run that reads the same, and nothing for another', async () => {
    const { dir, a } = twoPolicies();
    const missing = join(dir, 'missing.yml');
    await prepareEarly(earlyRun(['check', '--config', missing])!, dir);
    await expect(run({ config: missing, id: 'cli' }, dir)).rejects.toThrow(/policy file not found/);
    await prepareEarly(earlyRun(['check', '--config', missing])!, dir);
    const { policy } = await run({ config: a.config, id: 'cli' }, dir);
    expect(policy.sources.map((s) => s.id)).toEqual(['a']);
  });
});
