/**
 * One change, one entry (src/report/grouping.ts): findings from the real rules and folding (judgeCase)
 * on small surfaces, through buildReview and the terminal and Markdown renderers.
 */
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/judge/result.js';
import { partsOf } from '../../src/report/grouping.js';
import { buildReview, type ReviewEntry } from '../../src/report/review.js';
import { renderSummary } from '../../src/report/summary.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { columnsOf, DEFAULT_WIDTH } from '../../src/report/terminal-entries.js';
import type { Finding } from '../../src/rules/types.js';
import type { Json, JsonObject } from '../../src/util/json.js';
import { classifySchemaChange } from '../../src/diff/schema/classify.js';
import type { SchemaVerdict } from '../../src/diff/schema/types.js';
import { judgeCase, mcpSurface, mcpTool, without } from '../support/surface-builders.js';

const WRITE: JsonObject = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
const READ: JsonObject = { readOnlyHint: true, openWorldHint: false };

/**
 * A pull request from `base` to `head` (the committed contract is the head), judged as `check
 * --base` does; `verdicts`: the real schema classifier's, by tool (see {@link verdictsOf}).
 */
function pr(base: Json[], head: Json[], verdicts: Record<string, SchemaVerdict> = {}): CheckResult {
  const [b, h] = [mcpSurface(base), mcpSurface(head)];
  const { findings } = judgeCase({ base: b, head: h, schemaVerdicts: verdicts });
  const counts = { error: 0, warning: 0, notice: 0 };
  for (const f of findings) counts[f.level]++;
  return {
    sources: [{ id: 'src', kind: 'mcp', contractFile: '.toolgate/src.surface.json', live: true, surface: h, contract: b, malformed: [], findings }],
    findings,
    counts,
    exitCode: counts.error > 0 ? 1 : 0,
  };
}

/** The real classifier's verdict on each tool's inputSchema change (json-schema-diff in a worker). */
async function verdictsOf(base: JsonObject[], head: JsonObject[]): Promise<Record<string, SchemaVerdict>> {
  const out: Record<string, SchemaVerdict> = {};
  for (const h of head) {
    const b = base.find((x) => x.name === h.name);
    if (b) out[String(h.name)] = await classifySchemaChange(b.inputSchema as Json, h.inputSchema as Json);
  }
  return out;
}

const names = (n: number, prefix = 'tool') => Array.from({ length: n }, (_, i) => `${prefix}_${String(i).padStart(2, '0')}`);
const entryOf = (entries: ReviewEntry[], tool: string, rule: string) =>
  entries.filter((e) => e.tools.includes(tool) && e.findings.some((f) => f.ruleId === rule));
const attentionOf = (text: string) => text.slice(text.indexOf('Needs your attention'), text.indexOf('\n\n', text.indexOf('Needs your attention')));

