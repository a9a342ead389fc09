/**
 * Misbehaving MCP servers: every failure ends in a clear finding or SourceError, nothing
 * hangs, leaks a process or exhausts memory. Each case is a real process from
 * test/fixtures/servers/hostile (see its README) or test/fixtures/servers.
 *
 * Every case asserts: the outcome (SourceError reason or finding id), the message, a loose time
 * bound (the configured timeouts plus the kill grace plus slack for a loaded 2-core runner;
 * timing goals live in bench/), and that the server's whole process group (grandchildren
 * included) is gone when the call returns.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withoutSandboxForThisFile } from '../support/sandbox-mode.js';
import { adHocPolicy } from '../../src/config/policy-resolve.js';
import { runCheck } from '../../src/run-check.js';
import type { CheckResult } from '../../src/judge/result.js';
import { snapshotMcp } from '../../src/sources/mcp.js';
import { STDERR_TAIL_BYTES } from '../../src/sources/launch/process.js';
import type { RawSnapshot } from '../../src/sources/types.js';
import { SourceError, type SourceFailure } from '../../src/sources/source-error.js';
import { silentLogger } from '../../src/util/logger.js';
import {
  FIXTURES,
  NODE,
  ROOT,
  freePort,
  livePidsInGroup,
  pidAlive,
  readPids,
  shFixture,
  tempDir,
  type HttpCfg,
  type StdioCfg,
} from '../support/mcp-fixtures.js';

withoutSandboxForThisFile();

/** Small limits so every failure is quick (brief: startup 3 s, request 1 s). */
// Wide enough that a well-behaved fixture answers in time on a loaded 2-core CI machine (the
// SDK-based ones take a second or more to start there); cases about a limit set their own.
const TIMEOUTS = { startupMs: 10_000, requestMs: 3_000, totalMs: 15_000 };
const LIMITS = { maxPages: 20, maxBytes: 4 * 1024 * 1024 };
/**
 * For a server that never answers in time: nothing it sends can come late, so a start-up timeout
 * well below {@link TIMEOUTS}' ends the case sooner with the same outcome (wide enough for the
 * fixture to start and record its pids on a loaded machine).
 */
const NEVER_STARTS = { ...TIMEOUTS, startupMs: 4000 };
/** For a listing that hangs: each outcome is the same whether or not a page comes in time. */
const HANGS = { ...TIMEOUTS, requestMs: 1500 };
/** SIGTERM→SIGKILL grace (1 s) plus slack for a busy runner. */
const SLACK_MS = 1000 + 4000;

interface Run {
  cfg: StdioCfg | HttpCfg;
  /** File the fixture writes its pid (= process group id) and grandchildren's pids to. */
  pidFile?: string;
}

/** `node test/fixtures/servers/hostile/<name> <pidfile> ...args`, spawned directly (group leader). */
function hostile(name: string, args: string[] = [], over: Partial<StdioCfg> = {}): Run {
  const dir = tempDir('tg-hostile-');
  cleanups.push(dir.cleanup);
  const pidFile = join(dir.path, 'pids');
  const cfg: StdioCfg = {
    transport: 'stdio',
    command: NODE,
    args: [join(FIXTURES, 'hostile', name), pidFile, ...args],
    cwd: ROOT,
    env: [],
    capabilities: {},
    timeouts: TIMEOUTS,
    limits: LIMITS,
    ...over,
  };
  return { cfg, pidFile };
}

/** An existing fixture from test/fixtures/servers behind `sh -c` (the shell's pid is the group id). */
function viaShell(name: string, args: string[] = [], over: Partial<StdioCfg> = {}): Run {
  const dir = tempDir('tg-hostile-');
  cleanups.push(dir.cleanup);
  const pidFile = join(dir.path, 'pids');
  return { cfg: shFixture(name, args, pidFile, { timeouts: TIMEOUTS, limits: LIMITS, ...over }), pidFile };
}

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.splice(0).forEach((c) => c()));

