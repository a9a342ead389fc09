/**
 * Schema normalization, at two strengths.
 *
 * **Pinned form**: what a contract stores and every digest covers, in surface/pinned-schema.ts
 * (`normalizeEquivalentForms`): it keeps the schema the model is shown, rewriting only spellings
 * JSON Schema defines as the same schema.
 *
 * **Classification form** ({@link normalizeSchema}): for comparing two schemas by the inputs they
 * accept; it goes much further (drops annotations, inlines `$ref`s, merges `allOf`, see there).
 */
import type { Json, JsonObject } from '../../util/json.js';
import { canonicalJson, escapePointerToken, getOwn, isObject, jsonEqual, setOwn, sortKeys } from '../../util/json.js';
import { ARRAY_SCHEMA_KEYWORDS, MAP_SCHEMA_KEYWORDS, SINGLE_SCHEMA_KEYWORDS, hasKey } from '../../surface/pinned-schema.js';
import { REF_KEYWORDS, SchemaRefs, type Base, type RefKeyword } from './refs.js';
import { keywordsUndefinedIn, type Dialect } from '../../surface/schema-validators.js';

/** What {@link normalizeSchema} produced, and what it could not resolve. */
export interface NormalizedSchema {
  /**
   * The normalized schema (keys sorted, references inlined, annotations dropped). A reference that
   * would loop is left as `{"$ref": name}`, and the root then holds `$defs` with the normalized
   * target of every such name but the root's (`#`), so two recursive schemas are equal only when
   * they accept the same inputs.
   */
  schema: Json;
  /** References left in place because inlining them would loop, as `"<where> -> <ref>"`. */
  circularRefs: string[];
  /** References that do not resolve within the schema (see diff/schema/refs.ts), as `"<where> -> <ref> (<why>)"`. */
  unsupportedRefs: string[];
  /** Keywords met at a schema position that the dialect does not define (dropped: no constraint in it), sorted. */
  undefinedKeywords: string[];
}

/** Options of {@link normalizeSchema}. */
export interface NormalizeOptions {
  /** Keep annotation keywords (`description`, `title`, `default`, `x-*`...). Default false. */
  keepAnnotations?: boolean;
  /**
   * Stop inlining `$ref`s once the schema has this many nodes (default 200,000): a small schema
   * that reuses a definition many times can expand exponentially. Past the cap the remaining
   * refs are reported as unsupported, which makes the classification fail closed.
   */
  maxNodes?: number;
  /**
   * The dialect the schema is read in, as the proxy's validator of that dialect enforces it
   * (surface/schema-validators.ts; default JSON Schema 2020-12). A keyword the dialect does not
   * validate by is no constraint in it and is dropped (draft-07: `prefixItems`,
   * `dependentRequired`, `dependentSchemas`, `$dynamicRef`, `$recursiveRef`...); its own forms
   * are then written in the 2020-12 spelling, so two dialects' forms compare keyword by keyword.
   * `additionalItems`, which 2020-12 does not define, is kept beside an array `items`: that is
   * draft-07's tuple, which 2020-12 refuses to compile, so it is read as written.
   */
  dialect?: Dialect;
}

/**
 * Keywords that never change which instances validate. `discriminator` (OpenAPI) only helps a
 * validator pick a `oneOf` branch; `readOnly`/`writeOnly` are advisory; `contentMediaType` and
 * `contentEncoding` are annotations since 2019-09 and rarely enforced before.
 */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  'example',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'externalDocs',
  'xml',
  'discriminator',
  'contentMediaType',
  'contentEncoding',
  '$id',
  'id',
  '$anchor',
  '$dynamicAnchor',
  '$recursiveAnchor',
  '$vocabulary',
]);

