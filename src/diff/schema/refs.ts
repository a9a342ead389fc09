/**
 * Where the references of one JSON Schema lead, as the validator that enforces pinned schemas
 * resolves them. The proxy checks call arguments with Ajv 8 (src/surface/schema-validators.ts),
 * so `$ref` is resolved here with Ajv's own functions, in the order of its `resolveRef`
 * (ajv/lib/compile/index.ts): `_addSchema` collects the document's `$id`s and `$anchor`s (its
 * `getSchemaRefs`, which refuses an anchor or id that names two schemas), `resolveUrl` resolves
 * the reference against the base URI in scope (RFC 3986, fast-uri), `resolveSchema` follows a
 * URI to the resource it names and a JSON pointer from there, and an anchor is looked up last.
 * Every form a validator accepts comes out the same way: `#/any/pointer`, `#name` (`$anchor`),
 * an absolute or `urn:` `$id`, an `$id` relative to an enclosing one, a pointer into an embedded
 * resource (`urn:x#/$defs/y`).
 *
 * What Ajv cannot resolve, or resolves outside the document (another file, a meta-schema), is
 * `unsupported`, with the reason: toolgate never fetches anything, and the classification fails
 * closed on it. Ajv does not mutate the schema; its compilation is never run here, so a pattern
 * or keyword it would refuse does not change where a reference leads.
 *
 * `$dynamicRef` and `$recursiveRef` resolve through the dynamic scope, and Ajv implements them
 * differently from the specification in most cases (see {@link SchemaRefs.resolveDynamic}).
 * They are resolved only where both give the same target; everywhere else they are
 * `unsupported`.
 */
import type { Ajv } from 'ajv';
import { resolveSchema, SchemaEnv } from 'ajv/dist/compile/index.js';
import { normalizeId, resolveUrl } from 'ajv/dist/compile/resolve.js';
import { schemaHasRulesButRef, unescapeFragment } from 'ajv/dist/compile/util.js';
import type { Json, JsonObject } from '../../util/json.js';
import { escapePointerToken, getOwn, isObject } from '../../util/json.js';
import { dialectValidator, type Dialect } from '../../surface/schema-validators.js';

/** The keywords that reference another schema. */
export const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'] as const;
export type RefKeyword = (typeof REF_KEYWORDS)[number];

/** A base URI in scope (Ajv's `baseId`, `""` for a document without `$id`), or why there is none. */
export type Base = { uri: string } | { broken: string };

/** Where a reference leads: the target schema, its name and the base URI inside it; or why not. */
export type Resolution =
  | {
      target: Json;
      /**
       * The target as one name (its JSON pointer in the document and the base URI it is read
       * with): a reference met again under its own name is a cycle. Undefined for a boolean
       * target, which has no references in it.
       */
      key: string | undefined;
      base: Base;
    }
  | { unsupported: string };

/**
 * The proxy's options where they decide resolution (ids in `$id`, fast-uri, strict off); without
 * meta-schemas, which a reference leads outside the schema to either way; and quiet.
 */
const RESOLVER_OPTIONS = { strict: false, validateSchema: false, addUsedSchema: false, meta: false, logger: false } as const;

/** The references of one schema document. Build with {@link SchemaRefs.of}. */
export class SchemaRefs {
  /** The base URI of the root (its `$id`, or `""`). */
  readonly rootBase: Base;
  /** The root's key (see {@link Resolution}). */
  readonly rootKey: string;
  private pointers: Map<object, string> | undefined;
  private anchors: AnchorCounts | undefined;

  private constructor(
    private readonly document: Json,
    private readonly ajv: Ajv | undefined,
    private readonly root: SchemaEnv | undefined,
    broken: string | undefined,
  ) {
    this.rootBase = root ? { uri: root.baseId } : { broken: broken ?? 'the schema cannot be read' };
    this.rootKey = keyOf(root?.baseId ?? '', '');
  }

  /**
   * Reads the `$id`s and anchors of `document` as Ajv of `dialect` does (default JSON Schema
   * 2020-12: its rules decide which pointers Ajv follows through a `$ref`). Never throws: a document Ajv refuses
   * (an anchor or id naming two schemas, an invalid anchor) gives a {@link SchemaRefs} whose every
   * reference is `unsupported` with Ajv's reason.
   */
  static of(document: Json, dialect: Dialect = 'JSON Schema 2020-12'): SchemaRefs {
    try {
      const ajv = new (dialectValidator(dialect))(RESOLVER_OPTIONS);
      const root = ajv._addSchema(document as object | boolean, undefined, undefined, false, false);
      return new SchemaRefs(document, ajv, root, undefined);
    } catch (e) {
      return new SchemaRefs(document, undefined, undefined, (e as Error).message);
    }
  }

