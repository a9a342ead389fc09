/**
 * server-escaped: a process of the server outlived it. Raised by run-check from what
 * the snapshot found carrying the run's marker after the server's group ended; the real escapes
 * (setsid, double fork, new process group, respawn) are in test/hostile/sandbox.test.ts.
 */
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { adHocPolicy } from '../../src/config/policy-resolve.js';
import { runCheck } from '../../src/run-check.js';
import { containmentFindings } from '../../src/rules/checks/source.js';
import { silentLogger } from '../../src/util/logger.js';
import { FIXTURES, NODE, nodeFixture, ROOT, tempDir } from '../support/mcp-fixtures.js';
import { withoutSandboxForThisTest } from '../support/sandbox-mode.js';
import { ruleTests } from '../support/surface-builders.js';

/** Audits `script args` with the sandbox made unavailable, as on a machine without it. */
async function unsandboxed(script: string, args: string[]) {
  withoutSandboxForThisTest('test');
  const { path: dir, cleanup } = tempDir('tg-escaped-');
  onTestFinished(cleanup);
  const mcp = { ...nodeFixture('x'), command: NODE, args: [join(FIXTURES, 'hostile', script), ...args.map((a) => a.replace('$DIR', dir))] };
  const policy = adHocPolicy({ id: 'srv', kind: 'mcp', mcp, contract: join(dir, 'c.json') }, dir);
  return (await runCheck({ policy, mode: 'audit', root: ROOT, logger: silentLogger })).findings;
}

ruleTests('server-escaped', {
  fires: [
    {
      name: 'unsandboxed, a daemon in a new session: found by its marker, killed, named',
      run: () => unsandboxed('escape.mjs', ['$DIR/pids', 'setsid']),
      expect: [{ ruleId: 'server-escaped', level: 'error', message: 'was killed: pid' }],
      timeout: 30_000,
    },
    {
      name: 'the finding as run-check makes it from what the snapshot found',
      run: () => containmentFindings({ escaped: [{ pid: 42, command: 'node daemon.js' }] }, '/sources/0').map((f) => ({ ...f, level: 'error' as const })),
      expect: [
        {
          ruleId: 'server-escaped',
          message: '1 process of the server outlived it (left its process group or session) and was killed: pid 42 `node daemon.js`',
        },
      ],
    },
  ],
  silent: [
    {
      name: 'unsandboxed, a server that leaves nothing behind',
      run: () => unsandboxed('escape.mjs', ['$DIR/pids', 'none']),
      expect: [],
      timeout: 30_000,
    },
  ],
});