interface Outcome {
  snap?: RawSnapshot;
  err?: SourceError;
  ms: number;
}

async function snapshot(run: Run): Promise<Outcome> {
  const started = Date.now();
  try {
    const snap = await snapshotMcp('hostile', run.cfg);
    return { snap, ms: Date.now() - started };
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    return { err: e, ms: Date.now() - started };
  } finally {
    expectGroupGone(run);
  }
}

async function fails(run: Run, reason: SourceFailure, boundMs: number): Promise<SourceError> {
  const out = await snapshot(run);
  expect(out.snap, `expected ${reason}, got a snapshot`).toBeUndefined();
  expect(out.err!.reason, out.err!.message).toBe(reason);
  expect(out.ms).toBeLessThan(boundMs);
  return out.err!;
}

/**
 * Limits for cases that must succeed: a well-behaved answer can take seconds on a loaded 2-core CI
 * machine (two test workers, five servers each), and a success case is not about the limits.
 */
const GENEROUS = { startupMs: 20_000, requestMs: 10_000, totalMs: 30_000 };

async function succeeds(run: Run, boundMs: number): Promise<RawSnapshot> {
  if (run.cfg.timeouts === TIMEOUTS) {
    run = { ...run, cfg: { ...run.cfg, timeouts: GENEROUS } };
    boundMs = Math.max(boundMs, GENEROUS.totalMs + SLACK_MS);
  }
  const out = await snapshot(run);
  expect(out.err?.message).toBeUndefined();
  expect(out.ms).toBeLessThan(boundMs);
  return out.snap!;
}

/** Through the whole pipeline (audit mode, no contract): findings instead of an exception. */
async function audit(run: Run): Promise<CheckResult> {
  const dir = tempDir('tg-hostile-audit-');
  cleanups.push(dir.cleanup);
  const policy = adHocPolicy({ id: 'hostile', kind: 'mcp', contract: join(dir.path, 'c.json'), mcp: run.cfg }, dir.path);
  try {
    return await runCheck({ policy, mode: 'audit', root: dir.path, logger: silentLogger });
  } finally {
    expectGroupGone(run);
  }
}

/** Every pid the fixture recorded (itself first: the group id) is gone, and so is the group. */
function expectGroupGone(run: Run): void {
  if (!run.pidFile) return;
  let pids: number[];
  try {
    pids = readPids(run.pidFile);
  } catch {
    return; // never started (spawn-failed)
  }
  const [pgid] = pids;
  expect(pgid).toBeGreaterThan(0);
  expect(livePidsInGroup(pgid!), 'live members of the server process group').toEqual([]);
  for (const pid of pids) expect(pidAlive(pid), `pid ${pid} still alive`).toBe(false);
}

const names = (s: RawSnapshot) => s.tools.map((t) => (t.tool as { name: string }).name);
const ids = (r: CheckResult) => r.findings.map((f) => f.ruleId);
/** Rule ids of every finding, those folded into others (docs/design.md §6) included. */
const judged = (r: CheckResult) => [...r.findings, ...r.sources.flatMap((s) => s.folded ?? [])].map((f) => f.ruleId);

/** An HTTP source whose `start` command is the hostile fixture `run`, listening on `port`. */
function httpStarted(run: Run, port: number, timeouts = TIMEOUTS): HttpCfg {
  const start = run.cfg as StdioCfg;
  return {
    transport: 'http',
    url: `http://127.0.0.1:${port}/mcp`,
    headers: [],
    start: { command: start.command, args: start.args, cwd: start.cwd, env: [] },
    capabilities: {},
    timeouts,
    limits: LIMITS,
  };
}

