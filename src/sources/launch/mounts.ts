/**
 * The file system a sandboxed server sees, built from nothing (bubblewrap starts from an empty
 * root): what it needs to run and what its source names, and nothing else. The tool surface is
 * an output channel (it lands in the contract, the PR comment and the job summary), so anything
 * a server can read can leave; what is not mounted cannot be read, and a unix socket that is not
 * mounted cannot be reached (connecting to one needs no write).
 *
 * | path | how | why |
 * | --- | --- | --- |
 * | `/usr`, and `/bin` `/sbin` `/lib*` | read-only; links where usr is merged | programs and libraries |
 * | `/etc` | read-only; what is not world-readable hidden when toolgate runs as root | name service, TLS roots, time zone, linker cache: world-readable system settings |
 * | `/sys` | read-only; firmware tables, DMI serial numbers and the kernel's debug, tracing and security files hidden when toolgate runs as root | kernel and device facts that runtimes read (cgroup limits, CPUs); no user data |
 * | `/proc`, `/dev` | the sandbox's own | its own processes only; null, zero, random, tty |
 * | `/tmp`, `/dev/shm` | private, empty | scratch |
 * | the command's install directories | read-only | see install-dirs.ts |
 * | `readable:` paths | read-only | what the source asks for (judged by the base policy) |
 * | the repository | read-only, `.git` hidden | the server's code |
 * | `writable:` paths, the scratch `HOME` | writable | what the source asks for; npm and others write at start-up |
 * | the runner's files, `RUNNER_TEMP` | hidden wherever they lie in what is shown | they steer later steps |
 *
 * Not mounted: the rest of every home directory, `/root`, `/var` (`/var/tmp` holds sockets),
 * `/run` (the daemons' sockets; with `network: open` only the resolver's file), `/opt`, `/srv`,
 * `/mnt`, `/media`. The root itself is read-only.
 * @module
 */
import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import type { CommandSpec, Containment } from '../../config/source-config.js';
import { within } from '../../util/repository-root.js';
import { installDirs, outermost } from './install-dirs.js';

/** Where the command runs and what it may touch, for {@link sandboxedCommand}. */
export interface SandboxPlace {
  /** The repository (toolgate.yml's directory): `cwd` and `writable` paths must be inside it. */
  root: string;
  /** The scratch HOME (writable). */
  home: string;
  /** toolgate's environment: the runner's file paths to hide, and `HOME`. */
  env: NodeJS.ProcessEnv;
  /** The server's environment: its `PATH` finds the command. */
  childEnv: Readonly<Record<string, string>>;
  /** Home directories never shown whole: toolgate's `HOME` and the user's home in the password database. */
  homes: readonly string[];
  /** What only root may read, hidden (see {@link rootOnlyPaths}); none unless toolgate runs as root. */
  rootOnly?: readonly string[];
  /** A file descriptor of the started process where bwrap reports the namespaces it made (`--info-fd`). */
  infoFd?: number;
}

/** Why a command was not started in the sandbox (a path outside the repository, a missing one). */
export class SandboxRefusal extends Error {
  override readonly name = 'SandboxRefusal';
}

/** Runner files a server must not read or write (GitHub Actions' file commands and event). */
const RUNNER_FILE_VARS = ['GITHUB_ENV', 'GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY', 'GITHUB_PATH', 'GITHUB_STATE', 'GITHUB_EVENT_PATH'] as const;

/** System directories shown read-only when they exist. */
const SYSTEM_DIRS = ['/usr', '/etc', '/sys'] as const;
/** Top-level names that merged-usr systems make links into /usr (bound as they are elsewhere). */
const USR_LINKS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const;

/**
 * The bubblewrap arguments that build the file system described in the module comment, ending
 * in `--chdir cwd --`: the caller puts the namespace options before them and the command after.
 * Every path the source names is resolved (symbolic links) before it is mounted, and checked:
 * `cwd` and `writable` inside the repository (bwrap resolves a link at a mount's destination
 * inside the new root, so `data -> ..` would otherwise mount the repository's parent writable);
 * `readable` not a home directory nor above one, not a socket. The hidden places are mounted
 * last, over anything shown.
 * @throws SandboxRefusal naming the path and the fix.
 */
