import { describe, expect, it } from 'vitest';
import { buildSarifLog, FINGERPRINT_KEY, sarifLevel, toRelativeUri } from '../../src/report/sarif.js';
import type { Finding, RuleMeta } from '../../src/rules/types.js';
import { validateSarif as validate } from '../support/sarif-schema.js';

import { RULES as CATALOG } from '../../src/rules/catalog.js';
const RULES: RuleMeta[] = [
  {
    id: 'annotation-dropped',
    level: 'error',
    title: 'A declared hint was dropped and the default changes its meaning',
    rationale: 'Clients fall back to the spec default when a hint is missing. Dropping readOnlyHint: true turns a read into a write.',
    source: 'MCP spec 2025-11-25, Tools › Tool annotations',
    fix: 'Declare the hint again, or review the change and run `toolgate update`.',
  },
  {
    id: 'description-changed',
    level: 'warning',
    title: "A tool's description or title changed",
    rationale: 'The description is text the model reads; changing it is a known rug-pull vector.',
    source: 'Established practice (tool poisoning)',
    fix: 'Review the new text and run `toolgate update`.',
  },
  {
    id: 'open-arguments',
    level: 'notice',
    title: 'An input schema allows unknown arguments',
    rationale: 'Without additionalProperties: false a caller may pass arguments nobody reviewed.',
    source: 'JSON Schema 2020-12, additionalProperties',
    fix: 'Set `additionalProperties: false` on the tool input schema.',
    reviewable: true,
  },
];

const finding = (over: Partial<Finding> & Pick<Finding, 'ruleId' | 'level' | 'fingerprint'>): Finding => ({
  source: 'widgets',
  message: 'Something about a tool.',
  fix: 'Do something.',
  pointer: '/tools/0',
  ...over,
});

const FINDINGS: Finding[] = [
  finding({
    ruleId: 'annotation-dropped',
    level: 'error',
    tool: 'delete_widget',
    message: 'Tool `delete_widget` no longer declares readOnlyHint: true; it is now a write.',
    location: { file: '.toolgate/widgets.surface.json', line: 14 },
    pointer: '/tools/0/annotations/readOnlyHint',
    fingerprint: 'a1b2c3d4e5f60718',
  }),
  finding({
    ruleId: 'open-arguments',
    level: 'notice',
    tool: 'read_widget',
    location: { file: 'integrations/my api.yaml' },
    fingerprint: '0f1e2d3c4b5a6978',
  }),
  finding({ ruleId: 'description-changed', level: 'error', fingerprint: '1111222233334444' }), // policy raised the level
];

