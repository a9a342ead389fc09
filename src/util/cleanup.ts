/**
 * What must not outlive toolgate when it is interrupted (SIGINT/SIGTERM: a cancelled GitHub job
 * gets SIGINT, then SIGTERM): server process groups, scratch HOME directories, temp files of an
 * atomic write. Each owner registers a synchronous undo while the resource exists and
 * unregisters it when it has cleaned up normally.
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

let installed = false;

/**
 * On SIGINT/SIGTERM: undo what is registered, say so on stderr, and exit 130/143 (128 + signal),
 * the codes shells and CI runners expect.
 */
export function installInterruptHandlers(): void {
  if (installed) return;
  installed = true;
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      runInterruptCleanups();
      process.stderr.write(`toolgate: interrupted by ${signal}; servers stopped, temporary files removed, contracts left as they were\n`);
      process.exit(code);
    });
  }
}
