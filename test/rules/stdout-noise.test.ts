/** stdout-noise: raised by run-check when a stdio server writes non-JSON-RPC lines on stdout. */
import { adHocPolicy } from '../../src/config/policy-resolve.js';
import { parsePolicy } from '../../src/config/policy.js';
import { runCheck } from '../../src/run-check.js';
import { silentLogger } from '../../src/util/logger.js';
import { fixture, nodeFixture, NODE, ROOT } from '../support/mcp-fixtures.js';
import { ruleTests } from '../support/surface-builders.js';

const yaml = (name: string) => `# stdout hygiene
sources:
  - id: noisy
    mcp:
      command: ${JSON.stringify(NODE)}
      args: [${JSON.stringify(fixture(name))}]
`;
const fromYaml = (name: string) => async () => {
  const policy = parsePolicy(yaml(name), 'toolgate.yml', ROOT);
  return (await runCheck({ policy, mode: 'audit', root: ROOT, logger: silentLogger })).findings;
};

ruleTests('stdout-noise', {
  fires: [
    {
      name: 'banner lines and a JSON log line before speaking MCP (toolgate.yml: points at the source entry)',
      run: fromYaml('banner.mjs'),
      expect: [
        {
          ruleId: 'stdout-noise',
          level: 'warning',
          location: { file: 'toolgate.yml', line: 3 },
          message: 'wrote 3 non-JSON lines on stdout; first: "Starting fixture-banner v1.2.3..."',
        },
      ],
      timeout: 30_000,
    },
    {
      name: 'ad-hoc policy (no toolgate.yml)',
      run: async () => {
        const policy = adHocPolicy({ id: 'srv', kind: 'mcp', mcp: nodeFixture('banner.mjs'), contract: '/nonexistent/srv.surface.json' }, ROOT);
        return (await runCheck({ policy, mode: 'audit', root: ROOT, logger: silentLogger })).findings;
      },
      expect: [{ ruleId: 'stdout-noise', level: 'warning' }],
      timeout: 30_000,
    },
  ],
  silent: [
    {
      name: 'a server that writes only JSON-RPC on stdout',
      run: fromYaml('annotated.mjs'),
      expect: [],
      timeout: 30_000,
    },
    {
      name: 'rules: off',
      run: async () => {
        const policy = parsePolicy(`${yaml('banner.mjs')}rules:\n  stdout-noise: off\n`, 'toolgate.yml', ROOT);
        return (await runCheck({ policy, mode: 'audit', root: ROOT, logger: silentLogger })).findings;
      },
      expect: [],
      timeout: 30_000,
    },
  ],
});
