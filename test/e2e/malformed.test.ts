/**
 * Malformed tools are pinned as served, on real listings: test/fixtures/malformed
 * holds `tools/list` recorded from @playwright/mcp 0.0.32 (24 of 24 tools serve an inputSchema of
 * only `$schema`, no `type`) and @modelcontextprotocol/server-filesystem 2025.1.14 (10 of 11) and
 * 2025.11.25 (well formed), installed as `npm install` resolves them today (see its README).
 * Through the built CLI: snapshot, update, check, check --base, on real git repositories.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commit, git } from '../support/action-repo.js';
import { REPO, runCli, type JsonFinding } from '../support/run-dist.js';

const FIXTURES = join(REPO, 'test/fixtures/malformed');
const UPGRADES = join(REPO, 'test/fixtures/upgrades');
const parent = mkdtempSync(join(tmpdir(), 'tg-malformed-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

interface JsonReport {
  sources: { toolCount?: number; malformedTools?: string[]; changes?: { kind: string; tool?: string }[] }[];
  findings: JsonFinding[];
}

let n = 0;
/** A git repository whose one source is a recorded listing copied from `fixture`. */
function repo(fixture: string, policyExtra = ''): string {
  const dir = join(parent, `r${n++}`);
  git(parent, 'init', '-q', '-b', 'main', dir);
  writeFileSync(join(dir, 'toolgate.yml'), `sources:\n  - id: server\n    recorded: tools.json\n${policyExtra}`);
  copyFileSync(fixture, join(dir, 'tools.json'));
  return dir;
}
const listed = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { tools: { name: string }[] }).tools;
const contractTools = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, '.toolgate/server.surface.json'), 'utf8')) as { tools: { name: string; malformed?: string }[] }).tools;

