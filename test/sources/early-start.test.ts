/**
 * The early start (issue 18, sources/launch/index.ts): the CLI starts the first stdio server as
 * soon as the policy is read, through the run's launcher; the snapshot of the same source config,
 * given that launcher, adopts that process, counts its time limits from its start, and a server
 * nobody adopts is ended.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withoutSandboxForThisFile } from '../support/sandbox-mode.js';
import { snapshotMcp } from '../../src/sources/mcp.js';
import { Launcher } from '../../src/sources/launch/index.js';
import { SourceError } from '../../src/sources/source-error.js';
import { fixture, livePidsInGroup, NODE, ROOT, tempDir, type StdioCfg, COMMON } from '../support/mcp-fixtures.js';

withoutSandboxForThisFile();

const cleanups: (() => void)[] = [];
/** The run's launcher: each test is a run of its own. */
let launcher: Launcher;
beforeEach(() => {
  launcher = new Launcher();
});
afterEach(async () => {
  await launcher.discardEarly();
  cleanups.splice(0).forEach((c) => c());
});

/** A stdio config whose every start appends the server's pid (its process group) to a file. */
function countedServer(over: Partial<StdioCfg> = {}): { cfg: StdioCfg; starts: () => number[] } {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  const file = join(dir.path, 'starts');
  const script = `echo $$ >> "$0"; exec ${JSON.stringify(NODE)} ${JSON.stringify(fixture('annotated.mjs'))}`;
  const cfg: StdioCfg = { transport: 'stdio', command: 'sh', args: ['-c', script, file], cwd: ROOT, env: [], ...COMMON, ...over };
  const starts = () => {
    try {
      return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  return { cfg, starts };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('early start', () => {
  it('the snapshot of the same source config adopts the server started early: one start', async () => {
    const { cfg, starts } = countedServer();
    void launcher.startEarly(cfg, ROOT);
    // Started and running before the snapshot asks: a snapshot that started its own would add a line.
    for (let waited = 0; starts().length === 0 && waited < 5000; waited += 20) await sleep(20);
    const snap = await snapshotMcp('early', cfg, ROOT, launcher);
    expect(snap.tools.map((t) => (t.tool as { name: string }).name).sort()).toEqual(['delete_file', 'fetch_url', 'read_file']);
    expect(starts()).toHaveLength(1);
    expect(livePidsInGroup(starts()[0]!)).toEqual([]);
  });

  it('a snapshot of another config (even an equal copy) ends the early server and starts its own', async () => {
    const { cfg, starts } = countedServer();
    void launcher.startEarly(cfg, ROOT);
    for (let waited = 0; starts().length === 0 && waited < 5000; waited += 20) await sleep(20);
    const snap = await snapshotMcp('early', { ...cfg }, ROOT, launcher);
    expect(snap.tools).toHaveLength(3);
    // Both started; both groups are gone once the snapshot is over and the discarded one ended.
    await sleep(50);
    const pids = starts();
    expect(pids).toHaveLength(2);
    for (let waited = 0; pids.some((p) => livePidsInGroup(p).length > 0) && waited < 3000; waited += 50) await sleep(50);
    for (const p of pids) expect(livePidsInGroup(p)).toEqual([]);
  });

  it('a root other than the early one is not adopted either', async () => {
    const { cfg, starts } = countedServer();
    void launcher.startEarly(cfg, ROOT);
    expect(launcher.takeEarly(cfg, join(ROOT, 'test'))).toBeUndefined();
    // The one taken by nobody is ended, and there is nothing left to take.
    expect(launcher.takeEarly(cfg, ROOT)).toBeUndefined();
    await sleep(50);
    for (let waited = 0; starts().some((p) => livePidsInGroup(p).length > 0) && waited < 3000; waited += 50) await sleep(50);
    expect(starts().flatMap((p) => livePidsInGroup(p))).toEqual([]);
  });

  it('start-up time limits count from the early start, not from the snapshot', async () => {
    // A healthy server that answers at once: only the time spent before the snapshot can fail it.
    const { cfg, starts } = countedServer({ timeouts: { startupMs: 1000, requestMs: 1000, totalMs: 10_000 } });
    void launcher.startEarly(cfg, ROOT);
    // Running (its start recorded) before the wait, however loaded the machine is.
    for (let waited = 0; starts().length === 0 && waited < 5000; waited += 20) await sleep(20);
    await sleep(1300);
    const err = await snapshotMcp('early', cfg, ROOT, launcher).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).reason).toBe('startup-timeout');
    expect((err as SourceError).message).toContain('within 1000 ms');
    expect(starts()).toHaveLength(1);
    expect(livePidsInGroup(starts()[0]!)).toEqual([]);
  });

  it('discardEarly ends a server no snapshot took, and a failed early start is reported by the snapshot', async () => {
    const { cfg, starts } = countedServer();
    void launcher.startEarly(cfg, ROOT);
    for (let waited = 0; starts().length === 0 && waited < 5000; waited += 20) await sleep(20);
    expect(livePidsInGroup(starts()[0]!).length).toBeGreaterThan(0);
    await launcher.discardEarly();
    expect(livePidsInGroup(starts()[0]!)).toEqual([]);

    const missing: StdioCfg = { ...cfg, command: 'toolgate-no-such-server' };
    void launcher.startEarly(missing, ROOT);
    const err = await snapshotMcp('early', missing, ROOT, launcher).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as SourceError).reason).toBe('spawn-failed');
    expect((err as SourceError).message).toContain('toolgate-no-such-server');
  });
});
