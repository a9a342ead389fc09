/**
 * Tokens per turn (issue 16 §1) on published servers: the recorded listings of test/fixtures,
 * counted with o200k_base. The totals are facts about those versions, measured here.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecorded } from '../../src/sources/recorded.js';
import { normalizeSnapshot } from '../../src/surface/normalize.js';
import { modelFacingJson, mostExpensive, tokenCost, tokenCounter } from '../../src/surface/tokens.js';
import { ROOT } from '../support/mcp-fixtures.js';

const latest = ['test/fixtures/surfaces', 'test/fixtures/upgrades', 'test/fixtures/exports'].flatMap((d) =>
  readdirSync(join(ROOT, d))
    .filter((pkg) => existsSync(join(ROOT, d, pkg)) && statSync(join(ROOT, d, pkg)).isDirectory())
    .map((pkg) => ({ pkg, file: join(ROOT, d, pkg, readdirSync(join(ROOT, d, pkg)).filter((f) => /^\d[\w.-]*\.json$/.test(f)).sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).pop() as string) })),
);

describe('tokens per turn', () => {
  it('counts what a client sends the model for a tool, with o200k_base', async () => {
    const count = await tokenCounter();
    expect(count('hello world')).toBe(2);
    expect(modelFacingJson({ name: 'a', description: 'b', inputSchema: { type: 'object' } })).toBe('{"name":"a","description":"b","inputSchema":{"type":"object"}}');
  });

  it('measures the published servers: a total per server, the five most expensive tools', async () => {
    const count = await tokenCounter();
    const totals: Record<string, number> = {};
    for (const { pkg, file } of latest) {
      const cost = tokenCost(normalizeSnapshot(await readRecorded('x', file)).surface.tools, count);
      totals[pkg] = cost.total;
      expect(cost.total).toBe(cost.perTool.reduce((n, t) => n + t.tokens, 0));
      expect(mostExpensive(cost).length).toBe(Math.min(5, cost.perTool.length));
    }
    // Printed for the record (the closing note quotes them); the assertions are on shape only.
    console.log(JSON.stringify(totals));
    expect(Object.keys(totals)).toHaveLength(22);
  });
});
