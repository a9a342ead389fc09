/** The JSON report stays readable by strict JSON tools (jq, Go, Rust) whatever the servers sent. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { renderJson } from '../../src/report/json.js';
import type { CheckResult } from '../../src/judge/result.js';
import { evaluateCase, mcpSurface, mcpTool } from '../support/surface-builders.js';

function result(): CheckResult {
  const name = 'lone\uD800surrogate\uDFFFtool';
  const surface = mcpSurface([mcpTool(name)]);
  const findings = evaluateCase({ head: surface });
  return {
    sources: [{ id: 'src', kind: 'mcp', contractFile: 'c.json', surface, live: true, malformed: [], findings }],
    findings,
    counts: { error: 0, warning: findings.length, notice: 0 },
    exitCode: 0,
  };
}

describe('renderJson', () => {
  it('writes no lone-surrogate escape (strict parsers reject it); the rest of the text is exact', () => {
    const text = renderJson(result(), 't');
    expect(text).not.toMatch(/\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])/);
    expect(text).not.toMatch(/(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}/);
    const parsed = JSON.parse(text) as { findings: { tool?: string }[] };
    expect(parsed.findings.some((f) => f.tool === 'lone\uFFFDsurrogate\uFFFDtool')).toBe(true);
  });

  it('jq reads it, where jq is installed', () => {
    let jq = true;
    try {
      execFileSync('jq', ['--version']);
    } catch {
      jq = false;
    }
    if (!jq) return;
    const out = execFileSync('jq', ['-r', '.findings[0].tool'], { input: renderJson(result(), 't'), encoding: 'utf8' });
    expect(out.trim()).toBe('lone\uFFFDsurrogate\uFFFDtool');
  });
});
