/**
 * The decision log's file (src/runtime/log-file.ts), written with synchronous appends: it appends
 * (never truncates), and whatever the path is (a missing directory, a full disk, a FIFO nobody
 * opened or nobody reads) it never throws and never blocks; the decision log says how many lines
 * it lost and why.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DecisionLog } from '../../src/runtime/decision-log.js';
import { appendingFile } from '../../src/runtime/log-file.js';

const dir = mkdtempSync(join(tmpdir(), 'toolgate-log-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ended = (s: NodeJS.WritableStream) => new Promise<void>((r) => s.end(() => r()));

describe('appendingFile', () => {
  it('appends to what the file holds and creates a missing file; each line is in the file once write returns', async () => {
    const path = join(dir, 'kept.jsonl');
    writeFileSync(path, '{"earlier":true}\n');
    const out = appendingFile(path);
    const log = new DecisionLog(out, 'src', false);
    log.write({ event: 'call', tool: 't', decision: 'forwarded' }, { a: 1 });
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(3);
    log.summary();
    await ended(out);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines.map((l) => Object.keys(JSON.parse(l) as object)[0])).toEqual(['earlier', 'time', 'time']);
    expect(log.problem()).toBeUndefined();
    const fresh = join(dir, 'fresh.jsonl');
    const out2 = appendingFile(fresh);
    new DecisionLog(out2, 'src', false).summary();
    await ended(out2);
    expect(JSON.parse(readFileSync(fresh, 'utf8')) as object).toMatchObject({ event: 'summary' });
  });

  it('a path in a missing directory: the lines are counted as lost, with the reason (ENOENT)', () => {
    const log = new DecisionLog(appendingFile(join(dir, 'no', 'such', 'dir', 'log.jsonl')), 'src', false);
    expect(() => log.write({ event: 'call', decision: 'refused' })).not.toThrow();
    log.write({ event: 'call', decision: 'refused' });
    expect(log.problem()).toMatch(/^2 decision log line\(s\) not written: .*ENOENT/);
  });

  it('a full disk (/dev/full): the failing write and every later one are counted at once (ENOSPC)', () => {
    const log = new DecisionLog(appendingFile('/dev/full'), 'src', false);
    for (let i = 0; i < 3; i++) log.write({ event: 'call', decision: 'refused' }, { i });
    expect(log.problem()).toMatch(/^3 decision log line\(s\) not written: .*ENOSPC/);
  });

  it('a FIFO nobody opened fails at open (ENXIO) instead of waiting for a reader', () => {
    const fifo = join(dir, 'unread.fifo');
    execFileSync('mkfifo', [fifo]);
    const log = new DecisionLog(appendingFile(fifo), 'src', false);
    log.write({ event: 'call', decision: 'refused' });
    expect(log.problem()).toMatch(/^1 decision log line\(s\) not written: .*ENXIO/);
  });

  it('a FIFO whose reader stopped reading: once it is full the lines are lost (EAGAIN), the writer never blocks', () => {
    const fifo = join(dir, 'stalled.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const log = new DecisionLog(appendingFile(fifo), 'src', false);
      // 4,000 lines of ~200 bytes: far more than a pipe holds (64 KiB on Linux).
      for (let i = 0; i < 4000; i++) log.write({ event: 'call', tool: 'x'.repeat(100), decision: 'forwarded' });
      const problem = log.problem();
      expect(problem).toMatch(/decision log line\(s\) not written: .*EAGAIN/);
      expect(Number(/^(\d+)/.exec(problem ?? '')?.[1])).toBeGreaterThan(3000);
    } finally {
      closeSync(reader);
    }
  });
});
