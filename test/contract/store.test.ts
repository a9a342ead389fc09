/** Contract store: parse/verify (hand edits are refused with file, line and fix), atomic writes. */
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { serializeContract } from '../../src/contract/serialize.js';
import { parseContract, readContract, readUnverifiedContract, writeContract } from '../../src/contract/store.js';
import { ConfigError } from '../../src/util/errors.js';
import { parseJsonDocument } from '../../src/util/json-file.js';
import { ROOT, tempDir } from '../support/mcp-fixtures.js';
import { buildSurface, evaluateCase, mcpSurface, mcpTool, openapiSurface, readTool, writeTool } from '../support/surface-builders.js';

const FIXTURE = join(ROOT, 'test/fixtures/contracts/notes.surface.json');
const TEXT = readFileSync(FIXTURE, 'utf8');
const FILE = '.toolgate/notes.surface.json';

/** The surface the fixture was written from (see test/fixtures/contracts/README.md). */
const NOTES = mcpSurface(
  [
    writeTool('save_note', {
      title: 'Save a note',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      outputSchema: { type: 'object', properties: { id: { type: 'string' } } },
    }),
    readTool('list_notes'),
    mcpTool('purge', undefined, { description: 'Deletes every note.' }),
  ],
  { id: 'notes', server: { name: 'notes-server', version: '1.0.0', protocolVersion: '2025-11-25' } },
);

/** Replaces line `n` (1-based) of the fixture, after checking it holds `expected`. */
function editLine(n: number, expected: string, replacement: string, text = TEXT): string {
  const lines = text.split('\n');
  expect(lines[n - 1], `line ${n} of the fixture`).toContain(expected);
  lines[n - 1] = (lines[n - 1] as string).replace(expected, replacement);
  return lines.join('\n');
}

