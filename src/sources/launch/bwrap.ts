/**
 * The bubblewrap command line: the namespaces a server runs in and the file system of mounts.ts.
 *
 * The command runs in new user, PID, network, IPC, UTS and cgroup namespaces, so
 * - every process it starts dies with it: the PID namespace ends when its first process does,
 *   whatever sessions or groups its processes made (`setsid`, double forks), and bwrap's
 *   `--die-with-parent` ends it when toolgate dies, SIGKILL included;
 * - it sees only its own processes (`/proc` of the namespace): not toolgate's environment;
 * - it has no network but its own loopback (unless its role or source opens the host's);
 * - it sees a file system built from nothing (mounts.ts).
 * Why bubblewrap: it is small, maintained, packaged everywhere, works unprivileged where user
 * namespaces are allowed, and costs a few ms per start; util-linux `unshare` would make us write
 * the mount setup ourselves.
 * @module
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandSpec, Containment } from '../../config/source-config.js';
import { mountArgs, systemArgs, type SandboxPlace } from './mounts.js';

/**
 * bwrap from the system's own directories only: never from PATH, where a dependency's
 * `node_modules/.bin` (under `npx`) could put a `bwrap` that sandboxes nothing.
 */
export function findSystemBinary(name: string): string | undefined {
  for (const dir of ['/usr/bin', '/bin']) {
    const p = join(dir, name);
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

function namespaceArgs(network: Containment['network']): string[] {
  // --unshare-all: user (where allowed), ipc, pid, net, uts, cgroup. --die-with-parent: the whole
  // namespace goes when toolgate does. --new-session: no terminal to push input into.
  return ['--unshare-all', ...(network === 'open' ? ['--share-net'] : []), '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
}

/**
 * `spec` wrapped in bubblewrap: the namespaces of the module comment and the file system of
 * mounts.ts.
 * @throws SandboxRefusal naming the path, when one the source names is refused (see `mountArgs`).
 */
export function sandboxedCommand(bwrap: string, spec: CommandSpec, containment: Containment, place: SandboxPlace): CommandSpec {
  return { ...spec, command: bwrap, args: [...namespaceArgs(containment.network), ...mountArgs(spec, containment, place), spec.command, ...spec.args] };
}

/** What the probe runs: `true`, with the namespaces and system directories a server gets. */
export const probeArgs = (): string[] => [...namespaceArgs('loopback'), ...systemArgs(), '--', 'true'];
