/** The pure parts of exports: literals, YAML, the admitted set, headers, names, merges. */
import { parse as celParse } from '@marcbachmann/cel-js';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { EXPORT_TARGET_IDS } from '../../src/cli/program.js';
import { DEFAULT_RUNTIME } from '../../src/config/policy-resolve.js';
import { parsePolicy } from '../../src/config/policy.js';
import { exportSet } from '../../src/export/export-set.js';
import { headerComment } from '../../src/export/header.js';
import { celString, jsonAscii, tomlKey, tomlString } from '../../src/export/literals.js';
import type { ExportInput } from '../../src/export/model.js';
import { firstDifference, renderExport } from '../../src/export/render.js';
import { claudeCodeTarget } from '../../src/export/targets/claude-code.js';
import { codexTarget } from '../../src/export/targets/codex.js';
import { dockerTarget } from '../../src/export/targets/docker.js';
import { envoyTarget } from '../../src/export/targets/envoy.js';
import { geminiTarget } from '../../src/export/targets/gemini.js';
import { EXPORT_TARGETS } from '../../src/export/targets/index.js';
import { toolhiveTarget } from '../../src/export/targets/toolhive.js';
import { toYaml, type YamlValue } from '../../src/export/yaml.js';
import type { Surface } from '../../src/surface/model.js';
import type { Json } from '../../src/util/json.js';
import { normalizeSnapshot } from '../../src/surface/normalize.js';
import { ConfigError } from '../../src/util/errors.js';

