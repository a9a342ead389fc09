/**
 * Vendor safety fields (docs/design.md §2): safety facts a server declares outside the four MCP hints
 * (a `_meta` key, a vendor annotation key, a top-level object of its own), named in toolgate.yml
 * by JSON pointer with the value on the safer side. Like the hints, they are claims by the party
 * being limited, so they can only restrict: a value other than the safer one counts as the less
 * safe side, and so does a missing field unless the policy says what a missing field means
 * (`default`). Pure.
 */
import type { Surface, SurfaceTool } from './model.js';
import type { Json } from '../util/json.js';
import { modelView } from './normalize.js';
import { canonicalJson, getOwn, isObject, pointerSegments } from '../util/json.js';

/** A `safety-fields` entry of toolgate.yml, resolved. */
export interface SafetyField {
  /** How reports and selectors (`deny[].less-safe`, `runtime.require-safer`) name it. */
  name: string;
  /** RFC 6901 pointer into the tool as listed (`/_meta/com.example~1safety/paid`, `/annotations/x`). */
  pointer: string;
  /** The value on the safer side (a JSON scalar). */
  safer: string | number | boolean | null;
  /** What a missing field means; absent: a missing field is on the less safe side. */
  default?: string | number | boolean | null;
  /** Pointer of the entry in toolgate.yml. */
  at: string;
}

/** Which side of a field a tool is on. */
export type SafetySide = 'safer' | 'less-safe';

/**
 * The value at a field's pointer in the tool as listed (name, texts, schemas, annotations, icons,
 * `_meta` and any other key the server sent), or undefined when there is none.
 */
export function fieldValue(tool: SurfaceTool, pointer: string): Json | undefined {
  let at: Json | undefined = modelView(tool);
  for (const token of pointerSegments(pointer)) {
    at = step(at, token);
    if (at === undefined) return undefined;
  }
  return at;
}

/** An array element only by a canonical index (RFC 6901: `0` or no leading zero); an own key. */
const INDEX = /^(0|[1-9]\d*)$/;

/** One pointer step: the one rule both reading a field and taking it out follow. */
function step(at: Json | undefined, token: string): Json | undefined {
  if (Array.isArray(at)) return INDEX.test(token) ? at[Number(token)] : undefined;
  return isObject(at) ? getOwn(at, token) : undefined;
}

/** The side of `field` that `tool` is on (see the module comment). */
export function sideOf(tool: SurfaceTool, field: SafetyField): SafetySide {
  const value = fieldValue(tool, field.pointer) ?? field.default;
  return value === field.safer ? 'safer' : 'less-safe';
}

/** The fields among `fields` whose less safe side `tool` is on. */
export function lessSafeFields(tool: SurfaceTool, fields: readonly SafetyField[]): SafetyField[] {
  return fields.filter((f) => sideOf(tool, f) === 'less-safe');
}

/** A field's value as reports show it: canonical JSON, "none" when missing, with its default. */
export function describeValue(value: Json | undefined, field: SafetyField): string {
  if (value !== undefined) return canonicalJson(value);
  return field.default !== undefined ? `none (default ${canonicalJson(field.default)})` : 'none';
}

/** The top-level key of the tool a pointer starts in, and the rest of it. */
export function splitPointer(pointer: string): { key: string; rest: string[] } {
  const [key = '', ...rest] = pointerSegments(pointer);
  return { key, rest };
}

/**
 * A copy of `value` without what lies at `paths` (each a list of tokens below it), resolved as
 * {@link fieldValue} resolves them: what is left of a metadata object once the safety fields are
 * judged on their own (an array element becomes null, so positions still compare). Never mutates.
 */
export function withoutPaths(value: Json | undefined, paths: readonly string[][]): Json | undefined {
  if (value === undefined) return undefined;
  let out = JSON.parse(JSON.stringify(value)) as Json;
  for (const path of paths) {
    if (path.length === 0) {
      out = null;
      continue;
    }
    let at: Json | undefined = out;
    for (const token of path.slice(0, -1)) at = step(at, token);
    const last = path.at(-1)!;
    if (Array.isArray(at) && INDEX.test(last) && Number(last) < at.length) at[Number(last)] = null;
    else if (isObject(at) && Object.hasOwn(at, last)) delete at[last];
  }
  return out;
}

/** Per field, the reachable tools on its less safe side (the audit's view), in surface order. */
export function safetyAudit(
  surface: Surface,
  fields: readonly SafetyField[],
): { name: string; pointer: string; safer: SafetyField['safer']; lessSafe: string[] }[] {
  const reachable = surface.tools.filter((t) => t.safetyClass !== 'disabled');
  return fields.map((f) => ({
    name: f.name,
    pointer: f.pointer,
    safer: f.safer,
    lessSafe: reachable.filter((t) => sideOf(t, f) === 'less-safe').map((t) => t.name),
  }));
}