function refused(text: string): ConfigError {
  try {
    parseContract(text, FILE);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('the contract was accepted');
}

describe('parseContract', () => {
  it('the fixture is exactly what serializeContract writes for its surface', () => {
    expect(serializeContract(NOTES).text).toBe(TEXT);
  });

  it('round trip: serialize → parse gives the same surface', () => {
    const surfaces = [
      NOTES,
      openapiSurface([
        { name: 'get_items', method: 'GET', path: '/items', operationId: 'getItems' },
        { name: 'post_quote', method: 'POST', path: '/quote', operationId: 'postQuote', promoted: true },
        { name: 'delete_item', method: 'DELETE', path: '/items/{id}' },
      ]),
      mcpSurface(
        [
          mcpTool(
            'é_unicode',
            { title: 'T', 'x-vendor': [1, 2] },
            { _meta: { note: 'x' }, icons: [{ src: 'data:,' }], execution: { taskSupport: 'optional' } },
          ),
          mcpTool('\u{1F600}'),
          readTool('Z'),
        ],
        { clientCapabilities: { roots: { listChanged: true } }, transport: 'streamable-http' },
      ),
      mcpSurface([]),
    ];
    for (const s of surfaces) {
      const { text, lines } = serializeContract(s);
      const loaded = parseContract(text, FILE);
      expect(loaded.surface).toEqual(s);
      expect(loaded.file).toBe(FILE);
      // The reader's line map agrees with the writer's down to the tools' keys (4 levels, what
      // findings point at); deeper pointers get the line of their ancestor at that depth.
      for (const [pointer, line] of lines) {
        const segments = pointer.split('/').slice(1);
        const at = segments.length <= 4 ? pointer : `/${segments.slice(0, 4).join('/')}`;
        expect(loaded.lineOf(pointer), pointer).toBe(segments.length <= 4 ? line : lines.get(at));
      }
      expect(serializeContract(loaded.surface).text).toBe(text);
    }
  });

  it('lineOf falls back to the nearest existing parent', () => {
    const loaded = parseContract(TEXT, FILE);
    expect(loaded.lineOf('/tools/0/annotations/readOnlyHint')).toBe(34);
    expect(loaded.lineOf('/tools/1/annotations/readOnlyHint')).toBe(50); // purge has no annotations
    expect(loaded.lineOf('/nope')).toBe(1);
  });

  const HAND_EDITS: { name: string; text: () => string; line: number; pointer?: string; message: RegExp }[] = [
    {
      name: 'changed effectiveHints',
      text: () => editLine(37, '"readOnlyHint": true', '"readOnlyHint": false'),
      line: 37,
      pointer: '/tools/0/effectiveHints/readOnlyHint',
      message: /tool "list_notes" has effective readOnlyHint false but its annotations give true/,
    },
    {
      name: 'annotations loosened without the derived fields (class no longer matches)',
      text: () => editLine(77, '"readOnlyHint": false', '"readOnlyHint": true'),
      line: 72,
      pointer: '/tools/2/safetyClass',
      message: /tool "save_note" has safetyClass "write" but its annotations give "read"/,
    },
    {
      name: 'a consistent-looking loosening is caught by the tool digest',
      text: () => editLine(81, '"destructiveHint": false', '"destructiveHint": true', editLine(74, '"destructiveHint": false', '"destructiveHint": true')),
      line: 105,
      pointer: '/tools/2/digest',
      message: /tool "save_note" digest does not match its definition/,
    },
    {
      name: 'changed tool digest',
      text: () => editLine(65, '"1646aa52', '"0646aa52'),
      line: 65,
      pointer: '/tools/1/digest',
      message: /tool "purge" digest does not match/,
    },
    {
      name: 'changed inputSchema without its digest',
      text: () => editLine(89, '"type": "string"', '"type": "number"'),
      line: 106,
      pointer: '/tools/2/inputSchemaDigest',
      message: /inputSchemaDigest does not match its inputSchema/,
    },
    {
      name: 'unknown key',
      text: () => editLine(27, '"name": "list_notes",', '"name": "list_notes",\n      "allow": true,'),
      line: 28,
      pointer: '/tools/0/allow',
      message: /unknown key "allow"/,
    },
    {
      name: 'wrong type',
      text: () => editLine(16, '"readOnlyToolCount": 1', '"readOnlyToolCount": "1"'),
      line: 16,
      pointer: '/counts/readOnlyToolCount',
      message: /must be integer/,
    },
    {
      name: 'invalid enum value',
      text: () => editLine(53, '"safetyClass": "write"', '"safetyClass": "trusted"'),
      line: 53,
      pointer: '/tools/1/safetyClass',
      message: /"read", "write", "disabled"/,
    },
    {
      name: 'JSON syntax error (missing comma)',
      text: () => editLine(28, '"The list_notes tool.",', '"The list_notes tool."'),
      line: 29,
      message: /invalid JSON: expected ',' or '}' after a property value/,
    },
  ];

  it.each(HAND_EDITS)('a hand edit is refused: $name', ({ text, line, pointer, message }) => {
    const e = refused(text());
    expect(e.message).toMatch(message);
    expect(e.location?.file).toBe(FILE);
    expect(e.location?.line).toBe(line);
    if (pointer !== undefined) expect(e.location?.pointer).toBe(pointer);
    expect(e.fix).toMatch(/toolgate update/);
    expect(e.describe()).toContain(`${FILE}:${line}`);
    expect(e.exitCode).toBe(2);
  });

  describe('verified against the listed tools (check)', () => {
    const dir = tempDir('tg-verify-listed-');
    afterAll(dir.cleanup);
    /** `text` read as check reads it, then verified against `listed`. */
    const verifiedAgainst = async (text: string, listed: Parameters<NonNullable<Awaited<ReturnType<typeof readUnverifiedContract>>>['verify']>[0]) => {
      const file = join(dir.path, 'c.json');
      writeFileSync(file, text);
      return (await readUnverifiedContract(file, FILE))!.verify(listed);
    };

    it.each(HAND_EDITS)('a hand edit is refused at the same place, the server listing the tools as pinned: $name', async ({ text, line, pointer, message }) => {
      const e = await verifiedAgainst(text(), NOTES.tools).then(
        () => undefined,
        (x: unknown) => x as ConfigError,
      );
      expect(e).toBeInstanceOf(ConfigError);
      expect(e!.message).toMatch(message);
      expect(e!.location?.line).toBe(line);
      if (pointer !== undefined) expect(e!.location?.pointer).toBe(pointer);
    });

    it('gives the surface parseContract gives, whatever the server lists', async () => {
      const changed = mcpSurface([readTool('list_notes', { description: 'now different' }), writeTool('save_note'), readTool('new_tool')]).tools;
      for (const listed of [NOTES.tools, changed, [], undefined]) {
        const loaded = await verifiedAgainst(TEXT, listed);
        expect(loaded.surface).toEqual(parseContract(TEXT, FILE).surface);
      }
    });

    it('an entry that differs from what toolgate writes for the listed tool is derived again: a forged digest is refused', async () => {
      // An entry whose digest was forged to the listed tool's, over a changed description: not
      // equal to what toolgate writes for the listed tool, so derived again and refused.
      const forged = editLine(52, '"description": "Deletes every note."', '"description": "Deletes nothing."');
      await expect(verifiedAgainst(forged, NOTES.tools)).rejects.toThrow(/tool "purge" digest does not match its definition/);
      await expect(verifiedAgainst(TEXT, NOTES.tools)).resolves.toBeDefined();
    });
  });

  // Top-level aggregates are kept as pinned (removing a tool entry by hand is a way to revoke
  // it): the file is accepted and the disagreement is reported against the live surface.
  const live = NOTES;
  const stale = (text: string) => {
    const contract = parseContract(text, FILE).surface;
    return evaluateCase({ name: 'x', head: live, contract }).filter(
      (f) => f.ruleId === 'contract-stale' || f.ruleId === 'count-mismatch' || f.ruleId === 'unlisted-tool',
    );
  };

  it('the untouched fixture is not stale against its own surface', () => {
    expect(stale(TEXT)).toEqual([]);
  });

  it('a hand-changed count is kept as pinned and reported as count-mismatch and contract-stale', () => {
    const text = editLine(15, '"toolCount": 3', '"toolCount": 2');
    expect(parseContract(text, FILE).surface.counts.toolCount).toBe(2);
    expect(stale(text).map((f) => [f.ruleId, f.data])).toEqual([
      ['contract-stale', { differences: 1, kinds: ['count-changed'] }],
      ['count-mismatch', { count: 'toolCount', base: 2, head: 3 }],
    ]);
  });

  it('a hand-changed surface digest or payloadBytes is reported as contract-stale', () => {
    const digest = editLine(24, '"12e18acd', '"00000000');
    expect(parseContract(digest, FILE).surface.digest.startsWith('00000000')).toBe(true);
    expect(stale(digest).map((f) => [f.ruleId, f.data, f.pointer])).toEqual([['contract-stale', { differences: 1, kinds: ['digest'] }, '/digest']]);
    const bytes = editLine(23, '"payloadBytes": 748', '"payloadBytes": 700');
    expect(stale(bytes).map((f) => [f.ruleId, f.data])).toEqual([['contract-stale', { differences: 1, kinds: ['payloadBytes'] }]]);
  });

  it('a tool entry removed by hand revokes it: the served tool is unlisted', () => {
    const lines = TEXT.split('\n');
    // Remove tool 1 (purge, lines 50-67).
    const text = [...lines.slice(0, 49), ...lines.slice(67)].join('\n');
    const loaded = parseContract(text, FILE);
    expect(loaded.surface.tools.map((t) => t.name)).toEqual(['list_notes', 'save_note']);
    expect(loaded.surface.counts.toolCount).toBe(3);
    expect(stale(text).map((f) => [f.ruleId, f.tool])).toEqual([
      ['contract-stale', undefined],
      ['unlisted-tool', 'purge'],
    ]);
  });

  it('unsorted tools are read (sorted in the surface) and indexOf keeps their place in the file', () => {
    const lines = TEXT.split('\n');
    // Swap the blocks of tools 0 (lines 26-49) and 1 (lines 50-67).
    const t0 = lines.slice(25, 48); // without its closing "},"
    const t1 = lines.slice(49, 66);
    const text = [...lines.slice(0, 25), ...t1, '    },', ...t0, ...lines.slice(66)].join('\n');
    const loaded = parseContract(text, FILE);
    expect(loaded.surface).toEqual(NOTES);
    expect(loaded.indexOf.get('purge')).toBe(0);
    expect(loaded.indexOf.get('list_notes')).toBe(1);
    expect(loaded.lineOf(`/tools/${loaded.indexOf.get('list_notes')}`)).toBe(44);
    expect(stale(text)).toEqual([]);
  });

  it('a newer formatVersion asks for an upgrade', () => {
    const e = refused(editLine(2, '"formatVersion": 2', '"formatVersion": 3'));
    expect(e.message).toMatch(/contract format 3 is newer than this toolgate understands \(2\)/);
    expect(e.location).toMatchObject({ file: FILE, line: 2, pointer: '/formatVersion' });
    expect(e.fix).toMatch(/Upgrade toolgate/);
  });

  it('an empty file is refused', () => {
    const e = refused('');
    expect(e.location).toMatchObject({ file: FILE, line: 1 });
  });
});

describe('readContract / writeContract', () => {
  const dir = tempDir('tg-contract-');
  afterAll(() => dir.cleanup());

  it('returns undefined when there is no contract yet', async () => {
    expect(await readContract(join(dir.path, 'missing.surface.json'))).toBeUndefined();
  });

  it('writes the serialized text, creating directories, and reads it back', async () => {
    const file = join(dir.path, 'nested', '.toolgate', 'notes.surface.json');
    const out = await writeContract(file, NOTES);
    expect(out.text).toBe(TEXT);
    expect(readFileSync(file, 'utf8')).toBe(TEXT);
    const loaded = await readContract(file, 'shown.json');
    expect(loaded?.surface).toEqual(NOTES);
    expect(loaded?.file).toBe('shown.json');
  });

  it('a second identical update leaves the file byte-identical and no temp files behind', async () => {
    const file = join(dir.path, 'same', 'notes.surface.json');
    await writeContract(file, NOTES);
    const first = readFileSync(file);
    await writeContract(file, NOTES);
    expect(readFileSync(file).equals(first)).toBe(true);
    expect(readdirSync(join(dir.path, 'same'))).toEqual(['notes.surface.json']);
  });

  it('a read error names the display path', async () => {
    const asDir = join(dir.path, 'is-a-dir.surface.json');
    mkdirSync(asDir);
    const e = await readContract(asDir, 'shown.json').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).location?.file).toBe('shown.json');
  });

  it('when the rename cannot happen the target directory is untouched and the temp file removed', async () => {
    // The target is a non-empty directory: rename(temp, target) fails even as root.
    const target = join(dir.path, 'blocked', 'notes.surface.json');
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'keep'), 'x');
    await expect(writeContract(target, NOTES)).rejects.toThrow();
    expect(readdirSync(join(dir.path, 'blocked'))).toEqual(['notes.surface.json']);
    expect(readdirSync(target)).toEqual(['keep']);
  });

  it.skipIf(process.getuid?.() === 0)('in a read-only directory the old contract is kept intact', async () => {
    const ro = join(dir.path, 'ro');
    mkdirSync(ro);
    const file = join(ro, 'notes.surface.json');
    writeFileSync(file, 'old contract\n');
    chmodSync(ro, 0o555);
    try {
      await expect(writeContract(file, NOTES)).rejects.toThrow();
      expect(readFileSync(file, 'utf8')).toBe('old contract\n');
      expect(readdirSync(ro)).toEqual(['notes.surface.json']);
    } finally {
      chmodSync(ro, 0o755);
    }
  });
});