export function mountArgs(spec: CommandSpec, containment: Containment, place: SandboxPlace): string[] {
  const root = realpathSync(place.root);
  const tree = repositoryTree(root, place.homes);
  const cwd = insideRepository(spec.cwd, root, 'the working directory (`cwd`)');
  const writable = containment.writable.map((w) => insideRepository(w, root, 'a `writable` path'));
  const readable = (containment.readable ?? []).map((r) => readablePath(r, place.homes));
  const visible = (p: string) => SYSTEM_DIRS.some((d) => within(p, d)) || within(p, tree);
  const installs = installDirs({ command: spec.command, path: place.childEnv.PATH, cwd, homes: place.homes, visible });
  const args = systemArgs();
  if (place.infoFd !== undefined) args.push('--info-fd', String(place.infoFd));
  if (containment.network === 'open') args.push(...resolverArgs());
  const shown = outermost([...installs.paths, ...readable]).filter((p) => !visible(p));
  for (const p of shown) args.push('--ro-bind', p, p);
  for (const l of installs.links) if (!shown.some((s) => within(l.path, s))) args.push('--symlink', l.target, l.path);
  args.push('--ro-bind', tree, tree);
  for (const p of [...writable, place.home]) args.push('--bind', p, p);
  args.push(...hiddenArgs([...shown, tree, ...writable], place));
  // Mount points are made in the root while mounting; once all are made it turns read-only.
  args.push('--remount-ro', '/', '--chdir', cwd, '--');
  return args;
}

/** The system's directories, the merged-usr links, the sandbox's own /proc and /dev, a private /tmp. */
export function systemArgs(): string[] {
  const args: string[] = [];
  for (const d of SYSTEM_DIRS) if (isDirectory(d)) args.push('--ro-bind', d, d);
  for (const d of USR_LINKS) {
    let st;
    try {
      st = lstatSync(d);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(d), d);
    else if (st.isDirectory()) args.push('--ro-bind', d, d);
  }
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--tmpfs', '/dev/shm');
  return args;
}

/**
 * With `network: open`, the resolver's configuration where `/etc/resolv.conf` leads into `/run`
 * (systemd-resolved's stub file on Ubuntu): that one file, never its directory, which holds
 * systemd-resolved's varlink sockets.
 */
function resolverArgs(): string[] {
  try {
    const real = realpathSync('/etc/resolv.conf');
    if (within(real, '/run') && statSync(real).isFile()) return ['--ro-bind', real, real];
  } catch {
    // no resolver configuration: nothing to show
  }
  return [];
}

/**
 * The runner's files and the repository's `.git`, wherever they lie inside what is shown
 * (`trees`), and what `/etc` must hide. A path inside a directory already hidden is hidden with
 * it: on GitHub's hosted runners GITHUB_OUTPUT and the other runner files are inside RUNNER_TEMP,
 * and bwrap cannot make their mount points in the read-only tmpfs that replaced it.
 */
function hiddenArgs(trees: readonly string[], place: SandboxPlace): string[] {
  const args: string[] = [];
  const hiddenDirs: string[] = [];
  const hide = (path: string | undefined) => {
    if (!path || !existsSync(path)) return;
    const real = realpathSync(path);
    if (hiddenDirs.some((d) => within(real, d)) || !trees.some((t) => within(real, t))) return;
    if (statSync(real).isDirectory()) {
      args.push('--tmpfs', real, '--remount-ro', real);
      hiddenDirs.push(real);
    } else args.push('--ro-bind', '/dev/null', real);
  };
  hide(place.env.RUNNER_TEMP);
  for (const name of RUNNER_FILE_VARS) hide(place.env[name]);
  for (const t of trees) hide(join(t, '.git'));
  for (const p of place.rootOnly ?? []) {
    if (hiddenDirs.some((d) => within(p, d))) continue;
    if (isDirectory(p)) {
      args.push('--tmpfs', p, '--remount-ro', p);
      hiddenDirs.push(p);
    } else args.push('--ro-bind', '/dev/null', p);
  }
  return args;
}

/**
 * The repository the server's code is in, shown whole: the nearest directory at or above `root`
 * that holds `.git` (a monorepo's hoisted `node_modules` sits there), below any home directory;
 * else `root`. Never a home directory or one above it: that would show every key in it.
 * @throws SandboxRefusal when `root` is such a directory.
 */
