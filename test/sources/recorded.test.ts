/** Recorded tools/list results: accepted shapes and errors that say where and how to fix. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecorded } from '../../src/sources/recorded.js';
import { ConfigError } from '../../src/util/errors.js';
import { ROOT, tempDir } from '../support/mcp-fixtures.js';

const dir = tempDir('tg-recorded-');
afterAll(() => dir.cleanup());
let n = 0;
function file(text: string): string {
  const p = join(dir.path, `r${n++}.json`);
  writeFileSync(p, text);
  return p;
}

async function configError(p: Promise<unknown>): Promise<ConfigError> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ConfigError);
  return err as ConfigError;
}

const TOOLS = [
  { name: 'a', inputSchema: { type: 'object' }, 'x-extra': 1 },
  { name: 'b', annotations: { readOnlyHint: true } },
];

describe('readRecorded', () => {
  it('reads {"tools": [...]} with locations and keeps unknown keys', async () => {
    const f = file(JSON.stringify({ tools: TOOLS }, null, 2));
    const snap = await readRecorded('rec', f);
    expect(snap.source).toEqual({ id: 'rec', kind: 'recorded' });
    expect(snap.live).toBe(false);
    expect(snap.file).toBe(f);
    expect(snap.tools.map((t) => t.tool)).toEqual(TOOLS);
    expect(snap.tools[0]!.location).toEqual({ file: f, pointer: '/tools/0', line: 3 });
    expect(snap.tools[1]!.location?.pointer).toBe('/tools/1');
    expect(snap.diagnostics.rawBytes).toBeGreaterThan(0);
  });

  it('a recording with a nextCursor is one page of a longer list: a ConfigError at the cursor', async () => {
    for (const text of [
      JSON.stringify({ tools: TOOLS, nextCursor: 'abc' }, null, 2),
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: TOOLS, nextCursor: 'p2' } }, null, 2),
    ]) {
      const f = file(text);
      const err = await configError(readRecorded('rec', f));
      expect(err.message).toContain('one page of a longer list');
      expect(err.location?.pointer).toMatch(/\/nextCursor$/);
      expect(err.fix).toContain('Record every page');
    }
  });

  it("keeps the server's instructions recorded beside the tools (Context7 4.1.1's, as served), in both shapes", async () => {
    const instructions = readFileSync(join(ROOT, 'test/fixtures/surfaces/@upstash+context7-mcp/4.1.1.instructions.txt'), 'utf8');
    const recording = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/surfaces/@upstash+context7-mcp/4.1.1.json'), 'utf8')) as { tools: unknown[] };
    const plain = await readRecorded('rec', file(JSON.stringify({ tools: recording.tools, instructions }, null, 2)));
    expect(plain.server).toEqual({ instructions });
    expect(plain.tools).toHaveLength(recording.tools.length);
    const rpc = await readRecorded('rec', file(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: recording.tools, instructions } })));
    expect(rpc.server).toEqual({ instructions });
    // A recording without them has none (not an empty string).
    expect((await readRecorded('rec', file(JSON.stringify({ tools: TOOLS })))).server).toBeUndefined();
  });

  it('instructions that are not a string: a ConfigError at /instructions with its line', async () => {
    for (const [text, pointer] of [
      [JSON.stringify({ tools: TOOLS, instructions: null }, null, 2), '/instructions'],
      [JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: TOOLS, instructions: ['a'] } }, null, 2), '/result/instructions'],
    ] as const) {
      const err = await configError(readRecorded('rec', file(text)));
      expect(err.message).toMatch(/"instructions" is (null|object), not a string/);
      expect(err.location?.pointer).toBe(pointer);
      expect(err.location?.line).toBeGreaterThan(1);
    }
  });

  it('reads a full JSON-RPC response', async () => {
    const snap = await readRecorded('rec', file(JSON.stringify({ jsonrpc: '2.0', id: 7, result: { tools: TOOLS } })));
    expect(snap.tools.map((t) => t.tool)).toEqual(TOOLS);
    expect(snap.tools[1]!.location?.pointer).toBe('/result/tools/1');
  });

  it('reads a bare array (BOM tolerated)', async () => {
    const snap = await readRecorded('rec', file(`\uFEFF${JSON.stringify(TOOLS)}`));
    expect(snap.tools).toHaveLength(2);
    expect(snap.tools[0]!.location?.pointer).toBe('/0');
  });

  it('gives line and column of a JSON syntax error', async () => {
    const f = file('{\n  "tools": [\n    {"name": "a"},\n  ]\n}\n');
    const err = await configError(readRecorded('rec', f));
    expect(err.location).toMatchObject({ file: f, line: 4, column: 3 });
    expect(err.describe()).toContain(`${f}:4:3`);
    expect(err.message).toContain('not valid JSON');
    expect(err.fix).toBeTruthy();
  });

  it('keeps a tool that is not valid (no name, not an object) with its line, as a live listing does', async () => {
    const f = file('{\n  "tools": [\n    {"name": "a"},\n    {"description": "no name"},\n    7\n  ]\n}\n');
    const snap = await readRecorded('rec', f);
    expect(snap.tools.map((t) => t.tool)).toEqual([{ name: 'a' }, { description: 'no name' }, 7]);
    expect(snap.tools[1]!.location).toMatchObject({ file: f, pointer: '/tools/1', line: 4 });
  });

  it('accepts a bare `{"result": {"tools": [...]}}` (a JSON-RPC response without its envelope keys)', async () => {
    const snap = await readRecorded('rec', file('{"result": {"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}}'));
    expect(snap.tools[0]!.location).toMatchObject({ pointer: '/result/tools/0' });
  });

  it('gives the JSON pointer and line of a bad value', async () => {
    const f = file('{\n  "result": {\n    "tool": []\n  }\n}\n');
    const err = await configError(readRecorded('rec', f));
    expect(err.location).toMatchObject({ file: f, pointer: '/result', line: 2 });
    expect(err.message).toContain('"result.tools" is missing or not an array');
    expect(err.fix).toContain('tools/list');

    const notArray = await configError(readRecorded('rec', file('{"tools": {"a": 1}}')));
    expect(notArray.location?.pointer).toBe('/tools');
    const error = await configError(readRecorded('rec', file('{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}')));
    expect(error.message).toContain('JSON-RPC error response');
    const scalar = await configError(readRecorded('rec', file('42')));
    expect(scalar.message).toContain('found number');
  });

  it('names a missing file', async () => {
    const missing = join(dir.path, 'missing.json');
    const err = await configError(readRecorded('rec', missing));
    expect(err.location?.file).toBe(missing);
    expect(err.message).toContain('no such file');
  });
});
