/**
 * Paths and files that a repository controls, handled so that the repository cannot turn them
 * against the run (docs/design.md §2):
 *
 * - {@link resolveInside}: where a write really lands. `..` and symbolic links (of every existing
 *   ancestor) are resolved; the real target must be inside the repository (or another allowed
 *   directory, e.g. `RUNNER_TEMP` for reports), must not be another input of the run (the policy, a
 *   contract, an integration config, a recording), and must not be a symbolic link, a directory,
 *   a named pipe, a device or a socket.
 * - {@link assertRegularFile} and {@link readBounded}: reads that never open a special file (a
 *   FIFO would block the run forever, a device could be endless) and never read a file over a
 *   documented size ({@link FILE_LIMITS}) into memory.
 *
 * Every refusal is a {@link ConfigError} (exit 2) naming the file, with a fix.
 */
import { constants as fsConstants, type Stats } from 'node:fs';
import { lstat, open, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ConfigError } from './errors.js';

const MiB = 1024 * 1024;

/**
 * Largest file toolgate reads, by kind, in bytes; a larger file is refused before it is read
 * (docs/security.md). The policy and an integration config are written by people (a large
 * `toolgate.yml` is a few KB; an integration config listing all 1,223 GitHub REST operations is
 * about 40 KB). A contract is written by `toolgate update`: the whole GitHub REST API (1,223
 * operations) pins to 3.2 MB and 5,000 generated MCP tools to about 30 MB; a listing at the
 * default `max-bytes` (32 MiB) gives at most about 64 MB. A recorded `tools/list` file is a
 * listing, and `max-bytes` allows at most 256 MiB of those.
 */
export const FILE_LIMITS = {
  policy: 1 * MiB,
  integrationConfig: 1 * MiB,
  contract: 128 * MiB,
  recorded: 256 * MiB,
} as const;

/** Fix for a contract path that leads out of the repository (loadPolicy, writeContract). */
export const CONTRACT_OUTSIDE_FIX =
  'Point `contract` in toolgate.yml at a path inside the directory of toolgate.yml (default: .toolgate/<source-id>.surface.json), not through a symbolic link that leads out of it.';

/** `1 MiB`, `128 MiB`, `1.1 GiB`, `512 bytes`: sizes as the limits are written. */
export function formatBytes(n: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  if (n < 1024) return `${n} bytes`;
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  const shown = Number.isInteger(v) ? String(v) : v.toFixed(1);
  return `${shown} ${units[u]}`;
}

