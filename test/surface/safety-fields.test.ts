/**
 * Vendor safety fields: the pointer resolution and sides (pure), and the whole path on
 * the real recording of firecrawl-mcp 3.26.0, whose `firecrawl_scrape` and `firecrawl_search` carry
 * `_meta["anthropic/alwaysLoad"]: true`: the audit lists them, `deny[].less-safe` denies them,
 * `runtime.require-safer` (and so every export) leaves them out.
 */
import { mkdirSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/config/policy.js';
import { exportSet } from '../../src/export/export-set.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { runCheck } from '../../src/run-check.js';
import { deriveTool } from '../../src/surface/normalize.js';
import { fieldValue, sideOf, withoutPaths, type SafetyField } from '../../src/surface/safety-fields.js';
import { silentLogger } from '../../src/util/logger.js';
import { ROOT, tempDir } from '../support/mcp-fixtures.js';

const field = (pointer: string, safer: SafetyField['safer'], def?: SafetyField['safer']): SafetyField => ({
  name: 'f',
  pointer,
  safer,
  ...(def !== undefined ? { default: def } : {}),
  at: '/safety-fields/0',
});

describe('fields of a tool', () => {
  const tool = deriveTool({
    name: 't',
    annotations: { readOnlyHint: true },
    _meta: { 'a/b': { 'x~y': [true, false] } },
    extra: { safety: { paid_generation: false } },
  });

  it('resolves RFC 6901 pointers through _meta (~1 for /, ~0 for ~), arrays, and keys outside the spec', () => {
    expect(fieldValue(tool, '/_meta/a~1b/x~0y/1')).toBe(false);
    expect(fieldValue(tool, '/_meta/a~1b/x~0y/01')).toBeUndefined();
    expect(fieldValue(tool, '/safety/paid_generation')).toBe(false);
    expect(fieldValue(tool, '/annotations/readOnlyHint')).toBe(true);
    expect(fieldValue(tool, '/annotations/readOnlyHint/deeper')).toBeUndefined();
    expect(fieldValue(tool, '/_meta/__proto__')).toBeUndefined();
  });

  it('only the safer value is the safer side; a missing value is the less safe side unless a default says otherwise', () => {
    expect(sideOf(tool, field('/safety/paid_generation', false))).toBe('safer');
    expect(sideOf(tool, field('/safety/paid_generation', 'false'))).toBe('less-safe');
    expect(sideOf(tool, field('/safety/returns_sensitive_url', false))).toBe('less-safe');
    expect(sideOf(tool, field('/safety/returns_sensitive_url', false, false))).toBe('safer');
  });

  it('withoutPaths removes what lies at each path and leaves the value it was given untouched', () => {
    const v = { a: { b: 1, c: 2 }, d: 3 };
    expect(withoutPaths(v, [['a', 'b'], ['d'], ['missing', 'x']])).toEqual({ a: { c: 2 } });
    expect(v).toEqual({ a: { b: 1, c: 2 }, d: 3 });
  });
});

describe('on the real firecrawl-mcp 3.26.0 listing', () => {
  let dir: ReturnType<typeof tempDir> | undefined;
  afterEach(() => dir?.cleanup());

  it('the audit lists the tools on the less safe side; deny less-safe denies them; require-safer leaves them out of the runtime and the exports', async () => {
    dir = tempDir('tg-safety-');
    mkdirSync(join(dir.path, 'rec'));
    copyFileSync(join(ROOT, 'test/fixtures/upgrades/firecrawl-mcp/3.26.0.json'), join(dir.path, 'rec/tools.json'));
    const yaml = [
      'sources:\n  - id: firecrawl\n    recorded: rec/tools.json',
      'safety-fields:\n  - name: always-load\n    pointer: /_meta/anthropic~1alwaysLoad\n    safer: false\n    default: false',
      'deny:\n  - tools: "*"\n    less-safe: [always-load]\n    reason: nothing in context on every turn unasked',
      'runtime:\n  require-safer: [always-load]\n',
    ].join('\n');
    writeFileSync(join(dir.path, 'toolgate.yml'), yaml);
    const policy = parsePolicy(yaml, join(dir.path, 'toolgate.yml'), dir.path);
    const result = await runCheck({ policy, mode: 'audit', root: dir.path, logger: silentLogger });
    expect(result.sources[0]?.safety).toEqual([
      { name: 'always-load', pointer: '/_meta/anthropic~1alwaysLoad', safer: false, lessSafe: ['firecrawl_scrape', 'firecrawl_search'] },
    ]);
    expect(renderTerminal(result, { color: false, listTools: false })).toContain(
      '    safety field always-load (/_meta/anthropic~1alwaysLoad, safer: false): less safe: firecrawl_scrape, firecrawl_search',
    );
    expect(result.findings.filter((f) => f.ruleId === 'denied-tool').map((f) => f.tool)).toEqual(['firecrawl_scrape', 'firecrawl_search']);

    const surface = result.sources[0]!.surface!;
    const set = exportSet(surface, policy.runtime);
    expect(set.refused.map((r) => [r.tool.name, r.reason])).toEqual([
      ['firecrawl_scrape', 'less-safe'],
      ['firecrawl_search', 'less-safe'],
    ]);
    expect(set.admitted.length).toBe(surface.tools.length - 2);
  });
});
