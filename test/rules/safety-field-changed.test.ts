/**
 * safety-field-changed: a vendor safety field named in toolgate.yml changed in a tool the base had.
 * On the real upgrade of firecrawl-mcp 1.12.0 → 3.26.0, which added `_meta["anthropic/alwaysLoad"]:
 * true` to two tools (a client then keeps them in the model's context on every turn), and on unit
 * surfaces for a vendor safety object of the kind some servers ship (`safety.paid_generation`).
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readRecorded } from '../../src/sources/recorded.js';
import { normalizeSnapshot } from '../../src/surface/normalize.js';
import type { Json } from '../../src/util/json.js';
import { ROOT } from '../support/mcp-fixtures.js';
import { safetyFieldChanges } from '../../src/rules/checks/safety.js';
import { contextFor, ruleTests, writeTool } from '../support/surface-builders.js';

const firecrawl = async (v: string) => normalizeSnapshot(await readRecorded('src', join(ROOT, 'test/fixtures/upgrades/firecrawl-mcp', `${v}.json`))).surface;
const [before, after] = await Promise.all([firecrawl('1.12.0'), firecrawl('3.26.0')]);

const ALWAYS_LOAD = 'safety-fields:\n  - name: always-load\n    pointer: /_meta/anthropic~1alwaysLoad\n    safer: false\n    default: false\n';
const PAID = 'safety-fields:\n  - pointer: /safety/paid_generation\n    safer: false\n';
/** A write tool with a vendor safety object (a top-level key outside the spec, pinned under `extra`). */
const paid = (value: Json | undefined, description = 'Generates an image.') => ({
  ...writeTool('generate_image', { description }),
  ...(value !== undefined ? { safety: { paid_generation: value, returns_sensitive_url: false } } : {}),
});

ruleTests('safety-field-changed', {
  fires: [
    {
      name: 'firecrawl-mcp 1.12.0 → 3.26.0: two tools now always loaded (none, default false → true)',
      base: before,
      head: after,
      policy: ALWAYS_LOAD,
      expect: [
        {
          ruleId: 'safety-field-changed',
          tool: 'firecrawl_scrape',
          level: 'error',
          message:
            /^tool "firecrawl_scrape" moved to the less safe side of safety field "always-load" \(\/_meta\/anthropic~1alwaysLoad, safer: false\): none \(default false\) → true; it needs an approving review/,
          data: { field: 'always-load', head: true, baseSide: 'safer', headSide: 'less-safe' },
        },
        { ruleId: 'safety-field-changed', tool: 'firecrawl_search', data: { head: true } },
      ],
    },
    {
      name: 'a paid generation flag turned on',
      base: [paid(false)],
      head: [paid(true)],
      policy: PAID,
      expect: [
        {
          ruleId: 'safety-field-changed',
          tool: 'generate_image',
          message: /moved to the less safe side of safety field "paid_generation" \(\/safety\/paid_generation, safer: false\): false → true/,
        },
      ],
    },
    {
      name: 'the field dropped without a default: the less safe side',
      base: [paid(false)],
      head: [paid(undefined)],
      policy: PAID,
      expect: [
        { ruleId: 'safety-field-changed', tool: 'generate_image', message: /moved to the less safe side of safety field "paid_generation" .*: false → none;/ },
      ],
    },
    {
      name: 'a claim of the safer side is reviewed too (deny and runtime.require-safer act on it)',
      base: [paid(true)],
      head: [paid(false)],
      policy: PAID,
      expect: [{ ruleId: 'safety-field-changed', tool: 'generate_image', message: /now claims the safer side of safety field "paid_generation"/ }],
    },
    {
      name: 'a change within the less safe side',
      base: [paid('per-call')],
      head: [paid('per-token')],
      policy: PAID,
      expect: [{ ruleId: 'safety-field-changed', tool: 'generate_image', message: /changed safety field "paid_generation" \(still on the less safe side\)/ }],
    },
  ],
  silent: [
    {
      name: 'the same upgrade without safety-fields in toolgate.yml',
      base: before,
      head: after,
      expect: [],
    },
    {
      name: 'the field unchanged while the description changes',
      base: [paid(false)],
      head: [paid(false, 'Generates an image for free.')],
      policy: PAID,
      expect: [],
    },
    {
      name: 'a new tool on the less safe side (tool-added reviews it; the audit lists it)',
      base: [],
      head: [paid(true)],
      policy: PAID,
      expect: [],
    },
  ],
});

it("locates the finding on the field in the tool's contract entry (a key outside the spec is pinned under extra)", () => {
  const ctx = contextFor({ base: [paid(false)], head: [paid(true)], policy: PAID });
  expect(safetyFieldChanges(ctx).map((f) => f.target)).toEqual([{ tool: 'generate_image', sub: '/extra/safety/paid_generation' }]);
  const meta = contextFor({ base: before, head: after, policy: ALWAYS_LOAD });
  expect(safetyFieldChanges(meta).map((f) => f.target.sub)).toEqual(['/_meta/anthropic~1alwaysLoad', '/_meta/anthropic~1alwaysLoad']);
});
