/**
 * Atomic contract writes (docs/design.md §4): `toolgate update` killed with SIGKILL at random
 * moments while it serializes and writes the contract never leaves a truncated or half-written
 * contract. After every kill the contract is
 * absent, the old complete file, or the new complete file (it parses with `parseContract` and
 * its digest is one of the two).
 *
 * Temp files: a kill between creating `.<name>.<pid>.<hex>.tmp` and the rename leaves that file
 * behind (nothing can run after SIGKILL). `writeFileAtomic` deletes such siblings whose writer
 * process is gone before it writes, so at most one (the last killed run's) exists at any time,
 * and none after a run that completes.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseContract } from '../../src/contract/store.js';
import { CACHE_ENV, CLI, tempWorkspace } from '../support/run-dist.js';

const RUNS = 10;
const ws = tempWorkspace('tg-atomic-');
afterAll(() => ws.cleanup());
const CONTRACT = join(ws.dir, '.toolgate', 'big.surface.json');

/** A recorded listing of `n` tools with long descriptions (a contract of about 1 MB). */
function listing(variant: string, n = 400): string {
  const tools = Array.from({ length: n }, (_, i) => ({
    name: `tool_${String(i).padStart(4, '0')}`,
    description: `${variant} `.repeat(300),
    inputSchema: { type: 'object', properties: { [`arg_${variant}`]: { type: 'string' } } },
    annotations: { readOnlyHint: i % 3 === 0 },
  }));
  return JSON.stringify({ tools });
}

/** The mark `update` reports (`TOOLGATE_TIMING=live`) once the tokens are pinned: the contract is serialized and written next. */
const BEFORE_WRITE = 'big: tokens counted';
const WRITTEN = 'big: contract written';

/**
 * `toolgate update`, killed with SIGKILL `killAfterMs` after it reports {@link BEFORE_WRITE}
 * when given; the time from that mark to {@link WRITTEN} when it ran to the end.
 */
function update(killAfterMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; writeMs?: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'update'], {
      cwd: ws.dir,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: ws.dir, ...CACHE_ENV, TOOLGATE_TIMING: 'live' },
    });
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    const at = new Map<string, number>();
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      for (const m of [BEFORE_WRITE, WRITTEN]) if (!at.has(m) && stderr.includes(`toolgate-mark ${m}\n`)) at.set(m, performance.now());
      if (killAfterMs !== undefined && timer === undefined && at.has(BEFORE_WRITE)) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const [from, to] = [at.get(BEFORE_WRITE), at.get(WRITTEN)];
      resolve({ code, signal, ...(from !== undefined && to !== undefined ? { writeMs: to - from } : {}) });
    });
  });
}

const temps = () => (existsSync(join(ws.dir, '.toolgate')) ? readdirSync(join(ws.dir, '.toolgate')).filter((n) => n.endsWith('.tmp')) : []);

/** Digest of the contract on disk, or null when absent; throws when it is not a complete contract. */
function contractDigest(): string | null {
  if (!existsSync(CONTRACT)) return null;
  return parseContract(readFileSync(CONTRACT, 'utf8'), 'big.surface.json').surface.digest;
}

describe('toolgate update under SIGKILL', () => {
  it(`never leaves a partial contract (${RUNS} runs killed at random moments)`, async () => {
    writeFileSync(join(ws.dir, 'toolgate.yml'), 'sources:\n  - id: big\n    recorded: tools.json\n');
    // Digests of both variants, from complete runs.
    const digests: Record<string, string> = {};
    const writes: number[] = [];
    for (const v of ['alpha', 'beta']) {
      writeFileSync(join(ws.dir, 'tools.json'), listing(v));
      const r = await update();
      expect(r.code).toBe(0);
      writes.push(r.writeMs!);
      digests[v] = contractDigest()!;
    }
    expect(digests.alpha).not.toBe(digests.beta);
    // The slower complete run's time from the pinned tokens to the renamed contract scales the
    // random kill delays (0 to 1.5 of it, from that mark): the kills land while the contract is
    // serialized and written (a kill before that mark leaves the contract as it was by
    // construction); some runs finish.
    const span = Math.max(...writes);

    let killed = 0;
    let completed = 0;
    let tempsSeen = 0;
    let variant = 'alpha';
    for (let i = 0; i < RUNS; i++) {
      const before = contractDigest();
      variant = variant === 'alpha' ? 'beta' : 'alpha';
      writeFileSync(join(ws.dir, 'tools.json'), listing(variant));
      const r = await update(span * 1.5 * Math.random());
      if (r.signal === 'SIGKILL') killed++;
      else completed++;
      // Old complete file or new complete file: parseContract throws on anything else.
      const after = contractDigest();
      expect([before, digests[variant]]).toContain(after);
      // At most the killed run's own temp file: older ones were cleaned by the next writer.
      expect(temps().length).toBeLessThanOrEqual(1);
      tempsSeen += temps().length;
      // Keep the expected "old" in sync when the write did not happen.
      if (after !== digests[variant]) variant = variant === 'alpha' ? 'beta' : 'alpha';
    }
    expect(killed).toBeGreaterThan(0);
    console.log(
      `atomic: tokens pinned to contract written in ${span.toFixed(1)} ms; ${killed} runs killed, ${completed} completed, ${tempsSeen} kills left a temp file`,
    );

    // A run that completes leaves no temp file at all.
    writeFileSync(join(ws.dir, 'tools.json'), listing(variant === 'alpha' ? 'beta' : 'alpha'));
    expect((await update()).code).toBe(0);
    expect(temps()).toEqual([]);
    expect(completed + killed).toBe(RUNS);
  }, 240_000);

  it('a stale temp file from a dead writer is removed by the next update; a live writer’s is kept', async () => {
    const dir = join(ws.dir, '.toolgate');
    // pid 2^22+1 is above Linux's default pid_max range in practice; process.pid is alive.
    const dead = join(dir, `.big.surface.json.${2 ** 22 + 1}.deadbeef.tmp`);
    const alive = join(dir, `.big.surface.json.${process.pid}.cafebabe.tmp`);
    const other = join(dir, '.other.surface.json.1.deadbeef.tmp');
    for (const f of [dead, alive, other]) writeFileSync(f, '{"partial":');
    writeFileSync(join(ws.dir, 'tools.json'), listing('gamma', 3));
    expect((await update()).code).toBe(0);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(alive)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });
});
