/**
 * What must not outlive toolgate when it is interrupted (SIGINT/SIGTERM: a cancelled GitHub job
 * gets SIGINT, then SIGTERM): server process groups, scratch HOME directories, temp files of an
 * atomic write. Each owner registers a synchronous undo while the resource exists and
 * unregisters it when it has cleaned up normally.
 *
 * When the handlers run: Node delivers a signal to JavaScript only when the event loop polls for
 * I/O. While synchronous work runs (parsing a 50 MB page, normalizing or diffing 100,000 tools,
 * serializing a contract) the signal waits, and when the loop then has nothing left to do, the
 * process exits without polling and the signal is lost (exit 0 after a SIGTERM). So:
 * - long synchronous work yields to the loop at least every {@link SLICE_MS} ms
 *   (`if (due()) await yieldToSignals()`, see {@link timeSlicer}): a pending signal is handled
 *   there and the process exits at once;
 * - {@link installInterruptHandlers} makes the loop poll once more before a natural exit, so a
 *   signal that arrived during the last synchronous stretch is not lost.
 */
const pending = new Set<() => void>();

/** Registers `undo` (synchronous, must not throw); returns the function that unregisters it. */
export function onInterrupt(undo: () => void): () => void {
  pending.add(undo);
  return () => pending.delete(undo);
}

/** Runs every registered undo once (most recent first). */
export function runInterruptCleanups(): void {
  for (const undo of [...pending].reverse()) {
    pending.delete(undo);
    try {
      undo();
    } catch {
      // Best effort: keep undoing the rest.
    }
  }
}

/**
 * Longest synchronous stretch (ms) that code on a long path (a listing, normalizing, diffing or
 * writing thousands of tools) should run without yielding: a signal is then handled within about
 * this time, well inside the 1 s an interrupted run has to end (docs/design.md §13).
 */
export const SLICE_MS = 50;

/**
 * Lets the event loop poll once, so that a pending SIGINT/SIGTERM is handled (with the handlers
 * of {@link installInterruptHandlers}, which exit the process: when this resolves, no signal was
 * pending). Goes through the poll phase
 * (`setImmediate`), unlike `await Promise.resolve()`, which never lets a signal in.
 */
export function yieldToSignals(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A cheap clock for long loops: `due()` is true once `sliceMs` have passed since the last time
 * it returned true (or since creation). Use as `if (due()) await yieldToSignals();` per item.
 */
export function timeSlicer(sliceMs = SLICE_MS): () => boolean {
  let last = performance.now();
  return () => {
    const now = performance.now();
    if (now - last < sliceMs) return false;
    last = now;
    return true;
  };
}

const written: string[] = [];

/**
 * Records that `file` (as shown to the user) was replaced for good: its atomic write finished
 * (the rename is done). An interrupt after that cannot undo it, so the interrupt message names
 * such files instead of saying that every contract was left as it was.
 */
export function noteWritten(file: string): void {
  written.push(file);
}

/** The line printed on stderr when `signal` interrupts the run. */
export function interruptMessage(signal: NodeJS.Signals): string {
  const files =
    written.length === 0
      ? 'contracts left as they were'
      : `already written in full before the signal: ${written.join(', ')}; other contracts left as they were`;
  return `toolgate: interrupted by ${signal}; servers stopped, temporary files removed, ${files}\n`;
}

let installed = false;
let interruptedBy: NodeJS.Signals | undefined;

/**
 * On SIGINT/SIGTERM: undo what is registered, say so on stderr, and exit 130/143 (128 + signal),
 * the codes shells and CI runners expect. Also makes the loop poll once more before a natural
 * exit (see the module comment), so a signal that came during the last synchronous work still
 * ends the run with its code.
 */
export function installInterruptHandlers(): void {
  if (installed) return;
  installed = true;
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.on(signal, () => {
      // A second signal while the first is handled (the handler is synchronous, so only a
      // re-raise from an undo could) must not start the cleanup again.
      if (interruptedBy) return;
      interruptedBy = signal;
      runInterruptCleanups();
      process.stderr.write(interruptMessage(signal));
      process.exit(code);
    });
  }
  // 'beforeExit' comes when nothing keeps the loop alive; the loop exits without polling unless
  // something is scheduled. One immediate makes it poll (with timeout 0) and so read a signal
  // that arrived while the last callback ran. Once: a second 'beforeExit' lets the process end.
  let polled = false;
  process.on('beforeExit', () => {
    if (polled) return;
    polled = true;
    setImmediate(() => undefined);
  });
}

/** Whether process `pid` exists (this one included); EPERM means it does, owned by another user. */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