/** Writes `#/definitions/...` as `#/$defs/...` so that both spellings compare equal. */
const canonicalRef = (ref: string): string => ref.replace(/^#\/definitions\//, '#/$defs/');

/**
 * Normalizes a JSON Schema (draft-04 to 2020-12, and OpenAPI 3.0 Schema Objects) for comparison.
 *
 * Rules, all of which keep the set of accepted instances the same:
 * - `$schema`, `$id` and annotation keywords (`title`, `description`, `default`, `examples`,
 *   `deprecated`, `readOnly`, `writeOnly`, `x-*`, ...) are dropped (unless `keepAnnotations`).
 * - References are inlined where they lead as the proxy's validator resolves them
 *   (diff/schema/refs.ts): `$ref` by JSON pointer into any part of the schema, by `$anchor`, by
 *   `$id` (absolute, `urn:`, relative to an enclosing `$id`), and `$dynamicRef`/`$recursiveRef`
 *   where their target is certain. A reference with validation siblings becomes an `allOf`
 *   member next to them (2019-09+ semantics). One that would loop is kept as `{"$ref": name}` and
 *   listed in `circularRefs`, its target normalized once under the root's `$defs`; one that does
 *   not resolve within the schema is kept as written and listed in `unsupportedRefs`.
 *   `definitions`/`$defs`, `$id` and anchors are dropped: what they name is inlined.
 * - OpenAPI 3.0 `nullable: true` adds `"null"` to `type` (only when `type` is present, as OAS
 *   3.0.3 specifies); `nullable` is then dropped.
 * - Draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric form.
 * - `type` becomes a sorted, de-duplicated list (a single type is written as a string;
 *   `integer` next to `number` is dropped as redundant); `required` and `enum` are sorted and
 *   de-duplicated; `const` becomes a one-value `enum` (intersected with an `enum` beside it).
 * - Tuples use the 2020-12 spelling: array-form `items` becomes `prefixItems` and
 *   `additionalItems` becomes `items`; draft-07 `dependencies` become `dependentRequired` /
 *   `dependentSchemas`.
 * - `allOf` members whose keywords do not overlap with their parent's (and do not interact with
 *   them, like `properties` with `additionalProperties`) are merged into the parent; a
 *   one-branch `anyOf`/`oneOf` is treated as a one-member `allOf`; empty (`{}`/`true`) members
 *   are dropped.
 * - Object keys are sorted.
 */
export function normalizeSchema(schema: Json, opts: NormalizeOptions = {}): NormalizedSchema {
  const n = new Normalizer(schema, opts.keepAnnotations ?? false, opts.maxNodes ?? 200_000, opts.dialect ?? 'JSON Schema 2020-12');
  let normalized = n.visitRoot();
  const targets = n.loopTargets();
  if (Object.keys(targets).length > 0 && isObject(normalized)) normalized = { ...normalized, $defs: targets };
  return {
    schema: sortKeys(normalized),
    circularRefs: [...new Set(n.circularRefs)],
    unsupportedRefs: n.unsupportedRefs,
    undefinedKeywords: [...n.dropped].sort(),
  };
}

const REF_KEYWORD_SET: ReadonlySet<string> = new Set(REF_KEYWORDS);

/** A reference's target met again while being inlined: normalized once, under its name. */
interface LoopTarget {
  name: string;
  target: Json;
  base: Base;
}

/**
 * One normalization of `schema` (the document its references resolve in): visits its
 * subschemas, inlining references, and collects those it could not inline.
 */
class Normalizer {
  readonly circularRefs: string[] = [];
  readonly unsupportedRefs: string[] = [];
  /** Keywords dropped because the dialect does not define them. */
  readonly dropped = new Set<string>();
  /** Nodes visited so far: past `maxNodes`, refs are no longer inlined. */
  private nodes = 0;
  /** Built at the first reference: most schemas have none. */
  private resolver: SchemaRefs | undefined;
  /** Targets of references that loop, by key (refs.ts), in the order met. */
  private readonly loops = new Map<string, LoopTarget>();
  /** Names given to loop targets, by name: the key each stands for. */
  private readonly names = new Map<string, string>();

  /** Keywords the dialect does not validate by: dropped wherever they are. */
  private readonly ignored: ReadonlySet<string>;

  constructor(
    private readonly schema: Json,
    private readonly keepAnnotations: boolean,
    private readonly maxNodes: number,
    private readonly dialect: Dialect,
  ) {
    this.ignored = new Set([...keywordsUndefinedIn(dialect)].filter((k) => k !== 'additionalItems'));
  }

  private get refs(): SchemaRefs {
    return (this.resolver ??= SchemaRefs.of(this.schema, this.dialect));
  }

  /** The root, normalized. */
  visitRoot(): Json {
    if (!hasKey(this.schema, REF_KEYWORD_SET)) return this.visit(this.schema, '', [], { uri: '' }, true);
    return this.visit(this.schema, '', [this.refs.rootKey], this.refs.rootBase, true);
  }

  /**
   * Each loop target but the root, normalized by name with itself on the stack; a target met in
   * doing so is added and normalized in turn.
   */
  loopTargets(): JsonObject {
    const out: JsonObject = {};
    const done = new Set<string>();
    for (let more = true; more;) {
      more = false;
      for (const [key, t] of [...this.loops]) {
        if (done.has(key) || key === this.refs.rootKey) continue;
        done.add(key);
        more = true;
        setOwn(out, t.name, this.visit(t.target, t.name, [this.refs.rootKey, key], t.base, true));
      }
    }
    return out;
  }

  /**
   * A subschema at `where` (a pointer, for messages), read with base URI `base`, reached through
   * the references whose targets' keys are `refStack` (the root's first). `top` is true for the
   * root and for a reference's target, whose own `$id` is already in `base`.
   */
  visit(node: Json, where: string, refStack: readonly string[], base: Base, top = false): Json {
    this.nodes++;
    if (!isObject(node)) return node; // booleans (and garbage) pass through unchanged
    const scope = top || refStack.length === 0 ? base : this.refs.enter(base, node);
    let working: JsonObject = node;

    for (const k of Object.keys(node)) if (this.ignored.has(k)) this.dropped.add(k);
    const refs = REF_KEYWORDS.filter((k) => typeof node[k] === 'string' && !this.ignored.has(k));
    if (refs.length > 0) {
      const siblings: JsonObject = {};
      for (const k of Object.keys(node)) if (!refs.includes(k as RefKeyword) && !this.ignored.has(k)) setOwn(siblings, k, node[k] as Json);
      const hasSiblings = Object.keys(siblings).some((k) => k !== '$schema' && (this.keepAnnotations || !isAnnotation(k)));
      if (!hasSiblings && refs.length === 1) return this.inlineRef(refs[0]!, node[refs[0]!] as string, where, refStack, scope);
      // Siblings of a reference apply too (2019-09+); draft-07 ignored them, but tool schemas are 2020-12.
      const members = refs.map((k): Json => ({ [k]: node[k] as string }));
      working = { ...siblings, allOf: [...(Array.isArray(siblings.allOf) ? siblings.allOf : []), ...members] };
    }

    const out: JsonObject = {};
    for (const [key, value] of Object.entries(working)) {
      if (key === '$schema' || this.ignored.has(key)) continue;
      if (!this.keepAnnotations && isAnnotation(key)) continue;
      if (key === 'definitions' || key === '$defs') continue; // inlined where referenced
      setOwn(out, key, this.visitKeyword(key, value, `${where}/${escapePointerToken(key)}`, refStack, scope));
    }
    return finishObject(out);
  }

  /** The normalized target of a reference without siblings, or the reference itself when it cannot be inlined. */
  private inlineRef(keyword: RefKeyword, ref: string, where: string, refStack: readonly string[], base: Base): Json {
    const at = `${where || '/'} -> ${ref}`;
    // One failure already fails the classification; a failed lookup can cost Ajv its whole stack.
    if (this.unsupportedRefs.length > 0) {
      this.unsupportedRefs.push(`${at} (not resolved after the first failure)`);
      return { [keyword]: ref };
    }
    const r = this.refs.resolve(keyword, ref, base, refStack.length > 1);
    if ('unsupported' in r) {
      this.unsupportedRefs.push(r.unsupported ? `${at} (${r.unsupported})` : at);
      return { [keyword]: ref };
    }
    if (r.key === undefined) return this.visit(r.target, where, refStack, r.base, true);
    if (refStack.includes(r.key)) {
      this.circularRefs.push(at);
      return { $ref: this.loopName(r.key, r.target, r.base) };
    }
    if (this.nodes > this.maxNodes) {
      this.unsupportedRefs.push(`${at} (not inlined: schema exceeds ${this.maxNodes} nodes)`);
      return { [keyword]: ref };
    }
    return this.visit(r.target, where, [...refStack, r.key], r.base, true);
  }

  /**
   * The name a loop target is written as: `#` for the root, else `#<pointer>` (`#/definitions/`
   * spelled `#/$defs/`) after its base URI when that is not the root's; a name already standing
   * for another key falls back to the key itself, so one name is one target.
   */
  private loopName(key: string, target: Json, base: Base): string {
    const known = this.loops.get(key);
    if (known) return known.name;
    const rootUri = 'uri' in this.refs.rootBase ? this.refs.rootBase.uri : '';
    const [uri, pointer] = [key.slice(0, key.indexOf('#')), key.slice(key.indexOf('#') + 1)];
    let name = `${uri === rootUri ? '' : uri}${canonicalRef(`#${pointer}`)}`;
    if (this.names.has(name) && this.names.get(name) !== key) name = key;
    this.names.set(name, key);
    this.loops.set(key, { name, target, base });
    return name;
  }

  /** The value of keyword `key`, its subschemas visited. */
  private visitKeyword(key: string, value: Json, where: string, refStack: readonly string[], base: Base): Json {
    const visit = (v: Json, at: string): Json => this.visit(v, at, refStack, base);
    if ((SINGLE_SCHEMA_KEYWORDS as readonly string[]).includes(key)) return visit(value, where);
    if (key === 'items') {
      return Array.isArray(value) ? value.map((v, i) => visit(v, `${where}/${i}`)) : visit(value, where);
    }
    if ((ARRAY_SCHEMA_KEYWORDS as readonly string[]).includes(key) && Array.isArray(value)) {
      return value.map((v, i) => visit(v, `${where}/${i}`));
    }
    if (key === 'dependencies' && isObject(value)) {
      const mapped: JsonObject = {};
      for (const [name, v] of Object.entries(value)) {
        setOwn(mapped, name, Array.isArray(v) ? v : visit(v, `${where}/${escapePointerToken(name)}`));
      }
      return mapped;
    }
    if ((MAP_SCHEMA_KEYWORDS as readonly string[]).includes(key) && isObject(value)) {
      const mapped: JsonObject = {};
      for (const [name, v] of Object.entries(value)) setOwn(mapped, name, visit(v, `${where}/${escapePointerToken(name)}`));
      return mapped;
    }
    return value;
  }
}

const isAnnotation = (key: string): boolean => ANNOTATIONS.has(key) || key.startsWith('x-');

/** Per-node rewrites that only look at one schema object whose children are already normalized. */
function finishObject(input: JsonObject): JsonObject {
  const s: JsonObject = { ...input };

  // OpenAPI 3.0 nullable (OAS 3.0.3: only meaningful next to an explicit type).
  if (s.nullable === true && s.type !== undefined) {
    s.type = [...(Array.isArray(s.type) ? s.type : [s.type]), 'null'];
  }
  delete s.nullable;

  // Draft-04 boolean exclusive bounds -> numeric form (draft-06+).
  for (const [excl, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof s[excl] === 'boolean') {
      if (s[excl] === true && typeof s[bound] === 'number') {
        s[excl] = s[bound];
        delete s[bound];
      } else {
        delete s[excl];
      }
    }
  }

  if (s.type !== undefined) {
    const types = [...new Set((Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === 'string'))];
    const filtered = types.includes('number') ? types.filter((t) => t !== 'integer') : types;
    filtered.sort();
    s.type = filtered.length === 1 ? (filtered[0] as string) : filtered;
  }

  if (Array.isArray(s.required)) {
    const req = [...new Set(s.required.filter((r): r is string => typeof r === 'string'))].sort();
    if (req.length === 0) delete s.required;
    else s.required = req;
  }

  if (s.const !== undefined) {
    const c = s.const;
    s.enum = Array.isArray(s.enum) ? s.enum.filter((v) => jsonEqual(v, c)) : [c];
    delete s.const;
  }
  if (Array.isArray(s.enum)) s.enum = sortUnique(s.enum);

  // Tuples: draft-04..07 `items: [...]` + `additionalItems` -> 2020-12 `prefixItems` + `items`.
  if (Array.isArray(s.items)) {
    s.prefixItems = s.items;
    if (s.additionalItems !== undefined) s.items = s.additionalItems;
    else delete s.items;
  }
  delete s.additionalItems; // ignored by every draft when `items` is a single schema

  if (isObject(s.dependencies)) {
    const dr: JsonObject = isObject(s.dependentRequired) ? { ...s.dependentRequired } : {};
    const ds: JsonObject = isObject(s.dependentSchemas) ? { ...s.dependentSchemas } : {};
    // Next to its 2020-12 successors (a dialect that validates by both), each is enforced: a name in both keeps both.
    for (const [name, v] of Object.entries(s.dependencies)) {
      const into = Array.isArray(v) ? dr : ds;
      const known = getOwn(into, name);
      if (known === undefined) setOwn(into, name, v);
      else setOwn(into, name, Array.isArray(v) && Array.isArray(known) ? [...known, ...v] : { allOf: [known, v] });
    }
    if (Object.keys(dr).length > 0) s.dependentRequired = dr;
    if (Object.keys(ds).length > 0) s.dependentSchemas = ds;
    delete s.dependencies;
  }
  if (isObject(s.dependentRequired)) {
    const dr: JsonObject = {};
    for (const [name, v] of Object.entries(s.dependentRequired)) {
      if (Array.isArray(v)) setOwn(dr, name, [...new Set(v.filter((x): x is string => typeof x === 'string'))].sort());
    }
    s.dependentRequired = dr;
  }

  return flattenComposition(s);
}

/** Keyword pairs that read each other: merging them from different allOf members changes meaning. */
const INTERACTING: readonly (readonly string[])[] = [
  ['properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties'],
  ['prefixItems', 'items', 'unevaluatedItems', 'contains', 'minContains', 'maxContains'],
  ['if', 'then', 'else'],
  ['minimum', 'exclusiveMinimum'],
  ['maximum', 'exclusiveMaximum'],
];

function conflicts(parent: JsonObject, member: JsonObject): boolean {
  const pk = Object.keys(parent);
  const mk = Object.keys(member);
  if (mk.some((k) => pk.includes(k))) return true;
  // unevaluated* see every applicator: never merge them across members.
  if (pk.some((k) => k.startsWith('unevaluated')) || mk.some((k) => k.startsWith('unevaluated'))) return true;
  return INTERACTING.some((group) => pk.some((k) => group.includes(k)) && mk.some((k) => group.includes(k)));
}

const isEmptySchema = (v: Json | undefined): boolean => v === true || (isObject(v) && Object.keys(v).length === 0);

function flattenComposition(input: JsonObject): JsonObject {
  let s = input;
  // anyOf/oneOf with exactly one branch is that branch.
  for (const kw of ['anyOf', 'oneOf'] as const) {
    const v = s[kw];
    if (Array.isArray(v) && v.length === 1) {
      const { [kw]: _single, ...rest } = s;
      s = { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), v[0] as Json] };
    }
  }
  if (!Array.isArray(s.allOf)) return s;

  // Associativity: a member that is nothing but an allOf contributes its members.
  const members: Json[] = [];
  const pending = [...s.allOf];
  while (pending.length > 0) {
    const m = pending.shift() as Json;
    if (isObject(m) && Object.keys(m).length === 1 && Array.isArray(m.allOf)) pending.unshift(...m.allOf);
    else members.push(m);
  }

  const { allOf: _members, ...rest } = s;
  let merged: JsonObject = rest;
  const remaining: Json[] = [];
  for (const m of members) {
    if (isEmptySchema(m)) continue;
    if (isObject(m) && !conflicts(merged, m)) merged = { ...merged, ...m };
    else remaining.push(m);
  }
  if (remaining.length > 0) merged.allOf = remaining;
  return merged;
}

function sortUnique(values: Json[]): Json[] {
  const byKey = new Map<string, Json>();
  for (const v of values) byKey.set(canonicalJson(v), v);
  return [...byKey.keys()].sort().map((k) => byKey.get(k) as Json);
}
