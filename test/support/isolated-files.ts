/**
 * Test files that change the process they run in: they write process.env themselves, mock modules
 * (vi.mock) or install process handlers. Each runs in a worker of its own; test/suite-projects.test.ts
 * fails on such a file missing here. A file that runs its servers unsandboxed through
 * `withoutSandboxForThisFile` (test/support/sandbox-mode.ts) takes the setting back after its last
 * test and shares a worker.
 */
export const ISOLATED_FILES = [
  'test/contract/store-atomic.test.ts',
  'test/contract/store-paths.test.ts',
  'test/hostile/env.test.ts',
  'test/hostile/repo-paths.test.ts',
  'test/hostile/sandbox-npx.test.ts',
  'test/hostile/sandbox-reads.test.ts',
  'test/hostile/sandbox.test.ts',
  'test/rules/auth-metadata-unavailable.test.ts',
  'test/runtime/decision-log.test.ts',
  'test/sources/mcp-env.test.ts',
  'test/sources/mcp-http.test.ts',
  'test/sources/mcp-published.test.ts',
  'test/sources/openapi-units.test.ts',
  'test/sources/protected-resource.test.ts',
  'test/sources/sandbox-untried.test.ts',
];