describe('duplicate keys (one linear scan of the text)', () => {
  /** `k` as a JSON string with every UTF-16 unit escaped: the same key to JSON.parse. */
  const escapedKey = (k: string) => `"${Array.from({ length: k.length }, (_, i) => `\\u${k.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`;

  it('strings holding braces, quotes, colons and escapes are not keys; equal keys in sibling objects are fine', () => {
    const text = JSON.stringify({ a: '{"a": 1, "a": 2}', b: ['"b":', '\\', { b: 1 }, { b: 2 }], c: { a: { a: '\\"a\\"' } } }, null, 2);
    expect(parseJsonDocument(text, 'f.json', 'fix', { duplicateKeys: 'error' }).value).toEqual(JSON.parse(text));
  });

  it('property: JSON.stringify output always passes; one key repeated (plain or \\u-escaped) anywhere is found at its pointer', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.jsonValue(),
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1 }),
        fc.nat(),
        fc.boolean(),
        fc.constantFrom(0, 2),
        (before, after, obj, pick, escape, indent) => {
          const plain = JSON.stringify([before, { x: obj }, after], null, indent);
          expect(() => parseJsonDocument(plain, 'f.json', 'fix', { duplicateKeys: 'error' })).not.toThrow();
          const keys = Object.keys(obj);
          const key = keys[pick % keys.length] as string;
          const inner = JSON.stringify(obj);
          const dupText = `${inner.slice(0, -1)},${escape ? escapedKey(key) : JSON.stringify(key)}:0}`;
          const text = `[${JSON.stringify(before)},{"x":${dupText}},${JSON.stringify(after)}]`;
          let error: unknown;
          try {
            parseJsonDocument(text, 'f.json', 'fix', { duplicateKeys: 'error' });
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(ConfigError);
          expect((error as ConfigError).location?.pointer).toBe(`/1/x/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a contract of 15+ MB is checked in one pass (no syntax tree: that took seconds and hundreds of MB)', () => {
    const tools = Array.from({ length: 6000 }, (_, i) => ({
      name: `t${i}`,
      description: 'word '.repeat(500),
      inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { enum: ['x', '{"y"'] } } },
    }));
    const text = JSON.stringify({ formatVersion: 1, tools }, null, 2);
    expect(text.length).toBeGreaterThan(15_000_000);
    const started = performance.now();
    parseJsonDocument(text, 'big.json', 'fix', { duplicateKeys: 'error' });
    const ms = performance.now() - started;
    console.log(`store: ${(text.length / 1e6).toFixed(1)} MB parsed with the duplicate-key check in ${Math.round(ms)} ms`);
    expect(ms).toBeLessThan(10_000);
  });
});

