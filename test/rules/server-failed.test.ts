/** server-failed: raised by run-check when a source cannot be snapshotted (exit code 3). */
import { expect } from 'vitest';
import { adHocPolicy } from '../../src/config/policy-resolve.js';
import { parsePolicy } from '../../src/config/policy.js';
import { runCheck } from '../../src/run-check.js';
import { silentLogger } from '../../src/util/logger.js';
import { fixture, nodeFixture, NODE, ROOT } from '../support/mcp-fixtures.js';
import { ruleTests } from '../support/surface-builders.js';

const adHoc = async (name: string) => {
  // Generous limits: on a loaded machine the silent case's server (it loads the SDK) once took
  // longer than the shared 5 s per request; the failing case's server exits at once anyway.
  const timeouts = { startupMs: 25_000, requestMs: 20_000, totalMs: 28_000 };
  const policy = adHocPolicy({ id: 'srv', kind: 'mcp', mcp: nodeFixture(name, [], { timeouts }), contract: '/nonexistent/srv.surface.json' }, ROOT);
  const result = await runCheck({ policy, mode: 'audit', root: ROOT, logger: silentLogger });
  return result.findings.map((f) => ({ ...f, data: { ...f.data, exitCode: result.exitCode, stderrTail: result.sources[0]?.failure?.stderrTail ?? '' } }));
};

const YAML = `sources:
  - id: broken
    mcp:
      command: ${JSON.stringify(NODE)}
      args: [${JSON.stringify(fixture('exit-at-once.mjs'))}]
      startup-timeout-ms: 10000
`;

ruleTests('server-failed', {
  fires: [
    {
      name: 'a stdio server that exits at once (ad-hoc policy): exit code 3 and its stderr tail',
      run: () => adHoc('exit-at-once.mjs'),
      expect: [{ ruleId: 'server-failed', level: 'error', data: { exitCode: 3, stderrTail: expect.stringContaining('FIXTURE_API_KEY is not set') } }],
      timeout: 30_000,
    },
    {
      name: 'from toolgate.yml: the finding points at the source entry',
      run: async () => {
        const policy = parsePolicy(YAML, 'toolgate.yml', ROOT);
        return (await runCheck({ policy, mode: 'audit', root: ROOT, logger: silentLogger })).findings;
      },
      expect: [{ ruleId: 'server-failed', location: { file: 'toolgate.yml', line: 2 } }],
      timeout: 30_000,
    },
  ],
  silent: [
    {
      name: 'a server that starts and lists its tools',
      run: () => adHoc('annotated.mjs'),
      expect: [],
      timeout: 30_000,
    },
  ],
});
