import { runAction } from './main.js';
import { mark } from '../util/timing.js';
import { installInterruptHandlers } from '../util/cleanup.js';

mark('modules loaded');
// A cancelled run (Ctrl-C, a cancelled job) must not leave servers or temp files behind.
installInterruptHandlers();

// The Action's bundle entry (dist/index.js). Errors are reported by runAction itself.
void runAction();
