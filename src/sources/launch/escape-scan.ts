/**
 * The run marker: an environment variable every process of one server run inherits, so that a
 * process that left the server's process group (a new session, a double fork) is still found in
 * /proc and killed when the server ends (`server-escaped`). In the sandbox its PID namespace ends
 * them all; elsewhere this scan is what finds them. A process that replaced its environment is
 * not found.
 * @module
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';

/** Name of the environment variable that marks every process of one server run. */
export const MARKER_NAME = 'TOOLGATE_SERVER_RUN';

/** A fresh marker value for one server run: 96 random bits, in hex. */
export function newMarker(): string {
  return randomHex(12);
}

/**
 * `bytes` bytes from the system's CSPRNG, in hex. On Linux read from /dev/urandom (~0.4 ms): the
 * marker is made on the way to the first server, and loading node:crypto there costs 4-7 ms.
 * Elsewhere, or without /dev/urandom, Web Crypto's getRandomValues.
 */
function randomHex(bytes: number): string {
  const buf = Buffer.alloc(bytes);
  let filled = 0;
  if (process.platform === 'linux') {
    try {
      const fd = openSync('/dev/urandom', 'r');
      try {
        while (filled < bytes) {
          const n = readSync(fd, buf, filled, bytes - filled, null);
          if (n <= 0) break;
          filled += n;
        }
      } finally {
        closeSync(fd);
      }
    } catch {
      filled = 0;
    }
  }
  if (filled < bytes) globalThis.crypto.getRandomValues(buf);
  return buf.toString('hex');
}

/** A live process that carries a marker: its pid and command line, for `server-escaped`. */
export interface MarkedProcess {
  pid: number;
  command: string;
}

/**
 * Live processes (not zombies) whose environment holds `MARKER_NAME=marker`, from Linux
 * `/proc` (none elsewhere). A process that replaced its environment (exec with a new one) is not
 * found: the sandbox, not this scan, is what holds.
 */
export function findMarked(marker: string): MarkedProcess[] {
  if (process.platform !== 'linux') return [];
  const wanted = `${MARKER_NAME}=${marker}`;
  const out: MarkedProcess[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (!env.includes(wanted) || !env.split('\0').includes(wanted)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      out.push({ pid: Number(entry), command });
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** SIGKILLs each process; returns those it found alive. */
export function killMarked(found: readonly MarkedProcess[]): MarkedProcess[] {
  return found.filter((p) => {
    try {
      process.kill(p.pid, 'SIGKILL');
      return true;
    } catch {
      return false;
    }
  });
}

/** Most kill-and-rescan rounds for marked processes (5 ms apart). */
const ESCAPE_ROUNDS = 50;

/** How long processes that carry a run's marker may take to die after their group (ms). */
const ESCAPE_SETTLE_MS = 300;

/**
 * After a server's process group has ended: what still carries `marker` left the group (a new
 * session, a double fork). Processes of a sandbox's PID namespace die with it, a moment after its
 * first process, so they get {@link ESCAPE_SETTLE_MS} before anything is called an escape. Then
 * kill and look again until nothing marked is left: a chain that hops to a new process before
 * each scan would otherwise outrun a single pass. A process killed in one round can still be
 * found in the next (SIGKILL takes effect when the kernel next schedules it, later on a loaded
 * machine): each is returned once, by pid.
 * @param find, kill the scan and the kill (tests give their own).
 * @returns the processes killed, each once (`server-escaped`).
 */
export async function sweepMarked(marker: string, find = findMarked, kill = killMarked): Promise<MarkedProcess[]> {
  const pause = () => new Promise((r) => setTimeout(r, 5));
  let marked = find(marker);
  for (let waited = 0; marked.length > 0 && waited < ESCAPE_SETTLE_MS; waited += 5) {
    await pause();
    marked = find(marker);
  }
  const killed = new Map<number, MarkedProcess>();
  for (let round = 0; marked.length > 0 && round < ESCAPE_ROUNDS; round++) {
    for (const p of kill(marked)) if (!killed.has(p.pid)) killed.set(p.pid, p);
    await pause();
    marked = find(marker);
  }
  return [...killed.values()];
}