// Each case has its own repository: they run at once.
describe.concurrent('malformed tools through the built CLI', () => {
  describe('a real server whose tools serve no `type` (@playwright/mcp 0.0.32)', () => {
    const fixture = join(FIXTURES, 'playwright-mcp/0.0.32.json');

    it('snapshot pins all 24 as served, flagged, and says how many are malformed', async () => {
      const dir = repo(fixture);
      const r = await runCli(['snapshot', '--output', 'snap.json'], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      const tools = (JSON.parse(readFileSync(join(dir, 'snap.json'), 'utf8')) as { tools: { name: string; malformed?: string; inputSchema?: unknown }[] })
        .tools;
      expect(tools.map((t) => t.name).sort()).toEqual(
        listed(fixture)
          .map((t) => t.name)
          .sort(),
      );
      expect(tools).toHaveLength(24);
      for (const t of tools) {
        expect(t.malformed).toBe('`inputSchema.type` is missing, not "object"');
        // As served, less the root `$schema` (noise toolgate always drops).
        expect(t.inputSchema).toEqual({});
      }
      expect(r.stderr).toContain('24 of the 24 tools pinned are malformed');
    });

    it('update writes every tool; check counts and judges them, also with malformed-tool off', async () => {
      const dir = repo(fixture);
      const u = await runCli(['update'], { cwd: dir });
      expect(u.code, u.stderr).toBe(0);
      expect(contractTools(dir)).toHaveLength(24);
      expect(u.stderr).toContain('(24 tools, sha256:');

      const c = await runCli(['check', '--format', 'json'], { cwd: dir });
      expect(c.code, c.stderr).toBe(1);
      const report = JSON.parse(c.stdout) as JsonReport;
      expect(report.sources[0]?.toolCount).toBe(24);
      expect(report.sources[0]?.malformedTools).toHaveLength(24);
      expect(report.findings.filter((f) => f.ruleId === 'malformed-tool' && f.level === 'error')).toHaveLength(24);
      // No drift: the contract read back is the live surface exactly.
      expect(report.findings.filter((f) => f.ruleId === 'contract-stale')).toEqual([]);

      writeFileSync(join(dir, 'toolgate.yml'), 'sources:\n  - id: server\n    recorded: tools.json\nrules:\n  malformed-tool: off\n');
      const off = await runCli(['check', '--list'], { cwd: dir });
      expect(off.code, off.stderr).toBe(0);
      expect(off.stdout).toMatch(/tools: 24 /);
      expect(off.stdout).toContain('browser_click');
      expect(off.stdout).toContain('(malformed)');
    });

    it('a pinned tool that turns malformed is a widened schema, never "no longer served" (0.0.40 → 0.0.32)', async () => {
      const dir = repo(join(UPGRADES, 'playwright-mcp/0.0.40.json'));
      expect((await runCli(['update'], { cwd: dir })).code).toBe(0);
      commit(dir, '@playwright/mcp 0.0.40');
      copyFileSync(fixture, join(dir, 'tools.json'));
      const c = await runCli(['check', '--format', 'json'], { cwd: dir });
      const report = JSON.parse(c.stdout) as JsonReport;
      const both = new Set(
        listed(join(UPGRADES, 'playwright-mcp/0.0.40.json'))
          .map((t) => t.name)
          .filter((name) => listed(fixture).some((t) => t.name === name)),
      );
      expect(both.size).toBeGreaterThan(10);
      const removedOrUnlisted = report.findings.filter(
        (f) => f.tool !== undefined && both.has(f.tool) && (f.ruleId === 'tool-removed' || f.message.includes('no longer served')),
      );
      expect(removedOrUnlisted).toEqual([]);
      const widened = report.findings.filter((f) => f.ruleId === 'schema-widened').map((f) => f.tool);
      // browser_click took {element, ref} with additionalProperties false; `{}` takes anything.
      expect(widened).toContain('browser_click');
      expect(report.findings.filter((f) => f.ruleId === 'malformed-tool')).toHaveLength(24);

      // Through `update` and a pull request: the same, judged by the base.
      expect((await runCli(['update'], { cwd: dir })).code).toBe(0);
      commit(dir, '@playwright/mcp 0.0.32');
      const pr = await runCli(['check', '--base', 'main~1', '--format', 'json'], { cwd: dir });
      expect(pr.code, pr.stderr).toBe(1);
      const prFindings = (JSON.parse(pr.stdout) as JsonReport).findings;
      expect(prFindings.filter((f) => f.ruleId === 'schema-widened' && f.level === 'error').map((f) => f.tool)).toContain('browser_click');
      expect(
        prFindings.filter((f) => f.tool !== undefined && both.has(f.tool) && (f.ruleId === 'tool-removed' || f.message.includes('no longer served'))),
      ).toEqual([]);
    });
  });

  describe('@modelcontextprotocol/server-filesystem 2025.1.14 (10 of 11 malformed) → 2025.11.25', () => {
    it('update pins 11 and says 10 are malformed; the upgrade declares their arguments and adds 3 tools', async () => {
      const dir = repo(join(FIXTURES, 'server-filesystem/2025.1.14.json'));
      const u = await runCli(['update'], { cwd: dir });
      expect(u.code, u.stderr).toBe(0);
      expect(u.stderr).toContain('10 of the 11 tools pinned are malformed');
      const pinned = contractTools(dir);
      expect(pinned).toHaveLength(11);
      expect(pinned.filter((t) => t.malformed).map((t) => t.name)).not.toContain('list_allowed_directories');
      commit(dir, 'server-filesystem 2025.1.14');

      copyFileSync(join(FIXTURES, 'server-filesystem/2025.11.25.json'), join(dir, 'tools.json'));
      expect((await runCli(['update'], { cwd: dir })).code).toBe(0);
      commit(dir, 'server-filesystem 2025.11.25');
      const pr = await runCli(['check', '--base', 'main~1', '--format', 'json'], { cwd: dir });
      const findings = (JSON.parse(pr.stdout) as JsonReport).findings;
      expect(
        findings
          .filter((f) => f.ruleId === 'tool-added')
          .map((f) => f.tool)
          .sort(),
      ).toEqual(['list_directory_with_sizes', 'read_media_file', 'read_text_file']);
      expect(findings.filter((f) => f.ruleId === 'malformed-tool')).toEqual([]);
      // `{}` (anything) → an object that declares its arguments: the model is now told arguments it
      // was never told, and that is a widening to review like any other (properties added to an open object).
      const writeFile = findings.find((f) => f.ruleId === 'schema-widened' && f.tool === 'write_file');
      expect(writeFile?.level).toBe('error');
      expect(writeFile?.message).toContain('property "content" added (the object was open');
      expect(findings.filter((f) => f.ruleId === 'tool-removed')).toEqual([]);
    });
  });

  describe('entries that cannot be pinned (not an object, no string name)', () => {
    it('update and snapshot write nothing and exit 3; check reports them', async () => {
      const file = join(parent, 'nameless.json');
      const tools = listed(join(FIXTURES, 'server-filesystem/2025.11.25.json'));
      writeFileSync(file, JSON.stringify({ tools: [...tools, { description: 'no name', inputSchema: { type: 'object' } }, 42] }, null, 2));
      const dir = repo(file);
      // None of them writes anything: they start at once.
      const [u, s, a] = await Promise.all([
        runCli(['update'], { cwd: dir }),
        runCli(['snapshot', '--output', 'snap.json'], { cwd: dir }),
        runCli(['audit', '--format', 'json'], { cwd: dir }),
      ]);
      expect(u.code).toBe(3);
      expect(u.stderr).toContain(`2 of the ${tools.length + 2} listed entries cannot be pinned`);
      expect(existsSync(join(dir, '.toolgate/server.surface.json'))).toBe(false);

      expect(s.code).toBe(3);
      expect(s.stderr).toContain('cannot be pinned');
      expect(existsSync(join(dir, 'snap.json'))).toBe(false);

      const findings = (JSON.parse(a.stdout) as JsonReport).findings.filter((f) => f.ruleId === 'malformed-tool');
      expect(findings.map((f) => f.data?.pinned)).toEqual([false, false]);
    });
  });
});
