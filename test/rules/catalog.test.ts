/**
 * Meta-tests of the rule catalog, the convention every rule follows (docs/development.md, "Adding a rule"):
 * - ids are unique, kebab-case, sorted, and equal to test/rules/ids.txt (removing or renaming
 *   an id fails here; add new ids to ids.txt on purpose);
 * - every id has test/rules/<id>.test.ts that calls `ruleTests('<id>', { fires: [{...}], silent: [{...}] })`
 *   with both tables written inline and non-empty (see test/support/surface-builders.ts);
 * - every row is complete; docs/rules.md equals the generated Markdown.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES, isRuleId, ruleById } from '../../src/rules/catalog.js';
import { rulesMarkdown } from '../../src/report/rules.js';
import { ROOT } from '../support/mcp-fixtures.js';

const ids = RULES.map((r) => r.id as string);
const listed = readFileSync(join(ROOT, 'test/rules/ids.txt'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '');

describe('rule catalog', () => {
  it('ids are unique, kebab-case and sorted', () => {
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id, id).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
    expect(ids).toEqual([...ids].sort());
  });

  it('ids equal test/rules/ids.txt (ids are stable forever: never remove or rename one)', () => {
    expect(ids).toEqual(listed);
  });

  it('every row has a level, a one-line title without a final period, a rationale, a source and a fix', () => {
    for (const r of RULES) {
      expect(['error', 'warning', 'notice'], r.id).toContain(r.level);
      expect(r.title, r.id).not.toMatch(/\.$|\n/);
      expect(r.title[0], r.id).toBe(r.title[0]?.toUpperCase());
      for (const k of ['rationale', 'source', 'fix'] as const) expect(r[k].length, `${r.id}.${k}`).toBeGreaterThan(10);
      expect(ruleById(r.id)).toBe(r);
      expect(isRuleId(r.id)).toBe(true);
    }
    expect(isRuleId('no-such-rule')).toBe(false);
  });

  describe.each(ids)('%s', (id) => {
    const file = join(ROOT, 'test/rules', `${id}.test.ts`);
    it('has test/rules/<id>.test.ts with a case that fires and one that stays silent', () => {
      expect(existsSync(file), `${file} exists`).toBe(true);
      const src = readFileSync(file, 'utf8');
      expect(src, 'calls ruleTests with its own id').toContain(`ruleTests('${id}', {`);
      expect(src, 'has an inline, non-empty `fires` table').toMatch(/\bfires:\s*\[\s*(\{|classified\()/);
      expect(src, 'has an inline, non-empty `silent` table').toMatch(/\bsilent:\s*\[\s*(\{|classified\()/);
      // A fires case names the rule in an expectation; a silent case can only be `expect: []` or watch others.
      expect(src, 'expects a finding of its own id').toMatch(new RegExp(`ruleId: '${id}'`));
    });
  });

  it('docs/rules.md equals the Markdown generated from the catalog (run `npm run docs`)', () => {
    const file = join(ROOT, 'docs/rules.md');
    expect(existsSync(file), 'docs/rules.md exists').toBe(true);
    expect(readFileSync(file, 'utf8'), 'docs/rules.md is not what the catalog generates: run `npm run docs`').toBe(rulesMarkdown());
  });

  it('the docs have one section per id', () => {
    const md = rulesMarkdown();
    for (const id of ids) expect(md).toContain(`\n## ${id}\n`);
  });
});
