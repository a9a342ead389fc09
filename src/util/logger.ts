/** Where progress and diagnostics go: the Action's log or the terminal's stderr. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
}

/** Writes to stderr (stdout is kept for reports); debug only with `TOOLGATE_DEBUG=1`. */
export function stderrLogger(quiet = false): Logger {
  const write = (m: string) => process.stderr.write(m + '\n');
  return {
    info: (m) => {
      if (!quiet) write(m);
    },
    warn: (m) => write(`warning: ${m}`),
    debug: (m) => {
      if (process.env.TOOLGATE_DEBUG === '1') write(m);
    },
  };
}

/** Discards everything. @internal for tests */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, debug: () => {} };
