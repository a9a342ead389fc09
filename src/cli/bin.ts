import { main } from './program.js';
import { mark } from '../util/timing.js';
import { installInterruptHandlers, runInterruptCleanups } from '../util/cleanup.js';

mark('modules loaded');
// A cancelled run (Ctrl-C, a cancelled job) must not leave servers or temp files behind.
installInterruptHandlers();

// A reader that stops early (`toolgate check | head`) closes the pipe: the report is not wanted
// any more, which is no crash. Running servers and temp files are cleaned up as on an interrupt.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    runInterruptCleanups();
    process.exit(process.exitCode ?? 0);
  });
}

// exitCode, not exit(): lets stdout drain when it is a pipe.
void main(process.argv).then((code) => {
  process.exitCode = code;
});
