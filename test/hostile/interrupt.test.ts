/**
 * A cancelled run (SIGINT, SIGTERM: what a cancelled GitHub job sends) leaves nothing behind, ends
 * promptly whatever it is doing, and exits with the signal's code.
 */
import { spawn } from 'node:child_process';
import { existsSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withoutSandboxForThisFile } from '../support/sandbox-mode.js';
import { parseContract } from '../../src/contract/store.js';
import { CACHE_ENV, CLI, REPO, tempWorkspace } from '../support/run-dist.js';
import { livePidsInGroup } from '../support/mcp-fixtures.js';

withoutSandboxForThisFile();

const FIXTURE = join(REPO, 'test/fixtures/servers/hostile/hang-with-child.mjs');
const BIG_PAGE = join(REPO, 'test/fixtures/servers/hostile/big-page.mjs');
let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

async function waitFor(file: string, ms: number): Promise<string[]> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (existsSync(file)) {
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      if (lines.length === 3) return lines;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the server did not start within ${ms} ms`);
}

async function groupGoneWithin(pgid: number, ms: number): Promise<number[]> {
  const end = Date.now() + ms;
  let live = livePidsInGroup(pgid);
  while (live.length > 0 && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    live = livePidsInGroup(pgid);
  }
  return live;
}

describe('interrupting toolgate', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} during update: exit ${code}, the server group is gone, its scratch HOME removed, no contract written`, async () => {
      const w = tempWorkspace();
      cleanups.push(w.cleanup);
      const info = join(w.dir, 'server.txt');
      writeFileSync(
        join(w.dir, 'toolgate.yml'),
        `sources:\n  - id: hang\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(FIXTURE)}, ${JSON.stringify(info)}]\n      startup-timeout-ms: 60000\n`,
      );
      const child = spawn(process.execPath, [CLI, 'update'], { cwd: w.dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...CACHE_ENV } });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((r) => child.on('close', (c) => r(c)));
      const [pid, , home] = await waitFor(info, 30_000);
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(stderr).toContain(`interrupted by ${signal}`);
      // toolgate waits for the group before it exits; the poll only absorbs a loaded machine.
      expect(await groupGoneWithin(Number(pid), 5000)).toEqual([]);
      expect(existsSync(home as string)).toBe(false);
      expect(existsSync(join(w.dir, '.toolgate/hang.surface.json'))).toBe(false);
    });
  }

  it('SIGINT while a 100,000-tool page (one 45 MB line) is parsed: exit 130 within a second or so, nothing left', async () => {
    const w = tempWorkspace();
    cleanups.push(w.cleanup);
    const pids = join(w.dir, 'server.pid');
    const sent = join(w.dir, 'sent');
    writeFileSync(
      join(w.dir, 'toolgate.yml'),
      `sources:\n  - id: big\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(BIG_PAGE)}, ${JSON.stringify(pids)}, "100000", ${JSON.stringify(sent)}]\n      startup-timeout-ms: 60000\n      request-timeout-ms: 60000\n      total-timeout-ms: 90000\n      max-bytes: 67108864\n`,
    );
    const child = spawn(process.execPath, [CLI, 'update'], { cwd: w.dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...CACHE_ENV } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<{ code: number | null; at: number }>((r) => child.on('close', (code) => r({ code, at: performance.now() })));
    // The fixture writes `sent` once the page is in the pipe: toolgate is reading or parsing it.
    const end = Date.now() + 60_000;
    while (!existsSync(sent) && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    expect(existsSync(sent), 'the server sent its page').toBe(true);
    const signalled = performance.now();
    child.kill('SIGINT');
    const { code, at } = await exited;
    expect(code).toBe(130);
    expect(stderr).toContain('interrupted by SIGINT');
    // One JSON.parse of the page held the signal for 0.6-1.7 s on an idle 2-core machine (3-6 s
    // loaded); parsed in slices, toolgate ends in 0.15-0.5 s. Slack for a loaded runner.
    expect(at - signalled).toBeLessThan(1500);
    expect(await groupGoneWithin(Number(readFileSync(pids, 'utf8').split('\n')[0]), 5000)).toEqual([]);
    expect(existsSync(join(w.dir, '.toolgate/big.surface.json'))).toBe(false);
  });

  it('SIGTERM after the contract is written, during the last synchronous work: exit 143, not 0; the contract complete', async () => {
    // A signal that came while the run's last callback ran was lost when nothing else kept the
    // event loop alive: stdout to a file is written synchronously, and the run exited 0.
    const w = tempWorkspace();
    cleanups.push(w.cleanup);
    const tools = Array.from({ length: 20_000 }, (_, i) => ({
      name: `tool_${String(i).padStart(5, '0')}`,
      description: 'A tool.',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    }));
    writeFileSync(join(w.dir, 'tools.json'), JSON.stringify({ tools }));
    writeFileSync(join(w.dir, 'toolgate.yml'), 'sources:\n  - id: rec\n    recorded: tools.json\n');
    const contract = join(w.dir, '.toolgate/rec.surface.json');
    const child = spawn(process.execPath, [CLI, 'update'], {
      cwd: w.dir,
      stdio: ['ignore', openSync(join(w.dir, 'out.txt'), 'w'), 'pipe'],
      env: { ...process.env, ...CACHE_ENV },
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    const end = Date.now() + 60_000;
    while (!existsSync(contract) && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
    expect(existsSync(contract), 'the contract was written').toBe(true);
    // Rules and the report for 20,000 tools still run for a good second after the rename.
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(stderr).toContain('interrupted by SIGTERM');
    expect(parseContract(readFileSync(contract, 'utf8'), 'rec.surface.json').surface.tools).toHaveLength(20_000);
    expect(readdirSync(join(w.dir, '.toolgate')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  describe('a signal in any phase after the listing ends the run within a second or so (50,000 tools)', () => {
    // Each run is signalled the moment it reports the mark (`TOOLGATE_TIMING=live`), so the
    // signal lands inside the phase that follows; before, each of these held it for seconds
    // (normalizing 3.5 s, serializing the contract 10 s, reading it 6 s, rules 3-8 s at 100,000).
    let w: { dir: string; cleanup: () => void };
    let pinned = '';
    const contract = () => join(w.dir, '.toolgate/big.surface.json');
    beforeAll(async () => {
      w = tempWorkspace();
      const policy = (tools: number) =>
        `sources:\n  - id: big\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(BIG_PAGE)}, ${JSON.stringify(join(w.dir, 'pid'))}, "${tools}"]\n      startup-timeout-ms: 60000\n      request-timeout-ms: 60000\n      total-timeout-ms: 90000\n      max-bytes: 67108864\n`;
      // A contract pinning 49,999 of the tools (the server serving one fewer: the source's entry in
      // the contract does not name its arguments): `update` has one to read and a different one to
      // write. The contract is complete once renamed into place (the SIGTERM case above): the run is
      // stopped there, without the rules and the report over the tools that follow.
      writeFileSync(join(w.dir, 'toolgate.yml'), policy(49_999));
      const first = spawn(process.execPath, [CLI, 'update'], {
        cwd: w.dir,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, ...CACHE_ENV, TOOLGATE_TIMING: 'live' },
      });
      let log = '';
      let stopped = false;
      first.stderr.on('data', (d: Buffer) => {
        log += d.toString();
        if (!stopped && log.includes('toolgate-mark big: contract written\n')) stopped = first.kill('SIGTERM');
      });
      const code = await new Promise((r) => first.on('close', r));
      expect(log, log.slice(-2000)).toContain('toolgate-mark big: contract written\n');
      expect([0, 143]).toContain(code);
      pinned = readFileSync(contract(), 'utf8');
      writeFileSync(join(w.dir, 'toolgate.yml'), policy(50_000));
    }, 120_000);
    afterAll(() => w?.cleanup());

    const cases: [command: string, mark: string, phase: string][] = [
      ['update', 'big: snapshot done', 'normalizing'],
      ['update', 'big: normalized', 'reading the old contract and serializing the new one'],
      // The diff: the tool added, and the tool count and idempotent count it raises.
      ['check', 'big: diffed (3 changes)', 'evaluating rules, indexing the contract lines, locating findings'],
      ['check', 'big: snapshot done', 'normalizing and verifying the contract read after the listing'],
    ];
    it.each(cases)(
      '%s, signalled after "%s" (%s): exit 130, the contract untouched',
      async (command, mark) => {
        const child = spawn(process.execPath, [CLI, command], {
          cwd: w.dir,
          stdio: ['ignore', 'ignore', 'pipe'],
          env: { ...process.env, ...CACHE_ENV, TOOLGATE_TIMING: 'live' },
        });
        let stderr = '';
        let signalled = 0;
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (!signalled && stderr.includes(`toolgate-mark ${mark}\n`)) {
            signalled = performance.now();
            child.kill('SIGINT');
          }
        });
        const { code, at } = await new Promise<{ code: number | null; at: number }>((r) => child.on('close', (c) => r({ code: c, at: performance.now() })));
        expect(signalled, `the run reported "${mark}"\n${stderr.slice(-2000)}`).toBeGreaterThan(0);
        expect(code).toBe(130);
        expect(stderr).toContain('interrupted by SIGINT');
        // 0.1-0.7 s on an idle 2-core machine; slack for a loaded runner (the bound is the 1 s, plus load).
        expect(at - signalled).toBeLessThan(1500);
        expect(readFileSync(contract(), 'utf8')).toBe(pinned);
        expect(readdirSync(join(w.dir, '.toolgate')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      },
      120_000,
    );
  });
});
