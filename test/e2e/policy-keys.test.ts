/**
 * Policy edits that used to pass as tightenings, through the built CLI's `check --base` on a
 * real git repository: the base commit pins a real server's recorded `tools/list`
 * (test/fixtures/upgrades/firecrawl-mcp/3.26.0.json) with overrides and require-explicit-hints,
 * and the head commit edits only toolgate.yml (docs/design.md §7).
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commit, git, RepoTemplates, updateInProcess } from '../support/action-repo.js';
import { REPO, runCli, type JsonFinding } from '../support/run-dist.js';

const TOOLS = join(REPO, 'test/fixtures/upgrades/firecrawl-mcp/3.26.0.json');
const BASE = `sources:
  - id: firecrawl
    recorded: tools.json
require-explicit-hints: true
overrides:
  - tools: ["*"]
    rules: { unannotated-tool: off }
  - tools: ["firecrawl_scrape"]
    rules: { unannotated-tool: error }
`;

const parent = mkdtempSync(join(tmpdir(), 'tg-policy-keys-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

// Every case starts from the same base commit: built once (its contract written in this process by
// the pipeline `update` runs) and copied.
const templates = new RepoTemplates();
afterAll(() => templates.dispose());

/** A repository whose base commit has BASE and its contract, and whose head commit has `head` as toolgate.yml. */
async function pullRequest(name: string, head: string): Promise<string> {
  const { dir } = await templates.copy(
    'base',
    async (d) => {
      git(d, 'init', '-q', '-b', 'main');
      writeFileSync(join(d, 'toolgate.yml'), BASE);
      copyFileSync(TOOLS, join(d, 'tools.json'));
      await updateInProcess(d);
      commit(d, 'base');
      return {};
    },
    join(parent, name),
  );
  writeFileSync(join(dir, 'toolgate.yml'), head);
  commit(dir, 'pull request');
  return dir;
}

async function checkBase(dir: string): Promise<{ code: number | null; findings: JsonFinding[] }> {
  const r = await runCli(['check', '--base', 'main~1', '--format', 'json'], { cwd: dir });
  return { code: r.code, findings: (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings };
}

describe('check --base: policy edits judged with the last matching override and require-explicit-hints in mind', () => {
  it('overrides swapped: firecrawl_scrape loses its error level, a policy-relaxed error on the moved entry', async () => {
    const swapped = BASE.replace(
      '  - tools: ["*"]\n    rules: { unannotated-tool: off }\n  - tools: ["firecrawl_scrape"]\n    rules: { unannotated-tool: error }\n',
      '  - tools: ["firecrawl_scrape"]\n    rules: { unannotated-tool: error }\n  - tools: ["*"]\n    rules: { unannotated-tool: off }\n',
    );
    const { code, findings } = await checkBase(await pullRequest('swapped', swapped));
    expect(code).toBe(1);
    const relaxed = findings.filter((f) => f.ruleId === 'policy-relaxed');
    expect(relaxed).toHaveLength(1);
    expect(relaxed[0]).toMatchObject({ level: 'error', data: { kind: 'override' } });
    expect(relaxed[0]!.message).toContain(
      'override for tools ["*"] now comes after the override for tools ["firecrawl_scrape"]: where both match, unannotated-tool off instead of error',
    );
    expect((relaxed[0] as { location?: { line?: number } }).location?.line).toBe(8);
  });

  it('annotation-now-implicit lowered to notice while require-explicit-hints stays on: a policy-relaxed error', async () => {
    const { code, findings } = await checkBase(await pullRequest('implicit', `${BASE}rules:\n  annotation-now-implicit: notice\n`));
    expect(code).toBe(1);
    expect(findings.filter((f) => f.ruleId === 'policy-relaxed').map((f) => [f.level, f.message.split(';')[0]])).toEqual([
      ['error', 'rule "annotation-now-implicit" is lowered from error to notice'],
    ]);
  });

  it('a real tightening still passes: a notice that applies after the merge', async () => {
    const { code, findings } = await checkBase(await pullRequest('tightened', `${BASE}deny:\n  - tools: ["*crawl*"]\n    when: read\n`));
    const policy = findings.filter((f) => f.ruleId.startsWith('policy-'));
    expect(policy.map((f) => [f.ruleId, f.level])).toEqual([['policy-tightened', 'notice']]);
    // The deny entry is the head's: it applies after the merge, so nothing is denied in this run.
    expect(findings.filter((f) => f.ruleId === 'denied-tool')).toEqual([]);
    expect(code).toBe(0);
  });
});
