/**
 * Where a command's code lives, for a sandbox that shows a server only what it needs: the
 * command as `PATH` finds it, its real path (symbolic links resolved), the interpreter its `#!`
 * line names (through `env` and `PATH` too), and for each of these the install directory it
 * belongs to: the prefix of a `<prefix>/bin/<name>` executable (nvm's
 * `~/.nvm/versions/node/<v>`, the runner's `/opt/hostedtoolcache/<tool>/<ver>/<arch>`, a
 * virtualenv, pyenv's `versions/<v>`), or the npm package a script is in (a global install
 * under a custom npm prefix).
 *
 * What is never given whole, because it holds more than installs: `/`, a top-level directory
 * (`/opt`, `/home`), a home directory or anything above one, and a home's own dot directories
 * (`~/.local`, `~/.cargo`, `~/.config`: credentials live beside the binaries there). For an
 * executable there only the file itself is shown; pyenv's root is the one dot directory
 * recognised whole (its shims run `libexec/pyenv`, which reads `versions/`).
 *
 * Pure but for reads of the file system; no process is run.
 * @module
 */
import { accessSync, closeSync, constants, existsSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { within } from '../../util/repository-root.js';

/** Inputs of {@link installDirs}. */
export interface InstallDirsInput {
  /** The command as configured: a name looked up on `path`, or a path (relative to `cwd`). */
  command: string;
  /** The server's `PATH` (the one it gets, i.e. toolgate's). */
  path: string | undefined;
  /** The server's working directory (absolute). */
  cwd: string;
  /** Home directories that must never be shown whole (toolgate's `HOME`, the user's passwd home). */
  homes: readonly string[];
  /** Whether a path is already visible in the sandbox (the system's directories, the repository). */
  visible: (path: string) => boolean;
}

/** `#!` lines followed at most (Linux itself follows four). */
const MAX_INTERPRETERS = 4;

/** What {@link installDirs} shows: directories and files to mount read-only, and links to make. */
export interface InstallView {
  /** Directories (or single files) to mount read-only, none inside another. */
  paths: string[];
  /**
   * Symbolic links to make as they are on the host (`path` → `target`, as `readlink` gives it):
   * a lone link (`~/.local/bin/server` → `../share/…`) must stay a link, since a runtime resolves
   * its script's imports from where the link leads (a mounted link would be a plain file there).
   */
  links: { path: string; target: string }[];
}

/** Links followed at most from one path found on `PATH` (the kernel's limit is 40). */
const MAX_LINKS = 8;

/**
 * What to show so that `command` can run: for the command and each interpreter in its `#!`
 * chain, each hop from the path `PATH` finds to its real path: the install directory it belongs
 * to ({@link installDirOf}), or, for a lone link, the link itself; nothing already visible.
 * A command that is not found yields nothing (its start fails as it would without the sandbox).
 */
export function installDirs(input: InstallDirsInput): InstallView {
  const paths: string[] = [];
  const links: InstallView['links'] = [];
  let name = input.command;
  for (let hop = 0; hop < MAX_INTERPRETERS; hop++) {
    const found = findOnPath(name, input.path, input.cwd);
    if (!found) break;
    let cur = found;
    for (let n = 0; n <= MAX_LINKS; n++) {
      const target = linkTarget(cur);
      if (!input.visible(cur)) {
        const dir = installDirOf(cur, input.homes);
        if (dir === cur && target !== undefined) links.push({ path: cur, target });
        else if (!input.visible(dir)) paths.push(dir);
      }
      if (target === undefined) break;
      cur = resolve(dirname(cur), target);
    }
    const next = interpreterOf(cur);
    if (!next) break;
    name = next;
  }
  return { paths: outermost(paths), links };
}

/** Where the symbolic link `path` points (as written), or undefined when it is no link. */
function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The install directory `file` belongs to: the prefix of `<prefix>/bin/<file>`, pyenv's root for
 * its shims, else the nearest npm package (a directory with `package.json`) holding it; each
 * only where it may be shown whole ({@link mayShowWhole}). Else `file` itself.
 */
export function installDirOf(file: string, homes: readonly string[]): string {
  const dir = dirname(file);
  if (basename(dir) === 'bin' && mayShowWhole(dirname(dir), homes)) return dirname(dir);
  if (basename(dir) === 'shims' && existsSync(join(dirname(dir), 'libexec', 'pyenv')) && !isOrContainsHome(dirname(dir), homes)) return dirname(dir);
  for (let cur = dir; mayShowWhole(cur, homes); cur = dirname(cur)) {
    if (existsSync(join(cur, 'package.json'))) return cur;
  }
  return file;
}

/**
 * Whether directory `dir` may be shown whole: not `/`, not a top-level directory, not a home
 * directory or one above it, not a directory directly in a home (`~/.local`, `~/.cargo`, `~/go`).
 */
export function mayShowWhole(dir: string, homes: readonly string[]): boolean {
  if (dir.split(sep).filter(Boolean).length < 2) return false;
  return !isOrContainsHome(dir, homes) && !homes.some((h) => dirname(dir) === h);
}

function isOrContainsHome(dir: string, homes: readonly string[]): boolean {
  return homes.some((h) => within(h, dir));
}

/**
 * Where `execvp` finds `name` on `path` from `cwd` (a name with a `/` is a path), or undefined:
 * an executable regular file, as the kernel runs. A `#!` line names its interpreter, and the pull
 * request writes it: one that names a directory or a file that cannot run (`#!/home/u/.ssh`) is
 * not followed, so it shows nothing.
 */
function findOnPath(name: string, path: string | undefined, cwd: string): string | undefined {
  const candidates = name.includes('/')
    ? [name.startsWith('/') ? name : join(cwd, name)]
    : (path ?? '')
        .split(':')
        .filter((d) => d.startsWith('/'))
        .map((d) => join(d, name));
  return candidates.find(isExecutableFile);
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The program a script's `#!` line runs: the interpreter's path, or for `/usr/bin/env [-S] …` the
 * first word that is neither an option nor a `NAME=value` (looked up on `PATH` next). Undefined
 * for a file that is not a script or cannot be read.
 */
export function interpreterOf(file: string): string | undefined {
  const line = firstLine(file);
  if (!line?.startsWith('#!')) return undefined;
  const [interpreter, ...rest] = line
    .slice(2)
    .trim()
    .split(/[ \t]+/);
  if (!interpreter) return undefined;
  if (basename(interpreter) !== 'env') return interpreter;
  const words = rest.flatMap((w) => (w.startsWith('-S') ? [w.slice(2)] : [w])).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-u' || w === '--unset' || w === '-C' || w === '--chdir') i++;
    else if (!w.startsWith('-') && !w.includes('=')) return w;
  }
  return interpreter;
}

/** The first line of `file` (up to 256 bytes), or undefined when it cannot be read. */
function firstLine(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('latin1').split('\n')[0];
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** `paths` without duplicates and without any that lies inside another. */
export function outermost(paths: readonly string[]): string[] {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length);
  const out: string[] = [];
  for (const p of sorted) if (!out.some((o) => within(p, o))) out.push(p);
  return out;
}

/**
 * What a command typed on toolgate's own command line (`toolgate audit -- node ../srv/index.js`)
 * needs to read outside the working directory: for each argument that names an existing file or
 * directory, the `node_modules` directory it is in (its dependencies sit beside it there), else
 * its install directory ({@link installDirOf}), or a directory itself when it may be shown
 * whole. Only for what the user typed: a policy file's arguments come from the pull request and
 * open nothing (its source names `readable:` paths, which the base policy judges).
 */
export function commandLineReadable(args: readonly string[], cwd: string, homes: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    if (!arg || arg.startsWith('-')) continue;
    let real: string;
    try {
      real = realpathSync(arg.startsWith('/') ? arg : join(cwd, arg));
    } catch {
      continue;
    }
    if (within(real, cwd)) continue;
    const modules = real.split(sep).indexOf('node_modules');
    if (modules > 0) {
      const dir = real
        .split(sep)
        .slice(0, modules + 1)
        .join(sep);
      if (mayShowWhole(dir, homes)) out.push(dir);
    } else if (isDirectory(real)) {
      if (mayShowWhole(real, homes)) out.push(real);
    } else out.push(installDirOf(real, homes));
  }
  return outermost(out);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Home directories the sandbox never shows whole: toolgate's `HOME` and the user's home in the
 * password database (they differ under `sudo -E`, or where a job sets `HOME`), links resolved.
 */
export function homeDirectories(env: NodeJS.ProcessEnv): string[] {
  const out = new Set<string>();
  let passwd: string | undefined;
  try {
    passwd = userInfo().homedir;
  } catch {
    // no entry for this uid (a container's arbitrary user)
  }
  for (const h of [env.HOME, passwd]) {
    if (!h || !isAbsolute(h)) continue;
    out.add(h);
    try {
      out.add(realpathSync(h));
    } catch {
      // does not exist: nothing under it to show
    }
  }
  return [...out].filter((h) => h !== '/');
}
