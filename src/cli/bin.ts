import { mark } from '../util/timing.js';
import { installInterruptHandlers } from '../util/cleanup.js';
import { ConfigError } from '../util/errors.js';
import { earlyRun } from './early-args.js';
import { EXIT } from './types.js';

mark('modules loaded');
// A cancelled run (Ctrl-C, a cancelled job) must not leave servers or temp files behind.
installInterruptHandlers();

// A plain `audit`, `check` or `update` reads its policy and starts its first server before
// commander parses (docs/design.md §13); commander then parses as always, and what was started is used only
// for the run it reads (cli/prepare.ts). A command line read early is one commander accepts, so a
// configuration error found then is shown at once, as the program would show it.
void run();

/** The run after the handlers: the early start when the command line allows it, then the program. */
async function run(): Promise<void> {
  // (A working directory that was removed has no cwd: commander's path reports that.)
  const cwd = currentDirectory();
  const early = cwd === undefined ? undefined : earlyRun(process.argv.slice(2));
  const prepared = early ? await (await import('./prepare.js')).prepareEarly(early, cwd!) : undefined;
  const failed = prepared?.failed;
  // After the early start: the first use of process.stdout builds the stream (~7 ms), and nothing
  // before this point writes to either stream.
  endQuietlyOnClosedPipe();
  if (failed instanceof ConfigError) {
    // The exit code is set first: whatever happens while the early server ends, the run is a usage error.
    process.exitCode = EXIT.usage;
    await prepared!.launcher.discardEarly();
    (await import('./config-error-output.js')).writeConfigError(failed);
  } else {
    // The program (commander, every command) loads only now: after the early server started, and
    // not at all for a configuration error found early.
    const { main } = await import('./program.js');
    mark('program run');
    // exitCode, not exit(): lets stdout drain when it is a pipe.
    void main(process.argv).then(async (code) => {
      process.exitCode = code;
      // A server started early that no run took (commander refused the command line) is ended.
      await prepared?.launcher.discardEarly();
    });
  }
}

/**
 * A reader that stops early (`toolgate check | head`) closes the pipe: what is left of the report
 * is not wanted, which is no crash. The run still ends as it would have, with its own exit code:
 * under `set -o pipefail` (GitHub's bash steps) `toolgate check | head` must fail a failing gate,
 * so the run must not exit 0 here before it has its exit code.
 */
function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    let closed = false;
    stream.on('error', (e: NodeJS.ErrnoException) => {
      // After EPIPE every later write fails too (ERR_STREAM_DESTROYED): nothing more goes there.
      if (closed) return;
      if (e.code !== 'EPIPE') throw e;
      closed = true;
    });
  }
}

function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}