/** What a non-regular file is, in words. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

const FIX_SPECIAL = 'Point it at a regular file: toolgate does not read or write named pipes, devices or sockets.';
const FIX_DIRECTORY = 'Point it at a file, not at a directory.';

/** True when `child` is `parent` or below it (both absolute, normalized). */
function within(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

const missing = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/** Options of {@link resolveInside}. */
export interface InsideOptions {
  /** What the path is, as a noun phrase for `cannot write <what>: ...`: "the contract", "the report (report-path)". */
  what: string;
  /** Start of error messages, before `: <reason>` (default `cannot write <what>`). */
  lead?: string;
  /** Further directories the target may be in (e.g. `RUNNER_TEMP` for reports); empty or undefined entries are ignored. */
  allowedRoots?: readonly (string | undefined)[];
  /** Files the target must not be: the other inputs of the run (compared by real path, and by inode when both exist). */
  notOnto?: readonly { path: string; what: string }[];
  /** Shown as the file in errors (default: `path` as given). */
  display?: string;
  /** Fix for a target outside the allowed directories (default: keep it inside the repository). */
  fix?: string;
  /**
   * `'refuse'` (default): an existing target that is a symbolic link, a directory, a FIFO, a device
   * or a socket is refused. `'allow'`: only where it leads is checked (the type is checked when
   * the file is read or written).
   */
  special?: 'refuse' | 'allow';
}

/**
 * The real absolute path a write of `path` (relative to `root`, or absolute) lands on, for
 * writing: `..` resolved, every existing ancestor's symbolic links resolved (realpath).
 * Missing directories are allowed (the writer creates them) and cannot hold links.
 * @throws ConfigError (with `file` and a fix) when the real target is outside `root` and every
 *   `allowedRoots` entry (through `..`, an absolute path, or a symbolic link on the way), when it
 *   leads through a dangling symbolic link, when it is one of `notOnto`, or (unless
 *   `special: 'allow'`) when it exists and is a symbolic link or not a regular file.
 */
export async function resolveInside(root: string, path: string, opts: InsideOptions): Promise<string> {
  const display = opts.display ?? path;
  const fail = (reason: string, fix: string) => new ConfigError(`${opts.lead ?? `cannot write ${opts.what}`}: ${reason}`, { file: display }, fix);
  const abs = resolve(root, path);
  const roots = [resolve(root), ...(opts.allowedRoots ?? []).filter((r): r is string => Boolean(r)).map((r) => resolve(r))];
  const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => r)));
  // A link inside the repository is named relative to it, as the user sees it in the checkout.
  const shown = (p: string) => (roots[0] !== undefined && within(roots[0], p) && p !== roots[0] ? relative(roots[0], p) : p);

  // The deepest ancestor that exists (lstat: a link counts as existing even when it dangles).
  let existing = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      await lstat(existing);
      break;
    } catch (e) {
      if (!missing(e) || dirname(existing) === existing) throw e;
      rest.unshift(basename(existing));
      existing = dirname(existing);
    }
  }
  let realExisting: string;
  try {
    realExisting = await realpath(existing);
  } catch (e) {
    if (!missing(e)) throw e;
    const link = await danglingLink(existing);
    throw fail(
      `${shown(link.path)} is a symbolic link to ${link.target}, which does not exist`,
      'Remove the dangling link or create what it points to inside the repository.',
    );
  }
  const real = join(realExisting, ...rest);
  const outsideFix = opts.fix ?? `Give ${opts.what} a path inside the repository that does not lead through a symbolic link out of it.`;
  const allowed = roots.length > 1 ? `${realRoots[0]} or ${realRoots.slice(1).join(', ')}` : realRoots[0];
  if (!realRoots.some((r) => within(r, real))) {
    const lexical = roots.find((r) => within(r, abs));
    if (lexical !== undefined) {
      const link = await firstLinkLeavingRoots(lexical, abs, realRoots);
      throw fail(`it is outside ${allowed}: ${link ? `${shown(link.path)} is a symbolic link to ${link.target}` : `it resolves to ${real}`}`, outsideFix);
    }
    throw fail(`it is outside ${allowed}`, outsideFix);
  }

  if (rest.length === 0 && opts.special !== 'allow') await assertReplaceable(abs, opts.what, display, opts.lead);

  for (const other of opts.notOnto ?? []) {
    if (await sameFile(real, other.path)) {
      throw fail(`it is ${other.what} (${other.path}), an input of this run: writing it would overwrite that file`, `Give ${opts.what} a path of its own.`);
    }
  }
  return real;
}

/**
 * Refuses a write target that exists and is not a regular file: a symbolic link (replacing it
 * would not write where it points, and writing through it could leave the repository), a
 * directory, a named pipe, a device or a socket. An absent target passes (and so does one that
 * cannot be inspected: the write itself reports that).
 * @param what noun phrase for `cannot write <what>: ...`.
 * @param display shown as the file (default: `file`).
 * @param lead start of the message, before `: <reason>` (default `cannot write <what>`).
 * @throws ConfigError naming the file, with a fix.
 */
export async function assertReplaceable(file: string, what: string, display = file, lead = `cannot write ${what}`): Promise<void> {
  let st: Stats;
  try {
    st = await lstat(file);
  } catch {
    return;
  }
  if (st.isFile()) return;
  if (st.isSymbolicLink()) {
    const target = await readlink(file).catch(() => '?');
    throw new ConfigError(
      `${lead}: it is a symbolic link (to ${target}); toolgate does not write through links`,
      { file: display },
      `Replace the link with the file itself, or point ${what} at the real path.`,
    );
  }
  throw new ConfigError(`${lead}: it is ${kindOf(st)}`, { file: display }, st.isDirectory() ? FIX_DIRECTORY : FIX_SPECIAL);
}

/** Whether two paths name one file: same real path, or (both existing) same device and inode. */
async function sameFile(realA: string, b: string): Promise<boolean> {
  const realB = await realpath(b).catch(() => resolve(b));
  if (realA === realB) return true;
  const [sa, sb] = await Promise.all([stat(realA).catch(() => undefined), stat(realB).catch(() => undefined)]);
  return sa !== undefined && sb !== undefined && sa.dev === sb.dev && sa.ino === sb.ino;
}

/** The dangling link among `p` and its ancestors (the first whose target does not resolve). */
async function danglingLink(p: string): Promise<{ path: string; target: string }> {
  const parts = p.split(sep);
  for (let i = 1; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join(sep) || sep;
    const st = await lstat(prefix).catch(() => undefined);
    if (
      st?.isSymbolicLink() &&
      !(await realpath(prefix).then(
        () => true,
        () => false,
      ))
    ) {
      return { path: prefix, target: await readlink(prefix).catch(() => '?') };
    }
  }
  return { path: p, target: '?' };
}

