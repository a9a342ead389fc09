import { main } from './cli.js';
import { mark } from './util/timing.js';

mark('modules loaded');

// exitCode, not exit(): lets stdout drain when it is a pipe.
main(process.argv).then((code) => {
  process.exitCode = code;
});
