/**
 * The one JSON toolkit: type guard, own-property access, key sorting, deep copy, canonical
 * serialization (RFC 8785, JSON Canonicalization Scheme) and JSON pointers (RFC 6901).
 *
 * Every object these helpers build gets its keys as own data properties (as `JSON.parse`
 * creates them), never by plain assignment: `out["__proto__"] = v` would set the object's
 * prototype instead of a key, so an argument, description or annotation under that name would
 * vanish from the contract, the digest and the byte count while a client still sees it. Names
 * that `Object.prototype` already has (`constructor`, `toString`, ...) are defined the same way,
 * so they stay data even where the built-in prototype is frozen. Reads go through
 * {@link getOwn}, so `o["constructor"]` of an object without that key is `undefined`, not
 * `Object`.
 */
/** JSON value as parsed by `JSON.parse`. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** True for a plain JSON object: not `null`, not an array. */
export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Whether `o` has `key` as an own property (not one inherited from `Object.prototype`). */
export function hasOwn(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** `o[key]` when `key` is an own property of `o`, else `undefined` (`__proto__`, `constructor` included). */
export function getOwn(o: JsonObject, key: string): Json | undefined {
  return hasOwn(o, key) ? o[key] : undefined;
}

/**
 * Sets `o[key] = value` as an own, enumerable, writable data property, as `JSON.parse` would:
 * `__proto__` becomes a key (not the prototype), and `constructor` or `toString` a key even
 * where `Object.prototype` is frozen. Other names take the fast path of plain assignment.
 */
export function setOwn<T>(o: { [key: string]: T }, key: string, value: T): void {
  if (key in Object.prototype) Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

/**
 * Compares two strings by UTF-16 code units, the property order of RFC 8785 §3.2.3 (also what
 * `Array.prototype.sort` does without a comparator). Not code point order: `"\u{1F600}"`
 * (surrogates `D83D DE00`) sorts before `"\uFB33"`.
 */
export function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Own enumerable keys of `o` in UTF-16 code unit order (RFC 8785 §3.2.3). */
export function sortedKeys(o: object): string[] {
  return Object.keys(o).sort();
}

/**
 * Returns `value` with object keys sorted (UTF-16 code unit order, RFC 8785 §3.2.3) at every
 * depth (array-index names such as `"10"` still iterate first, in numeric order: JS objects
 * always do; {@link canonicalJson} sorts them too). Only own enumerable keys are copied, each as an own data property ({@link setOwn}), so
 * `__proto__`, `constructor` and `prototype` stay keys. Arrays keep their order: in JSON Schema,
 * order in `enum` carries no meaning but in `prefixItems` it does, so array order is left to
 * callers that know the keyword. Does not mutate `value`.
 */
export function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of sortedKeys(value)) setOwn(out, key, sortKeys(value[key] as Json));
  return out;
}

/**
 * Deep copy of a JSON tree (objects, arrays, primitives): shared subtrees are copied apart, key
 * order is kept, and every key (`__proto__` included) is an own data property of the copy.
 * Object keys come from `Object.keys` (own enumerable properties only).
 */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const arr = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) arr[i] = cloneJson(value[i] as unknown);
    return arr as T;
  }
  const src = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(src)) setOwn(out, k, cloneJson(src[k]));
  return out as T;
}

/**
 * Structural equality of two JSON values: object key order is ignored, array order is not, and
 * only own keys count (`{}` never equals an object whose only key is `__proto__`).
 */
export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  // Plain loops, no callbacks or key arrays: a check compares every tool of a contract this way,
  // and its one pass, before the JIT has warmed up, is about twice as fast so.
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  let own = 0;
  for (const k in a) {
    if (!hasOwn(a, k)) continue;
    own++;
    if (!hasOwn(b, k) || !jsonEqual(a[k], b[k])) return false;
  }
  for (const k in b) if (hasOwn(b, k)) own--;
  return own === 0;
}

/**
 * The canonical form of a JSON value: RFC 8785 (JSON Canonicalization Scheme, JCS), the text
 * every toolgate digest is computed over.
 *
 * - No whitespace; `null`, `true`, `false` as literals.
 * - Object members sorted by their names' UTF-16 code units (§3.2.3), each name once (own
 *   enumerable keys; `__proto__` is a name like any other).
 * - Numbers in ECMAScript `Number.prototype.toString` form (§3.2.2.3): `4.50` → `4.5`,
 *   `1E30` → `1e+30`, `-0` → `0`. This is what `JSON.stringify` writes.
 * - Strings as `JSON.stringify` writes them (§3.2.2.2): `"` and `\` escaped, `\b \t \n \f \r`
 *   by name, other controls as `\u00xx` (lower-case hex), everything else as is (UTF-8 when
 *   hashed). A lone surrogate, which RFC 8785 rules out as input (I-JSON), is written as its
 *   `\udxxx` escape, so such text still has one canonical form.
 *
 * Otherwise like `JSON.stringify(sortKeys(value))`: `undefined` members are left out and
 * `undefined` array elements written as `null`; non-finite numbers, which JSON cannot hold,
 * become `null` where RFC 8785 would refuse them. The two texts differ only in objects with
 * array-index names (`"9"`, `"10"`): a JS object iterates those first, in numeric order, so no
 * object can hold them in RFC 8785 order; this function sorts them as strings (`"10"` before
 * `"9"`). Written directly, so no sorted copy is allocated: this runs for every tool of every
 * snapshot and contract.
 *
 * @param known canonical text already computed for some objects (e.g. a tool's `inputSchema`,
 *   serialized once for its own digest), reused by identity instead of serializing them again.
 */
