/**
 * A real published server upgrade (test/fixtures/upgrades: `tools/list` recorded from two versions
 * of server-everything) through the built CLI's `check --base`, on a real git repository whose
 * base commit pins the old version and whose head commit updates the contract to the new one: what
 * a pull request that bumps the dependency and runs `toolgate update` looks like (docs/design.md
 * §7). Every other recorded upgrade is judged in-process by the same code (test/judge/upgrades.test.ts),
 * with the same assertions (test/support/upgrades.ts).
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commit, git, updateInProcess } from '../support/action-repo.js';
import { runCli, type JsonFinding } from '../support/run-dist.js';
import { expectUpgradeFindings, recording, UPGRADE_POLICY, UPGRADES, type Upgrade } from '../support/upgrades.js';

const SLUG = 'modelcontextprotocol-server-everything';
const u = UPGRADES[SLUG] as Upgrade;
const parent = mkdtempSync(join(tmpdir(), 'tg-upgrades-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/**
 * base commit: the old recording and its contract; head commit: the new one, contract updated (each
 * written in this process by the pipeline `update` runs).
 */
async function upgradeRepo(): Promise<string> {
  const dir = join(parent, SLUG);
  git(parent, 'init', '-q', '-b', 'main', dir);
  writeFileSync(join(dir, 'toolgate.yml'), UPGRADE_POLICY);
  copyFileSync(recording(SLUG, u.base), join(dir, 'tools.json'));
  await updateInProcess(dir);
  commit(dir, `${u.package}@${u.base}`);
  copyFileSync(recording(SLUG, u.head), join(dir, 'tools.json'));
  await updateInProcess(dir);
  commit(dir, `${u.package}@${u.head}`);
  return dir;
}

describe(`${SLUG}: a pull request that upgrades the server and commits \`toolgate update\``, () => {
  it(`${u.base} → ${u.head}: every new tool and every widening is an error until approved`, async () => {
    const dir = await upgradeRepo();
    // Without --base the contract matches the live surface: the drift check alone passes it.
    const [alone, r] = await Promise.all([
      runCli(['check', '--format', 'json'], { cwd: dir }),
      runCli(['check', '--base', 'main~1', '--format', 'json'], { cwd: dir }),
    ]);
    expect(alone.code, alone.stderr).toBe(0);
    expect(r.code, r.stderr).toBe(1);
    expectUpgradeFindings((JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings, u);
  }, 60_000);
});