describe('a malformed tool in a contract (pinned as served)', () => {
  const untyped = { name: 'untyped', description: 'd', inputSchema: { properties: { q: { type: 'string' } } }, title: 7 };
  const text = () => serializeContract(buildSurface([{ tool: untyped }, { tool: readTool('fine') }]).surface).text;
  const edit = (f: (tool: Record<string, unknown>) => void): string => {
    const doc = JSON.parse(text()) as { tools: Record<string, unknown>[] };
    f(doc.tools.find((t) => t.name === 'untyped')!);
    return JSON.stringify(doc, null, 2) + '\n';
  };

  it('reads back with its reason, and its misfit title kept under `extra`', () => {
    const back = parseContract(text(), FILE).surface.tools.find((t) => t.name === 'untyped')!;
    expect(back.malformed).toBe('`title` is a number, not a string; `inputSchema.type` is missing, not "object"');
    expect(back.extra).toEqual({ title: 7 });
    expect(back.title).toBeUndefined();
  });

  it('removing the `malformed` mark by hand is refused', () => {
    const e = refused(edit((t) => delete t.malformed));
    expect(e.message).toMatch(/tool "untyped" is malformed \(.*\) but not marked so/);
    expect(e.location?.pointer).toMatch(/^\/tools\/\d+\/malformed$/);
  });

  it('marking a well-formed tool malformed by hand is refused', () => {
    const doc = JSON.parse(text()) as { tools: Record<string, unknown>[] };
    doc.tools.find((t) => t.name === 'fine')!.malformed = 'x';
    const e = refused(JSON.stringify(doc, null, 2));
    expect(e.message).toMatch(/tool "fine" is marked malformed but its definition is well formed/);
  });

  it('a value of the right type moved into `extra` by hand is refused (it would show one thing and serve another)', () => {
    const e = refused(edit((t) => ((t.extra as Record<string, unknown>).description = 'hidden')));
    expect(e.message).toMatch(/keeps "description" in `extra`/);
  });
});
