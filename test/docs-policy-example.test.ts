/**
 * The policy examples in the docs are policies: docs/policy.md says it shows every key of
 * toolgate.yml with an example, and docs/proxy.md shows every key of the `runtime` block. Each
 * YAML block there must parse as toolgate parses a policy file, and every row of the key table
 * (src/config/keys.ts) must appear in one of them, so a key added without its example fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { POLICY_KEYS } from '../src/config/keys.js';
import { parsePolicy } from '../src/config/policy.js';
import { ROOT } from './support/mcp-fixtures.js';

/** The fenced YAML blocks of a doc, in order. */
function yamlBlocks(doc: string): string[] {
  const text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
  return [...text.matchAll(/^```yaml\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
}

/** The YAML keys written in a block (`name:` at the start of a line or after `- ` or `{ `). */
function writtenKeys(block: string): Set<string> {
  return new Set([...block.matchAll(/(?:^|[-{,]\s*|^\s+)([a-z][a-z0-9-]*):/gm)].map((m) => m[1]!));
}

const policyBlocks = yamlBlocks('policy.md');
const runtimeBlocks = yamlBlocks('proxy.md').filter((b) => b.startsWith('runtime:'));

describe('the policy examples in docs', () => {
  it('docs/policy.md has one full example and docs/proxy.md one runtime block', () => {
    expect(policyBlocks.length).toBeGreaterThanOrEqual(1);
    expect(runtimeBlocks.length).toBeGreaterThanOrEqual(1);
  });

  it.each(policyBlocks.map((b, i) => [i, b] as const))('docs/policy.md block %i parses as a policy', (_i, block) => {
    expect(() => parsePolicy(block, 'docs/policy.md', ROOT)).not.toThrow();
  });

  it("the runtime block of docs/proxy.md parses in place of the full example's", () => {
    const [before, after] = policyBlocks[0]!.split(/^runtime:.*\n(?: {2}.*\n)*/m);
    expect(after).toBeDefined();
    const policy = `${before!}${runtimeBlocks[0]!}${after!}`;
    expect(() => parsePolicy(policy, 'docs/proxy.md', ROOT)).not.toThrow();
  });

  it('every key of the key table is shown in one of them', () => {
    const shown = new Set([...policyBlocks, ...runtimeBlocks].flatMap((b) => [...writtenKeys(b)]));
    const missing = POLICY_KEYS.map((k) => k.key).filter((key) => !shown.has(key.split('.').pop()!.replace('[]', '')));
    expect(missing).toEqual([]);
  });
});
