/**
 * Which sources a run takes, and what must hold before any of their servers starts: known ids,
 * `sandbox: required` met (the run's sandbox state probed for it). Also the early start of the
 * first server, which needs exactly these checks and nothing of the pipeline.
 * @module
 */
import type { Policy } from '../config/policy-model.js';
import { displayPath } from '../util/display-path.js';
import type { SourceConfig } from '../config/source-config.js';
import { assertNoRunnerSecrets } from '../config/policy-diff.js';
import { ConfigError } from '../util/errors.js';
import type { Launcher } from './launch/index.js';
import type { SandboxState } from './launch/state.js';

/** Picks sources by id. @throws ConfigError for an unknown id. */
export function selectSources(policy: Policy, ids?: string[]): SourceConfig[] {
  if (!ids || ids.length === 0) return policy.sources;
  return ids.map((id) => {
    const s = policy.sources.find((x) => x.id === id);
    if (!s) {
      throw new ConfigError(
        `unknown source id "${id}"`,
        policy.file ? { file: policy.file, line: policy.lineOf('/sources') } : undefined,
        `Use one of: ${policy.sources.map((x) => x.id).join(', ')}.`,
      );
    }
    return s;
  });
}

/** Whether toolgate starts a process for this source (a stdio server, an HTTP `start` command). */
export function startsCommand(s: SourceConfig): boolean {
  return s.kind === 'mcp' && (s.mcp.transport === 'stdio' || s.mcp.start !== undefined);
}

/**
 * `sandbox: required`: no server may run unsandboxed, so a machine without the sandbox is a
 * configuration error before anything starts.
 * @throws ConfigError (exit 2) at the `sandbox` key, naming why the sandbox is unavailable.
 */
export function assertSandboxAsRequired(policy: Policy, sources: readonly SourceConfig[], sandbox: SandboxState): void {
  if (policy.sandbox !== 'required') return;
  const support = sandbox.support();
  if (!sources.some(startsCommand) || support.available) return;
  throw new ConfigError(
    `\`sandbox: required\`, but servers cannot be sandboxed here: ${support.reason}`,
    policy.file ? { file: displayPath(policy.root, policy.file), line: policy.lineOf('/sandbox'), pointer: '/sandbox' } : undefined,
    'Run toolgate on Linux with bubblewrap installed (`sudo apt-get install bubblewrap`) and user namespaces allowed, or set `sandbox: auto` to run unsandboxed with a notice.',
  );
}

/**
 * The selected sources (all when `ids` is absent or empty), once `sandbox: required` holds: what
 * {@link runCheck} needs before the first server starts.
 * @throws ConfigError for an unknown id, or `sandbox: required` on a machine without the sandbox.
 */
export async function readySources(policy: Policy, ids: string[] | undefined, sandbox: SandboxState): Promise<SourceConfig[]> {
  const sources = selectSources(policy, ids);
  // `required` refuses before any server starts, so it asks the probe first (~40 ms). Under `auto`
  // a server starts in bwrap untried, and only a start that fails asks (launch/index.ts).
  if (policy.sandbox === 'required' && sources.some(startsCommand)) await sandbox.supportAsync();
  assertSandboxAsRequired(policy, sources, sandbox);
  return sources;
}

/**
 * Starts the first selected source's server now when it is a stdio server, as `launcher`'s early
 * start for the snapshot to take, after the checks of {@link readySources}. For a policy that is
 * the one the run judges with: never while a base branch's policy decides how servers are contained.
 * @throws ConfigError as {@link readySources}, or when a policy file passes a runner secret to a server.
 */
export async function startFirstServer(policy: Policy, ids: string[] | undefined, root: string, launcher: Launcher): Promise<void> {
  // A policy given as flags (no toolgate.yml) names what its user typed; a file must not hand the runner's secrets on.
  if (policy.file) assertNoRunnerSecrets(policy, policy.allowRunnerEnv);
  const first = (await readySources(policy, ids, launcher.sandbox))[0];
  if (first?.kind === 'mcp' && first.mcp.transport === 'stdio') await launcher.startEarly(first.mcp, root);
}
