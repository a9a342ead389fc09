/** Rule levels from toolgate.yml: `rules`, `overrides` (minimatch tool patterns, sources), require-explicit-hints. */
import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/config/policy.js';
import { levelFor } from '../../src/rules/levels.js';
import { RULES } from '../../src/rules/catalog.js';
import { ConfigError } from '../../src/util/errors.js';
import { evaluateCase, mcpTool, policyFrom, readTool } from '../support/surface-builders.js';

const unannotated = (policy: string, tools = ['admin_reset', 'get_doc', 'nested/admin_x']) =>
  evaluateCase({ name: 'x', head: tools.map((t) => mcpTool(t)), policy })
    .filter((f) => f.ruleId === 'unannotated-tool')
    .map((f) => [f.tool, f.level]);

describe('rule levels', () => {
  it('uses the catalog default without a policy entry', () => {
    const p = policyFrom();
    for (const r of RULES) expect(levelFor(p, r.id, 'src', 'any')).toBe(r.level);
  });

  it('rules: <id>: off silences the rule; another level replaces the default', () => {
    expect(unannotated('rules:\n  unannotated-tool: off\n')).toEqual([]);
    expect(unannotated('rules:\n  unannotated-tool: error\n')).toEqual([
      ['admin_reset', 'error'],
      ['get_doc', 'error'],
      ['nested/admin_x', 'error'],
    ]);
  });

  it('overrides apply by minimatch tool pattern (a `*` does not cross `/`)', () => {
    const policy = 'overrides:\n  - tools: "admin_*"\n    rules:\n      unannotated-tool: error\n';
    expect(unannotated(policy)).toEqual([
      ['admin_reset', 'error'],
      ['get_doc', 'warning'],
      ['nested/admin_x', 'warning'],
    ]);
  });

  it('a list of patterns: any match applies', () => {
    const policy = 'overrides:\n  - tools: ["**/admin_*", "get_*"]\n    rules:\n      unannotated-tool: off\n';
    expect(unannotated(policy)).toEqual([]);
  });

  it('overrides scoped by source apply only to those sources', () => {
    const other = 'overrides:\n  - tools: "*"\n    sources: [other]\n    rules:\n      unannotated-tool: off\n';
    const mine = 'overrides:\n  - tools: "*"\n    sources: [src]\n    rules:\n      unannotated-tool: off\n';
    expect(unannotated(other, ['get_doc'])).toEqual([['get_doc', 'warning']]);
    expect(unannotated(mine, ['get_doc'])).toEqual([]);
  });

  it('the last matching override wins over rules: and earlier overrides', () => {
    const policy = [
      'rules:',
      '  unannotated-tool: off',
      'overrides:',
      '  - tools: "*"',
      '    rules:',
      '      unannotated-tool: error',
      '  - tools: "get_*"',
      '    rules:',
      '      unannotated-tool: notice',
      '',
    ].join('\n');
    expect(unannotated(policy, ['admin_reset', 'get_doc'])).toEqual([
      ['admin_reset', 'error'],
      ['get_doc', 'notice'],
    ]);
  });

  it('require-explicit-hints raises annotation-now-implicit to error; rules: still decides last', () => {
    const p = (yaml: string) => policyFrom(yaml);
    expect(levelFor(p(''), 'annotation-now-implicit', 'src', 't')).toBe('notice');
    expect(levelFor(p('require-explicit-hints: true\n'), 'annotation-now-implicit', 'src', 't')).toBe('error');
    expect(levelFor(p('require-explicit-hints: true\n'), 'annotation-dropped', 'src', 't')).toBe('error');
    expect(levelFor(p('require-explicit-hints: true\n'), 'partially-annotated-tool', 'src', 't')).toBe('notice');
    expect(levelFor(p('require-explicit-hints: true\nrules:\n  annotation-now-implicit: warning\n'), 'annotation-now-implicit', 'src', 't')).toBe('warning');
    const f = evaluateCase({
      name: 'x',
      base: [readTool('get')],
      head: [mcpTool('get', { readOnlyHint: true, destructiveHint: false, idempotentHint: true })],
      policy: 'require-explicit-hints: true\n',
    }).filter((x) => x.ruleId === 'annotation-now-implicit' || x.ruleId === 'annotation-dropped');
    // openWorldHint false dropped: effective false → true (dropped), not implicit.
    expect(f.map((x) => [x.ruleId, x.level])).toEqual([['annotation-dropped', 'error']]);
  });

  it('an unknown rule id in rules: is a ConfigError at its line', () => {
    const text = 'sources:\n  - id: src\n    mcp:\n      command: node\nrules:\n  open-arguments: off\n  no-such-rule: error\n';
    const err = (() => {
      try {
        parsePolicy(text, 'toolgate.yml', '/tmp');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).location).toMatchObject({ file: 'toolgate.yml', line: 7, pointer: '/rules/no-such-rule' });
    expect((err as ConfigError).message).toBe('unknown rule id "no-such-rule"');
    expect((err as ConfigError).fix).toContain('toolgate rules');
  });

  it('an unknown rule id in overrides is a ConfigError at its line', () => {
    const text = 'sources:\n  - id: src\n    mcp:\n      command: node\noverrides:\n  - tools: "*"\n    rules:\n      unannotated-tools: off\n';
    expect(() => parsePolicy(text, 'toolgate.yml', '/tmp')).toThrow(ConfigError);
    try {
      parsePolicy(text, 'toolgate.yml', '/tmp');
    } catch (e) {
      expect((e as ConfigError).location).toMatchObject({ line: 8, pointer: '/overrides/0/rules/unannotated-tools' });
    }
  });
});
