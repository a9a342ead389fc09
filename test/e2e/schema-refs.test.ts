/**
 * A tool whose argument is limited through a schema reference (`$anchor`, a `urn:` `$id`), end to
 * end through the built CLI: a real git repository whose server (test/fixtures/servers/listed-tools.mjs,
 * SDK 1.x) serves `run` with `cmd` reached by `"$ref": "#cmd"` and limited to `["ls", "pwd"]`;
 * the pull request's commit drops the enum inside the anchored definition and updates its contract
 * (each contract written in this process by the pipeline `update` runs: updateInProcess).
 * `check --base` must call it a widening, `diff` of the two contracts too, and `toolgate proxy` must
 * enforce exactly the pinned schema: `cmd: "rm"` refused under the base contract, the drifted
 * server's tool refused before the update, the widened schema enforced only once it is the contract.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { commit, git, updateInProcess } from '../support/action-repo.js';
import { CACHE_ENV, CLI, READ_REPO, REPO, runCli, tempWorkspace, type JsonFinding } from '../support/run-dist.js';

const SERVER = join(REPO, 'test/fixtures/servers/listed-tools.mjs');
const ws = tempWorkspace('tg-schema-refs-');
afterAll(() => ws.cleanup());

const WRITE = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

/** The server's `tools/list`: `run`, whose `cmd` is `{"$ref": ref}` and `command` its target. */
function tools(ref: string, command: Record<string, unknown>): string {
  const inputSchema = {
    type: 'object',
    properties: { cmd: { $ref: ref, description: 'The command to run.' } },
    required: ['cmd'],
    additionalProperties: false,
    $defs: { command: { type: 'string', ...command } },
  };
  return `${JSON.stringify({ tools: [{ name: 'run', description: 'Runs a shell command.', inputSchema, annotations: WRITE }] }, null, 2)}\n`;
}

/** A git repository whose one source is the fixture server serving `tools.json`; the base commit is updated and committed. */
async function repository(name: string, listing: string): Promise<string> {
  const dir = join(ws.dir, name);
  git(ws.dir, 'init', '-q', '-b', 'main', dir);
  writeFileSync(
    join(dir, 'toolgate.yml'),
    `sources:\n  - id: shell\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(SERVER)}, tools.json]\n${READ_REPO()}`,
  );
  writeFileSync(join(dir, 'tools.json'), listing);
  await updateInProcess(dir);
  commit(dir, 'base: run limited to ls and pwd');
  return dir;
}

interface CallResult {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: { ok: boolean; error: string; detail: string };
}

/** Calls `run` with each `cmd` through `toolgate proxy` in `dir` (SDK 2.x client). */
async function callThroughProxy(dir: string, cmds: string[]): Promise<CallResult[]> {
  const client = new Client({ name: 'schema-refs-test', version: '1' }, { capabilities: {} });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [CLI, 'proxy', '--log', 'decisions.jsonl'], cwd: dir, env: CACHE_ENV, stderr: 'ignore' }),
  );
  try {
    const out: CallResult[] = [];
    for (const cmd of cmds) out.push((await client.callTool({ name: 'run', arguments: { cmd } })) as CallResult);
    return out;
  } finally {
    await client.close();
  }
}

