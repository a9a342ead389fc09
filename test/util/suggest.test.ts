/** "Did you mean": close misspellings get the intended word; unrelated words get nothing. */
import { describe, expect, it } from 'vitest';
import { closest, didYouMean } from '../../src/util/suggest.js';
import { refusedPolicy } from '../support/config-error.js';

describe('closest', () => {
  const keys = ['sources', 'rules', 'overrides', 'limits', 'deny', 'review'];
  it.each([
    ['sorces', 'sources'],
    ['Rules', 'rules'],
    ['overides', 'overrides'],
    ['limit', 'limits'],
  ])('%s → %s', (input, expected) => {
    expect(closest(input, keys)).toBe(expected);
  });

  it.each(['timeout', 'x', 'arguments', ''])('%j → nothing', (input) => {
    expect(closest(input, keys)).toBeUndefined();
  });

  it('says nothing for an exact match, and quotes the suggestion', () => {
    expect(didYouMean('rules', keys)).toBe('');
    expect(didYouMean('rulez', keys)).toBe('; did you mean "rules"?');
  });
});

describe('suggestions in policy errors', () => {
  const error = (yaml: string) => refusedPolicy(yaml);

  it('a key inside a $ref-ed definition (mcp) gets its sibling keys as candidates', () => {
    const e = error('sources:\n  - id: s\n    mcp:\n      comand: node\n');
    expect(e.message).toBe('unknown key "comand"; did you mean "command"?');
    expect(e.location?.line).toBe(4);
  });

  it('a misspelt timeout key', () => {
    const e = error('sources:\n  - id: s\n    mcp:\n      command: node\n      startup-timout-ms: 5000\n');
    expect(e.message).toBe('unknown key "startup-timout-ms"; did you mean "startup-timeout-ms"?');
  });

  it('a rule id one letter off', () => {
    expect(error('sources:\n  - id: s\n    recorded: tools.json\nrules:\n  schema-widend: warning\n').message).toBe(
      'unknown rule id "schema-widend"; did you mean "schema-widened"?',
    );
  });
});
