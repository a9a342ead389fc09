/**
 * Real published server upgrades (test/fixtures/upgrades) judged in-process by the code
 * `toolgate check --base` runs: `update` (runCheck) writes the base commit's contract from the old
 * recording and the head's from the new one; `check` alone passes (the contract matches the
 * listing); `check --base` reads the base commit's policy and contract (readBaseState, with the
 * base's files kept as they were committed) and its JSON report holds every new tool and every
 * widening as an error until approved. test/e2e/upgrades.test.ts runs one upgrade through the
 * built CLI and git.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRoot } from '../../src/cli/prepare.js';
import { loadPolicy } from '../../src/config/policy-file.js';
import type { Mode } from '../../src/judge/result.js';
import { renderJson } from '../../src/report/json.js';
import { readBaseState, type BaseState } from '../../src/review/base-state.js';
import { checkRunOptions, runCheck } from '../../src/run-check.js';
import { silentLogger } from '../../src/util/logger.js';
import type { JsonFinding } from '../support/run-dist.js';
import { expectUpgradeFindings, recording, UPGRADE_POLICY, UPGRADES } from '../support/upgrades.js';

const parent = mkdtempSync(join(tmpdir(), 'tg-upgrades-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** The JSON report's fields read here. */
interface Report {
  exitCode: number;
  sources: { wrote?: boolean; failure?: unknown }[];
  findings: JsonFinding[];
}

/** `toolgate update` exits 0 unless a source failed (exit 3); here, it also wrote the contract. */
async function update(dir: string): Promise<void> {
  const r = await run(dir, 'update');
  expect(r.exitCode).not.toBe(3);
  expect(r.sources.map((s) => [s.failure, s.wrote])).toEqual([[undefined, true]]);
}

/** One run of `mode` in `dir` as the CLI makes it (with the base of `check --base` when given): its JSON report. */
async function run(dir: string, mode: Mode, base?: BaseState): Promise<Report> {
  const policy = await loadPolicy(join(dir, 'toolgate.yml'));
  const result = await runCheck(checkRunOptions({ policy, mode, root: runRoot(policy, dir), logger: silentLogger, ...(base ? { base } : {}) }));
  return JSON.parse(renderJson(result, 'test')) as Report;
}

/** A file at the base commit: the copy of the repository taken when it was committed. */
const readerAt = (baseDir: string) => (path: string) =>
  readFile(join(baseDir, path), 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });

describe.each(Object.entries(UPGRADES))('%s: a pull request that upgrades the server and commits `toolgate update`', (slug, u) => {
  it(`${u.base} → ${u.head}: every new tool and every widening is an error until approved`, async () => {
    const dir = join(parent, slug);
    const baseDir = join(parent, `${slug}@base`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'toolgate.yml'), UPGRADE_POLICY);
    copyFileSync(recording(slug, u.base), join(dir, 'tools.json'));
    await update(dir);
    cpSync(dir, baseDir, { recursive: true });
    copyFileSync(recording(slug, u.head), join(dir, 'tools.json'));
    await update(dir);

    // Without a base the contract matches the live surface: the drift check alone passes it.
    expect((await run(dir, 'check')).exitCode).toBe(0);

    const head = await loadPolicy(join(dir, 'toolgate.yml'));
    const base = await readBaseState(head, runRoot(head, dir), readerAt(baseDir), 'main~1');
    const r = await run(dir, 'check', base);
    expect(r.exitCode).toBe(1);
    expectUpgradeFindings(r.findings, u);
  });
});