describe.concurrent('hostile MCP servers', () => {
  // ---- start-up ---------------------------------------------------------------------------
  it('exits at once with code 0 and no output: exited', async () => {
    const err = await fails(hostile('exit-zero.mjs'), 'exited', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toMatch(/exited with code 0 during start-up/);
  });

  it('exits non-zero with a stderr message: exited, code and message kept', async () => {
    const err = await fails(viaShell('exit-at-once.mjs'), 'exited', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('exited with code 3');
    expect(err.message).toContain('fatal: FIXTURE_API_KEY is not set');
    expect(err.stderrTail).toContain('fatal: FIXTURE_API_KEY is not set');
  });

  it('throws at start-up (Node crash report): exited, the message quotes the error, not the trailer', async () => {
    const err = await fails(hostile('throw-at-start.mjs'), 'exited', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('stderr: "Error: config file ./server.config.json not found"');
    expect(err.message).not.toMatch(/Node\.js v\d/);
    expect(err.stderrTail).toMatch(/Node\.js v\d/);
  });

  it('never answers initialize: startup-timeout within the start-up timeout', async () => {
    const err = await fails(hostile('no-init.mjs', [], { timeouts: NEVER_STARTS }), 'startup-timeout', NEVER_STARTS.startupMs + SLACK_MS);
    expect(err.message).toContain(`within ${NEVER_STARTS.startupMs} ms`);
    expect(err.message).toContain('`startup-timeout-ms`');
    expect(err.message).toContain('no-init.mjs');
  });

  it('never answers, ignores SIGTERM and has a grandchild: startup-timeout, whole group killed', async () => {
    const run = viaShell('silent.mjs', [], { timeouts: NEVER_STARTS });
    const children = `${run.pidFile}.children`;
    const args = (run.cfg as StdioCfg).args;
    args[1] = `${args[1]} ${JSON.stringify(children)}`;
    const err = await fails(run, 'startup-timeout', NEVER_STARTS.startupMs + SLACK_MS);
    expect(err.message).toContain('did not complete initialization');
    for (const pid of readPids(children)) expect(pidAlive(pid)).toBe(false);
  });

  it('answers initialize with a JSON-RPC error: protocol-error quoting it', async () => {
    const err = await fails(hostile('init-error.mjs'), 'protocol-error', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toMatch(/initialize/);
    expect(err.message).toContain('license expired: call sales');
  });

  it('answers initialize with an unsupported protocol version: protocol-error', async () => {
    const err = await fails(hostile('bad-protocol.mjs'), 'protocol-error', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('1999-01-01');
  });

  it('writes a byte-order mark before its initialize answer: protocol-error saying so at once, not a start-up timeout', async () => {
    // The SDKs' stdio clients parse each line with JSON.parse and drop this one; RFC 8259 §8.1
    // forbids the mark in transmitted JSON. Before, the answer was dropped as noise and the
    // server was reported as never answering.
    const err = await fails(hostile('bom-init.mjs'), 'protocol-error', TIMEOUTS.startupMs);
    expect(err.message).toContain('wrote a byte-order mark (U+FEFF) before its answer to initialize on stdout');
    expect(err.message).toContain('during start-up (initialize)');
  });

  it('starts slower than the request timeout but within the start-up timeout: succeeds', async () => {
    // Slower than the request limit, within the start-up limit (kept wide for a loaded machine).
    const timeouts = { ...TIMEOUTS, startupMs: 20_000 };
    const snap = await succeeds(hostile('slow-start.mjs', ['4500'], { timeouts }), timeouts.startupMs + SLACK_MS);
    expect(names(snap)).toEqual(['late']);
  });

  it('starts slower than the start-up timeout: startup-timeout', async () => {
    const err = await fails(hostile('slow-start.mjs', ['25000'], { timeouts: NEVER_STARTS }), 'startup-timeout', NEVER_STARTS.startupMs + SLACK_MS);
    expect(err.message).toContain('startup-timeout-ms');
  });

  it('command not found: spawn-failed naming the command', async () => {
    const err = await fails(hostile('exit-zero.mjs', [], { command: 'toolgate-hostile-no-such-binary' }), 'spawn-failed', SLACK_MS);
    expect(err.message).toContain('toolgate-hostile-no-such-binary');
  });

  it('exits at once leaving a grandchild that holds stdout open: exited, grandchild killed', async () => {
    const err = await fails(hostile('orphan-exit.mjs'), 'exited', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('exited with code 4');
    expect(err.message).toContain('leaving my child behind');
  });

  it('floods stderr with 4 MB then exits: exited, stderr tail bounded at 4 KiB', async () => {
    const timeouts = { ...TIMEOUTS, startupMs: 10_000, totalMs: 12_000 };
    const err = await fails(hostile('stderr-flood.mjs', ['exit'], { timeouts }), 'exited', timeouts.startupMs + SLACK_MS);
    expect(Buffer.byteLength(err.stderrTail ?? '', 'utf8')).toBeLessThanOrEqual(STDERR_TAIL_BYTES);
    expect(err.stderrTail).toContain('stderr-flood: the last line');
    expect(err.message).toContain('stderr-flood: the last line');
    expect(err.message.length).toBeLessThan(1000);
  });

  // ---- listing ----------------------------------------------------------------------------
  it('answers initialize, then hangs on tools/list: request-timeout', async () => {
    const err = await fails(hostile('hang-list.mjs', [], { timeouts: HANGS }), 'request-timeout', HANGS.requestMs * 2 + SLACK_MS);
    expect(err.message).toContain('request-timeout-ms');
  });

  it('hangs on the second page: request-timeout', async () => {
    const err = await fails(hostile('hang-page2.mjs', [], { timeouts: HANGS }), 'request-timeout', HANGS.requestMs * 2 + SLACK_MS);
    expect(err.message).toContain('tools/list');
  });

  it('repeats the same cursor forever: cursor-loop', async () => {
    const err = await fails(viaShell('cursor-loop.mjs'), 'cursor-loop', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('returned nextCursor "again" a second time');
  });

  it('returns a new cursor forever: page-cap at limits.maxPages', async () => {
    const err = await fails(hostile('cursor-forever.mjs'), 'page-cap', TIMEOUTS.totalMs + SLACK_MS);
    expect(err.message).toContain(`after ${LIMITS.maxPages} tools/list pages`);
  });

  it('pages slowly (each page in time, the listing not): request-timeout naming total-timeout-ms', async () => {
    // 700 ms a page: far inside the page limit even on a loaded machine, the total runs out first.
    const timeouts = { startupMs: 10_000, requestMs: 5000, totalMs: 3000 };
    const err = await fails(hostile('slow-pages.mjs', [], { timeouts }), 'request-timeout', timeouts.totalMs + SLACK_MS);
    expect(err.message).toContain('total-timeout-ms');
  });

  it('returns an empty-string cursor: it is followed (valid)', async () => {
    const snap = await succeeds(viaShell('paginated.mjs'), TIMEOUTS.startupMs + SLACK_MS);
    expect(names(snap)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(snap.diagnostics.pages).toBe(3);
  });

  it('returns "nextCursor": null: last page, with a note', async () => {
    const snap = await succeeds(hostile('cursor-null.mjs'), TIMEOUTS.startupMs + SLACK_MS);
    expect(names(snap)).toEqual(['only']);
    expect(snap.diagnostics.notes?.join('\n')).toContain('"nextCursor": null');
  });

  it('returns a number as nextCursor: protocol-error', async () => {
    const err = await fails(hostile('cursor-number.mjs'), 'protocol-error', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('"nextCursor" is number');
  });

  it('sends a 100 MB response line: byte-cap, memory bounded', async () => {
    const before = process.memoryUsage().rss;
    // As with the endless line: the cap must win however slowly a loaded machine writes 5 MiB.
    const timeouts = { ...TIMEOUTS, requestMs: 30_000, totalMs: 40_000 };
    const err = await fails(viaShell('huge-line.mjs', [], { timeouts }), 'byte-cap', timeouts.requestMs + SLACK_MS);
    expect(err.message).toContain('a single stdout line exceeded');
    // Line cap = maxBytes (4 MiB) + 1 MiB envelope slack; other concurrent cases share this
    // process, so the bound is loose, but far below the 100 MB sent.
    expect(process.memoryUsage().rss - before).toBeLessThan(80 * 1024 * 1024);
  });

  it('writes an endless line without a newline: byte-cap', async () => {
    // Reaching the cap takes as long as the server needs to write 5 MiB: on a loaded machine that
    // can exceed the 1 s request limit, so this case allows 30 s (the cap must still win).
    const timeouts = { ...TIMEOUTS, requestMs: 30_000, totalMs: 40_000 };
    const err = await fails(hostile('endless-line.mjs', [], { timeouts }), 'byte-cap', timeouts.requestMs + SLACK_MS);
    expect(err.message).toContain('exceeded');
  });

  it('tools/list answers a JSON-RPC error: list-error', async () => {
    const err = await fails(viaShell('list-error.mjs'), 'list-error', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toMatch(/JSON-RPC error -32001: .*backend unavailable/);
  });

  // The SDK silently drops a response it cannot parse; without toolgate's own check these three
  // waited for the request timeout and were misreported as "did not answer".
  it('tools/list result is a number: protocol-error at once, not a timeout', async () => {
    const err = await fails(hostile('result-not-object.mjs'), 'protocol-error', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('answered tools/list with a malformed JSON-RPC response ("result" is number, not an object)');
  });

  it('tools/list response has an extra top-level key: protocol-error at once', async () => {
    const err = await fails(hostile('result-extra-key.mjs'), 'protocol-error', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('unexpected key "debug"');
  });

  it('tools/list error response with a non-integer code: protocol-error at once', async () => {
    const err = await fails(hostile('error-malformed.mjs'), 'protocol-error', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('"error.code" is not an integer');
  });

  it('tools/list result has "tools" that is not an array: protocol-error', async () => {
    const err = await fails(hostile('tools-not-array.mjs'), 'protocol-error', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('"tools" array');
  });

  it('crashes while listing (stderr message, exit 70): exited, while listing tools', async () => {
    const err = await fails(hostile('crash-listing.mjs'), 'exited', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('exited with code 70 while listing tools');
    expect(err.message).toContain('panic: assignment to entry in nil map');
  });

  it('is killed by a signal while listing: exited, names the signal', async () => {
    const err = await fails(hostile('self-kill.mjs'), 'exited', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('was killed by SIGKILL');
  });

  it('writes half a JSON line and exits: exited', async () => {
    const err = await fails(hostile('partial-exit.mjs'), 'exited', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('exited with code 0 while listing tools');
  });

  it('closes stdout but keeps running: fails at once (connection closed), process killed', async () => {
    const err = await fails(hostile('close-stdout.mjs'), 'exited', TIMEOUTS.requestMs + SLACK_MS);
    expect(err.message).toContain('closed the connection while listing tools');
  });

  // ---- protocol oddities that must not fail the snapshot ------------------------------------
  it('sends notifications/tools/list_changed during listing: listed, with a note', async () => {
    const snap = await succeeds(hostile('list-changed.mjs'), TIMEOUTS.startupMs + SLACK_MS);
    expect(names(snap)).toEqual(['shifting']);
    expect(snap.diagnostics.notes?.join('\n')).toContain('notifications/tools/list_changed');
  });

  it('answers unknown ids, answers twice, and sends id-null errors: the real answers win', async () => {
    const snap = await succeeds(hostile('unknown-ids.mjs'), TIMEOUTS.startupMs + SLACK_MS);
    expect(names(snap)).toEqual(['real']);
  });

  it('sends requests to the client (roots/list, sampling, elicitation, ping): each answered, listing succeeds', async () => {
    const snap = await succeeds(hostile('client-requests.mjs'), TIMEOUTS.startupMs + SLACK_MS);
    const description = (snap.tools[0]!.tool as { description: string }).description;
    // Nothing declared: roots/sampling/elicitation are refused with a JSON-RPC error; ping answered.
    expect(description).toMatch(/^roots\/list=error -?\d+;sampling\/createMessage=error -?\d+;elicitation\/create=error -?\d+;ping=result$/);
  });

  it('writes non-UTF-8 bytes: decoded with U+FFFD, the bad stdout line counted as noise', async () => {
    const snap = await succeeds(hostile('non-utf8.mjs'), TIMEOUTS.startupMs + SLACK_MS);
    expect(names(snap)).toEqual(['bytes']);
    expect((snap.tools[0]!.tool as { description: string }).description).toBe('bad \uFFFD( \uFFFD end');
    expect(snap.diagnostics.stdoutNoiseLines).toBe(1);
  });

  it('serves a page of 10,000 tools: all listed', async () => {
    const snap = await succeeds(hostile('many-tools.mjs'), TIMEOUTS.startupMs + SLACK_MS);
    expect(snap.tools).toHaveLength(10_000);
    expect(names(snap).at(-1)).toBe('tool_09999');
  });

  it('serves one tool with a 512 KiB description: listed whole', async () => {
    const snap = await succeeds(hostile('huge-description.mjs'), TIMEOUTS.startupMs + SLACK_MS);
    const d = (snap.tools[0]!.tool as { description: string }).description;
    expect(d.length).toBeGreaterThan(512 * 1024);
    expect(d.endsWith('END')).toBe(true);
  });

  it('floods stderr with 4 MB and then serves: listed, stderr tail bounded at 4 KiB', async () => {
    // Pushing 4 MB through a pipe competes with every other test file for 2 cores (the suite grew:
    // 10 s of start-up was missed on Node 24 in CI, 0.5 s alone): a success case is not about the
    // limits, so it gets GENEROUS ones like the others; the stderr bound is what it checks.
    const snap = await succeeds(hostile('stderr-flood.mjs', ['serve']), 0);
    expect(names(snap)).toEqual(['after_flood']);
    expect(Buffer.byteLength(snap.diagnostics.stderrTail ?? '', 'utf8')).toBeLessThanOrEqual(STDERR_TAIL_BYTES);
    expect(snap.diagnostics.stderrTail).toContain('stderr-flood: the last line');
  });

  // ---- process lifetime ---------------------------------------------------------------------
  it('ignores SIGTERM and the end of stdin: listed, then SIGKILLed after the grace period', async () => {
    const snap = await succeeds(hostile('ignore-term.mjs'), TIMEOUTS.startupMs + SLACK_MS);
    expect(names(snap)).toEqual(['stubborn']);
    expect(snap.diagnostics.durationMs).toBeGreaterThanOrEqual(900);
  });

  it('spawns a grandchild (that ignores SIGTERM) which would outlive it: grandchild ended too', async () => {
    const run = hostile('orphan.mjs');
    const snap = await succeeds(run, TIMEOUTS.startupMs + SLACK_MS);
    expect(names(snap)).toEqual(['parent_tool']);
    expect(readPids(run.pidFile!)).toHaveLength(2);
  });

  it('started through sh -c: listed, shell and server both gone', async () => {
    const snap = await succeeds(viaShell('annotated.mjs'), TIMEOUTS.startupMs + SLACK_MS);
    expect(names(snap)).toEqual(['read_file', 'delete_file', 'fetch_url']);
  });

  // ---- HTTP start command ---------------------------------------------------------------------
  it('HTTP: start command that never opens its port (and ignores SIGTERM): startup-timeout, killed', async () => {
    const port = await freePort();
    const run = hostile('http-never-listens.mjs');
    const cfg = httpStarted(run, port, NEVER_STARTS);
    const err = await fails({ cfg, pidFile: run.pidFile }, 'startup-timeout', NEVER_STARTS.startupMs + SLACK_MS);
    expect(err.message).toContain(`http://127.0.0.1:${port}/mcp`);
    expect(err.message).toContain('warming up forever');
  });

  it('HTTP: server answers 500 to everything: http-error with the status', async () => {
    const port = await freePort();
    const run = hostile('http-500.mjs', [String(port)]);
    const cfg = httpStarted(run, port);
    const err = await fails({ cfg, pidFile: run.pidFile }, 'http-error', TIMEOUTS.startupMs + SLACK_MS);
    expect(err.message).toContain('500');
  });

  for (const mode of ['json', 'sse-stream'] as const) {
    it(`HTTP: tools/list answered with unparsable ${mode === 'json' ? 'JSON' : 'SSE event data'}: protocol-error at once, not after request-timeout-ms`, async () => {
      const port = await freePort();
      const run = hostile('http-bad-json.mjs', [String(port), mode]);
      // A request timeout far above the bound below: only failing at once can pass.
      const cfg = httpStarted(run, port, { ...TIMEOUTS, requestMs: 120_000, totalMs: 180_000 });
      const err = await fails({ cfg, pidFile: run.pidFile }, 'protocol-error', 30_000);
      expect(err.message).toContain('not valid JSON');
      expect(err.message).toContain('while listing tools');
    });
  }

  // ---- through the pipeline: findings ---------------------------------------------------------
  it('one tool whose inputSchema is not an object: malformed-tool, and every tool pinned, that one as served', async () => {
    const r = await audit(hostile('bad-schema.mjs'));
    expect(ids(r)).toContain('malformed-tool');
    const f = r.findings.find((x) => x.ruleId === 'malformed-tool')!;
    expect(f.level).toBe('error');
    expect(f.tool).toBe('broken');
    expect(f.message).toContain('`inputSchema` is a string, not a JSON object');
    const tools = r.sources[0]!.surface!.tools;
    expect(tools.map((t) => t.name)).toEqual(['alpha', 'broken', 'gamma']);
    expect(tools[1]!.extra).toEqual({ inputSchema: 'string' });
    expect(r.exitCode).toBe(1);
  });

  it('a schema nested 100,000 levels deep: pinned (values below the limit by sha256), written, read back, and a change below the limit is seen', async () => {
    const dir = tempDir('tg-hostile-deep-');
    cleanups.push(dir.cleanup);
    const contract = join(dir.path, 'deep.surface.json');
    const at = (depth: number) => {
      const run = hostile('deep-schema.mjs', [String(depth)]);
      return { run, policy: adHocPolicy({ id: 'deep', kind: 'mcp', contract, mcp: run.cfg }, dir.path) };
    };
    const first = at(100_000);
    const u = await runCheck({ policy: first.policy, mode: 'update', root: dir.path, logger: silentLogger });
    expectGroupGone(first.run);
    expect(u.sources[0]!.failure).toBeUndefined();
    expect(u.sources[0]!.wrote).toBe(true);
    const deep = u.sources[0]!.surface!.tools.find((t) => t.name === 'deep')!;
    expect(deep.malformed).toMatch(/nested deeper than 509 levels/);
    const f = u.findings.find((x) => x.ruleId === 'malformed-tool');
    expect(f?.tool).toBe('deep');

    // The contract it wrote is one `check` reads (before: "edited by hand"), and it matches.
    const same = at(100_000);
    const c = await runCheck({ policy: same.policy, mode: 'check', root: dir.path, logger: silentLogger });
    expectGroupGone(same.run);
    expect(judged(c)).not.toContain('contract-stale');
    expect(ids(c)).toContain('malformed-tool');

    // One level more, far below the limit: the pinned sha256 changes, so the schema did.
    const deeper = at(100_001);
    const d = await runCheck({ policy: deeper.policy, mode: 'check', root: dir.path, logger: silentLogger });
    expectGroupGone(deeper.run);
    expect(judged(d)).toContain('contract-stale');
    expect(d.sources[0]!.changes?.some((x) => x.kind === 'input-schema-changed' && x.tool === 'deep')).toBe(true);
  }, 60_000);

  it('duplicate tool names: duplicate-tool-name', async () => {
    const r = await audit(hostile('duplicate.mjs'));
    const f = r.findings.find((x) => x.ruleId === 'duplicate-tool-name');
    expect(f?.tool).toBe('dup');
    expect(f?.message).toContain('2 tools are named "dup"');
  });

  it('invisible and confusable characters in names: invalid-tool-name for each', async () => {
    const r = await audit(hostile('unicode-names.mjs'));
    const bad = r.findings.filter((x) => x.ruleId === 'invalid-tool-name').map((x) => x.tool);
    expect(bad.sort()).toEqual(['p\u0430ypal_send', 'read\u200Bfile'].sort());
    const invisible = r.findings.find((x) => x.tool === 'read\u200Bfile')!;
    expect(invisible.message).toMatch(/invisible/);
  });

  it('banner lines on stdout: stdout-noise, and still listed', async () => {
    const r = await audit(viaShell('banner.mjs'));
    const f = r.findings.find((x) => x.ruleId === 'stdout-noise');
    expect(f?.message).toContain('3 non-JSON lines');
    expect(r.sources[0]!.surface!.tools.map((t) => t.name)).toEqual(['ping']);
  });

  it('a failing server becomes a server-failed finding (exit 3) with the stderr tail', async () => {
    const r = await audit(hostile('crash-listing.mjs'));
    // This file runs its servers unsandboxed (withoutSandboxForThisFile): every report says so.
    expect(ids(r)).toEqual(['server-failed', 'server-unsandboxed']);
    expect(r.exitCode).toBe(3);
    expect(r.sources[0]!.failure?.reason).toBe('exited');
    expect(r.sources[0]!.failure?.stderrTail).toContain('panic: assignment to entry in nil map');
  });
});

// Not concurrent with the cases above: each flood holds ~70 MB while it is stopped, which would
// blur the memory bounds measured there (and theirs would blur this one's).
describe('hostile MCP servers: request floods', () => {
  it('floods toolgate with 2 million pings and never reads the answers: flood, memory bounded', async () => {
    // Each answer waits in memory until the server reads it: unbounded, this grew toolgate to
    // 2 GB (an out-of-memory abort under a 512 MB heap). The peak is sampled, since the answers
    // are freed once the connection ends.
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    // The guard must win over the request timeout however slowly a loaded machine floods.
    const timeouts = { ...TIMEOUTS, requestMs: 30_000, totalMs: 40_000 };
    try {
      const err = await fails(hostile('ping-flood.mjs', [], { timeouts }), 'flood', 15_000);
      expect(err.message).toMatch(
        /flooded toolgate with requests: it sent \d+, and more than 10000 of toolgate's answers are waiting because the server does not read them/,
      );
      expect(err.message).toContain('while listing tools');
    } finally {
      clearInterval(sampler);
    }
    // ~7 KB per waiting answer: 10,000 of them are ~70 MB.
    expect(peak - before).toBeLessThan(300 * 1024 * 1024);
  });

  it('floods toolgate with 2 million pings and reads the answers: stopped all the same, naming the flood', async () => {
    const timeouts = { ...TIMEOUTS, requestMs: 30_000, totalMs: 40_000 };
    const err = await fails(hostile('ping-flood.mjs', ['2000000', 'read'], { timeouts }), 'flood', 20_000);
    expect(err.message).toContain('flooded toolgate with');
  });

  it('a request flood becomes a server-failed finding (exit 3) that names the flood', async () => {
    const r = await audit(hostile('ping-flood.mjs', [], { timeouts: { ...TIMEOUTS, requestMs: 30_000, totalMs: 40_000 } }));
    // This file runs its servers unsandboxed (withoutSandboxForThisFile): every report says so.
    expect(ids(r)).toEqual(['server-failed', 'server-unsandboxed']);
    expect(r.exitCode).toBe(3);
    expect(r.findings[0]!.message).toContain('flooded toolgate with requests');
  });
});
