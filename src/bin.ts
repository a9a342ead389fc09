import { main } from './cli.js';

// exitCode, not exit(): lets stdout drain when it is a pipe.
main(process.argv).then((code) => {
  process.exitCode = code;
});
