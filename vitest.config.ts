import { configDefaults, defineConfig } from 'vitest/config';
import { FAST_FILES } from './vitest.fast.config.js';
import { ISOLATED_FILES } from './test/support/isolated-files.js';
import { SlowFirst } from './test/support/slow-first.js';

export default defineConfig({
  test: {
    setupFiles: ['test/setup-fast-check.ts'],
    pool: 'forks',
    // Two cores: real servers are spawned in many tests; keep it bounded.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    sequence: { sequencer: SlowFirst },
    // A worker that is not isolated loads src/ and vitest once for all the files it runs instead of
    // once per file (about half a second of CPU each). Only files that leave the process as they
    // found it share one.
    projects: [
      // The files of `npm run test:fast`: no process started, no module state kept (vitest.fast.config.ts).
      { extends: true, test: { name: 'units', include: FAST_FILES, isolate: false } },
      // Files that start processes (servers, git, the built CLI and Action) from an unchanged process.
      {
        extends: true,
        test: { name: 'processes', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...FAST_FILES, ...ISOLATED_FILES], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED_FILES } },
    ],
  },
});
