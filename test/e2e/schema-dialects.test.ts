/**
 * Schemas the proxy checks as JSON Schema draft-07 only (a draft-07 tuple, `"items": [...]`, as
 * zod-to-json-schema emits for tuples with target draft-07, does not compile as 2020-12), end to
 * end through the built CLI: a real git repository whose server (test/fixtures/servers/listed-tools.mjs,
 * SDK 1.x) serves `remove`, a base commit and a pull request's commit that rewrites a draft-07 keyword in its 2020-12 spelling, which
 * draft-07 does not define. `check --base` must fail on each (the proxy then checks nothing there),
 * and `toolgate proxy` shows why: the base contract refuses the call, the head contract lets it through.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commit, git, updateInProcess } from '../support/action-repo.js';
import { CACHE_ENV, CLI, READ_REPO, REPO, runCli, tempWorkspace, type JsonFinding } from '../support/run-dist.js';
import type { JsonObject } from '../../src/util/json.js';

const SERVER = join(REPO, 'test/fixtures/servers/listed-tools.mjs');
const ws = tempWorkspace('tg-schema-dialects-');
afterAll(() => ws.cleanup());

const WRITE = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
const PAIR = { type: 'array', items: [{ type: 'string' }, { type: 'string' }] };

const listing = (inputSchema: JsonObject): string =>
  `${JSON.stringify({ tools: [{ name: 'remove', description: 'Removes a file.', inputSchema, annotations: WRITE }] }, null, 2)}\n`;

/** `remove`'s schema: draft-07 only, with `extra` at the root. */
const removeSchema = (extra: JsonObject): JsonObject => ({
  type: 'object',
  properties: { path: { type: 'string' }, force: { type: 'boolean' }, confirm: { type: 'boolean' }, pair: PAIR },
  required: ['path'],
  ...extra,
});

/**
 * A repository whose base commit pins `base` and whose head commit pins `head` (contracts written in
 * this process by the pipeline `update` runs); returns its directory.
 */
async function repository(name: string, base: JsonObject, head: JsonObject): Promise<string> {
  const dir = join(ws.dir, name);
  git(ws.dir, 'init', '-q', '-b', 'main', dir);
  writeFileSync(
    join(dir, 'toolgate.yml'),
    `sources:\n  - id: files\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(SERVER)}, tools.json]\n${READ_REPO()}`,
  );
  for (const [schema, message] of [
    [base, 'base'],
    [head, 'pull request'],
  ] as const) {
    writeFileSync(join(dir, 'tools.json'), listing(schema));
    await updateInProcess(dir);
    commit(dir, message);
  }
  return dir;
}

const CASES: { name: string; key: string; base: JsonObject; head: JsonObject }[] = [
  {
    name: 'dependencies → dependentRequired',
    key: 'required',
    base: { dependencies: { force: ['confirm'] } },
    head: { dependentRequired: { force: ['confirm'] } },
  },
  {
    name: 'dependencies → dependentSchemas',
    key: 'schemas',
    base: { dependencies: { force: { required: ['confirm'] } } },
    head: { dependentSchemas: { force: { required: ['confirm'] } } },
  },
];

describe('a draft-07 keyword rewritten in its 2020-12 spelling, in a schema the proxy checks as draft-07 only', () => {
  /** Each case's repository by key, built at once (the proxy case reads the first case's, after it). */
  const repos = new Map<string, string>();
  beforeAll(async () => {
    const dirs = await Promise.all(CASES.map(({ key, base, head }) => repository(key, removeSchema(base), removeSchema(head))));
    CASES.forEach(({ key }, i) => repos.set(key, dirs[i]!));
  }, 120_000);

  it.each(CASES)(
    '$name: check --base fails with schema-widened',
    async ({ key }) => {
      const dir = repos.get(key)!;
      const check = await runCli(['check', '--base', 'main~1', '--format', 'json'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(1);
      const findings = (JSON.parse(check.stdout) as { findings: JsonFinding[] }).findings.filter((f) => f.ruleId === 'schema-widened');
      expect(findings.map((f) => [f.tool, f.level])).toEqual([['remove', 'error']]);
      expect(findings[0]?.message).toContain('as JSON Schema draft-07, which the proxy checks arguments in');
    },
    120_000,
  );

  it('the proxy refuses {"force": true} without "confirm" under the base contract and forwards it under the head contract', async () => {
    // The first case's repository: its check has run; the checkouts below change its work tree.
    const dir = repos.get(CASES[0]!.key)!;
    const call = async (): Promise<{ isError?: boolean; structuredContent?: { error?: string } }> => {
      const client = new Client({ name: 'schema-dialects-test', version: '1' }, { capabilities: {} });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'proxy'], cwd: dir, env: CACHE_ENV, stderr: 'ignore' }));
      try {
        return (await client.callTool({ name: 'remove', arguments: { path: '/', force: true } })) as never;
      } finally {
        await client.close();
      }
    };
    git(dir, 'checkout', '-q', 'main~1');
    expect(await call()).toMatchObject({ isError: true, structuredContent: { error: 'invalid_arguments' } });
    git(dir, 'checkout', '-q', 'main');
    const forwarded = (await call()) as { isError?: boolean; content?: { text?: string }[] };
    expect(forwarded.isError ?? false).toBe(false);
    expect(forwarded.content?.[0]?.text).toBe('ran remove {"path":"/","force":true}');
  }, 120_000);
});