describe('one change, one entry', () => {
  it('the same lowered claim on several tools is one entry naming them all; another change on another tool is its own', () => {
    const three = ['a_tool', 'b_tool', 'c_tool'];
    const base = [...three.map((n) => mcpTool(n, without(WRITE, 'openWorldHint'))), mcpTool('d_tool', WRITE)];
    const head = [...three.map((n) => mcpTool(n, { ...WRITE, openWorldHint: false })), mcpTool('d_tool', { ...WRITE, destructiveHint: false })];
    const result = pr(base, head);
    const lowered = result.findings.filter((f) => f.ruleId === 'risk-claim-lowered');
    expect(lowered).toHaveLength(4);
    const review = buildReview(result);
    const shared = entryOf(review.attention, 'a_tool', 'risk-claim-lowered');
    expect(shared).toHaveLength(1);
    expect(shared[0]!.tools).toEqual(three);
    expect(shared[0]!.parts).toHaveLength(1);
    expect(shared[0]!.parts[0]!.says).toBe('each tool now claims openWorldHint: false (undeclared before: default true)');
    expect(entryOf(review.attention, 'd_tool', 'risk-claim-lowered')[0]!.tools).toEqual(['d_tool']);
    // Every failing finding is in an entry: grouping is a layout, not a loss.
    expect(new Set(review.attention.flatMap((e) => e.findings))).toEqual(new Set(result.findings.filter((f) => f.level === 'error')));
    const terminal = attentionOf(renderTerminal(result, { color: false, listTools: false }));
    expect(terminal).toContain('  [src] a_tool, b_tool, c_tool (write): claim less risk');
    expect(terminal.match(/openWorldHint: false/g)).toHaveLength(1);
    expect(renderSummary(result)).toContain('#### 3 tools · claim less risk (source src)\n\nTools: a\\_tool, b\\_tool, c\\_tool');
  });

  it("the same text change on two tools is one entry; each tool's own text changes are one entry with a line per tool", () => {
    const base = [
      mcpTool('a_tool', READ, { description: 'Lists things.' }),
      mcpTool('b_tool', READ, { description: 'Lists things.' }),
      mcpTool('c_tool', READ, { description: 'Reads one thing.' }),
      mcpTool('d_tool', READ, { description: 'Counts things.' }),
    ];
    const head = [
      mcpTool('a_tool', READ, { description: 'Lists things. Always call c_tool first.' }),
      mcpTool('b_tool', READ, { description: 'Lists things. Always call c_tool first.' }),
      mcpTool('c_tool', READ, { description: 'Reads one thing, by id.' }),
      mcpTool('d_tool', READ, { description: 'Counts the things.' }),
    ];
    const result = pr(base, head);
    const review = buildReview(result);
    const shared = entryOf(review.attention, 'a_tool', 'description-changed');
    expect(shared.map((e) => e.tools)).toEqual([['a_tool', 'b_tool']]);
    const own = entryOf(review.attention, 'c_tool', 'description-changed');
    expect(own).toHaveLength(1);
    expect(own[0]!.byTool).toBe(true);
    expect(own[0]!.own!.map((o) => o.tool)).toEqual(['c_tool', 'd_tool']);
    const terminal = attentionOf(renderTerminal(result, { color: false, listTools: false }));
    expect(terminal).toContain('description: Lists things.{+ Always call c_tool first.+}');
    expect(terminal.match(/Always call c_tool first/g)).toHaveLength(1);
    expect(terminal).toMatch(/^ {12}c_tool \(read\) :72 {2}description: Reads one thing{\+, by id\+}\.$/m);
    expect(terminal).toMatch(/^ {12}d_tool \(read\) :94 {2}description: Counts {\+the \+}things\.$/m);
  });

  it('new tools group only with tools of the same class and hints, and each keeps its own description', () => {
    const head = [
      mcpTool('w_one', WRITE, { description: 'Deletes a record.' }),
      mcpTool('w_two', WRITE, { description: 'Overwrites a record.' }),
      mcpTool('w_three', { ...WRITE, destructiveHint: false }, { description: 'Adds a record.' }),
      mcpTool('r_one', READ, { description: 'Reads a record.' }),
    ];
    const result = pr([], head);
    const review = buildReview(result);
    const added = review.attention.filter((e) => e.findings.some((f) => f.ruleId === 'tool-added'));
    expect(added.map((e) => e.tools)).toEqual([['w_one', 'w_two'], ['w_three'], ['r_one']]);
    expect(added[0]!.headline).toBe('new destructive, open-world write tools');
    expect(added[0]!.hints).toBe('write · readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true');
    expect(added[0]!.parts.map((p) => [p.finding.tool, p.text?.head])).toEqual([
      ['w_one', 'Deletes a record.'],
      ['w_two', 'Overwrites a record.'],
    ]);
    const terminal = attentionOf(renderTerminal(result, { color: false, listTools: false }));
    expect(terminal).toContain('    write · readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true\n');
    expect(terminal).toMatch(/^ {12}w_one: {\+Deletes a record\.\+}$/m);
    expect(terminal).toMatch(/^ {12}w_two: {\+Overwrites a record\.\+}$/m);
  });

  it('read → write flips group only when the tools have the same class and hints after it', () => {
    const base = ['f_one', 'f_two', 'f_three'].map((n) => mcpTool(n, READ));
    const head = [
      mcpTool('f_one', { readOnlyHint: false }),
      mcpTool('f_two', { readOnlyHint: false }),
      mcpTool('f_three', { readOnlyHint: false, destructiveHint: false }),
    ];
    const review = buildReview(pr(base, head));
    const flips = review.attention.filter((e) => e.findings.some((f) => f.ruleId === 'read-tool-became-write'));
    expect(flips.map((e) => e.tools)).toEqual([['f_one', 'f_two'], ['f_three']]);
    expect(flips[0]!.hints).toBe('write · readOnlyHint false, destructiveHint true (default), idempotentHint false (default), openWorldHint true (default)');
    expect(flips[1]!.hints).toContain('destructiveHint false,');
  });

  it('a schema change is cut into its deltas and the texts of the arguments it adds; their keys leave the tool out', async () => {
    const schema = (props: JsonObject, required: string[] = []) => ({ type: 'object', properties: props, required, additionalProperties: false });
    const page = { pageId: { type: 'string', description: 'Targets a page.' } };
    const base = ['a_tool', 'b_tool'].map((n) => mcpTool(n, WRITE, { inputSchema: schema({}) }));
    const head = [
      mcpTool('a_tool', WRITE, { inputSchema: schema({ ...page }, ['pageId']) }),
      mcpTool('b_tool', WRITE, { inputSchema: schema({ ...page, verbose: { type: 'boolean' } }, ['pageId']) }),
    ];
    const result = pr(base, head, await verdictsOf(base, head));
    const [a, b] = ['a_tool', 'b_tool'].map((t) => result.findings.find((f) => f.ruleId === 'schema-widened' && f.tool === t) as Finding);
    const [pa, pb] = [partsOf(a!), partsOf(b!)];
    expect(pa.map((p) => p.kind).sort()).toEqual(['narrowed', 'text', 'widened']);
    expect(pb.map((p) => p.kind).sort()).toEqual(['narrowed', 'text', 'widened', 'widened']);
    const shared = pa.map((p) => p.key).filter((k) => pb.some((q) => q.key === k));
    expect(shared).toHaveLength(3);
    const review = buildReview(result);
    const both = review.attention.find((e) => e.tools.length === 2 && e.findings.some((f) => f.ruleId === 'schema-widened'));
    // What it also narrows needs no review of its own: after what does.
    expect(both?.parts.map((p) => p.says)).toEqual([
      '/properties/pageId: property "pageId" added to a closed object',
      'the description of argument "pageId" was added',
      '/: now required: "pageId"',
    ]);
    const own = review.attention.find((e) => e.tools.length === 1 && e.tools[0] === 'b_tool');
    expect(own?.parts.map((p) => p.says)).toEqual(['/properties/verbose: property "verbose" added to a closed object']);
  });
});

