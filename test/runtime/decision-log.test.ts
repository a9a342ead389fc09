/**
 * The decision log (src/runtime/decision-log.ts) never throws and never loses a line in silence:
 * arguments nested deeper than JSON.stringify goes, values JSON cannot hold, a real full disk
 * (/dev/full), a stream that throws or was closed. Deferred, a turn's lines are written together
 * after the turn, each with the time of its decision; batched (as the proxy runs it), the lines of
 * many turns wait up to the batch window or the batch size, and flush() writes what waits.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DecisionLog } from '../../src/runtime/decision-log.js';
import { sha256 } from '../../src/surface/canonical.js';
import { canonicalJsonDeep } from '../../src/util/json.js';

function sink() {
  const lines: string[] = [];
  const out = new Writable({ write: (c: Buffer, _e, cb) => (lines.push(c.toString()), cb()) });
  return { out, writes: lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

/** Every line of the writes (a batch is one write of many lines). */
const lineObjects = (writes: string[]) =>
  writes
    .join('')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const turnEnds = () => new Promise((r) => setImmediate(r));

const deep = (depth: number) => JSON.parse(`${'{"a":['.repeat(depth)}"x"${']}'.repeat(depth)}`) as unknown;

describe('DecisionLog', () => {
  it('digests arguments nested 20,000 deep (the canonical text, as for any call), and writes their values when asked', () => {
    const args = deep(20_000);
    expect(() => JSON.stringify(args)).toThrow(RangeError);
    const s = sink();
    new DecisionLog(s.out, 'src', true).write({ event: 'call', tool: 't', decision: 'refused', reason: 'invalid_arguments' }, args);
    const [line] = s.parsed();
    expect(line!.argumentsSha256).toBe(sha256(canonicalJsonDeep(args)));
    expect(canonicalJsonDeep(line!.arguments)).toBe(canonicalJsonDeep(args));
  });

  it('states a marker for values JSON cannot hold (a cycle, a bigint) instead of throwing', () => {
    const s = sink();
    const log = new DecisionLog(s.out, 'src', true);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    log.write({ event: 'call', decision: 'refused' }, cycle);
    log.write({ event: 'call', decision: 'refused' }, { n: 1n });
    const [a, b] = s.parsed();
    expect(a).toMatchObject({ argumentsUnhashable: expect.stringContaining('cycle') as unknown });
    expect(b).toMatchObject({ argumentsUnhashable: expect.stringContaining('bigint') as unknown });
    expect(a!.arguments).toBeUndefined();
  });

  it('shortens a huge tool name, method or detail, saying how long it was', () => {
    const s = sink();
    new DecisionLog(s.out, 'src', false).write({
      event: 'request',
      method: 'm'.repeat(1_000_000),
      tool: 't'.repeat(10_000),
      decision: 'refused',
      detail: 'd'.repeat(50_000),
    });
    const [line] = s.parsed();
    expect(line!.method).toMatch(/^m{500}… \(1000000 characters\)$/);
    expect(line!.tool).toMatch(/… \(10000 characters\)$/);
    expect((line!.detail as string).length).toBeLessThan(2100);
  });

  it('on a full disk (/dev/full: ENOSPC) goes on without throwing, and says how many lines were lost', async () => {
    const out = createWriteStream('/dev/full', { flags: 'a' });
    const log = new DecisionLog(out, 'src', false);
    log.write({ event: 'call', decision: 'refused' }, { a: 1 });
    await new Promise((r) => out.once('error', r));
    for (let i = 0; i < 3; i++) log.write({ event: 'call', decision: 'refused' }, { a: i });
    log.summary();
    expect(log.problem()).toMatch(/^4 decision log line\(s\) not written: .*ENOSPC/);
  });

  it('a stream that throws on write, or was closed, loses the line, never the caller', () => {
    const throwing = new Writable({ write: () => undefined });
    throwing.write = () => {
      throw new Error('EPIPE: broken pipe');
    };
    const a = new DecisionLog(throwing, 'src', false);
    expect(() => a.write({ event: 'call', decision: 'refused' })).not.toThrow();
    expect(a.problem()).toBe('1 decision log line(s) not written: EPIPE: broken pipe');
    const closed = sink().out;
    closed.destroy();
    const b = new DecisionLog(closed, 'src', false);
    expect(() => b.write({ event: 'call', decision: 'refused' })).not.toThrow();
    expect(b.problem()).toMatch(/^1 decision log line\(s\) not written/);
    expect(new DecisionLog(sink().out, 'src', false).problem()).toBeUndefined();
  });

  it("deferred: nothing is written during the turn; after it, the turn's lines in one write, in order, each with the time of its decision", async () => {
    const s = sink();
    const log = new DecisionLog(s.out, 'src', false, { deferred: true });
    const before = Date.now();
    for (let i = 0; i < 3; i++) log.write({ event: 'call', tool: `t${i}`, decision: 'forwarded' }, { i });
    expect(s.writes).toEqual([]);
    await new Promise((r) => setTimeout(r, 30));
    const writtenAt = Date.now();
    expect(s.writes).toHaveLength(1);
    const lines = s.writes[0]!.trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { tool: string; time: string; argumentsSha256: string });
    expect(lines.map((l) => l.tool)).toEqual(['t0', 't1', 't2']);
    expect(lines[2]!.argumentsSha256).toBe(sha256(canonicalJsonDeep({ i: 2 })));
    for (const l of lines) expect(Date.parse(l.time)).toBeGreaterThanOrEqual(before - 1);
    // Taken when decided, not when written 30 ms later (ISO times have ms precision).
    expect(Date.parse(lines[0]!.time)).toBeLessThan(writtenAt - 20);
    log.write({ event: 'call', tool: 'next', decision: 'refused' });
    await turnEnds();
    expect(s.writes).toHaveLength(2);
  });

  it('deferred: summary() and problem() write what waits first, so no line is left behind at exit', async () => {
    const s = sink();
    const log = new DecisionLog(s.out, 'src', false, { deferred: true });
    log.write({ event: 'list', tool: 'a', decision: 'admitted' });
    log.summary();
    expect(s.parsed().map((l) => l.event)).toEqual(['list', 'summary']);
    expect(s.parsed()[1]!.counts).toEqual({ 'list:admitted': 1 });
    await turnEnds();
    expect(s.writes).toHaveLength(2);
    const full = new DecisionLog(new Writable({ write: (_c, _e, cb) => cb(new Error('ENOSPC: no space left on device')) }), 'src', false, { deferred: true });
    for (let i = 0; i < 4; i++) full.write({ event: 'call', decision: 'refused' });
    await turnEnds();
    full.write({ event: 'call', decision: 'refused' });
    expect(full.problem()).toBe('5 decision log line(s) not written: ENOSPC: no space left on device');
  });

  it('batched: the lines of many turns wait for the window and go in one write, in order, each with the time of its decision', async () => {
    const s = sink();
    const log = new DecisionLog(s.out, 'src', false, { deferred: true, batchMs: 40 });
    const before = Date.now();
    for (let i = 0; i < 3; i++) {
      log.write({ event: 'call', tool: `t${i}`, decision: 'forwarded' }, { i });
      await turnEnds();
    }
    expect(s.writes).toEqual([]);
    await new Promise((r) => setTimeout(r, 80));
    expect(s.writes).toHaveLength(1);
    const lines = lineObjects(s.writes);
    expect(lines.map((l) => l.tool)).toEqual(['t0', 't1', 't2']);
    expect(lines[1]!.argumentsSha256).toBe(sha256(canonicalJsonDeep({ i: 1 })));
    for (const l of lines) expect(Date.parse(l.time as string)).toBeGreaterThanOrEqual(before - 1);
  });

  it('batched: a batch that reaches batchLines is written at the end of that turn, not at the end of the window', async () => {
    const s = sink();
    const log = new DecisionLog(s.out, 'src', false, { deferred: true, batchMs: 60_000, batchLines: 3 });
    log.write({ event: 'call', tool: 'a', decision: 'forwarded' });
    log.write({ event: 'call', tool: 'b', decision: 'forwarded' });
    await turnEnds();
    expect(s.writes).toEqual([]);
    log.write({ event: 'call', tool: 'c', decision: 'forwarded' });
    log.write({ event: 'call', tool: 'd', decision: 'forwarded' });
    expect(s.writes).toEqual([]);
    await turnEnds();
    expect(s.writes).toHaveLength(1);
    expect(lineObjects(s.writes).map((l) => l.tool)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('batched: flush() writes what waits at once (as the proxy does at exit), and the window keeps no process alive', async () => {
    const s = sink();
    const log = new DecisionLog(s.out, 'src', false, { deferred: true, batchMs: 60_000 });
    log.write({ event: 'list', tool: 'a', decision: 'admitted' });
    log.flush();
    expect(lineObjects(s.writes).map((l) => l.tool)).toEqual(['a']);
    log.flush();
    expect(s.writes).toHaveLength(1);
    // A child that logs one line with a window of a minute exits at once, its line written at exit.
    const code = `
      const { DecisionLog } = await import(${JSON.stringify(new URL('../../src/runtime/decision-log.ts', import.meta.url).href)});
      const log = new DecisionLog(process.stdout, 'src', false, { deferred: true, batchMs: 60000 });
      process.on('exit', () => log.flush());
      log.write({ event: 'call', tool: 'late', decision: 'forwarded' });`;
    const started = Date.now();
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ tool: 'late', decision: 'forwarded' });
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
