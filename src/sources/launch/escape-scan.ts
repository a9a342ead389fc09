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
 * marker is made on the way to the first server, and loading node:crypto there costs 4-7 ms
 * (issue 18). Elsewhere, or without /dev/urandom, Web Crypto's getRandomValues.
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
