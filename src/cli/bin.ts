import { mark } from '../util/timing.js';
import { installInterruptHandlers } from '../util/cleanup.js';

mark('modules loaded');
// A cancelled run (Ctrl-C, a cancelled job) must not leave servers or temp files behind.
installInterruptHandlers();
endQuietlyOnClosedPipe();
void run();

/**
 * The program (commander, every command) after the handlers. A source command reads its policy
 * and starts its first server before the pipeline loads (cli/prepare.ts).
 */
async function run(): Promise<void> {
  const { main } = await import('./program.js');
  mark('program run');
  // exitCode, not exit(): lets stdout drain when it is a pipe.
  process.exitCode = await main(process.argv);
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
