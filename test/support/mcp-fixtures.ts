/** Helpers for the MCP source tests: fixture paths, configs, free ports, process checks. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpCommon, McpHttpConfig, McpStdioConfig } from '../../src/config/source-config.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = join(ROOT, 'test/fixtures/servers');
export const NODE = process.execPath;

/**
 * What a fixture server run from a repository elsewhere (a temp dir) reads outside it: the
 * fixtures and the MCP SDK some of them import. A source names these as `readable`, since the
 * sandbox shows a server nothing outside its repository that the source does not name.
 */
export const FIXTURE_READS: readonly string[] = [FIXTURES, join(ROOT, 'node_modules')];

/** Absolute path of a fixture server. */
export const fixture = (name: string) => join(FIXTURES, name);

/** Short limits so failing cases stay fast. */
export const COMMON: McpCommon = {
  capabilities: {},
  timeouts: { startupMs: 10_000, requestMs: 5_000, totalMs: 20_000 },
  limits: { maxPages: 20, maxBytes: 32 * 1024 * 1024 },
};

export type StdioCfg = McpStdioConfig & McpCommon;
export type HttpCfg = McpHttpConfig & McpCommon;

/** A stdio config running `node <fixture> ...args`. */
export function nodeFixture(name: string, args: string[] = [], over: Partial<StdioCfg> = {}): StdioCfg {
  return { transport: 'stdio', command: NODE, args: [fixture(name), ...args], cwd: ROOT, env: [], ...COMMON, ...over };
}

/**
 * A stdio config that runs the fixture behind `sh -c` and records the shell's pid (the process
 * group id, since toolgate makes the shell a group leader) in a file, so a test can check that
 * the whole group is gone afterwards.
 */
export function shFixture(name: string, args: string[], pidFile: string, over: Partial<StdioCfg> = {}): StdioCfg {
  const script = `echo $$ > "$0"; ${JSON.stringify(NODE)} ${[fixture(name), ...args].map((a) => JSON.stringify(a)).join(' ')}`;
  return { transport: 'stdio', command: 'sh', args: ['-c', script, pidFile], cwd: ROOT, env: [], ...COMMON, ...over };
}

/** A fresh temp dir; call the returned function to delete it. */
export function tempDir(prefix = 'tg-test-'): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

/** Live (non-zombie) pids of process group `pgid` (the source's own check). */
export { livePidsInGroup } from '../../src/sources/launch/process.js';

/** True when `pid` is a live (non-zombie) process. */
export function pidAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Reads the numbers written to a pid file. */
export function readPids(file: string): number[] {
  return readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
}