/**
 * The first symbolic link below `root` on the way to `abs` whose target leaves every allowed
 * directory, for the message (links above the root, e.g. macOS's /tmp, are not the culprit).
 */
async function firstLinkLeavingRoots(root: string, abs: string, realRoots: readonly string[]): Promise<{ path: string; target: string } | undefined> {
  let prefix = root;
  for (const part of relative(root, abs).split(sep)) {
    prefix = join(prefix, part);
    const st = await lstat(prefix).catch(() => undefined);
    if (!st) return undefined;
    if (!st.isSymbolicLink()) continue;
    const real = await realpath(prefix).catch(() => undefined);
    if (real !== undefined && !realRoots.some((r) => within(r, real))) return { path: prefix, target: await readlink(prefix).catch(() => real) };
  }
  return undefined;
}

/** Options of {@link assertRegularFile} and {@link readBounded}. */
export interface ReadOptions {
  /** Shown as the file in errors (default: the path as given). */
  display?: string;
  /** Fixes replacing the defaults, by problem. */
  fix?: { directory?: string; special?: string; size?: string };
}

/**
 * Checks, without opening it, that `path` (symbolic links followed) is a regular file: a FIFO
 * would block the run, a device could be endless, a directory cannot be read.
 * @param what noun phrase for `cannot read <what>: ...` ("the contract", "the policy file").
 * @returns its stats.
 * @throws ConfigError for a directory, FIFO, device or socket; the fs error as is otherwise
 *   (`ENOENT`, `EACCES`: callers say what a missing file means).
 */
export async function assertRegularFile(path: string, what: string, opts: ReadOptions = {}): Promise<Stats> {
  const st = await stat(path);
  if (!st.isFile()) {
    throw new ConfigError(
      `cannot read ${what}: it is ${kindOf(st)}`,
      { file: opts.display ?? path },
      st.isDirectory() ? (opts.fix?.directory ?? FIX_DIRECTORY) : (opts.fix?.special ?? FIX_SPECIAL),
    );
  }
  return st;
}

/**
 * Reads a regular file of at most `maxBytes`: its size is checked before it is read (a 1 GB file
 * is refused at once, not after filling memory), it is never opened when it is a special file
 * (and opened non-blocking, so a FIFO swapped in after the check cannot block), and a file that
 * grows past the limit while it is read is refused too.
 * @param what noun phrase for messages ("the contract", "the policy file").
 * @throws ConfigError naming the file and the limit for a file over `maxBytes`, and as
 *   {@link assertRegularFile} does; the fs error as is otherwise (`ENOENT`, `EACCES`).
 */
export async function readBounded(path: string, maxBytes: number, what: string, opts: ReadOptions = {}): Promise<Buffer> {
  const file = opts.display ?? path;
  const tooBig = (size: number, atLeast = false) =>
    new ConfigError(
      `cannot read ${what}: it is ${atLeast ? 'over ' : ''}${formatBytes(size)}${atLeast ? '' : ` (${size} bytes)`}, over the limit of ${formatBytes(maxBytes)}`,
      { file },
      opts.fix?.size ?? `toolgate reads files of this kind up to ${formatBytes(maxBytes)} (docs/security.md): point it at the right file, or make it smaller.`,
    );
  const before = await assertRegularFile(path, what, opts);
  if (before.size > maxBytes) throw tooBig(before.size);
  const fh = await open(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  try {
    // The file opened may not be the one checked (replaced in between): check what is open.
    const st = await fh.stat();
    if (!st.isFile())
      throw new ConfigError(
        `cannot read ${what}: it is ${kindOf(st)}`,
        { file },
        st.isDirectory() ? (opts.fix?.directory ?? FIX_DIRECTORY) : (opts.fix?.special ?? FIX_SPECIAL),
      );
    if (st.size > maxBytes) throw tooBig(st.size);
    const chunks: Buffer[] = [];
    let total = 0;
    let buf = Buffer.allocUnsafe(Math.min(st.size, maxBytes) + 1);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw tooBig(total, true);
      if (bytesRead === buf.length) buf = Buffer.allocUnsafe(Math.min(maxBytes + 1 - total, 1024 * 1024) || 1);
      else buf = buf.subarray(bytesRead);
    }
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
  } finally {
    await fh.close();
  }
}
