import { runAction } from './main.js';
import { mark } from './util/timing.js';

mark('modules loaded');

// The Action's bundle entry (dist/index.js). Errors are reported by runAction itself.
void runAction();
