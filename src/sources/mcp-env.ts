/**
 * The environment a spawned MCP server (or an HTTP server's `start` command) gets (docs/design.md §9).
 *
 * The server is code from the pull request: it must not see the GitHub token, the Action's
 * `INPUT_*` values or the runner's `ACTIONS_*` secrets. So the child gets an allowlist, never a
 * copy of our environment with things removed: a small default set, the names the user listed,
 * and a scratch `HOME` (several real servers write into `$HOME` at start-up).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { onInterrupt, processAlive } from '../util/cleanup.js';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Home-directory variables: always pointed at the scratch home, never inherited. */
const HOME_NAMES: ReadonlySet<string> = new Set(['HOME', 'USERPROFILE', 'HOMEDRIVE', 'HOMEPATH']);

function isHomeName(name: string): boolean {
  return HOME_NAMES.has(name.toUpperCase());
}

/**
 * The MCP SDK's default list of inherited variables (`DEFAULT_INHERITED_ENV_VARS` in
 * `@modelcontextprotocol/client/stdio`), written out here because importing that module would
 * load the SDK and Zod before the server can be started (docs/design.md §13: the server starts first).
 * test/sources/mcp-env.test.ts keeps it equal to the SDK's, for this platform and Windows.
 */
export const SDK_INHERITED_ENV_VARS: readonly string[] =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'COMSPEC',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PATHEXT',
        'PROCESSOR_ARCHITECTURE',
        'PROGRAMDATA',
        'PROGRAMFILES',
        'PROGRAMFILES(X86)',
        'PROGRAMW6432',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'WINDIR',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/**
 * Variables every child inherits when set: the SDK's own default list ({@link SDK_INHERITED_ENV_VARS}:
 * on POSIX `HOME LOGNAME PATH SHELL TERM USER`), minus the home-directory variables, which
 * {@link buildChildEnv} points at the scratch directory.
 */
export const DEFAULT_CHILD_ENV_NAMES: readonly string[] = SDK_INHERITED_ENV_VARS.filter((n) => !isHomeName(n));

/** Input of {@link buildChildEnv}. */
export interface ChildEnvInput {
  /** Names listed in the source's `env` (values are read from `source`, never from the config). */
  names: readonly string[];
  /** Environment to read values from (toolgate's own, `process.env` in production). */
  source: Readonly<Record<string, string | undefined>>;
  /** Absolute path of the scratch home directory. */
  home: string;
  /** `process.platform` by default; on `win32` `USERPROFILE` is set as well as `HOME`. */
  platform?: NodeJS.Platform;
  /** Default names; {@link DEFAULT_CHILD_ENV_NAMES} by default. */
  defaults?: readonly string[];
}

/**
 * Builds the child's environment (pure).
 *
 * - every default name that is set (values starting with `()` are skipped, as the SDK does: they
 *   are exported shell functions);
 * - every name in `names` that is set, exactly as listed: naming `GITHUB_TOKEN` passes it, because
 *   that is the user's explicit, reviewed choice in `toolgate.yml`; nothing else ever reaches the
 *   child (no `GITHUB_TOKEN`, `INPUT_*`, `ACTIONS_*` by default);
 * - `HOME` (and `USERPROFILE` on Windows) set to `home`, even when the user named `HOME`: the
 *   scratch home is what keeps a server from reading or writing the runner's real home.
 *
 * Names missing from `source` are left out (not set to an empty string).
 */
export function buildChildEnv(input: ChildEnvInput): Record<string, string> {
  const platform = input.platform ?? process.platform;
  const env: Record<string, string> = {};
  for (const name of input.defaults ?? DEFAULT_CHILD_ENV_NAMES) {
    const value = input.source[name];
    if (value === undefined || value.startsWith('()') || isHomeName(name)) continue;
    env[name] = value;
  }
  for (const name of input.names) {
    const value = input.source[name];
    if (value === undefined || isHomeName(name)) continue;
    env[name] = value;
  }
  env.HOME = input.home;
  if (platform === 'win32') env.USERPROFILE = input.home;
  return env;
}

/** A scratch home directory and how to delete it. */
export interface ScratchHome {
  /** Absolute path. */
  path: string;
  /** Deletes the directory and everything the server wrote there; never throws. */
  dispose(): Promise<void>;
}

/**
 * Creates a fresh, empty home directory under the OS temp dir, named `toolgate-home-<pid>-<random>`.
 * A run killed outright (SIGKILL, OOM) cannot delete its own; so each new one first deletes those
 * whose toolgate process is gone, and they never accumulate.
 */
export async function makeScratchHome(): Promise<ScratchHome> {
  await removeOrphanedHomes();
  // Made and registered in one synchronous step: with mkdtemp's promise, a signal handled between
  // the directory's creation and its registration left it behind (the next run removed it).
  const path = mkdtempSync(join(tmpdir(), `toolgate-home-${process.pid}-`));
  const unregister = onInterrupt(() => rmSync(path, { recursive: true, force: true }));
  return {
    path,
    dispose: () =>
      rm(path, { recursive: true, force: true, maxRetries: 3 })
        .catch(() => undefined)
        .finally(unregister),
  };
}

/** Deletes `toolgate-home-<pid>-*` directories of toolgate processes that no longer run. */
async function removeOrphanedHomes(): Promise<void> {
  let names: string[];
  try {
    names = await readdir(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^toolgate-home-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
    if (!m || processAlive(Number(m[1]))) continue;
    await rm(join(tmpdir(), name), { recursive: true, force: true }).catch(() => undefined);
  }
}
