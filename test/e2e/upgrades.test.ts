/**
 * Real published server upgrades (test/fixtures/upgrades: `tools/list` recorded from two versions
 * of each package) through the built CLI's `check --base`, on a real git repository whose base
 * commit pins the old version and whose head commit updates the contract to the new one: what a
 * pull request that bumps the dependency and runs `toolgate update` looks like (docs/design.md §7).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commit, git } from '../support/action-repo.js';
import { REPO, runCli, type JsonFinding } from '../support/run-dist.js';

interface Upgrade {
  package: string;
  base: string;
  head: string;
  added: { name: string; readOnly: boolean }[];
  readOnlyChanged: { name: string; base: boolean; head: boolean }[];
}
const FIXTURES = join(REPO, 'test/fixtures/upgrades');
const UPGRADES = JSON.parse(readFileSync(join(FIXTURES, 'expected.json'), 'utf8')) as Record<string, Upgrade>;
const parent = mkdtempSync(join(tmpdir(), 'tg-upgrades-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** base commit: the old recording and its contract; head commit: the new one, contract updated. */
async function upgradeRepo(slug: string, u: Upgrade): Promise<string> {
  const dir = join(parent, slug);
  git(parent, 'init', '-q', '-b', 'main', dir);
  writeFileSync(join(dir, 'toolgate.yml'), `sources:\n  - id: server\n    recorded: tools.json\n`);
  copyFileSync(join(FIXTURES, slug, `${u.base}.json`), join(dir, 'tools.json'));
  expect((await runCli(['update'], { cwd: dir })).code).toBe(0);
  commit(dir, `${u.package}@${u.base}`);
  copyFileSync(join(FIXTURES, slug, `${u.head}.json`), join(dir, 'tools.json'));
  expect((await runCli(['update'], { cwd: dir })).code).toBe(0);
  commit(dir, `${u.package}@${u.head}`);
  return dir;
}

describe.each(Object.entries(UPGRADES))('%s: a pull request that upgrades the server and commits `toolgate update`', (slug, u) => {
  it(`${u.base} → ${u.head}: every new tool and every widening is an error until approved`, async () => {
    const dir = await upgradeRepo(slug, u);
    // Without --base the contract matches the live surface: the drift check alone passes it.
    const alone = await runCli(['check', '--format', 'json'], { cwd: dir });
    expect(alone.code, alone.stderr).toBe(0);

    const r = await runCli(['check', '--base', 'main~1', '--format', 'json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(1);
    const findings = (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings;
    const errors = (rule: string) => findings.filter((f) => f.ruleId === rule && f.level === 'error');

    // Each new tool is one tool-added error, write or read, and nothing else claims it.
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
    // A tool that became read-only is a read promotion; one that stopped being read-only is a read tool that became a write.
    for (const c of u.readOnlyChanged) {
      const rule = c.head ? 'read-promotion-unreviewed' : 'read-tool-became-write';
      expect(
        errors(rule).map((f) => f.tool),
        `${c.name}: ${rule}`,
      ).toContain(c.name);
    }
    // Nothing that widens is below error level without an approval.
    const reviewable = ['tool-added', 'read-promotion-unreviewed', 'risk-claim-lowered', 'schema-widened', 'description-changed', 'policy-relaxed'];
    expect(findings.filter((f) => reviewable.includes(f.ruleId) && f.level !== 'error')).toEqual([]);
    for (const f of findings.filter((x) => reviewable.includes(x.ruleId))) expect(f.message).toMatch(/it needs an approving review/);
  }, 60_000);
});