  /**
   * The base URI inside a subschema (not a reference's target) that has an `$id`: resolved
   * against the enclosing base, as Ajv's compiler does (`updateContext`: any truthy `$id`).
   */
  enter(base: Base, node: JsonObject): Base {
    const id = getOwn(node, '$id');
    if (!id || !('uri' in base)) return base;
    try {
      return { uri: resolveUrl(this.ajv!.opts.uriResolver, base.uri, id as string) };
    } catch (e) {
      return { broken: `the $id ${JSON.stringify(id)} does not resolve against ${JSON.stringify(base.uri)}: ${(e as Error).message}` };
    }
  }

  /**
   * Where `keyword: value` leads from a subschema read with base URI `base`. `underRef` says
   * whether the subschema was reached through another reference (it matters to `$recursiveRef`).
   */
  resolve(keyword: RefKeyword, value: string, base: Base, underRef: boolean): Resolution {
    if (!('uri' in base)) return { unsupported: base.broken };
    if (keyword !== '$ref') return this.resolveDynamic(keyword, value, base.uri, underRef);
    // Ajv calls the root itself for `#` from the root resource (its `$ref` keyword, callRootRef).
    if ((value === '#' || value === '#/') && base.uri === this.root!.baseId) return this.rootTarget();
    let env: SchemaEnv | undefined;
    let url: string;
    try {
      url = resolveUrl(this.ajv!.opts.uriResolver, base.uri, value);
      env = this.lookUp(url, base.uri);
    } catch (e) {
      return { unsupported: (e as Error).message };
    }
    if (env === undefined) return { unsupported: this.isInDocument(url) ? 'target not found' : '' };
    return this.targetOf(env.schema, env.baseId);
  }

  /** Ajv's `resolveRef` without its compilation of the target: the schema and base `url` names. */
  private lookUp(url: string, siteBase: string): SchemaEnv | undefined {
    const ajv = this.ajv!;
    const root = this.root!;
    let ref = url;
    let found: SchemaEnv | string | undefined;
    // Ajv follows this chain without a bound: `$id`s with JSON pointer fragments can make it a loop.
    for (let hops = 0; typeof (found = ajv.refs[ref]) === 'string'; hops++) {
      if (hops > Object.keys(ajv.refs).length) throw new Error('the $id chain loops (an $id with a JSON pointer fragment names another)');
      ref = found;
    }
    if (found === undefined && ajv.schemas[ref] === undefined && this.land(ref, 0) === 'too far') {
      throw new Error(`the reference goes through more than ${MAX_HOPS} schemas that are only a $ref (they loop)`);
    }
    const env = found ?? ajv.schemas[ref] ?? resolveSchema.call(ajv, root, ref);
    if (env !== undefined) return env;
    const local = root.localRefs?.[url];
    return local === undefined ? undefined : new SchemaEnv({ schema: local, schemaId: '$id', root, baseId: siteBase });
  }

  /**
   * Where Ajv's `resolveSchema` (and its `getJsonPointer`) would land for `url`, following what
   * they follow: an `$id` to the pointer of its schema, and a JSON pointer that lands on a schema
   * that is only a `$ref` to that `$ref`. Ajv has no bound on either and recurses until the stack
   * ends (tens of milliseconds, for each reference, in each schema a server can send), so this
   * walk, which decides nothing else, stops after {@link MAX_HOPS}.
   */
  private land(url: string, hops: number): { node: Json; base: string } | 'too far' | undefined {
    if (hops > MAX_HOPS) return 'too far';
    const hash = url.indexOf('#');
    const [doc, fragment] = hash < 0 ? [url, undefined] : [url.slice(0, hash), url.slice(hash + 1)];
    const root = this.root!;
    let start: ReturnType<SchemaRefs['land']>;
    if (doc === (root.baseId.split('#')[0] ?? '')) start = { node: this.document, base: root.baseId };
    else {
      const full = this.ajv!.refs[normalizeId(doc)];
      start = typeof full === 'string' ? this.land(full, hops + 1) : undefined;
    }
    if (start === undefined || start === 'too far' || fragment?.[0] !== '/') return start;
    let { node, base } = start;
    for (const part of fragment.slice(1).split('/')) {
      if (!isObject(node)) return undefined;
      const next = getOwn(node, unescapeFragment(part));
      if (next === undefined) return undefined;
      node = next;
      const id = isObject(node) ? getOwn(node, '$id') : undefined;
      if (id && !KEEP_SCOPE.has(part)) base = resolveUrl(this.ajv!.opts.uriResolver, base, id as string);
    }
    if (isObject(node) && typeof node.$ref === 'string' && !schemaHasRulesButRef(node, this.ajv!.RULES)) {
      return this.land(resolveUrl(this.ajv!.opts.uriResolver, base, node.$ref), hops + 1);
    }
    return { node, base };
  }

  /** Whether the document part of `url` names the document or a resource in it (so a miss is "not found", not "outside"). */
  private isInDocument(url: string): boolean {
    const doc = url.split('#')[0] ?? '';
    return doc === (this.root!.baseId.split('#')[0] ?? '') || this.ajv!.refs[doc] !== undefined;
  }

