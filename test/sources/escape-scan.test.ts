/**
 * The run marker's sweep (src/sources/launch/escape-scan.ts): what carries a server run's marker
 * after its group ended is killed and reported once per process (`server-escaped`), however many
 * rounds it takes to die. Real processes; the scan is also driven by hand to be the loaded
 * machine where a process killed in one round is still found in the next.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { findMarked, MARKER_NAME, newMarker, sweepMarked, type MarkedProcess } from '../../src/sources/launch/escape-scan.js';
import { NODE } from '../support/mcp-fixtures.js';

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe.skipIf(process.platform !== 'linux')('sweepMarked', () => {
  it('kills every live process carrying the marker, and only those, each named once', async () => {
    const marker = newMarker();
    const run = (env: NodeJS.ProcessEnv) => {
      const child = spawn(NODE, ['-e', 'setInterval(() => {}, 1000)'], { env, stdio: 'ignore', detached: true });
      child.unref();
      started.push(child.pid!);
      return child.pid!;
    };
    const marked = [run({ [MARKER_NAME]: marker }), run({ [MARKER_NAME]: marker })];
    const other = run({ [MARKER_NAME]: newMarker() });
    for (let waited = 0; findMarked(marker).length < 2 && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    const killed = await sweepMarked(marker);
    expect(killed.map((p) => p.pid).sort()).toEqual([...marked].sort());
    expect(killed.every((p) => p.command.includes('setInterval'))).toBe(true);
    expect(findMarked(marker)).toEqual([]);
    expect(() => process.kill(other, 0)).not.toThrow();
  }, 20_000);

  it('a process that is still found after its SIGKILL (not yet scheduled to die) is reported once', async () => {
    const slow: MarkedProcess = { pid: 4242, command: 'node slow-to-die.js' };
    const hop: MarkedProcess = { pid: 4243, command: 'node hop.js' };
    // `slow` outlives the settling time and is still found in the two scans after its kill;
    // `hop` is what it started just before (found from the first kill on, gone once killed).
    const kills: number[] = [];
    const count = (pid: number) => kills.filter((k) => k === pid).length;
    const find = () => [...(count(4242) < 3 ? [slow] : []), ...(count(4242) > 0 && count(4243) === 0 ? [hop] : [])];
    const killed = await sweepMarked('m', find, (found) => {
      kills.push(...found.map((p) => p.pid));
      return [...found];
    });
    expect(kills).toEqual([4242, 4242, 4243, 4242]);
    expect(killed).toEqual([slow, hop]);
  });
});
