/** SARIF partialFingerprints are keyed on source, rule, tool and field: never on the tool's place in the contract. */
import { describe, expect, it } from 'vitest';
import { buildSarifLog, FINGERPRINT_KEY } from '../../src/report/sarif.js';
import { RULES } from '../../src/rules/catalog.js';
import { evaluateCase, mcpTool, readTool } from '../support/surface-builders.js';

const fingerprints = (names: string[]) => {
  const head = names.map((n) => mcpTool(n));
  const findings = evaluateCase({ head, contract: [readTool('a_first'), ...head] });
  const log = buildSarifLog(findings, RULES, { version: 't' });
  return new Map(log.runs[0]!.results!.map((r) => [`${r.ruleId}|${(r.properties as { tool?: string }).tool}`, r.partialFingerprints?.[FINGERPRINT_KEY]]));
};

describe('SARIF fingerprints', () => {
  it('adding an unrelated tool before others in name order leaves every other fingerprint as it was', () => {
    const before = fingerprints(['m_tool', 'z_tool']);
    const after = fingerprints(['b_new', 'm_tool', 'z_tool']);
    for (const [key, fp] of before) if (!key.includes('b_new')) expect(after.get(key), key).toBe(fp);
    expect(before.size).toBeGreaterThan(0);
  });

  it('message text from the server reaches SARIF without control, escape or bidi characters', () => {
    const findings = evaluateCase({ head: [mcpTool('evil\u202egnp.exe\u001b[31m')] });
    const log = buildSarifLog(findings, RULES, { version: 't' });
    for (const r of log.runs[0]!.results!) {
      expect(r.message.text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
      expect(JSON.stringify(r.properties)).not.toMatch(/\u202e/);
    }
  });
});