  private rootTarget(): Resolution {
    return { target: this.document, key: this.rootKey, base: this.rootBase };
  }

  /** A target Ajv found: inside the document, or `unsupported` (another document, a meta-schema). */
  private targetOf(target: Json, baseId: string): Resolution {
    if (!isObject(target)) return typeof target === 'boolean' ? { target, key: undefined, base: { uri: baseId } } : { unsupported: 'not a schema' };
    const pointer = this.pointerOf(target);
    if (pointer === undefined) return { unsupported: '' };
    return { target, key: keyOf(baseId, pointer), base: { uri: baseId } };
  }

  /**
   * `$dynamicRef` and `$recursiveRef`. Ajv (`dynamicRef` in ajv/lib/vocabularies/dynamic)
   * accepts only a fragment `#name` (`#` for `$recursiveRef`); it goes to the schema that
   * registered a dynamic anchor of that name first in the evaluation when one of that name was
   * compiled before the reference, else to the schema function it is compiled in. The
   * specification (2020-12 Core §8.2.3.2, 2019-09 Core §8.2.4.2) starts from the reference
   * resolved like `$ref` and moves to the outermost schema resource in the dynamic scope that
   * declares the same dynamic anchor. Both give the root when:
   * - `$dynamicRef: "#name"` is read in the root resource, the root declares
   *   `$dynamicAnchor: name`, and no other schema declares `name` as an anchor (the root's is the
   *   first registered in every evaluation, and the outermost);
   * - `$recursiveRef: "#"` is read in the root resource and the root has
   *   `$recursiveAnchor: true`, or no schema has it and the reference is not inside a reference's
   *   target (which Ajv compiles as a function of its own).
   * Every other dynamic reference is `unsupported`: its target depends on the path of the
   * evaluation, or Ajv and the specification disagree on it.
   */
  private resolveDynamic(keyword: Exclude<RefKeyword, '$ref'>, value: string, baseUri: string, underRef: boolean): Resolution {
    const anchors = (this.anchors ??= countAnchors(this.document));
    const rootResource = baseUri === this.root!.baseId;
    const root = isObject(this.document) ? this.document : {};
    if (keyword === '$dynamicRef') {
      const name = value.startsWith('#') ? value.slice(1) : undefined;
      const certain = name !== undefined && rootResource && root.$dynamicAnchor === name && anchors.named.get(name) === 1;
      return certain
        ? this.rootTarget()
        : { unsupported: 'a $dynamicRef resolves through the dynamic scope; its target is certain only as "#name" to the root\'s own $dynamicAnchor' };
    }
    const viaRootAnchor = root.$recursiveAnchor === true;
    const plain = anchors.recursive === 0 && !underRef;
    const certain = value === '#' && rootResource && (viaRootAnchor || plain);
    return certain ? this.rootTarget() : { unsupported: 'a $recursiveRef resolves through the dynamic scope; its target is certain only as "#" to the root' };
  }

  /** The JSON pointer of an object or array of the document, by identity. */
  private pointerOf(node: object): string | undefined {
    if (!this.pointers) {
      const map = new Map<object, string>();
      const walk = (v: Json, at: string): void => {
        if (v === null || typeof v !== 'object' || map.has(v)) return;
        map.set(v, at);
        if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}/${i}`));
        else for (const k of Object.keys(v)) walk(v[k] as Json, `${at}/${escapePointerToken(k)}`);
      };
      walk(this.document, '');
      this.pointers = map;
    }
    return this.pointers.get(node);
  }
}

/** More hops through `$id`s and `$ref`-only schemas than any schema needs: a chain this long loops. */
const MAX_HOPS = 64;
/** Pointer segments after which Ajv's `getJsonPointer` does not read an `$id` (a property named `$id` is no id). */
const KEEP_SCOPE: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'enum', 'dependencies', 'definitions']);

/** A target's key: its JSON pointer and the base URI it is read with. */
const keyOf = (baseId: string, pointer: string): string => `${baseId}#${pointer}`;

/** How many schemas declare each anchor name (`$anchor` or `$dynamicAnchor`), and `$recursiveAnchor: true`. */
interface AnchorCounts {
  named: Map<string, number>;
  recursive: number;
}

/** Counts every object of the document, data included: counting too many only makes fewer references certain. */
function countAnchors(document: Json): AnchorCounts {
  const out: AnchorCounts = { named: new Map(), recursive: 0 };
  const walk = (v: Json): void => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach(walk);
    for (const kw of ['$anchor', '$dynamicAnchor']) {
      const name = getOwn(v, kw);
      if (typeof name === 'string') out.named.set(name, (out.named.get(name) ?? 0) + 1);
    }
    if (getOwn(v, '$recursiveAnchor') === true) out.recursive++;
    for (const k of Object.keys(v)) walk(v[k] as Json);
  };
  walk(document);
  return out;
}