export function canonicalJson(value: Json, known?: ReadonlyMap<object, string>): string {
  return writeCanonical(value, known);
}

/** A name `JSON.stringify` would escape (`"`, `\\`, a control character) or might (any surrogate). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const NAME_NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

// Built by concatenation (V8 joins the pieces once, when the text is hashed or written): about a
// third faster than collecting pieces in an array. Keys are sorted only when they are not in
// order already, which is the usual case (pinned objects are built sorted).
function writeCanonical(value: Json | undefined, known?: ReadonlyMap<object, string>): string {
  if (value === null || typeof value !== 'object') return value === undefined ? 'null' : JSON.stringify(value);
  if (known) {
    const text = known.get(value);
    if (text !== undefined) return text;
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + writeCanonical(value[i] === undefined ? null : value[i], known);
    return out + ']';
  }
  let keys = Object.keys(value);
  for (let i = 1; i < keys.length; i++) {
    if (!((keys[i - 1] as string) < (keys[i] as string))) {
      keys = keys.sort();
      break;
    }
  }
  let out = '{';
  let first = true;
  for (const key of keys) {
    const v = value[key];
    if (v === undefined) continue;
    out += (first ? '"' : ',"') + (NAME_NEEDS_ESCAPE.test(key) ? JSON.stringify(key).slice(1, -1) : key) + '":' + writeCanonical(v, known);
    first = false;
  }
  return out + '}';
}

/** An array or object being written by {@link canonicalJsonDeep}: its members still to write. */
interface OpenValue {
  value: unknown[] | Record<string, unknown>;
  /** Sorted member names of an object; undefined for an array. */
  keys: string[] | undefined;
  next: number;
  written: number;
}

/**
 * {@link canonicalJson} of any value, written with a stack of its own instead of recursion: the
 * same text for every JSON value, at any depth (`JSON.parse` builds values 100,000 levels deep
 * that `JSON.stringify` and {@link canonicalJson} cannot write). For values from outside toolgate
 * (a call's arguments); {@link canonicalJson} stays the fast path for pinned data.
 * @throws TypeError for what JSON cannot hold: a cycle, a bigint, a function, a symbol.
 */
export function canonicalJsonDeep(value: unknown): string {
  let out = '';
  const stack: OpenValue[] = [];
  const open = new Set<object>();
  const begin = (v: unknown): void => {
    if (v === null || v === undefined) out += 'null';
    else if (typeof v === 'string' || typeof v === 'number') out += JSON.stringify(v);
    else if (typeof v === 'boolean') out += v ? 'true' : 'false';
    else if (typeof v !== 'object') throw new TypeError(`a ${typeof v} is no JSON value`);
    else if (open.has(v)) throw new TypeError('the value contains itself (a cycle)');
    else {
      open.add(v);
      const keys = Array.isArray(v) ? undefined : Object.keys(v).sort();
      out += keys ? '{' : '[';
      stack.push({ value: v as OpenValue['value'], keys, next: 0, written: 0 });
    }
  };
  begin(value);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as OpenValue;
    if (top.keys === undefined) {
      const items = top.value as unknown[];
      if (top.next < items.length) {
        if (top.next > 0) out += ',';
        begin(items[top.next++]);
        continue;
      }
    } else {
      const members = top.value as Record<string, unknown>;
      while (top.next < top.keys.length && members[top.keys[top.next] as string] === undefined) top.next++;
      if (top.next < top.keys.length) {
        const key = top.keys[top.next++] as string;
        out += (top.written++ > 0 ? ',"' : '"') + (NAME_NEEDS_ESCAPE.test(key) ? JSON.stringify(key).slice(1, -1) : key) + '":';
        begin(members[key]);
        continue;
      }
    }
    out += top.keys === undefined ? ']' : '}';
    open.delete(top.value);
    stack.pop();
  }
  return out;
}

/** Encodes one RFC 6901 reference token: `~` → `~0`, then `/` → `~1` (§3). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Decodes one RFC 6901 reference token: `~1` → `/`, then `~0` → `~` (§4; this order, so `~01` is `~1`). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Builds an RFC 6901 JSON pointer from unescaped segments (`['a/b', 0]` → `/a~1b/0`; `[]` → `''`). */
export function toPointer(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) out += '/' + escapePointerToken(String(s));
  return out;
}

/**
 * Splits an RFC 6901 JSON pointer into unescaped segments (`''` → `[]`, `'/'` → `['']`).
 * A pointer is expected to be empty or start with `/`; the first character is not checked.
 */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map(unescapePointerToken);
}
