/**
 * MCP stdio source against the fixture servers in test/fixtures/servers (see its README).
 * Servers run behind `sh -c` so that each test can check the whole process group is gone.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withoutSandboxForThisFile } from '../support/sandbox-mode.js';
import { snapshotMcp } from '../../src/sources/mcp.js';
import { SourceError } from '../../src/sources/source-error.js';
import { livePidsInGroup, nodeFixture, pidAlive, readPids, shFixture, tempDir } from '../support/mcp-fixtures.js';

withoutSandboxForThisFile();

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function pidFile(): string {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  return join(dir.path, 'pid');
}

/** Asserts that the process group whose leader pid is in `file` has no live member. */
function expectGroupGone(file: string): void {
  const [pgid] = readPids(file);
  expect(pgid).toBeGreaterThan(0);
  expect(livePidsInGroup(pgid!)).toEqual([]);
}

async function failure(p: Promise<unknown>): Promise<SourceError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SourceError);
  return err as SourceError;
}

const names = (s: { tools: { tool: unknown }[] }) => s.tools.map((t) => (t.tool as { name: string }).name);

describe('snapshotMcp over stdio', () => {
  it('lists an annotated server: server info, negotiated version, tools as sent', async () => {
    const pf = pidFile();
    const snap = await snapshotMcp('annotated', shFixture('annotated.mjs', [], pf));
    expect(snap.source).toEqual({ id: 'annotated', kind: 'mcp', transport: 'stdio', clientCapabilities: {} });
    expect(snap.server).toEqual({ name: 'fixture-annotated', version: '1.2.3', protocolVersion: '2025-11-25' });
    expect(snap.live).toBe(true);
    expect(names(snap)).toEqual(['read_file', 'delete_file', 'fetch_url']);
    expect(snap.tools[0]!.tool).toMatchObject({
      title: 'Read a file',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      // SDK 1.x adds this to every tool; kept, normalization deals with it (docs/design.md §14).
      execution: { taskSupport: 'forbidden' },
    });
    expect(snap.diagnostics.pages).toBe(1);
    expect(snap.diagnostics.stdoutNoiseLines).toBe(0);
    expect(snap.diagnostics.rawBytes).toBeGreaterThan(100);
    expect(snap.diagnostics.durationMs).toBeGreaterThan(0);
    expectGroupGone(pf);
  });

  it('negotiates the 2026-07-28 era with a server that only answers server/discover', async () => {
    const snap = await snapshotMcp('modern', nodeFixture('modern.mjs'));
    expect(snap.server).toEqual({ name: 'fixture-modern', version: '3.0.0', protocolVersion: '2026-07-28' });
    expect(snap.tools.map((t) => t.tool)).toEqual([
      { name: 'modern_tool', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, 'x-new': true },
    ]);
  });

  it("2026-07-28: the instructions of the discovery result are pinned as the server's, as initialize's are", async () => {
    const snap = await snapshotMcp('modern-instructions', nodeFixture('modern.mjs', ['instructions']));
    expect(snap.server).toEqual({
      name: 'fixture-modern',
      version: '3.0.0',
      protocolVersion: '2026-07-28',
      instructions: 'Call modern_tool before any other tool.',
    });
  });

  it('2026-07-28: a page the SDK rejects for one malformed tool is kept as sent; the rest is listed', async () => {
    const snap = await snapshotMcp('modern-bad', nodeFixture('modern.mjs', ['malformed']));
    expect(snap.server?.protocolVersion).toBe('2026-07-28');
    expect(snap.tools.map((t) => (t.tool as { name: string }).name)).toEqual(['good_before', 'bad_schema', 'good_after']);
    expect(snap.tools[1]!.tool).toEqual({ name: 'bad_schema', inputSchema: 'not a schema' });
    expect(snap.diagnostics.notes?.join('\n')).toMatch(/the MCP SDK rejected a tools\/list page \(.*\); toolgate kept the page as the server sent it/);
  });

  it('keeps tools without annotations and with some hints as they are', async () => {
    const un = await snapshotMcp('un', nodeFixture('unannotated.mjs'));
    expect(un.tools.map((t) => (t.tool as { annotations?: unknown }).annotations)).toEqual([undefined, undefined]);
    const partial = await snapshotMcp('partial', nodeFixture('partial.mjs'));
    expect(partial.tools.map((t) => (t.tool as { annotations?: unknown }).annotations)).toEqual([
      { readOnlyHint: true },
      { destructiveHint: false, idempotentHint: true },
      { title: 'Titled only' },
    ]);
  });

  it('follows every nextCursor, including an empty string, and keeps unknown keys', async () => {
    const snap = await snapshotMcp('pages', nodeFixture('paginated.mjs'));
    expect(names(snap)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(snap.diagnostics.pages).toBe(3);
    expect(snap.tools[2]!.tool).toMatchObject({ 'x-vendor': { tier: 'gold' }, annotations: { readOnlyHint: true, 'x-risk': 'low' } });
  });

  it('counts banner lines on stdout and still lists', async () => {
    const snap = await snapshotMcp('banner', nodeFixture('banner.mjs'));
    expect(names(snap)).toEqual(['ping']);
    expect(snap.diagnostics.stdoutNoiseLines).toBe(3);
    expect(snap.diagnostics.notes?.join('\n')).toMatch(/3 non-JSON-RPC line\(s\) on stdout \(first: "Starting fixture-banner/);
  });

  it('fails with page-cap when pages exceed limits.maxPages', async () => {
    const err = await failure(snapshotMcp('pages', nodeFixture('paginated.mjs', [], { limits: { maxPages: 2, maxBytes: 1e6 } })));
    expect(err.reason).toBe('page-cap');
    expect(err.message).toContain('after 2 tools/list pages');
  });

  it('fails with byte-cap when results exceed limits.maxBytes', async () => {
    const err = await failure(snapshotMcp('pages', nodeFixture('paginated.mjs', [], { limits: { maxPages: 20, maxBytes: 300 } })));
    expect(err.reason).toBe('byte-cap');
    expect(err.message).toMatch(/more than limits\.maxBytes \(300\)/);
  });

  it('fails with byte-cap, not out of memory, on a 100 MB line', async () => {
    const pf = pidFile();
    const before = process.memoryUsage().rss;
    const err = await failure(snapshotMcp('huge', shFixture('huge-line.mjs', [], pf)));
    expect(err.reason).toBe('byte-cap');
    expect(err.message).toContain('a single stdout line exceeded');
    // The line cap is maxBytes + 1 MiB (33 MiB): far less than the 100 MB sent.
    expect(process.memoryUsage().rss - before).toBeLessThan(90 * 1024 * 1024);
    expectGroupGone(pf);
  });

  it('fails with cursor-loop when a cursor repeats', async () => {
    const pf = pidFile();
    const err = await failure(snapshotMcp('loop', shFixture('cursor-loop.mjs', [], pf)));
    expect(err.reason).toBe('cursor-loop');
    expect(err.message).toContain('returned nextCursor "again" a second time');
    expect(err.message).toContain('cursor-loop.mjs');
    expectGroupGone(pf);
  });

  it('fails with list-error when tools/list answers a JSON-RPC error', async () => {
    const pf = pidFile();
    const err = await failure(snapshotMcp('err', shFixture('list-error.mjs', [], pf)));
    expect(err.reason).toBe('list-error');
    expect(err.message).toMatch(/answered tools\/list with JSON-RPC error -32001: .*backend unavailable/);
    expectGroupGone(pf);
  });

  it('fails with exited, exit code and stderr tail when the server exits at once', async () => {
    const pf = pidFile();
    const err = await failure(snapshotMcp('exit', shFixture('exit-at-once.mjs', [], pf)));
    expect(err.reason).toBe('exited');
    expect(err.message).toContain('exited with code 3');
    expect(err.message).toContain('fatal: FIXTURE_API_KEY is not set');
    expect(err.stderrTail).toContain('fatal: FIXTURE_API_KEY is not set');
    expectGroupGone(pf);
  });

  it('fails with startup-timeout on a silent server and kills the group, grandchild included', async () => {
    const pf = pidFile();
    const pids = `${pf}.children`;
    const started = Date.now();
    const err = await failure(snapshotMcp('silent', shFixture('silent.mjs', [pids], pf, { timeouts: { startupMs: 1500, requestMs: 1000, totalMs: 10_000 } })));
    expect(err.reason).toBe('startup-timeout');
    expect(err.message).toContain('within 1500 ms');
    // silent.mjs ignores SIGTERM: the SIGKILL after the 1 s grace ends it.
    expect(Date.now() - started).toBeLessThan(6000);
    const [server, grandchild] = readPids(pids);
    expect(pidAlive(server!)).toBe(false);
    expect(pidAlive(grandchild!)).toBe(false);
    expectGroupGone(pf);
  });

  it('fails with spawn-failed naming the command when it does not exist', async () => {
    const err = await failure(snapshotMcp('nope', { ...nodeFixture('annotated.mjs'), command: 'toolgate-no-such-server', args: ['--stdio'] }));
    expect(err.reason).toBe('spawn-failed');
    expect(err.message).toContain('toolgate-no-such-server');
    expect(err.message).toContain('PATH');
  });

  it('fails with spawn-failed when cwd does not exist', async () => {
    const err = await failure(snapshotMcp('nocwd', nodeFixture('annotated.mjs', [], { cwd: '/nonexistent/toolgate-cwd' })));
    expect(err.reason).toBe('spawn-failed');
    expect(err.message).toContain('/nonexistent/toolgate-cwd');
  });

  it('deletes the scratch HOME afterwards', async () => {
    const snap = await snapshotMcp('env', nodeFixture('env-echo.mjs'));
    const home = (snap.tools[1]!.tool as { description: string }).description;
    expect(home).toMatch(/toolgate-home-/);
    expect(existsSync(home)).toBe(false);
  });
});
