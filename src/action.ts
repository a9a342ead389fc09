import { runAction } from './main.js';

// The Action's bundle entry (dist/index.js). Errors are reported by runAction itself.
void runAction();
