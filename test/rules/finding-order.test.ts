/**
 * The order of findings in every report (rules/evaluate.ts `compareFindings`) and the grouping of
 * counts (report/audit.ts `grouped`) are the same on every machine: no collator or number format
 * of the ICU build or the locale takes part.
 */
import { describe, expect, it } from 'vitest';
import { compareFindings } from '../../src/rules/evaluate.js';
import { grouped } from '../../src/report/audit.js';
import type { Finding } from '../../src/rules/types.js';

const finding = (over: Partial<Finding>): Finding => ({
  ruleId: 'tool-added',
  level: 'error',
  source: 's',
  message: 'm',
  fix: 'f',
  pointer: '',
  fingerprint: '0',
  ...over,
});

describe('compareFindings', () => {
  it('orders by level, then source, file, line, rule and tool, strings by UTF-16 code unit', () => {
    const list = [
      finding({ tool: 'b' }),
      finding({ tool: 'a' }),
      finding({ tool: 'B' }),
      finding({ tool: '_x' }),
      finding({ tool: 'Ä' }),
      finding({ level: 'warning', tool: 'A' }),
      finding({ ruleId: 'description-changed', tool: 'z' }),
      finding({ source: 'S', tool: 'z' }),
      finding({ location: { file: 'a.json', line: 9 }, tool: 'z' }),
      finding({ location: { file: 'a.json', line: 10 }, tool: 'z' }),
    ];
    const order = [...list]
      .sort(compareFindings)
      .map((f) => `${f.level} ${f.source} ${f.location?.file ?? ''}:${f.location?.line ?? ''} ${f.ruleId} ${f.tool}`);
    expect(order).toEqual([
      'error S : tool-added z',
      'error s : description-changed z',
      'error s : tool-added B',
      'error s : tool-added _x',
      'error s : tool-added a',
      'error s : tool-added b',
      'error s : tool-added Ä',
      'error s a.json:9 tool-added z',
      'error s a.json:10 tool-added z',
      'warning s : tool-added A',
    ]);
  });
});

describe('grouped', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [12345, '12,345'],
    [1234567, '1,234,567'],
    [-2310, '-2,310'],
    [1499.5, '1,500'],
    [-0.4, '0'],
  ])('%d → %s', (n, text) => {
    expect(grouped(n)).toBe(text);
  });
});