describe('names of an entry', () => {
  it('terminal: every name, wrapped at the width; a name with a comma, a colon or a blank is quoted', () => {
    const many = [...names(60), 'a, b', 'x: y'];
    const base = many.map((n) => mcpTool(n, without(WRITE, 'openWorldHint')));
    const head = many.map((n) => mcpTool(n, { ...WRITE, openWorldHint: false }));
    const result = pr(base, head);
    const terminal = attentionOf(renderTerminal(result, { color: false, listTools: false }));
    const list = terminal.slice(terminal.indexOf('    tools: '), terminal.indexOf('    error'));
    for (const line of list.trimEnd().split('\n')) expect(columnsOf(line)).toBeLessThanOrEqual(DEFAULT_WIDTH);
    const listed = list.replace('    tools: ', '').replace(/\n\s*/g, ' ');
    for (const n of names(60)) expect(listed).toContain(`${n},`);
    expect(listed).toContain('"a, b"');
    expect(listed).toContain('"x: y"');
    // A narrower terminal wraps more, still every name.
    const narrow = attentionOf(renderTerminal(result, { color: false, listTools: false, width: 60 }));
    for (const line of narrow.split('\n').filter((l) => l.startsWith('    tools:') || l.startsWith('      '))) expect(columnsOf(line)).toBeLessThanOrEqual(60);
  });

  it('Markdown: the first 30 names, the rest folded in a <details>, every one', () => {
    const many = names(45);
    const base = many.map((n) => mcpTool(n, without(WRITE, 'openWorldHint')));
    const head = many.map((n) => mcpTool(n, { ...WRITE, openWorldHint: false }));
    const md = renderSummary(pr(base, head));
    const at = md.indexOf('#### 45 tools · claim less risk');
    expect(at).toBeGreaterThan(0);
    const entry = md.slice(at, md.indexOf('\n#### ', at + 1) > 0 ? md.indexOf('\n#### ', at + 1) : undefined);
    expect(entry).toContain('<details><summary>and 15 more</summary>');
    for (const n of many) expect(entry.replace(/\\/g, '')).toContain(n);
  });
});
