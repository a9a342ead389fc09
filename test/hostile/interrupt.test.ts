/** A cancelled run (SIGINT, SIGTERM: what a cancelled GitHub job sends) leaves nothing behind. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, REPO, tempWorkspace } from '../support/run-dist.js';
import { livePidsInGroup } from '../support/mcp-fixtures.js';

const FIXTURE = join(REPO, 'test/fixtures/servers/hostile/hang-with-child.mjs');
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
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`${signal} during update: exit ${code}, the server group is gone, its scratch HOME removed, no contract written`, async () => {
      const w = tempWorkspace();
      cleanups.push(w.cleanup);
      const info = join(w.dir, 'server.txt');
      writeFileSync(join(w.dir, 'toolgate.yml'), `sources:\n  - id: hang\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(FIXTURE)}, ${JSON.stringify(info)}]\n      startup-timeout-ms: 60000\n`);
      const child = spawn(process.execPath, [CLI, 'update'], { cwd: w.dir, stdio: ['ignore', 'pipe', 'pipe'] });
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
});
