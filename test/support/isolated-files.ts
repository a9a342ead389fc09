/**
 * Test files that change the process they run in: they set process.env for the whole file
 * (test/support/unsandboxed.ts and others), mock modules (vi.mock) or install process handlers.
 * Each runs in a worker of its own; test/suite-projects.test.ts fails on such a file missing here.
 */
export const ISOLATED_FILES = [
  'test/contract/store-atomic.test.ts',
  'test/contract/store-paths.test.ts',
  'test/hostile/env.test.ts',
  'test/hostile/interrupt.test.ts',
  'test/hostile/repo-paths.test.ts',
  'test/hostile/sandbox-npx.test.ts',
  'test/hostile/sandbox-reads.test.ts',
  'test/hostile/sandbox.test.ts',
  'test/hostile/servers.test.ts',
  'test/rules/auth-metadata-unavailable.test.ts',
  'test/runtime/decision-log.test.ts',
  'test/sources/early-start.test.ts',
  'test/sources/mcp-env.test.ts',
  'test/sources/mcp-http.test.ts',
  'test/sources/mcp-long-lines.test.ts',
  'test/sources/mcp-published.test.ts',
  'test/sources/mcp-stdio.test.ts',
  'test/sources/openapi-units.test.ts',
  'test/sources/protected-resource.test.ts',
  'test/sources/sandbox-untried.test.ts',
];
