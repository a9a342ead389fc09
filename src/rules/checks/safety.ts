/**
 * Vendor safety fields in the change review (docs/design.md §2): `safety-field-changed`, and which
 * metadata changes it judges in place of `description-changed`.
 */
import type { Change } from '../../diff/change.js';
import type { SurfaceTool } from '../../surface/model.js';
import type { Json } from '../../util/json.js';
import { describeValue, fieldValue, sideOf, splitPointer, withoutPaths, type SafetyField } from '../../surface/safety-fields.js';
import { canonicalJson } from '../../util/json.js';
import type { Check, RawFinding } from '../context.js';

/** Top-level keys the contract pins under their own name; any other key is pinned under `extra`. */
const PINNED_KEYS = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', '_meta']);

/** Where a field's pointer lies in the tool's contract entry. */
function contractPointer(pointer: string): string {
  return PINNED_KEYS.has(splitPointer(pointer).key) ? pointer : `/extra${pointer}`;
}

/**
 * `safety-field-changed`: the value at a safety field's pointer changed in a tool the base had. A
 * move to the less safe side widens what the tool does; a move to the safer side is a claim of less
 * risk by the party being limited (`deny[].less-safe` and `runtime.require-safer` act on it); a
 * change within one side still changes what the vendor declares. Each is reviewed. One finding
 * per tool and field, located on the field in the contract.
 */
export const safetyFieldChanges: Check = (ctx) => {
  const fields = ctx.policy.safetyFields;
  if (fields.length === 0 || !ctx.base) return [];
  const base = new Map<string, SurfaceTool>();
  for (const t of ctx.base.tools) if (!base.has(t.name)) base.set(t.name, t);
  const out: RawFinding[] = [];
  const seen = new Set<string>();
  for (const head of ctx.head.tools) {
    const was = base.get(head.name);
    if (!was || was.digest === head.digest || seen.has(head.name)) continue;
    seen.add(head.name);
    for (const f of fields) {
      const [b, h] = [fieldValue(was, f.pointer), fieldValue(head, f.pointer)];
      if (same(b, h)) continue;
      const [sb, sh] = [sideOf(was, f), sideOf(head, f)];
      const how =
        sb === sh
          ? `changed safety field "${f.name}" (still on the ${sh === 'safer' ? 'safer' : 'less safe'} side)`
          : sh === 'less-safe'
            ? `moved to the less safe side of safety field "${f.name}"`
            : `now claims the safer side of safety field "${f.name}"`;
      out.push({
        ruleId: 'safety-field-changed',
        target: { tool: head.name, sub: contractPointer(f.pointer) },
        message: `tool "${head.name}" ${how} (${f.pointer}, safer: ${canonicalJson(f.safer)}): ${describeValue(b, f)} → ${describeValue(h, f)}`,
        data: {
          field: f.name,
          pointer: f.pointer,
          safer: f.safer,
          ...(b !== undefined ? { base: b } : {}),
          ...(h !== undefined ? { head: h } : {}),
          baseSide: sb,
          headSide: sh,
        },
      });
    }
  }
  return out;
};

function same(a: Json | undefined, b: Json | undefined): boolean {
  return a === undefined || b === undefined ? a === b : canonicalJson(a) === canonicalJson(b);
}

/**
 * Whether a `metadata-changed` change is nothing but safety fields changing (then
 * `safety-field-changed` judges it, and `description-changed` does not restate it): equal once the
 * fields' values are taken out of both sides.
 */
export function onlySafetyFields(c: Extract<Change, { kind: 'metadata-changed' }>, fields: readonly SafetyField[]): boolean {
  const paths = fields.flatMap((f) => {
    const { key, rest } = splitPointer(f.pointer);
    if (c.field === 'extra') return PINNED_KEYS.has(key) ? [] : [[key, ...rest]];
    return key === c.field ? [rest] : [];
  });
  if (paths.length === 0) return false;
  const strip = (side: string | undefined) => {
    const left = withoutPaths(side === undefined ? undefined : (JSON.parse(side) as Json), paths);
    return left === undefined ? undefined : canonicalJson(left);
  };
  const [b, h] = [strip(c.base), strip(c.head)];
  // A side that had only the fields is the same as a side without the object.
  const empty = (x: string | undefined) => x === undefined || x === '{}' || x === 'null';
  return b === h || (empty(b) && empty(h));
}
