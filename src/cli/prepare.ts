/**
 * What the CLI does before it loads its pipeline, for `audit`, `check`, `update` and `snapshot`:
 * read the policy (toolgate.yml, or one source given as flags) and start the first stdio server,
 * so that the server boots while the pipeline (MCP SDK, rules, reports) loads.
 *
 * Kept small on purpose: everything it imports is loaded before the server can start.
 * @module
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Policy } from '../config/policy-model.js';
import { loadPolicy } from '../config/policy-file.js';
import {
  DEFAULT_CONTAINMENT,
  DEFAULT_LIST_LIMITS,
  DEFAULT_TIMEOUTS,
  defaultContractPath,
  SOURCE_ID_PATTERN,
  type Containment,
  type SourceConfig,
} from '../config/source-config.js';
import { commandLineReadable, homeDirectories } from '../sources/launch/install-dirs.js';
import { Launcher } from '../sources/launch/index.js';
import type { JsonObject } from '../util/json.js';
import { ConfigError } from '../util/errors.js';
import { findRepositoryRoot } from '../util/repository-root.js';
import { mark } from '../util/timing.js';
import type { SourceFlags } from './types.js';

/** A run's policy and the launcher that starts its servers (holding the server started early, if any). */
export interface PreparedRun {
  policy: Policy;
  launcher: Launcher;
}

/**
 * The run's policy, read and checked, with its first stdio server already starting when this
 * policy is the one that runs it (no `--base`: with it, the base branch's policy decides how
 * servers are contained, so nothing starts before that policy is read); and its launcher, whose
 * early start the caller ends (`discardEarly`) when the run stops before the snapshot took it.
 * @throws ConfigError (exit 2) for a bad policy or flags, an unknown source id, `sandbox:
 *   required` without a sandbox, or a runner secret passed to a server.
 */
export async function prepareRun(flags: SourceFlags & { base?: string }, command: string[], cwd: string): Promise<PreparedRun> {
  const launcher = new Launcher();
  const policy = await policyFrom(flags, command, cwd);
  mark('policy loaded');
  if (flags.base === undefined) {
    const { startFirstServer } = await import('../sources/select.js');
    await startFirstServer(policy, flags.source, runRoot(policy, cwd), launcher);
  }
  return { policy, launcher };
}

/**
 * The containment of a server typed after `--`: the strictest, with the files its arguments name
 * outside the working directory readable (the user named them; see `commandLineReadable`).
 */
export function typedContainment(command: readonly string[], cwd: string): Containment {
  return { ...DEFAULT_CONTAINMENT, readable: commandLineReadable(command.slice(1), cwd, homeDirectories(process.env)) };
}

/**
 * The directory a command-line run works in: findings name files relative to it, git reads the
 * base there, and the sandbox lets servers into it. For a policy file, the repository that holds it
 * ({@link findRepositoryRoot}: the nearest `.git` at or above its directory; outside git, the
 * working directory when the policy is inside it, else the policy's directory), so that
 * `--config` from a subdirectory or from another repository runs as it would from that
 * repository's root; for a source given on the command line, the working directory.
 */
export function runRoot(policy: Policy, cwd: string): string {
  return policy.file ? findRepositoryRoot(policy.root) : cwd;
}

function parseCapabilities(text: string | undefined): JsonObject {
  if (text === undefined) return {};
  const example = `Pass e.g. --capabilities '{"roots":{},"sampling":{}}'.`;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`--capabilities is not valid JSON (${(e as Error).message})`, undefined, example);
  }
  if (v && typeof v === 'object' && !Array.isArray(v)) return v as JsonObject;
  throw new ConfigError(`--capabilities must be a JSON object, not ${Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v}`, undefined, example);
}

