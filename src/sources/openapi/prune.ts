/**
 * The part of an OpenAPI document that toolgate validates: what its tools are made of.
 *
 * Pruning rule ({@link pruneForValidation}):
 * - Top-level fields (`openapi`/`swagger`, `info`, `servers`, `security`, `tags`, `host`,
 *   `basePath`, ...) are kept whole. Top-level extensions (`x-*`) are dropped unless a kept
 *   `$ref` points into them (GitHub's `x-webhooks` is 0.6 MB of payload schemas no tool uses).
 * - `paths`: only the path items that hold an included operation, each with its shared fields
 *   (`parameters`, `servers`, `summary`, `description`, `x-*`) and only its included methods; the
 *   other operations of the same path are not tools and are left out. A path item given by `$ref`
 *   is kept as written (its target is kept whole by the closure below).
 * - Reusable objects: `components/<section>/<name>` (3.x; every section: schemas, parameters,
 *   responses, requestBodies, examples, headers, securitySchemes, links, callbacks, pathItems),
 *   `definitions`, `parameters`, `responses`, `securityDefinitions` (2.0) and 3.1 `webhooks`
 *   keep only the entries reachable from what is kept: by a `$ref` (`#/a/b/...` keeps the entry
 *   `b` of map `a` whole), by name from a `security` requirement, or as a discriminator mapping.
 *   The closure is transitive and visits each entry once, so circular schemas end.
 * - A `$ref` into `paths` keeps the operation it points into (or the whole path item). A `$ref` to
 *   the document root, to a plain-name fragment (`#anchor`), or a `$id`/`$anchor`/`$dynamicAnchor`
 *   anywhere in kept content (3.1 schema resources can be addressed other than by pointer) makes
 *   the closure unreliable: then the whole document is kept.
 *
 * The result shares subtrees with the input: clone it ({@link cloneJson}) before giving it to
 * anything that mutates (the parser's `validate()` dereferences in place).
 */
import { isObject as isJsonObject, setOwn, unescapePointerToken } from '../../util/json.js';
import { METHODS } from './operations.js';

/** Deep copy of a JSON tree; shared subtrees are copied apart (the JSON toolkit's). */
export { cloneJson } from '../../util/json.js';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => isJsonObject(v);
const METHOD_SET: ReadonlySet<string> = new Set(METHODS);
/** Swagger 2.0's reusable maps at the top level. */
const SECTIONS_2: ReadonlySet<string> = new Set(['definitions', 'parameters', 'responses', 'securityDefinitions']);
/** Keys whose string value gives a schema another address than its JSON pointer. */
const ADDRESS_KEYS: ReadonlySet<string> = new Set(['$id', '$anchor', '$dynamicAnchor']);

/** `#/a/b~1c` → `['a', 'b/c']` (URI-decoded, then RFC 6901-unescaped), as refs.ts reads them. */
function pointerTokens(ref: string): string[] {
  return ref
    .slice(2)
    .split('/')
    .map((raw) => {
      let token: string;
      try {
        token = decodeURIComponent(raw);
      } catch {
        token = raw;
      }
      return unescapePointerToken(token);
    });
}

/** An operation to keep, as `indexOperations` lists it. */
export interface KeptOperation {
  /** HTTP method, any case. */
  method: string;
  /** The key under `paths`. */
  path: string;
}

/** Kept entries of one map: `true` = the whole map. */
type Kept = Set<string> | true;

/** A document reduced to what the given operations use (see the module comment). */
export interface PrunedDocument {
  /** The pruned document, sharing subtrees with the input. */
  doc: Obj;
  /** True when the closure could not be trusted and `doc` is the input document itself. */
  whole: boolean;
}

/**
 * Reduces `doc` to the given operations and everything they reference (see the module comment).
 * `doc` must be a bundled document (all `$ref`s internal); it is not modified.
 */
