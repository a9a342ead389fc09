/** Workflow-command annotations: most severe first, capped per level, the rest counted. */
import { describe, expect, it } from 'vitest';
import { ANNOTATIONS_PER_LEVEL, renderAnnotations } from '../../src/report/annotations.js';
import type { Finding, Level } from '../../src/rules/types.js';

const finding = (level: Level, i: number): Finding => ({
  ruleId: 'unlisted-tool',
  level,
  source: 's',
  tool: `t${i}`,
  message: `tool "t${i}" is reachable but has no entry in the contract`,
  fix: 'Run `toolgate update`.',
  pointer: '/tools',
  fingerprint: String(i),
  location: { file: '.toolgate/s.surface.json', line: i + 1 },
});

describe('renderAnnotations', () => {
  it('caps each level and says how many more there are', () => {
    const findings = [...Array.from({ length: 12 }, (_, i) => finding('error', i)), ...Array.from({ length: 3 }, (_, i) => finding('notice', 20 + i))];
    const lines = renderAnnotations(findings);
    expect(lines.filter((l) => l.startsWith('::error '))).toHaveLength(ANNOTATIONS_PER_LEVEL);
    expect(lines.filter((l) => l.startsWith('::notice '))).toHaveLength(3);
    expect(lines.at(-1)).toContain('2 more findings are not shown as annotations');
  });

  it('keeps the reserved slots free (a failing step adds its own error)', () => {
    const lines = renderAnnotations(
      Array.from({ length: 12 }, (_, i) => finding('error', i)),
      { error: 1 },
    );
    expect(lines.filter((l) => l.startsWith('::error '))).toHaveLength(ANNOTATIONS_PER_LEVEL - 1);
    expect(lines.at(-1)).toContain('3 more findings');
  });

  it('stays silent with nothing to annotate', () => {
    expect(renderAnnotations([])).toEqual([]);
  });
});