/** Builds the policy from flags: an ad-hoc source (after `--`, --tools-json, --openapi, --url) or toolgate.yml. */
export async function policyFrom(flags: SourceFlags, command: string[], cwd: string): Promise<Policy> {
  const id = flags.id ?? 'cli';
  // The id names the contract file (.toolgate/<id>.surface.json): the policy's own id rule keeps it a file name.
  if (!SOURCE_ID_PATTERN.test(id)) {
    throw new ConfigError(
      `--id ${JSON.stringify(id)} is not a valid source id`,
      undefined,
      'Use lower-case letters, digits, ".", "_" and "-", starting with a letter or digit (e.g. --id my-server).',
    );
  }
  const contract = resolve(cwd, defaultContractPath(id));
  const adhoc: SourceConfig[] = [];
  const common = { capabilities: parseCapabilities(flags.capabilities), timeouts: DEFAULT_TIMEOUTS, limits: DEFAULT_LIST_LIMITS };
  const typed = { command: command[0] as string, args: command.slice(1), cwd, env: flags.env ?? [], containment: typedContainment(command, cwd) };
  if (command.length > 0) adhoc.push({ id, kind: 'mcp', contract, mcp: { transport: 'stdio', ...typed, ...common } });
  for (const name of flags.env ?? []) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new ConfigError(
        `--env ${JSON.stringify(name)} is not an environment variable name`,
        undefined,
        'Pass names only (e.g. --env API_BASE), never NAME=value: values are read from your environment.',
      );
  }
  if (flags.url && !/^https?:\/\/[^\s/]+/.test(flags.url)) {
    throw new ConfigError(
      `--url ${JSON.stringify(flags.url)} is not an http(s) URL`,
      undefined,
      'Pass the Streamable HTTP endpoint, e.g. --url http://127.0.0.1:3000/mcp.',
    );
  }
  if (flags.url) adhoc.push({ id, kind: 'mcp', contract, mcp: { transport: 'http', url: flags.url, headers: [], ...common } });
  for (const [flag, path] of [
    ['--tools-json', flags.toolsJson],
    ['--openapi', flags.openapi],
  ] as const) {
    if (path !== undefined && !existsSync(resolve(cwd, path))) {
      throw new ConfigError(`${flag} ${path}: no such file`, undefined, `Check the path (relative to the current directory, ${cwd}).`);
    }
  }
  if (flags.toolsJson) adhoc.push({ id, kind: 'recorded', file: resolve(cwd, flags.toolsJson), contract });
  if (flags.openapi) adhoc.push({ id, kind: 'openapi', integration: resolve(cwd, flags.openapi), contract });
  if (adhoc.length > 1)
    throw new ConfigError(
      'give one source: a command after --, --url, --tools-json or --openapi',
      undefined,
      'Pick one of them, or list several sources in toolgate.yml.',
    );
  if (adhoc.length === 1 && (flags.config !== undefined || flags.source !== undefined)) {
    throw new ConfigError(
      `${flags.config !== undefined ? '--config' : '--source'} selects from toolgate.yml, but a source was also given on the command line`,
      undefined,
      'Use either toolgate.yml (with --config/--source) or one source on the command line.',
    );
  }
  if (adhoc[0]) {
    const [{ adHocPolicy }, { validateContractPaths }] = await Promise.all([import('../config/policy-resolve.js'), import('../config/policy.js')]);
    const p = adHocPolicy(adhoc[0], cwd);
    // The contract goes to .toolgate/<id>.surface.json: inside the working directory, links resolved.
    await validateContractPaths(p);
    return p;
  }
  const stray = flags.id !== undefined && flags.id !== 'cli' ? '--id' : flags.env !== undefined ? '--env' : undefined;
  if (stray)
    throw new ConfigError(
      `${stray} applies to a source given on the command line, and none was given`,
      undefined,
      'Put the server after -- (e.g. toolgate audit --env API_BASE -- node server.js), or set it in toolgate.yml.',
    );
  const file = flags.config ?? (existsSync(resolve(cwd, 'toolgate.yaml')) && !existsSync(resolve(cwd, 'toolgate.yml')) ? 'toolgate.yaml' : 'toolgate.yml');
  return loadPolicy(file);
}
