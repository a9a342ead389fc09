/**
 * `toolgate export` and `export-stale` through the built CLI, on the real
 * @modelcontextprotocol/server-filesystem 2026.8.31 (a devDependency) in a temporary repository:
 * update → export (into settings files that hold other settings) → check clean → the runtime block
 * changes → check fails with export-stale on every export → export again → clean.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateInProcess } from '../support/action-repo.js';
import { READ_REPO, REPO, runCli, tempWorkspace, type JsonFinding } from '../support/run-dist.js';

const FILESYSTEM = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
let dir: string;
let cleanup: () => void;

const policy = (deny: string[]) => `# yaml-language-server: $schema=${REPO}/schema/toolgate.schema.json
sources:
  - id: fs
    mcp:
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(FILESYSTEM)}, "data"]
${READ_REPO()}runtime:
  deny: ${JSON.stringify(deny)}
exports:
  - to: claude-code
    file: .claude/settings.json
  - to: codex
    file: .codex/config.toml
  - to: toolhive-cedar
    file: deploy/toolhive/fs.authz.yaml
  - to: envoy
    file: deploy/envoy/fs.yaml
    gateway: ai-gw
`;

const USER_CLAUDE = '{\n  "model": "opus",\n  "permissions": {\n    "allow": ["Bash(npm test)", "mcp__other__x"]\n  }\n}\n';
const USER_CODEX =
  '# my codex config\nmodel = "o4"\n\n[mcp_servers.fs]\ncommand = "node"\nargs = ["server.js"]\nenabled_tools = [\n  "read_file", # old\n]\n\n[mcp_servers.other]\ncommand = "x"\n';

const cli = (args: string[]) => runCli(args, { cwd: dir, timeoutMs: 90_000 });
const staleFindings = (stdout: string) =>
  (JSON.parse(stdout).findings as (JsonFinding & { location?: { file: string; line?: number } })[]).filter((f) => f.ruleId === 'export-stale');

beforeAll(async () => {
  ({ dir, cleanup } = tempWorkspace('tg-export-'));
  mkdirSync(join(dir, 'data'));
  mkdirSync(join(dir, '.claude'));
  mkdirSync(join(dir, '.codex'));
  writeFileSync(join(dir, 'toolgate.yml'), policy(['move_file']));
  writeFileSync(join(dir, '.claude/settings.json'), USER_CLAUDE);
  writeFileSync(join(dir, '.codex/config.toml'), USER_CODEX);
  // The first contract, written in this process by the pipeline `update` runs.
  await updateInProcess(dir);
}, 120_000);
afterAll(() => cleanup());

describe('toolgate export (dist/cli.js, server-filesystem)', () => {
  it("writes every export of toolgate.yml; settings files keep what is not the export's", async () => {
    const r = await cli(['export']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('wrote .claude/settings.json (claude-code, 13 of 14 pinned tools)');
    const claude = readFileSync(join(dir, '.claude/settings.json'), 'utf8');
    expect(claude.startsWith('{\n  "model": "opus",')).toBe(true);
    const settings = JSON.parse(claude) as { permissions: { allow: string[]; deny: string[] } };
    expect(settings.permissions.allow).toContain('Bash(npm test)');
    expect(settings.permissions.allow).toContain('mcp__other__x');
    expect(settings.permissions.allow).toContain('mcp__fs__read_file');
    // A tool that may write is asked about at every call; a refused one is denied.
    expect(settings.permissions.allow).not.toContain('mcp__fs__write_file');
    expect((settings.permissions as unknown as { ask: string[] }).ask).toContain('mcp__fs__write_file');
    expect(settings.permissions.allow).not.toContain('mcp__fs__move_file');
    expect(settings.permissions.deny).toEqual(['mcp__fs__move_file']);
    // Formats without comments get a sibling note saying what the target cannot enforce.
    expect(readFileSync(join(dir, '.claude/settings.json.toolgate.md'), 'utf8')).toContain('What Claude Code does not enforce');

    const codex = parseToml(readFileSync(join(dir, '.codex/config.toml'), 'utf8')) as {
      model: string;
      mcp_servers: Record<string, { command: string; args: string[]; enabled_tools: string[]; disabled_tools: string[] }>;
    };
    expect(codex.model).toBe('o4');
    expect(codex.mcp_servers.fs?.command).toBe('node');
    expect(codex.mcp_servers.fs?.args).toEqual(['server.js']);
    expect(codex.mcp_servers.fs?.enabled_tools).toHaveLength(13);
    expect(codex.mcp_servers.fs?.disabled_tools).toEqual(['move_file']);
    expect(codex.mcp_servers.other?.command).toBe('x');
    expect(readFileSync(join(dir, 'deploy/envoy/fs.yaml'), 'utf8')).toContain('name: ai-gw');

    // Idempotent: a second run changes nothing.
    const again = await cli(['export']);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('wrote ');
    expect(again.stderr.match(/unchanged /g)).toHaveLength(4);
  });

  it('check passes while the exports match; fails with export-stale on each when the runtime block changes; export fixes it', async () => {
    const clean = await cli(['check', '--format', 'json']);
    expect(clean.code, clean.stderr).toBe(0);
    expect(staleFindings(clean.stdout)).toEqual([]);

    writeFileSync(join(dir, 'toolgate.yml'), policy(['move_file', 'write_file']));
    // A contract rewritten by update reminds of the exports (here the contract is unchanged: no reminder).
    expect((await cli(['update'])).stderr).not.toContain('run `toolgate export`');
    // The JSON report and the terminal one of the same state, run at once.
    const [stale, text] = await Promise.all([cli(['check', '--format', 'json']), cli(['check'])]);
    expect(stale.code).toBe(1);
    const found = staleFindings(stale.stdout);
    expect(found.map((f) => f.location?.file).sort()).toEqual([
      '.claude/settings.json',
      '.codex/config.toml',
      'deploy/envoy/fs.yaml',
      'deploy/toolhive/fs.authz.yaml',
    ]);
    expect(found.every((f) => f.level === 'error')).toBe(true);
    const claude = found.find((f) => f.location?.file === '.claude/settings.json');
    expect(claude?.message).toContain(
      'is not what `toolgate export --to claude-code --source fs -o .claude/settings.json` writes from .toolgate/fs.surface.json and the runtime block: permissions.deny lacks "mcp__fs__write_file"',
    );
    const cedar = found.find((f) => f.location?.file === 'deploy/toolhive/fs.authz.yaml');
    expect(cedar?.location?.line).toBeGreaterThan(1);
    // The terminal report names the fix.
    expect(text.stdout).toContain('export-stale');
    expect(text.stdout).toContain('toolgate export');

    const fix = await cli(['export']);
    expect(fix.code, fix.stderr).toBe(0);
    const after = await cli(['check', '--format', 'json']);
    expect(after.code, after.stdout).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).permissions.deny).toEqual(['mcp__fs__move_file', 'mcp__fs__write_file']);
  });

  it('a comment in .claude/settings.json (Claude Code then ignores the file) is stale, and export refuses to merge into it', async () => {
    const file = join(dir, '.claude/settings.json');
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, before.replace('{\n', '{\n  // mine\n'));
    // export refuses before it writes anything: both read the same state, at once.
    const [r, e] = await Promise.all([cli(['check', '--format', 'json']), cli(['export'])]);
    expect(r.code).toBe(1);
    expect(staleFindings(r.stdout).map((f) => f.message)).toEqual([expect.stringContaining('it is not strict JSON')]);
    expect(e.code).toBe(2);
    expect(e.stderr).toContain('not strict JSON');
    writeFileSync(file, before);
  });

  it('a committed link into .git is no way in', async () => {
    symlinkSync('../.git', join(dir, 'deploy/gw'));
    mkdirSync(join(dir, '.git'), { recursive: true });
    const r = await cli(['export', '--to', 'docker', '-o', 'deploy/gw/config']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('it is inside .git');
    expect(existsSync(join(dir, '.git/config'))).toBe(false);
  });

  it('a hand edit that widens an export is stale too', async () => {
    const file = join(dir, 'deploy/envoy/fs.yaml');
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, before.replace('          - read_file\n', '          - read_file\n          - move_file\n'));
    const r = await cli(['check', '--format', 'json']);
    expect(r.code).toBe(1);
    expect(staleFindings(r.stdout).map((f) => f.location?.file)).toEqual(['deploy/envoy/fs.yaml']);
    writeFileSync(file, before);
  });

  it('check --export FILE --to TARGET checks a file toolgate.yml does not list; a missing one is stale', async () => {
    const printed = await cli(['export', '--to', 'docker']);
    expect(printed.code).toBe(0);
    writeFileSync(join(dir, 'tools.yaml'), printed.stdout);
    const [ok, missing] = await Promise.all([
      cli(['check', '--format', 'json', '--export', 'tools.yaml', '--to', 'docker']),
      cli(['check', '--format', 'json', '--export', 'tools.yaml', 'gone.yaml', '--to', 'docker', 'toolhive']),
    ]);
    expect(ok.code, ok.stdout).toBe(0);
    expect(missing.code).toBe(1);
    const f = staleFindings(missing.stdout);
    expect(f).toHaveLength(1);
    expect(f[0]?.message).toContain(
      'the toolhive export gone.yaml is not what `toolgate export --to toolhive --source fs -o gone.yaml` writes from .toolgate/fs.surface.json and the runtime block: the file does not exist',
    );
  });

  it('usage errors exit 2 and name the fix; nothing is written outside the repository', async () => {
    // Each is refused before anything is written: all run at once.
    const [bad, outside, git, onto, pair, server, help] = await Promise.all([
      cli(['export', '--to', 'bogus']),
      cli(['export', '--to', 'docker', '-o', '../escape.yaml']),
      cli(['export', '--to', 'docker', '-o', '.git/config']),
      cli(['export', '--to', 'docker', '-o', 'toolgate.yml']),
      cli(['check', '--export', 'a.yaml']),
      cli(['export', '--to', 'claude-code', '--server', 'a b']),
      cli(['export', '--help']),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Use one of: toolgate, toolhive, toolhive-cedar');
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('cannot write the export');
    expect(existsSync(join(dir, '../escape.yaml'))).toBe(false);
    expect(git.code).toBe(2);
    expect(git.stderr).toContain('it is inside .git');
    expect(existsSync(join(dir, '.git/config'))).toBe(false);
    expect(onto.code).toBe(2);
    expect(readFileSync(join(dir, 'toolgate.yml'), 'utf8')).toContain('exports:');
    expect(pair.code).toBe(2);
    expect(pair.stderr).toContain('--export needs --to TARGET');
    expect(server.code).toBe(2);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('what the target cannot enforce');
  });
});