function repositoryTree(root: string, homes: readonly string[]): string {
  for (let cur = root; cur !== '/' && !homes.some((h) => within(h, cur)); cur = dirname(cur)) {
    if (existsSync(join(cur, '.git'))) return cur;
  }
  if (homes.some((h) => within(h, root)) || root === '/') {
    throw new SandboxRefusal(
      `the repository ${root} is ${homes.includes(root) ? 'a home directory' : 'or holds a home directory'}: the sandbox would show everything in it to the server; keep toolgate.yml in the project's own directory`,
    );
  }
  return root;
}

/** `path` with links resolved, when it exists and is `root` or inside it. @throws SandboxRefusal */
function insideRepository(path: string, root: string, what: string): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new SandboxRefusal(`${what} ${path} does not exist; create it in the repository or remove it from toolgate.yml`);
  }
  const rel = relative(root, real);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new SandboxRefusal(
      `${what} ${path} is outside the repository${real !== path ? ` (it leads to ${real})` : ''}; the sandbox only lets a server into the repository`,
    );
  }
  return real;
}

/**
 * A `readable` path with links resolved, when it exists, is no socket, and is neither a home
 * directory nor above one (nor `/`). @throws SandboxRefusal
 */
function readablePath(path: string, homes: readonly string[]): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new SandboxRefusal(`a \`readable\` path ${path} does not exist; create it or remove it from toolgate.yml`);
  }
  const leads = real !== path ? ` (it leads to ${real})` : '';
  if (real === '/' || homes.some((h) => within(h, real)))
    throw new SandboxRefusal(
      `a \`readable\` path ${path}${leads} is ${real === '/' ? 'the whole file system' : 'a home directory or holds one'}: the server could read every key and token in it; name the directory the server needs (e.g. ~/.cache/ms-playwright)`,
    );
  if (lstatSync(real).isSocket()) throw new SandboxRefusal(`a \`readable\` path ${path}${leads} is a unix socket: a server may not reach the host's daemons`);
  return real;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Subtrees of `/sys` that root may read and a server has no use for: firmware tables (ACPI, DMI,
 * EFI variables), the machine's serial numbers and UUID, and the kernel's debug, tracing and
 * security file systems. Walking all of `/sys` for modes as {@link unreadableInEtc} walks `/etc`
 * would cost hundreds of milliseconds (`/sys/kernel/slab` alone holds thousands of entries).
 */
const SYS_ROOT_ONLY = ['/sys/firmware', '/sys/devices/virtual/dmi', '/sys/kernel/debug', '/sys/kernel/tracing', '/sys/kernel/security'] as const;

/**
 * What a sandbox hides when toolgate runs as root, for whom file modes hide nothing (the sandbox
 * keeps the caller's uid): the entries of `/etc` that are not world-readable, and the subtrees of
 * `/sys` in {@link SYS_ROOT_ONLY} that exist. Absolute paths.
 */
export function rootOnlyPaths(): string[] {
  return [...unreadableInEtc(), ...SYS_ROOT_ONLY.filter(isDirectory)];
}

/** Most entries of `/etc` looked at by {@link unreadableInEtc}. */
const ETC_MAX_ENTRIES = 20_000;

/**
 * Entries of `/etc` that are not world-readable (`/etc/shadow`, `/etc/ssl/private`, a database's
 * `pg_hba.conf`): hidden from a server when toolgate runs as root, for whom file modes hide
 * nothing (the sandbox keeps the caller's uid). ~7 ms on a Debian /etc, so asked once per run.
 */
function unreadableInEtc(dir = '/etc'): string[] {
  const out: string[] = [];
  let seen = 0;
  const walk = (d: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (++seen > ETC_MAX_ENTRIES || e.isSymbolicLink()) continue;
      const p = join(d, e.name);
      let mode: number;
      try {
        mode = lstatSync(p).mode;
      } catch {
        continue;
      }
      if ((mode & 0o004) === 0) out.push(p);
      else if (e.isDirectory() && depth < 8) walk(p, depth + 1);
    }
  };
  walk(dir, 0);
  return out;
}
