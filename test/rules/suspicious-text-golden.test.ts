/**
 * Every suspicious-text hit on the development material of bench/poison (Docker's MCP registry
 * catalog, the recorded published servers, guardbench's and MCPSecBench's benign and development
 * cases, the handwritten sets; never the test split), committed as a golden file: a change made
 * for speed must find exactly the same (pattern, pointer and span), and a change of what the rule
 * finds is a reviewed diff of test/golden/suspicious-text/hits.json.
 *
 * Regenerate with `npm run golden` (UPDATE_GOLDEN=1) and read the diff before committing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { surfaces } from '../../bench/poison/surfaces.mjs';
import { parsePolicy } from '../../src/config/policy.js';
import { evaluate } from '../../src/rules/evaluate.js';
import { normalizeSnapshot } from '../../src/surface/normalize.js';
import type { Json } from '../../src/util/json.js';
import { ROOT } from '../support/mcp-fixtures.js';

const GOLDEN = join(ROOT, 'test/golden/suspicious-text/hits.json');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const policy = parsePolicy('sources:\n  - id: bench\n    recorded: x.json\n', 'toolgate.yml', ROOT);

/** One line per hit, as the audit reports it: the surface, the tool ('' for the instructions), the pointer, the pattern and the span. */
function hitLines(): string[] {
  const lines: string[] = [];
  for (const s of surfaces()) {
    const { surface, malformed } = normalizeSnapshot({
      source: { id: 'bench', kind: 'recorded' },
      tools: s.tools.map((tool) => ({ tool: tool as unknown as Json })),
      ...(s.instructions !== undefined ? { server: { instructions: s.instructions } } : {}),
    });
    const findings = evaluate({ sourceId: 'bench', head: surface, changes: [], drift: [], malformed, policy, schemaVerdicts: new Map() }, () => ({
      pointer: '',
    }));
    for (const f of findings.filter((x) => x.ruleId === 'suspicious-text'))
      for (const h of (f.data as { hits: Json[] }).hits) lines.push(JSON.stringify({ set: s.set, surface: s.name, tool: f.tool ?? '', ...(h as object) }));
  }
  return lines;
}

describe('suspicious-text on the development material of bench/poison', () => {
  it('finds exactly the hits of test/golden/suspicious-text/hits.json', () => {
    const text = `[\n${hitLines().join(',\n')}\n]\n`;
    if (UPDATE) writeFileSync(GOLDEN, text);
    expect(existsSync(GOLDEN), `${GOLDEN} is missing: run npm run golden`).toBe(true);
    // Compared line by line: a difference names the hit.
    expect(text.split('\n')).toEqual(readFileSync(GOLDEN, 'utf8').split('\n'));
  });
});
