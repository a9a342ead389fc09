import { configDefaults, defineConfig } from 'vitest/config';
import { FAST_FILES } from './vitest.fast.config.js';

export default defineConfig({
  test: {
    setupFiles: ['test/setup-fast-check.ts'],
    pool: 'forks',
    // Two cores: real servers are spawned in many tests; keep it bounded.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      // The files of `npm run test:fast` start no process and keep no module state: a worker loads
      // src/ once for all of them (vitest.fast.config.ts). The others set process.env for their
      // file (test/support/unsandboxed.ts) or mock modules: each runs in its own module graph.
      { extends: true, test: { name: 'units', include: FAST_FILES, isolate: false } },
      { extends: true, test: { name: 'processes', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...FAST_FILES] } },
    ],
  },
});
