/**
 * Real request-body changes between consecutive GitHub Enterprise Server versions
 * (test/fixtures/schemas/ghes/README.md). Expected verdicts were decided by reading the schemas.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { classifySchemaChange, closeSchemaWorkers, type SchemaVerdict } from '../../src/diff/schema/index.js';
import type { Json } from '../../src/util/json.js';

afterAll(async () => {
  await closeSchemaWorkers();
});

interface GhesPair {
  operationId: string;
  from: string;
  to: string;
  before: Json;
  after: Json;
}
const load = (file: string): GhesPair => JSON.parse(readFileSync(new URL(`../fixtures/schemas/ghes/${file}`, import.meta.url), 'utf8')) as GhesPair;

const openAdded = (name: string, at = ''): string => `widened ${at}/properties/${name}: property "${name}" added (the object was open`;
const closedAdded = (name: string): string => `widened /properties/${name}: property "${name}" added to a closed object`;

const cases: { file: string; kind: SchemaVerdict['kind']; deltas?: string[] }[] = [
  { file: '3.17-3.18--code-scanning--update-default-setup.json', kind: 'widened', deltas: [closedAdded('threat_model')] },
  { file: '3.17-3.18--reactions--create-for-issue.json', kind: 'unchanged' },
  { file: '3.17-3.18--issues--add-labels.json', kind: 'unchanged' },
  {
    file: '3.18-3.19--apps--create-installation-access-token.json',
    kind: 'widened',
    deltas: [
      openAdded('enterprise_organization_installation_repositories', '/properties/permissions'),
      openAdded('enterprise_organization_installations', '/properties/permissions'),
    ],
  },
  {
    file: '3.18-3.19--apps--scope-token.json',
    kind: 'widened',
    deltas: [
      openAdded('enterprise_organization_installation_repositories', '/properties/permissions'),
      openAdded('enterprise_organization_installations', '/properties/permissions'),
    ],
  },
  { file: '3.18-3.19--enterprise-admin--set-github-actions-permissions-enterprise.json', kind: 'widened', deltas: [openAdded('sha_pinning_required')] },
  { file: '3.18-3.19--actions--set-github-actions-permissions-organization.json', kind: 'widened', deltas: [openAdded('sha_pinning_required')] },
  { file: '3.18-3.19--actions--set-github-actions-permissions-repository.json', kind: 'widened', deltas: [openAdded('sha_pinning_required')] },
  { file: '3.18-3.19--code-scanning--update-alert.json', kind: 'widened', deltas: [openAdded('create_request')] },
  {
    file: '3.18-3.19--code-security--create-configuration.json',
    kind: 'widened',
    deltas: [closedAdded('code_scanning_options'), closedAdded('code_security'), closedAdded('secret_protection')],
  },
  {
    file: '3.18-3.19--code-security--create-configuration-for-enterprise.json',
    kind: 'widened',
    deltas: [closedAdded('code_scanning_options'), closedAdded('code_security'), closedAdded('secret_protection')],
  },
  {
    file: '3.18-3.19--code-security--detach-configuration.json',
    kind: 'narrowed',
    deltas: ['narrowed /properties/selected_repository_ids: minItems 1 added', 'narrowed /properties/selected_repository_ids: maxItems 250 added'],
  },
  ...['update-configuration', 'update-enterprise-configuration'].map((op) => ({
    file: `3.18-3.19--code-security--${op}.json`,
    kind: 'both' as const,
    deltas: [
      // The new, non-nullable allOf member: null is no longer accepted.
      'narrowed /properties/code_scanning_default_setup_options/allOf/0: type now restricted to "object"',
      openAdded('allow_advanced', '/properties/code_scanning_default_setup_options/allOf/0'),
      closedAdded('code_security'),
      closedAdded('secret_protection'),
    ],
  })),
];

describe('GHES request bodies', () => {
  it('has a dozen real pairs', () => {
    expect(cases.length).toBeGreaterThanOrEqual(12);
  });

  it.each(cases)('$file → $kind', async ({ file, kind, deltas }) => {
    const pair = load(file);
    const v = await classifySchemaChange(pair.before, pair.after);
    expect(v.kind, JSON.stringify(v)).toBe(kind);
    if (deltas) {
      const got = 'deltas' in v ? v.deltas.map((d) => `${d.direction} ${d.path}: ${d.what}`) : [];
      expect(got).toHaveLength(deltas.length);
      deltas.forEach((want, i) => expect(got[i]).toContain(want));
    }
  });
});
