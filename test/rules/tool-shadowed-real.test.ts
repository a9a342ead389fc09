/**
 * tool-shadowed on published servers: the latest recorded listing of each of the 22 servers in
 * test/fixtures (surfaces, upgrades, exports) as the sources of one toolgate.yml. Read by hand:
 * GitHub's server and Sentry's both serve `update_issue` and `search_issues` (a real collision for
 * an agent connected to both); no server's text names another server's tool.
 */
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/config/policy.js';
import { runCheck } from '../../src/run-check.js';
import { silentLogger } from '../../src/util/logger.js';
import { ROOT } from '../support/mcp-fixtures.js';
import { latestListings } from '../support/recorded-listings.js';

const sources = latestListings().map((l) => ({
  id: l.folder
    .toLowerCase()
    .replace(/^@/, '')
    .replace(/[^a-z0-9._-]/g, '-'),
  file: relative(ROOT, l.file),
}));

describe('tool-shadowed on published servers', () => {
  it('22 servers as one toolgate.yml: GitHub and Sentry collide on two names, nothing else', async () => {
    expect(sources).toHaveLength(22);
    const yaml = `sources:\n${sources.map((s) => `  - id: ${s.id}\n    recorded: ${JSON.stringify(s.file)}\n`).join('')}`;
    const policy = parsePolicy(yaml, join(ROOT, 'toolgate.yml'), ROOT);
    const result = await runCheck({ policy, mode: 'audit', root: ROOT, logger: silentLogger });
    const shadowed = result.findings.filter((f) => f.ruleId === 'tool-shadowed').map((f) => [f.source, f.tool, f.level, f.location?.file]);
    expect(shadowed.sort()).toEqual(
      [
        ['modelcontextprotocol-server-github', 'search_issues', 'warning', 'test/fixtures/surfaces/@modelcontextprotocol+server-github/2025.4.8.json'],
        ['modelcontextprotocol-server-github', 'update_issue', 'warning', 'test/fixtures/surfaces/@modelcontextprotocol+server-github/2025.4.8.json'],
        ['sentry-mcp-server', 'search_issues', 'warning', 'test/fixtures/surfaces/@sentry+mcp-server/0.39.0.json'],
        ['sentry-mcp-server', 'update_issue', 'warning', 'test/fixtures/surfaces/@sentry+mcp-server/0.39.0.json'],
      ].sort(),
    );
  }, 60_000);
});
