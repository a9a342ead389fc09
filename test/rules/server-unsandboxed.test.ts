/** server-unsandboxed: every report says when a server ran outside the sandbox. */
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { adHocPolicy } from '../../src/config/policy-resolve.js';
import { runCheck } from '../../src/run-check.js';
import { DEFAULT_CONTAINMENT } from '../../src/config/source-config.js';
import { silentLogger } from '../../src/util/logger.js';
import { nodeFixture, ROOT, tempDir } from '../support/mcp-fixtures.js';
import { withoutSandboxForThisTest } from '../support/sandbox-mode.js';
import { ruleTests } from '../support/surface-builders.js';

async function audit(opts: { unavailable?: boolean; off?: boolean }) {
  if (opts.unavailable) withoutSandboxForThisTest('no sandbox on this test machine');
  const { path: dir, cleanup } = tempDir('tg-unsandboxed-');
  onTestFinished(cleanup);
  const mcp = { ...nodeFixture('annotated.mjs'), containment: { ...DEFAULT_CONTAINMENT, sandbox: opts.off ? ('off' as const) : ('on' as const) } };
  const policy = adHocPolicy({ id: 'srv', kind: 'mcp', mcp, contract: join(dir, 'c.json') }, dir);
  return (await runCheck({ policy, mode: 'audit', root: ROOT, logger: silentLogger })).findings;
}

ruleTests('server-unsandboxed', {
  fires: [
    {
      name: 'no sandbox on the machine: the reason is in the message',
      run: () => audit({ unavailable: true }),
      expect: [
        {
          ruleId: 'server-unsandboxed',
          level: 'notice',
          message: 'the server ran unsandboxed: TOOLGATE_SANDBOX_UNAVAILABLE is set (no sandbox on this test machine)',
        },
      ],
      timeout: 30_000,
    },
    {
      name: 'the source turns it off',
      run: () => audit({ off: true }),
      expect: [{ ruleId: 'server-unsandboxed', message: 'the server ran unsandboxed: the source sets `sandbox: off`' }],
      timeout: 30_000,
    },
  ],
  silent: [
    {
      name: 'a recorded surface starts no server',
      run: async () => {
        const policy = adHocPolicy(
          { id: 'rec', kind: 'recorded', file: join(ROOT, 'test/fixtures/upgrades/playwright-mcp/0.0.40.json'), contract: '/nonexistent/c.json' },
          ROOT,
        );
        return (await runCheck({ policy, mode: 'audit', root: ROOT, logger: silentLogger })).findings;
      },
      expect: [],
    },
  ],
});