// The two repositories are independent: their cases run at once.
describe.concurrent('schema references end to end', () => {
  describe('an enum dropped inside a definition reached by $anchor', () => {
    it('check --base and diff report schema-widened; the proxy enforces only what is pinned', async () => {
      const dir = await repository('anchor', tools('#cmd', { $anchor: 'cmd', enum: ['ls', 'pwd'] }));

      // Under the base contract the proxy lets `ls` through to the server and refuses `rm`.
      const [ls, rm] = await callThroughProxy(dir, ['ls', 'rm']);
      expect(ls?.isError ?? false).toBe(false);
      expect(ls?.content?.[0]?.text).toBe('ran run {"cmd":"ls"}');
      expect(rm).toMatchObject({ isError: true, structuredContent: { ok: false, error: 'invalid_arguments' } });
      expect(rm?.structuredContent?.detail).toContain('/cmd must be equal to one of the allowed values');

      // The pull request: the server's definition loses its enum.
      writeFileSync(join(dir, 'tools.json'), tools('#cmd', { $anchor: 'cmd' }));
      // Before `toolgate update` the served tool is not the pinned one: refused, never the new schema.
      const [drifted] = await callThroughProxy(dir, ['rm']);
      expect(drifted).toMatchObject({ isError: true, structuredContent: { ok: false, error: 'tool_drifted' } });

      await updateInProcess(dir);
      commit(dir, 'pull request: run takes any command');

      // check --base, diff and the proxy read the pinned state and write nothing the others read: at once.
      writeFileSync(join(dir, 'base.surface.json'), git(dir, 'show', 'main~1:.toolgate/shell.surface.json'));
      const [check, diff, [after]] = await Promise.all([
        runCli(['check', '--base', 'main~1', '--format', 'json'], { cwd: dir }),
        runCli(['diff', 'base.surface.json', '.toolgate/shell.surface.json', '--format', 'json'], { cwd: dir }),
        // Once the widened schema is the contract, the proxy enforces it: what the review must see.
        callThroughProxy(dir, ['rm']),
      ]);
      expect(check.code, check.stderr).toBe(1);
      const findings = (JSON.parse(check.stdout) as { findings: JsonFinding[] }).findings;
      const widened = findings.filter((f) => f.ruleId === 'schema-widened');
      expect(widened).toHaveLength(1);
      expect(widened[0]).toMatchObject({ tool: 'run', level: 'error' });
      expect(widened[0]?.message).toMatch(
        /^tool "run" accepts new inputs: \/properties\/cmd: no longer restricted to the values "ls", "pwd"; it needs an approving review/,
      );

      expect(diff.code, diff.stderr).toBe(1);
      expect((JSON.parse(diff.stdout) as { findings: JsonFinding[] }).findings.filter((f) => f.ruleId === 'schema-widened').map((f) => f.tool)).toEqual([
        'run',
      ]);

      expect(after?.content?.[0]?.text).toBe('ran run {"cmd":"rm"}');
      const log = readFileSync(join(dir, 'decisions.jsonl'), 'utf8');
      expect(log).toContain('"reason":"invalid_arguments"');
    }, 120_000);
  });

  describe('an enum dropped inside a definition reached by a urn: $id', () => {
    it('check --base reports schema-widened; a description edit beside it is no schema change', async () => {
      const dir = await repository('urn', tools('urn:example:command', { $id: 'urn:example:command', enum: ['ls', 'pwd'] }));

      writeFileSync(join(dir, 'tools.json'), tools('urn:example:command', { $id: 'urn:example:command', enum: ['ls', 'pwd'], description: 'ls or pwd.' }));
      await updateInProcess(dir);
      commit(dir, 'describe the command');
      const described = await runCli(['check', '--base', 'main~1', '--format', 'json'], { cwd: dir });
      const describedIds = (JSON.parse(described.stdout) as { findings: JsonFinding[] }).findings.map((f) => f.ruleId);
      expect(describedIds).not.toContain('schema-widened');
      expect(describedIds).not.toContain('schema-unclassified');
      expect(describedIds).toContain('description-changed');

      writeFileSync(join(dir, 'tools.json'), tools('urn:example:command', { $id: 'urn:example:command', description: 'ls or pwd.' }));
      await updateInProcess(dir);
      commit(dir, 'run takes any command');
      const check = await runCli(['check', '--base', 'main~1', '--format', 'json'], { cwd: dir });
      expect(check.code, check.stderr).toBe(1);
      const widened = (JSON.parse(check.stdout) as { findings: JsonFinding[] }).findings.filter((f) => f.ruleId === 'schema-widened');
      expect(widened.map((f) => [f.tool, f.level])).toEqual([['run', 'error']]);
      expect(widened[0]?.message).toContain('tool "run" accepts new inputs: /properties/cmd: no longer restricted to the values "ls", "pwd"');
    }, 120_000);
  });
});
