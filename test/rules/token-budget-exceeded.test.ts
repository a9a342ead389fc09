/**
 * token-budget-exceeded: raised by run-check when `limits.max-tokens` or
 * `limits.max-tokens-per-tool` is set and the live tools cost more (o200k_base), here on the real
 * recorded listing of @modelcontextprotocol/server-filesystem 2026.8.31 (1,536 tokens per turn).
 */
import { join } from 'node:path';
import { parsePolicy } from '../../src/config/policy.js';
import { runCheck } from '../../src/run-check.js';
import { silentLogger } from '../../src/util/logger.js';
import { ROOT } from '../support/mcp-fixtures.js';
import { ruleTests } from '../support/surface-builders.js';

const audit = (limits: string) => async () => {
  const yaml = `sources:\n  - id: fs\n    recorded: test/fixtures/exports/server-filesystem/2026.8.31.json\nlimits:\n${limits}`;
  const policy = parsePolicy(yaml, join(ROOT, 'toolgate.yml'), ROOT);
  return (await runCheck({ policy, mode: 'audit', root: ROOT, logger: silentLogger })).findings;
};

ruleTests('token-budget-exceeded', {
  fires: [
    {
      name: 'the whole surface over limits.max-tokens, located on the limit in toolgate.yml',
      run: audit('  max-tokens: 1000\n'),
      expect: [
        {
          ruleId: 'token-budget-exceeded',
          level: 'error',
          message: 'the advertised tools cost 1536 tokens per turn; the limit is 1000',
          location: { file: 'toolgate.yml', line: 5 },
        },
      ],
    },
    {
      name: 'the tools over limits.max-tokens-per-tool, each its own finding',
      run: audit('  max-tokens-per-tool: 150\n'),
      expect: [
        {
          ruleId: 'token-budget-exceeded',
          tool: 'edit_file',
          message: 'tool "edit_file" costs 154 tokens per turn; the limit per tool is 150',
          data: { limit: 'max-tokens-per-tool', value: 154, max: 150 },
        },
        { ruleId: 'token-budget-exceeded', tool: 'read_text_file', data: { value: 177 } },
      ],
    },
  ],
  silent: [
    {
      name: 'limits the surface keeps',
      run: audit('  max-tokens: 2000\n  max-tokens-per-tool: 177\n'),
      expect: [],
    },
  ],
});
