/**
 * Test files that change the process they run in: they write process.env themselves, mock modules
 * (vi.mock) or install process handlers. Each runs in a worker of its own; test/suite-projects.test.ts
 * fails on such a file missing here. A file that stubs process.env with `vi.stubEnv` and takes it
 * back with `vi.unstubAllEnvs()`, restores its spies with `vi.restoreAllMocks()`, or runs its
 * servers unsandboxed through `withoutSandboxForThisFile` (test/support/sandbox-mode.ts) shares a
 * worker.
 */
export const ISOLATED_FILES = [
  'test/contract/store-atomic.test.ts',
  'test/contract/store-paths.test.ts',
  'test/hostile/repo-paths.test.ts',
  'test/runtime/decision-log.test.ts',
  'test/sources/sandbox-untried.test.ts',
];
