/**
 * The recorded upgrades of published MCP servers (test/fixtures/upgrades: `tools/list` of two
 * versions of each package, with facts computed from the recordings in expected.json) and what a
 * `check --base` of each must find. Shared by the in-process table (test/judge/upgrades.test.ts)
 * and the one upgrade run through the built CLI (test/e2e/upgrades.test.ts), so both assert the same.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { REPO, type JsonFinding } from './run-dist.js';

/** One upgrade of expected.json. */
export interface Upgrade {
  package: string;
  base: string;
  head: string;
  added: { name: string; readOnly: boolean }[];
  readOnlyChanged: { name: string; base: boolean; head: boolean }[];
}

export const UPGRADE_FIXTURES = join(REPO, 'test/fixtures/upgrades');
export const UPGRADES = JSON.parse(readFileSync(join(UPGRADE_FIXTURES, 'expected.json'), 'utf8')) as Record<string, Upgrade>;

/** The toolgate.yml of every upgrade repository: one recorded source read from tools.json. */
export const UPGRADE_POLICY = `sources:\n  - id: server\n    recorded: tools.json\n`;

/** The recording of `slug` at `version` (a path under test/fixtures/upgrades). */
export const recording = (slug: string, version: string) => join(UPGRADE_FIXTURES, slug, `${version}.json`);

/**
 * The findings of `check --base` (the JSON report's) of an upgrade with no approval: each new
 * tool is one tool-added error, write or read, and nothing else claims it; each tool that became
 * read-only a read promotion, each that stopped being one a read tool that became a write; nothing
 * that widens below error level, and each such finding says it needs an approving review.
 */
export function expectUpgradeFindings(findings: JsonFinding[], u: Upgrade): void {
  const errors = (rule: string) => findings.filter((f) => f.ruleId === rule && f.level === 'error');
  expect(
    errors('tool-added')
      .map((f) => f.tool)
      .sort(),
  ).toEqual(u.added.map((a) => a.name).sort());
  for (const a of u.added) {
    const f = errors('tool-added').find((x) => x.tool === a.name) as JsonFinding;
    expect(f.message).toMatch(a.readOnly ? /^new read-only/ : /write tool/);
    expect(findings.filter((x) => x.tool === a.name && x.ruleId === 'read-promotion-unreviewed')).toEqual([]);
  }
  for (const c of u.readOnlyChanged) {
    const rule = c.head ? 'read-promotion-unreviewed' : 'read-tool-became-write';
    expect(
      errors(rule).map((f) => f.tool),
      `${c.name}: ${rule}`,
    ).toContain(c.name);
  }
  const reviewable = ['tool-added', 'read-promotion-unreviewed', 'risk-claim-lowered', 'schema-widened', 'description-changed', 'policy-relaxed'];
  expect(findings.filter((f) => reviewable.includes(f.ruleId) && f.level !== 'error')).toEqual([]);
  for (const f of findings.filter((x) => reviewable.includes(x.ruleId))) expect(f.message).toMatch(/it needs an approving review/);
}
