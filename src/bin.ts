import { main } from './cli.js';
import { mark } from './util/timing.js';
import { installInterruptHandlers } from './util/cleanup.js';

mark('modules loaded');
// A cancelled run (Ctrl-C, a cancelled job) must not leave servers or temp files behind.
installInterruptHandlers();

// exitCode, not exit(): lets stdout drain when it is a pipe.
void main(process.argv).then((code) => {
  process.exitCode = code;
});
