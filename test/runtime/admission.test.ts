/** List-time admission and call-time argument checks (docs/design.md §11), on surfaces built by the real normalizer. */
import { describe, expect, it } from 'vitest';
import type { RuntimePolicy } from '../../src/config/policy-model.js';
import { DEFAULT_RUNTIME } from '../../src/config/policy-resolve.js';
import { admit } from '../../src/runtime/admission.js';
import { ArgumentsChecker } from '../../src/runtime/arguments.js';
import type { Json } from '../../src/util/json.js';
import { mcpSurface, mcpTool, readTool, writeTool } from '../support/surface-builders.js';

const runtime = (over: Partial<RuntimePolicy> = {}): RuntimePolicy => ({ ...DEFAULT_RUNTIME, ...over });
const reasons = (listed: Json[], pinned: Json[], over: Partial<RuntimePolicy> = {}) =>
  admit(listed, mcpSurface(pinned), runtime(over)).decisions.map((d) => `${d.tool}:${d.reason}`);

describe('admit', () => {
  const pinned = [readTool('get'), writeTool('put'), readTool('list')];

  it('admits pinned tools whose live definition equals the pinned one, and shows them exactly as listed', () => {
    const listed = [readTool('get'), writeTool('put')];
    const a = admit(listed, mcpSurface(pinned), runtime());
    expect([...a.tools.keys()]).toEqual(['get', 'put']);
    expect(a.tools.get('get')?.listed).toBe(listed[0]);
  });

  it('hides a tool the contract does not pin, and one whose definition drifted in any way (text, hints, schema)', () => {
    expect(reasons([readTool('new')], pinned)).toEqual(['new:not-in-contract']);
    expect(reasons([readTool('get', { description: 'Changed.' })], pinned)).toEqual(['get:drifted']);
    expect(reasons([mcpTool('get', { readOnlyHint: true })], pinned)).toEqual(['get:drifted']);
    expect(reasons([readTool('get', { inputSchema: { type: 'object', properties: { x: { type: 'string' } } } })], pinned)).toEqual(['get:drifted']);
  });

  it('runtime.allow [read] gives the read-only agent; deny and allow-tools narrow by name (deny also as a person reads it)', () => {
    const listed = [readTool('get'), writeTool('put'), readTool('list')];
    expect(reasons(listed, pinned, { allow: ['read'] })).toEqual(['get:admitted', 'put:class-not-allowed', 'list:admitted']);
    expect(reasons(listed, pinned, { deny: ['LIS*'] })).toEqual(['get:admitted', 'put:admitted', 'list:denied']);
    expect(reasons(listed, pinned, { allowTools: ['get'] })).toEqual(['get:admitted', 'put:not-in-allow-tools', 'list:not-in-allow-tools']);
  });

  it('runtime.require-safer admits only tools on the safer side of each field (a missing value is the less safe side unless a default says otherwise)', () => {
    const paid = { name: 'paid', pointer: '/_meta/com.example~1paid', safer: false, at: '/safety-fields/0' };
    const tools = [
      readTool('free'),
      { ...writeTool('charge'), _meta: { 'com.example/paid': true } },
      { ...writeTool('declared'), _meta: { 'com.example/paid': false } },
    ];
    expect(reasons(tools, tools, { requireSafer: [paid] })).toEqual(['free:less-safe', 'charge:less-safe', 'declared:admitted']);
    expect(reasons(tools, tools, { requireSafer: [{ ...paid, default: false }] })).toEqual(['free:admitted', 'charge:less-safe', 'declared:admitted']);
  });

  it('on-drift: refuse-all admits nothing once one tool drifted; a duplicated name is never admitted', () => {
    expect(reasons([readTool('get'), readTool('list', { description: 'x' })], pinned, { onDrift: 'refuse-all' })).toEqual(['get:refuse-all', 'list:drifted']);
    expect(reasons([readTool('get'), readTool('get')], pinned)).toEqual(['get:duplicate-name', 'get:duplicate-name']);
    expect(reasons([{ name: 5 } as unknown as Json], pinned)).toEqual(['undefined:malformed']);
  });
});

describe('ArgumentsChecker', () => {
  const schema = { type: 'object', properties: { path: { type: 'string', maxLength: 10 }, n: { type: 'integer' } }, required: ['path'] };
  const tool = mcpSurface([readTool('read', { inputSchema: schema })]).tools[0]!;
  const open = mcpSurface([readTool('open', { inputSchema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true } })]).tools[0]!;
  const checker = new ArgumentsChecker();

  it('passes arguments the pinned schema accepts', () => {
    expect(checker.check(tool, { path: 'a' })).toEqual({ ok: true });
    expect(checker.check(tool, { path: 'a', n: 2 })).toEqual({ ok: true });
  });

  it('refuses what the pinned schema rejects', () => {
    expect(checker.check(tool, { path: 5 })).toMatchObject({ ok: false, detail: '/path must be string' });
    expect(checker.check(tool, {})).toMatchObject({ ok: false, detail: expect.stringContaining("must have required property 'path'") as unknown });
    expect(checker.check(tool, { path: 'x'.repeat(11) })).toMatchObject({ ok: false });
    expect(checker.check(tool, [1])).toMatchObject({ ok: false, detail: 'arguments must be a JSON object, got an array' });
  });

  it('refuses an argument the schema does not declare at the top level, even where the schema allows more', () => {
    expect(checker.check(open, { a: 'x', notes: 'secret' })).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^unknown argument "notes"/) as unknown,
    });
    expect(checker.check(tool, { path: 'a', __proto__: 1, constructor: 2 })).toMatchObject({ ok: false });
  });

  it('the server does not pick the dialect: a schema is checked as 2020-12 and as draft-07, and must pass both', () => {
    // unevaluatedProperties means something in 2020-12 only, dependencies in draft-07 only.
    const both = mcpSurface([
      readTool('n', {
        inputSchema: {
          type: 'object',
          properties: { o: { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false }, x: {}, y: {} },
          dependencies: { x: ['y'] },
        },
      }),
    ]).tools[0]!;
    expect(checker.check(both, { o: { a: 'x' } })).toEqual({ ok: true });
    expect(checker.check(both, { o: { a: 'x', zzz: 1 } })).toMatchObject({ ok: false });
    expect(checker.check(both, { x: 1 })).toMatchObject({ ok: false });
  });

  it('patterns run in linear time (RE2): a backtracking pattern cannot hang the proxy; one RE2 cannot compile refuses the calls', () => {
    const re = mcpSurface([readTool('re', { inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } } })]).tools[0]!;
    const t0 = performance.now();
    expect(checker.check(re, { s: `${'a'.repeat(5000)}!` })).toMatchObject({ ok: false });
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(checker.check(re, { s: 'aaa' })).toEqual({ ok: true });
    const look = mcpSurface([readTool('look', { inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(?!x)' } } } })]).tools[0]!;
    expect(checker.check(look, { s: 'a' })).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^the pinned inputSchema cannot be compiled/) as unknown,
    });
  });
});
