import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root. */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = join(REPO, 'dist/cli.js');
export const ACTION = join(REPO, 'dist/index.js');

/**
 * A toolgate.yml line (in a source's `mcp` block, at `indent` spaces) that names this checkout
 * `readable`: a server run from a temp repository imports its fixture or package from here, and
 * the sandbox shows a server nothing outside its repository that the source does not name.
 */
export const READ_REPO = (indent = 6) => `${' '.repeat(indent)}readable: [${JSON.stringify(REPO)}]\n`;

/** What a finished process left. */
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command args` with exactly `env` (nothing leaks in from the test runner), bounded by
 * `timeoutMs` (the process is killed and the promise rejects with its stderr).
 */
export function runProcess(command: string, args: string[], opts: { cwd: string; env: Record<string, string>; timeoutMs: number }): Promise<RunResult> {
  return new Promise((res, rej) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rej(new Error(`timed out after ${opts.timeoutMs} ms: ${command} ${args.join(' ')}\n${stderr}`));
    }, opts.timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      rej(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      res({ code, stdout, stderr });
    });
  });
}

/**
 * V8's code cache for the bundles the tests start several hundred times: each start then skips
 * compiling dist/ and the tokenizer's tables again. A quiet optimization (Node ignores a cache it
 * cannot use); `TOOLGATE_TEST_COMPILE_CACHE=0` turns it off to compare.
 */
const COMPILE_CACHE = process.env.TOOLGATE_TEST_COMPILE_CACHE === '0' ? undefined : join(REPO, 'node_modules', '.cache', 'toolgate-test-compile-cache');

/**
 * {@link COMPILE_CACHE} as environment entries, for a test that starts a bundle itself (`spawn`,
 * an SDK client's stdio transport) instead of through {@link runNode}.
 */
export const CACHE_ENV: Record<string, string> = COMPILE_CACHE ? { NODE_COMPILE_CACHE: COMPILE_CACHE } : {};

/**
 * Runs a built bundle with Node (the same binary as the tests), bounded by `timeoutMs`.
 * The environment is exactly `env` plus PATH/HOME, so nothing leaks in from the test runner.
 */
export function runNode(script: string, args: string[], opts: { cwd: string; env?: Record<string, string>; timeoutMs?: number }): Promise<RunResult> {
  // A test file that runs servers unsandboxed (withoutSandboxForThisFile, support/sandbox-mode.ts) does so in the CLI too.
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    ...(process.env.TOOLGATE_SANDBOX_UNAVAILABLE ? { TOOLGATE_SANDBOX_UNAVAILABLE: process.env.TOOLGATE_SANDBOX_UNAVAILABLE } : {}),
    ...CACHE_ENV,
    ...opts.env,
  };
  return runProcess(process.execPath, [script, ...args], { cwd: opts.cwd, env, timeoutMs: opts.timeoutMs ?? 60_000 });
}

/** `toolgate ARGS` from dist/cli.js. */
export const runCli = (args: string[], opts: { cwd: string; env?: Record<string, string>; timeoutMs?: number }) => runNode(CLI, args, opts);

/** A temp directory removed by the returned function. */
export function tempWorkspace(prefix = 'tg-e2e-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A finding as `--format json` prints it (the fields the e2e tests read). */
export interface JsonFinding {
  ruleId: string;
  level: string;
  tool?: string;
  message: string;
  data?: Record<string, unknown>;
}