describe('buildSarifLog', () => {
  const log = buildSarifLog(FINDINGS, RULES, { version: '0.1.0', informationUri: 'https://github.com/acme/toolgate' });

  it('validates against the official SARIF 2.1.0 schema', () => {
    const ok = validate(log);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schema does reject malformed logs (sanity)', () => {
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).toBe(false);
    expect(validate({ ...log, runs: [{ ...log.runs[0], results: [{ ruleId: 'x' }] }] })).toBe(false);
    expect(validate({ ...log, version: '2.0.0' })).toBe(false);
    const bad = structuredClone(log);
    bad.runs[0]!.results![0]!.locations![0]!.physicalLocation!.artifactLocation!.uri = 'has space.json';
    expect(validate(bad)).toBe(false);
  });

  it('describes the driver and every catalog rule', () => {
    const driver = log.runs[0]!.tool.driver;
    expect(driver).toMatchObject({ name: 'toolgate', version: '0.1.0', semanticVersion: '0.1.0', informationUri: 'https://github.com/acme/toolgate' });
    expect(driver.rules!.map((r) => r.id)).toEqual(RULES.map((r) => r.id));
    expect(driver.rules![0]).toEqual({
      id: 'annotation-dropped',
      name: 'AnnotationDropped',
      shortDescription: { text: RULES[0]!.title },
      fullDescription: { text: RULES[0]!.rationale },
      help: {
        text: `${RULES[0]!.fix}\n\nSource: ${RULES[0]!.source}`,
        markdown: `**How to fix:** ${RULES[0]!.fix}\n\n**Source:** ${RULES[0]!.source}`,
      },
      helpUri: 'https://github.com/acme/toolgate/blob/main/docs/rules.md#annotation-dropped',
      defaultConfiguration: { level: 'error' },
      properties: { tags: ['toolgate', 'security'], 'security-severity': '8.0', precision: 'very-high' },
    });
    expect(driver.rules!.map((r) => r.defaultConfiguration?.level)).toEqual(['error', 'warning', 'note']);
  });

  it('ruleIndex points at the rule in tool.driver.rules', () => {
    const rules = log.runs[0]!.tool.driver.rules!;
    for (const result of log.runs[0]!.results!) {
      expect(rules[result.ruleIndex!]!.id).toBe(result.ruleId);
    }
    expect(log.runs[0]!.results!.map((r) => r.ruleIndex)).toEqual([0, 2, 1]);
  });

  it('maps levels, messages, locations and fingerprints', () => {
    const [a, b, c] = log.runs[0]!.results!;
    expect(a).toMatchObject({
      ruleId: 'annotation-dropped',
      level: 'error',
      message: { text: FINDINGS[0]!.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: '.toolgate/widgets.surface.json', uriBaseId: '%SRCROOT%' },
            region: { startLine: 14 },
          },
        },
      ],
      partialFingerprints: { [FINGERPRINT_KEY]: 'a1b2c3d4e5f60718' },
      properties: { source: 'widgets', tool: 'delete_widget', pointer: '/tools/0/annotations/readOnlyHint' },
    });
    expect(b!.level).toBe('note');
    expect(b!.locations![0]!.physicalLocation!.artifactLocation!.uri).toBe('integrations/my%20api.yaml');
    expect(b!.locations![0]!.physicalLocation!.region).toBeUndefined();
    expect(c!.level).toBe('error'); // the finding's (overridden) level, not the default
    expect(c!.locations).toBeUndefined();
  });

  it('is deterministic: fingerprints and bytes are stable across runs', () => {
    const again = buildSarifLog(structuredClone(FINDINGS), RULES, { version: '0.1.0', informationUri: 'https://github.com/acme/toolgate' });
    expect(JSON.stringify(again)).toBe(JSON.stringify(log));
    expect(again.runs[0]!.results!.map((r) => r.partialFingerprints![FINGERPRINT_KEY])).toEqual(FINDINGS.map((f) => f.fingerprint));
  });

  it('attaches location-less findings to a fallback file when asked', () => {
    const withFallback = buildSarifLog(FINDINGS, RULES, { version: '0.1.0', fallbackFile: 'toolgate.yml' });
    expect(withFallback.runs[0]!.results![2]!.locations).toEqual([{ physicalLocation: { artifactLocation: { uri: 'toolgate.yml', uriBaseId: '%SRCROOT%' } } }]);
    expect(validate(withFallback)).toBe(true);
  });

  it("leaves out a notice of a security rule an approval or the policy lowered (code scanning would file it by the rule's severity), keeps one of a rule whose default is notice", () => {
    const approved = finding({ ruleId: 'tool-added', level: 'notice', tool: 'create_widget', fingerprint: '5555666677778888' });
    const unsandboxed = finding({ ruleId: 'server-unsandboxed', level: 'notice', fingerprint: '9999aaaabbbbcccc' });
    const lowered = finding({ ruleId: 'annotation-dropped', level: 'notice', fingerprint: 'ddddeeeeffff0000' });
    const out = buildSarifLog([approved, unsandboxed, lowered, FINDINGS[0]!], CATALOG, { version: '0.1.0' });
    expect(out.runs[0]!.results!.map((r) => r.ruleId)).toEqual(['server-unsandboxed', 'annotation-dropped']);
    expect(out.runs[0]!.results!.map((r) => r.level)).toEqual(['note', 'error']);
  });

  it('an empty run is valid', () => {
    const empty = buildSarifLog([], RULES, { version: '0.1.0-dev' });
    expect(empty.runs[0]!.results).toEqual([]);
    expect(validate(empty)).toBe(true);
  });

  it('refuses a finding whose rule is not in the catalog', () => {
    expect(() => buildSarifLog([finding({ ruleId: 'nope', level: 'error', fingerprint: 'x' })], RULES, { version: '0.1.0' })).toThrow(/unknown rule id "nope"/);
  });

  it('helpers', () => {
    expect(sarifLevel('notice')).toBe('note');
    expect(toRelativeUri('./a b/c#d.json')).toBe('a%20b/c%23d.json');
    expect(toRelativeUri('dir\\file.json')).toBe('dir/file.json');
  });
});