function contractOf(tools: Json[]): Surface {
  return normalizeSnapshot({ source: { id: 'fs', kind: 'recorded' }, tools: tools.map((tool) => ({ tool })) }).surface;
}
const tool = (name: string, annotations: Json = { readOnlyHint: true }) => ({ name, inputSchema: { type: 'object' }, annotations });
function inputOf(names: string[], refusedNames: string[] = [], server = 'fs'): ExportInput {
  const contract = contractOf([...names, ...refusedNames].map((n) => tool(n)));
  const { admitted, refused } = exportSet(contract, { ...DEFAULT_RUNTIME, deny: refusedNames.map((n) => n.replace(/[*?[\]{}()!+@\\#,|]/g, (c) => `\\${c}`)) });
  return { sourceId: 'fs', server, contractFile: '.toolgate/fs.surface.json', admitted, refused, runtime: DEFAULT_RUNTIME };
}
/** Strings any server could send: every code point but lone surrogates (no target's format keeps those). */
const wellFormed = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', '\\', "'", '\n', '\u2028', '\u202e', '#', ':', '-', '$', '{'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  ),
});

describe('one list of targets', () => {
  it('--to, the policy schema and the targets name the same ids', () => {
    const schema = JSON.parse(readFileSync('schema/toolgate.schema.json', 'utf8')) as {
      properties: { exports: { items: { properties: { to: { enum: string[] } } } } };
    };
    expect([...EXPORT_TARGET_IDS]).toEqual(EXPORT_TARGETS.map((t) => t.id));
    expect(schema.properties.exports.items.properties.to.enum).toEqual(EXPORT_TARGETS.map((t) => t.id));
  });
});

describe('literals: every string reads back as itself', () => {
  it('CEL string literals (evaluated by CEL)', () => {
    fc.assert(
      fc.property(wellFormed, (s) => {
        expect(celParse(celString(s))({})).toBe(s);
      }),
      { numRuns: 300 },
    );
  });
  it('TOML strings and keys (parsed by smol-toml)', () => {
    fc.assert(
      fc.property(wellFormed, (s) => {
        fc.pre(s.length > 0);
        const doc = parseToml(`${tomlKey(s)} = ${tomlString(s)}\n`) as Record<string, unknown>;
        expect(doc[s]).toBe(s);
      }),
      { numRuns: 300 },
    );
  });
  it('JSON (ASCII only) and YAML (1.2 and 1.1 readers) give back every value, printable ASCII only', () => {
    fc.assert(
      fc.property(wellFormed, fc.array(wellFormed, { maxLength: 4 }), (s, list) => {
        expect(JSON.parse(jsonAscii(s))).toBe(s);
        const value: YamlValue = { [s || 'k']: list, key: s, nested: [{ name: s, tools: list }] };
        const text = toYaml(value);
        expect(text).toMatch(/^[\x20-\x7e\n]*$/);
        expect(parseYaml(text)).toEqual(value);
        expect(parseYaml(text, { version: '1.1' })).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });
  it('YAML 1.1 words stay strings; a lone surrogate is refused, not written', () => {
    const text = toYaml({ a: ['yes', 'no', 'on', 'off', 'y', 'null', '~', '1.0', '0x10', '.inf', '2026-12-01'] });
    expect(parseYaml(text, { version: '1.1' })).toEqual({ a: ['yes', 'no', 'on', 'off', 'y', 'null', '~', '1.0', '0x10', '.inf', '2026-12-01'] });
    expect(() => toYaml({ a: '\ud800' })).toThrow(ConfigError);
  });
});

describe('the admitted set', () => {
  it('refuses disabled operations, classes not allowed, denied names, names outside allow-tools, and names pinned twice', () => {
    const contract = contractOf([tool('r'), tool('w', { readOnlyHint: false }), tool('twice'), tool('twice'), tool('rm_all'), tool('other')]);
    const set = exportSet(contract, { ...DEFAULT_RUNTIME, allow: ['read'], deny: ['RM_*'], allowTools: ['r', 'w', 'twice', 'rm_all'] });
    expect(set.admitted.map((t) => t.name)).toEqual(['r']);
    expect(set.refused.map((r) => [r.tool.name, r.reason])).toEqual([
      ['other', 'not-in-allow-tools'],
      ['rm_all', 'denied'],
      ['twice', 'duplicate-name'],
      ['twice', 'duplicate-name'],
      ['w', 'class-not-allowed'],
    ]);
  });
});

describe('headers', () => {
  it('a hostile refused name cannot end the comment or hide in it', () => {
    const input = inputOf(['ok'], ['evil\n- allow: *', 'bidi\u202ex', 'ls\u2028x']);
    const header = headerComment(envoyTarget, input);
    expect(header).toMatch(/^[\x20-\x7e\n]*$/);
    for (const line of header.trimEnd().split('\n')) expect(line.startsWith('# ')).toBe(true);
    expect(header).toContain('"evil\\n- allow: *" (denied)');
  });
});

describe('names a target cannot represent are errors, never rewrites', () => {
  it('claude-code: the whole qualified name must match ^[a-zA-Z0-9_-]{1,64}$; the server name too', () => {
    expect(() => claudeCodeTarget.render(inputOf(['read.file']))).toThrow(/"mcp__fs__read\.file" breaks its rule \^\[a-zA-Z0-9_-\]\{1,64\}\$/);
    // mcp__fs__ is 9 characters: 55 more make 64.
    expect(() => claudeCodeTarget.render(inputOf(['x'.repeat(56)]))).toThrow(ConfigError);
    expect(claudeCodeTarget.render(inputOf(['x'.repeat(55)]))).toContain(`mcp__fs__${'x'.repeat(55)}`);
    expect(() => claudeCodeTarget.render(inputOf(['a'], [], 'my__srv'))).toThrow(/server name "my__srv"/);
  });
  it('toolhive: a comma or a line break in a name; and nothing admitted (ToolHive would expose every tool)', () => {
    expect(() => toolhiveTarget.render(inputOf(['a,b']))).toThrow(/validateToolsFilter/);
    expect(() => toolhiveTarget.render(inputOf([], ['a']))).toThrow(/empty toolsFilter as "every tool"/);
    expect(() => envoyTarget.render(inputOf([], ['a']))).toThrow(/at least one entry/);
  });
  it('envoy: include up to 32 names, one anchored includeRegex past that', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `t${String(i).padStart(2, '0')}`);
    const sel = (n: number) =>
      (parseYaml(envoyTarget.render(inputOf(names(n)))) as { spec: { backendRefs: { toolSelector: Record<string, string[]> }[] } }).spec.backendRefs[0]!
        .toolSelector;
    expect(sel(32).include).toHaveLength(32);
    expect(sel(33).include).toBeUndefined();
    expect(sel(33).includeRegex).toEqual([`^(?:${names(33).join('|')})$`]);
  });
});

describe('settings files the export shares with the user', () => {
  const USER =
    '{\n  "model": "opus",\n  "permissions": {\n    "allow": ["Bash(ls)", "mcp__fs", "mcp__fs__old", "mcp__fsx__keep"],\n    "deny": ["mcp__other__x"]\n  }\n}\n';
  it("claude-code: read tools allowed, write tools asked about, refused tools denied; merge replaces this server's allow rules, keeps every other rule", () => {
    const input = { ...inputOf(['read_file', 'write_file'], ['move_file']) };
    input.admitted = input.admitted.map((t) => (t.name === 'write_file' ? { ...t, safetyClass: 'write' as const } : t));
    const expected = renderExport(claudeCodeTarget, input);
    expect(JSON.parse(expected)).toEqual({ permissions: { allow: ['mcp__fs__read_file'], ask: ['mcp__fs__write_file'], deny: ['mcp__fs__move_file'] } });
    const user = USER.replace('"deny": ["mcp__other__x"]', '"deny": ["mcp__other__x", "mcp__fs__read_file"]');
    const { text: merged, notes } = claudeCodeTarget.merge!(user, expected, input);
    // Edited in place: the user's key order and layout stay.
    expect(merged.startsWith('{\n  "model": "opus",\n  "permissions": {\n    "allow": [')).toBe(true);
    const doc = JSON.parse(merged) as { model: string; permissions: { allow: string[]; ask: string[]; deny: string[] } };
    expect(doc.model).toBe('opus');
    expect(doc.permissions.allow).toEqual(['Bash(ls)', 'mcp__fsx__keep', 'mcp__fs__read_file']);
    expect(doc.permissions.ask).toEqual(['mcp__fs__write_file']);
    // The user's own deny of this server's tool stays (it only refuses more), and they are told.
    expect(doc.permissions.deny).toEqual(['mcp__other__x', 'mcp__fs__read_file', 'mcp__fs__move_file']);
    expect(notes).toEqual([
      'removed from permissions.allow, since the contract does not admit them as read tools: "mcp__fs", "mcp__fs__old"',
      '"mcp__fs__read_file" stays in permissions.deny, though the contract now admits it: remove it by hand if it is not yours',
    ]);
    expect(claudeCodeTarget.compare!(merged, expected, input)).toBeUndefined();
    // A whole-server allow written by hand is a widening: stale. A write tool moved from ask to allow too.
    expect(claudeCodeTarget.compare!(user, expected, input)?.why).toContain('permissions.allow has "mcp__fs", "mcp__fs__old"');
    const promoted = merged.replace('"mcp__fs__read_file"\n    ]', '"mcp__fs__read_file",\n      "mcp__fs__write_file"\n    ]');
    expect(promoted).not.toBe(merged);
    expect(claudeCodeTarget.compare!(promoted, expected, input)?.why).toContain('permissions.allow has "mcp__fs__write_file"');
    // A deny the export wrote, removed by hand: stale.
    expect(claudeCodeTarget.compare!(merged.replace(',\n      "mcp__fs__move_file"', ''), expected, input)?.why).toContain(
      'permissions.deny lacks "mcp__fs__move_file"',
    );
    expect(() => claudeCodeTarget.compare!('{ not json', expected, input)).toThrow(/not strict JSON/);
  });
  it('gemini: includeTools/excludeTools of the one server entry; a missing includeTools is stale (every tool enabled)', () => {
    const input = inputOf(['a', 'b'], ['c']);
    const user = '{"mcpServers": {"fs": {"command": "npx", "args": ["x"]}, "other": {"command": "y"}}}';
    const merged = geminiTarget.merge!(user, renderExport(geminiTarget, input), input).text;
    const doc = JSON.parse(merged) as { mcpServers: Record<string, Record<string, unknown>> };
    expect(doc.mcpServers.fs).toEqual({ command: 'npx', args: ['x'], includeTools: ['a', 'b'], excludeTools: ['c'] });
    // The user's own exclusions stay; excludeTools may hold more than the export's (it only disables more).
    const mine = '{"mcpServers": {"fs": {"command": "npx", "includeTools": ["a", "zz"], "excludeTools": ["b"]}}}';
    const again = geminiTarget.merge!(mine, renderExport(geminiTarget, input), input);
    expect(JSON.parse(again.text).mcpServers.fs).toEqual({ command: 'npx', includeTools: ['a', 'b'], excludeTools: ['b', 'c'] });
    expect(again.notes).toEqual([
      'removed from includeTools, since the contract does not admit them: "zz"',
      '"b" stays in excludeTools, though the contract now admits it: remove it by hand if it is not yours',
    ]);
    expect(geminiTarget.compare!(again.text, renderExport(geminiTarget, input), input)).toBeUndefined();
    expect(doc.mcpServers.other).toEqual({ command: 'y' });
    expect(geminiTarget.compare!(merged, renderExport(geminiTarget, input), input)).toBeUndefined();
    expect(geminiTarget.compare!(user, renderExport(geminiTarget, input), input)?.why).toContain('includeTools is missing');
  });
  it("codex: replaces the two keys in the server's table (arrays over lines, comments, brackets in strings), or appends the table", () => {
    const input = inputOf(['a', 'b'], ['c']);
    const expected = renderExport(codexTarget, input);
    const user =
      'model = "o4"\n\n[mcp_servers.fs]\ncommand = "node"\nenabled_tools = [\n  "x]", # a ] in a comment\n  \'y[\',\n]\nargs = ["s.js"]\ndisabled_tools = ["z"]\n\n[mcp_servers.other]\nenabled_tools = ["keep"]\n';
    const merged = codexTarget.merge!(user, expected, input).text;
    const doc = parseToml(merged) as { model: string; mcp_servers: Record<string, Record<string, unknown>> };
    expect(doc.model).toBe('o4');
    // The user's disabled "z" stays (it only disables more); the export's "c" is added.
    expect(doc.mcp_servers.fs).toEqual({ command: 'node', args: ['s.js'], enabled_tools: ['a', 'b'], disabled_tools: ['z', 'c'] });
    expect(doc.mcp_servers.other).toEqual({ enabled_tools: ['keep'] });
    const appended = codexTarget.merge!('model = "o4"\n', expected, input).text;
    expect((parseToml(appended) as { mcp_servers: Record<string, unknown> }).mcp_servers.fs).toEqual({ enabled_tools: ['a', 'b'], disabled_tools: ['c'] });
    // Written some other way than a table header: refused rather than half-merged.
    expect(() => codexTarget.merge!('mcp_servers = { fs = { command = "node" } }\n', expected, input)).toThrow(/not written as a table header/);
    expect(codexTarget.compare!(user, expected, input)?.why).toContain('enabled_tools has "x]", "y["');
  });
  it('firstDifference', () => {
    expect(firstDifference('a\nb\n', 'a\nb\n')).toBeUndefined();
    expect(firstDifference('a\nc\n', 'a\nb\n')?.line).toBe(2);
    expect(firstDifference('a\nb', 'a\nb\n')?.line).toBe(2);
    // Headers of different lengths: the body line that differs, in each file.
    expect(firstDifference('# h\nx\ny\n', '# h\n# more\nx\nz\n', '#')).toEqual({ line: 3, expectedLine: 4 });
    // Only the headers differ: the header line.
    expect(firstDifference('# h1\nx\n', '# h2\nx\n', '#')).toEqual({ line: 1, expectedLine: 1 });
  });
});

describe('exports in toolgate.yml', () => {
  const src = 'sources:\n  - id: a\n    recorded: a.json\n  - id: b\n    recorded: b.json\n';
  const load = (text: string) => parsePolicy(text, 'toolgate.yml', '/repo');
  it('an entry needs its source when there are several; an unknown source or target is an error on its line', () => {
    expect(() => load(`${src}exports:\n  - to: docker\n    file: t.yaml\n`)).toThrow(/needs `source`: toolgate.yml has 2 sources/);
    expect(() => load(`${src}exports:\n  - to: docker\n    file: t.yaml\n    source: c\n`)).toThrow(/names source "c"/);
    const e = (() => {
      try {
        load(`${src}exports:\n  - to: dockr\n    file: t.yaml\n    source: a\n`);
      } catch (x) {
        return x as ConfigError;
      }
    })();
    expect(e?.location?.line).toBe(7);
    const p = load(`${src}exports:\n  - to: docker\n    file: deploy/t.yaml\n    source: b\n    server: docker-srv\n`);
    expect(p.exports).toEqual([{ to: 'docker', file: '/repo/deploy/t.yaml', source: 'b', server: 'docker-srv', pointer: '/exports/0' }]);
  });
});

describe('what a hostile pull request tried', () => {
  const USER = (extra: string) => `{"permissions": {"allow": ["mcp__fs__read_file", ${extra}], "deny": ["mcp__fs__move_file"]}}`;
  it("claude-code: a whole-server rule in any spelling (with a specifier, another case, spaces) is this export's, so stale", () => {
    const input = inputOf(['read_file'], ['move_file']);
    const expected = renderExport(claudeCodeTarget, input);
    expect(claudeCodeTarget.compare!(USER('"Bash(ls)"').replace(', "Bash(ls)"', ''), expected, input)).toBeUndefined();
    for (const rule of ['"mcp__fs(*)"', '"mcp__fs()"', '"mcp__fs__write_file(*)"', '"MCP__FS__write_file"', '" mcp__fs "', '"mcp__fs__*"']) {
      expect(claudeCodeTarget.compare!(USER(rule), expected, input)?.why, rule).toContain('permissions.allow has');
      const merged = JSON.parse(claudeCodeTarget.merge!(USER(rule), expected, input).text) as { permissions: { allow: string[] } };
      expect(merged.permissions.allow, rule).toEqual(['mcp__fs__read_file']);
    }
  });
  it('claude-code: a refused tool is denied by the name Claude Code shows; one shown as an admitted name is an error', () => {
    const shown = inputOf(['read_file'], ['write.file']);
    expect(JSON.parse(claudeCodeTarget.render(shown)).permissions.deny).toEqual(['mcp__fs__write_file']);
    expect(() => claudeCodeTarget.render(inputOf(['read_file'], ['read.file']))).toThrow(
      /refused tool name "read\.file" breaks its rule that Claude Code shows it under the name of an admitted tool/,
    );
    expect(() => claudeCodeTarget.render(inputOf(['']))).toThrow(/qualified tool name "mcp__fs__"/);
  });
  it('gemini: a name with "(", "$" or "%" is refused in includeTools (it could enable another tool), left out of excludeTools', () => {
    for (const n of ['write_file(x)', '$SHELL', '${HOME}', '%PATH%'])
      expect(() => geminiTarget.render(inputOf(['read_file', n])), n).toThrow(/no "\(" .*"\$" or "%"/);
    const doc = JSON.parse(geminiTarget.render(inputOf(['read_file'], ['$X', 'rm']))) as { mcpServers: { fs: { excludeTools: string[] } } };
    expect(doc.mcpServers.fs.excludeTools).toEqual(['rm']);
  });
  it('a contract path with a line break cannot add lines to a header', () => {
    const input = { ...inputOf(['read_file']), contractFile: '.toolgate/fs\nfs: [read_file, delete_all]\n---\n#.json' };
    const text = renderExport(dockerTarget, input);
    expect(parseYaml(text)).toEqual({ fs: ['read_file'] });
    expect(text.split('\n').filter((l) => !l.startsWith('#'))).toEqual(['fs:', '  - read_file', '']);
  });
  it('a settings file nested thousands deep is a clear error, not a crash', () => {
    const input = inputOf(['read_file']);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(() => claudeCodeTarget.compare!(deep, renderExport(claudeCodeTarget, input), input)).toThrow(ConfigError);
    expect(() => geminiTarget.compare!(deep, renderExport(geminiTarget, input), input)).toThrow(/nested too deeply/);
    expect(() => geminiTarget.merge!(deep, renderExport(geminiTarget, input), input).text).toThrow(ConfigError);
  });
  it('a name that is not valid Unicode (a lone surrogate) cannot be exported to any target', () => {
    for (const t of EXPORT_TARGETS) {
      expect(() => renderExport(t, inputOf(['read_file', 'bad\ud800'])), t.id).toThrow(/not valid Unicode/);
      expect(() => renderExport(t, inputOf(['read_file'], ['bad\udfff'])), t.id).toThrow(/not valid Unicode/);
    }
  });
});

describe("what a hostile pull request tried, on the targets' own splitting", () => {
  it('claude-code: a server name Claude Code would split elsewhere is refused; rules are read the way Claude Code splits them', () => {
    for (const server of ['fs_', '_fs', 'a__b']) expect(() => claudeCodeTarget.render(inputOf(['read_file'], [], server)), server).toThrow(/server name/);
    const input = inputOf(['read_file']);
    const expected = renderExport(claudeCodeTarget, input);
    // `mcp__fs___x` is server fs, tool _x: this server's.
    expect(claudeCodeTarget.compare!('{"permissions": {"allow": ["mcp__fs__read_file", "mcp__fs___x"]}}', expected, input)?.why).toContain('"mcp__fs___x"');
    expect(claudeCodeTarget.compare!('{"permissions": {"allow": ["mcp__fs__read_file", "mcp__fsx__y", "mcp__f"]}}', expected, input)).toBeUndefined();
  });
  it('claude-code: a file Claude Code would ignore whole (not strict JSON), bypassPermissions, or a key given twice is stale, and is not merged into', () => {
    const input = inputOf(['read_file'], ['move_file']);
    const expected = renderExport(claudeCodeTarget, input);
    const ok = JSON.parse(expected) as { permissions: Record<string, unknown> };
    expect(claudeCodeTarget.compare!(JSON.stringify(ok), expected, input)).toBeUndefined();
    expect(() => claudeCodeTarget.compare!(`// mine\n${JSON.stringify(ok)}`, expected, input)).toThrow(/not strict JSON/);
    expect(() => claudeCodeTarget.merge!(`{"a": 1,}`, expected, input)).toThrow(/not strict JSON/);
    expect(claudeCodeTarget.compare!(JSON.stringify({ permissions: { ...ok.permissions, defaultMode: 'bypassPermissions' } }), expected, input)?.why).toContain(
      'bypassPermissions',
    );
    const twice = `{"permissions": {"allow": []}, ${JSON.stringify(ok).slice(1)}`;
    expect(() => claudeCodeTarget.compare!(twice, expected, input)).toThrow(/"permissions" is given twice/);
    expect(() => claudeCodeTarget.merge!(twice, expected, input)).toThrow(/given twice/);
  });
  it('merging into a settings file of the wrong shape is a clear error, not a crash', () => {
    const input = inputOf(['read_file']);
    for (const bad of ['{"permissions": []}', '{"permissions": null}', 'null', '[]', '"x"'])
      expect(() => claudeCodeTarget.merge!(bad, renderExport(claudeCodeTarget, input), input), bad).toThrow(ConfigError);
    for (const bad of ['{"mcpServers": []}', '{"mcpServers": {"fs": "x"}}', 'null'])
      expect(() => geminiTarget.merge!(bad, renderExport(geminiTarget, input), input), bad).toThrow(ConfigError);
  });
  it('claude-code: names as Claude Code shows them after NFKC and without invisible characters', () => {
    const full = inputOf(['read_file'], ['ｄelete_all']);
    expect(JSON.parse(claudeCodeTarget.render(full)).permissions.deny).toEqual(['mcp__fs__delete_all']);
    // Built by hand: runtime.deny folds invisible characters, so it would refuse both.
    const both = inputOf(['read_file', 'read_file\u200b']);
    const split = {
      ...both,
      admitted: both.admitted.filter((t) => t.name === 'read_file'),
      refused: both.admitted.filter((t) => t.name !== 'read_file').map((tool) => ({ tool, reason: 'denied' as const })),
    };
    expect(() => claudeCodeTarget.render(split)).toThrow(/refused tool name/);
  });
});