export function pruneForValidation(doc: Obj, operations: Iterable<KeptOperation>): PrunedDocument {
  const v2 = doc.swagger !== undefined;
  const paths = isObject(doc.paths) ? doc.paths : undefined;
  const components = !v2 && isObject(doc.components) ? doc.components : undefined;

  let whole = false;
  /** path → kept methods (lower case) or the whole item. */
  const keptPaths = new Map<string, Kept>();
  /** map id (`components/schemas`, `definitions`, `webhooks`) → kept entry names. */
  const keptEntries = new Map<string, Kept>();
  /** Kept top-level extensions. */
  const keptExtensions = new Set<string>();
  const queue: unknown[] = [];

  /** The map a section id names, or undefined. */
  const mapOf = (id: string): Obj | undefined => {
    if (id.startsWith('components/')) {
      const section = components?.[id.slice('components/'.length)];
      return isObject(section) ? section : undefined;
    }
    const v = doc[id];
    return isObject(v) ? v : undefined;
  };

  const keepEntry = (id: string, name?: string): void => {
    const map = mapOf(id);
    if (map === undefined) return; // a dangling ref: validate() reports it
    let kept = keptEntries.get(id);
    if (kept === true) return;
    if (name === undefined) {
      keptEntries.set(id, true);
      for (const [k, v] of Object.entries(map)) if (!(kept?.has(k) ?? false)) queue.push(v);
      return;
    }
    if (!Object.hasOwn(map, name)) return;
    if (kept === undefined) keptEntries.set(id, (kept = new Set()));
    if (kept.has(name)) return;
    kept.add(name);
    queue.push(map[name]);
  };

  /** Keeps a path item: one of its methods, its shared fields only, or all of it. */
  // `what` is a method name (lower case), 'shared' or 'all'.
  const keepPath = (path: string, what: string): void => {
    if (paths === undefined || !Object.hasOwn(paths, path)) return;
    const item = paths[path];
    let kept = keptPaths.get(path);
    if (kept === true) return;
    if (kept === undefined) {
      // First use of this path item: its shared fields (or its `$ref`) come with it.
      keptPaths.set(path, (kept = new Set()));
      if (isObject(item)) {
        for (const [k, v] of Object.entries(item)) if (!METHOD_SET.has(k)) queue.push(v);
      } else {
        queue.push(item);
      }
    }
    if (!isObject(item) || what === 'shared') return;
    if (what === 'all') {
      keptPaths.set(path, true);
      for (const m of METHODS) if (!kept.has(m) && item[m] !== undefined) queue.push(item[m]);
      return;
    }
    if (kept.has(what) || item[what] === undefined) return;
    kept.add(what);
    queue.push(item[what]);
  };

  /** Keeps what a `#/...` pointer points into. */
  const keepPointer = (tokens: string[]): void => {
    const [top, second, third] = tokens;
    if (top === undefined || top === '') {
      whole = true;
    } else if (top === 'paths') {
      if (second === undefined) {
        if (paths !== undefined) for (const p of Object.keys(paths)) keepPath(p, 'all');
      } else if (third === undefined) {
        keepPath(second, 'all');
      } else {
        keepPath(second, METHOD_SET.has(third) ? third : 'shared');
      }
    } else if (top === 'components' && !v2) {
      if (second === undefined) {
        if (components !== undefined) for (const s of Object.keys(components)) keepEntry(`components/${s}`);
      } else if (isObject(components?.[second])) {
        keepEntry(`components/${second}`, third);
      } else {
        // An extension or a malformed section of `components`: keep it as written.
        keepEntry('components', second);
      }
    } else if ((v2 && SECTIONS_2.has(top)) || (!v2 && top === 'webhooks')) {
      keepEntry(top, second);
    } else if (top.startsWith('x-')) {
      if (!keptExtensions.has(top)) {
        keptExtensions.add(top);
        queue.push(doc[top]);
      }
    }
    // Other top-level fields are kept whole anyway.
  };

  const keepRef = (ref: string): void => {
    if (ref === '#' || ref === '#/') whole = true;
    else if (ref.startsWith('#/')) keepPointer(pointerTokens(ref));
    else if (ref.startsWith('#')) whole = true; // a plain-name fragment: found by $anchor, not by pointer
    // Anything else is external (only with remote refs allowed): the parser resolves it.
  };

  const keepSecurity = (requirements: unknown): void => {
    if (!Array.isArray(requirements)) return;
    for (const req of requirements) {
      if (!isObject(req)) continue;
      for (const name of Object.keys(req)) keepEntry(v2 ? 'securityDefinitions' : 'components/securitySchemes', name);
    }
  };

  /** A discriminator's `mapping` values: schema names (3.x) or refs. */
  const keepMapping = (discriminator: unknown): void => {
    if (!isObject(discriminator) || !isObject(discriminator.mapping)) return;
    for (const target of Object.values(discriminator.mapping)) {
      if (typeof target !== 'string') continue;
      if (target.startsWith('#')) keepRef(target);
      else if (!v2 && !target.includes('/')) keepEntry('components/schemas', target);
    }
  };

  /** Walks a kept subtree for refs, security requirements and discriminator mappings. */
  const scan = (root: unknown): void => {
    const stack: unknown[] = [root];
    while (stack.length > 0 && !whole) {
      const node = stack.pop();
      if (node === null || typeof node !== 'object') continue;
      if (Array.isArray(node)) {
        for (let i = 0; i < node.length; i++) {
          const v: unknown = node[i];
          if (v !== null && typeof v === 'object') stack.push(v);
        }
        continue;
      }
      // for-in over a parsed JSON/YAML object: own keys only (no inherited enumerables).
      for (const k in node) {
        const v = (node as Obj)[k];
        if (typeof v === 'string') {
          if (k === '$ref') keepRef(v);
          else if (ADDRESS_KEYS.has(k)) whole = true;
        } else if (v !== null && typeof v === 'object') {
          if (k === 'security') keepSecurity(v);
          else if (k === 'discriminator') keepMapping(v);
          stack.push(v);
        }
      }
    }
  };

  keepSecurity(doc.security);
  for (const op of operations) {
    const method = op.method.toLowerCase();
    if (METHOD_SET.has(method)) keepPath(op.path, method);
  }
  while (queue.length > 0 && !whole) scan(queue.pop());
  if (whole) return { doc, whole: true };

  const pick = (map: Obj, kept: Kept | undefined): Obj => {
    if (kept === true) return map;
    const out: Obj = {};
    if (kept !== undefined) for (const k of Object.keys(map)) if (kept.has(k)) setOwn(out, k, map[k]);
    return out;
  };

  const out: Obj = {};
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'paths' && paths !== undefined) {
      const prunedPaths: Obj = {};
      for (const [p, item] of Object.entries(paths)) {
        const kept = keptPaths.get(p);
        if (kept === undefined) continue;
        if (kept === true || !isObject(item) || typeof item.$ref === 'string') {
          setOwn(prunedPaths, p, item);
          continue;
        }
        const prunedItem: Obj = {};
        for (const [k, v] of Object.entries(item)) if (!METHOD_SET.has(k) || kept.has(k)) setOwn(prunedItem, k, v);
        setOwn(prunedPaths, p, prunedItem);
      }
      out.paths = prunedPaths;
    } else if (key === 'components' && components !== undefined) {
      const prunedComponents: Obj = {};
      const direct = keptEntries.get('components');
      for (const [section, map] of Object.entries(components)) {
        if (isObject(map)) {
          const picked = pick(map, keptEntries.get(`components/${section}`));
          if (Object.keys(picked).length > 0) setOwn(prunedComponents, section, picked);
        } else if (direct === true || (direct?.has(section) ?? false) || !section.startsWith('x-')) {
          // Not a map: kept as written, so that validation reports it.
          setOwn(prunedComponents, section, map);
        }
      }
      out.components = prunedComponents;
    } else if ((v2 && SECTIONS_2.has(key)) || (!v2 && key === 'webhooks')) {
      setOwn(out, key, isObject(value) ? pick(value, keptEntries.get(key)) : value);
    } else if (key.startsWith('x-')) {
      if (keptExtensions.has(key)) setOwn(out, key, value);
    } else {
      setOwn(out, key, value);
    }
  }
  return { doc: out, whole: false };
}
