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
 * The result shares subtrees with the input: clone it (`cloneJson`, util/json.ts) before giving it to
 * anything that mutates (the parser's `validate()` dereferences in place).
 */
import { isObject as isJsonObject, setOwn } from '../../util/json.js';
import { refTokens } from './refs.js';
import { METHODS } from './operations.js';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => isJsonObject(v);
const METHOD_SET: ReadonlySet<string> = new Set(METHODS);
/** Swagger 2.0's reusable maps at the top level. */
const SECTIONS_2: ReadonlySet<string> = new Set(['definitions', 'parameters', 'responses', 'securityDefinitions']);
/** Keys whose string value gives a schema another address than its JSON pointer. */
const ADDRESS_KEYS: ReadonlySet<string> = new Set(['$id', '$anchor', '$dynamicAnchor']);

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
  const closure = new Closure(layoutOf(doc));
  closure.keepSecurity(doc.security);
  for (const op of operations) {
    const method = op.method.toLowerCase();
    if (METHOD_SET.has(method)) closure.keepPath(op.path, method);
  }
  closure.run();
  if (closure.whole) return { doc, whole: true };
  return { doc: assemble(closure), whole: false };
}

/** The parts of a document the closure walks from. */
interface Layout {
  doc: Obj;
  /** A Swagger 2.0 document (else OpenAPI 3.x). */
  v2: boolean;
  paths: Obj | undefined;
  /** 3.x `components` (undefined in 2.0, where the reusable maps are top-level). */
  components: Obj | undefined;
}

function layoutOf(doc: Obj): Layout {
  const v2 = doc.swagger !== undefined;
  return {
    doc,
    v2,
    paths: isObject(doc.paths) ? doc.paths : undefined,
    components: !v2 && isObject(doc.components) ? doc.components : undefined,
  };
}

/** Whether the top-level `key` is a reusable map whose entries are kept one by one. */
function isTopLevelMap(v2: boolean, key: string): boolean {
  return (v2 && SECTIONS_2.has(key)) || (!v2 && key === 'webhooks');
}

/**
 * The transitive closure of what kept content references: each newly kept subtree is queued and
 * scanned once for refs, security requirements and discriminator mappings. `whole` is set (and
 * the walk stops) when the closure cannot be trusted.
 */
class Closure {
  whole = false;
  /** path → kept methods (lower case) or the whole item. */
  readonly keptPaths = new Map<string, Kept>();
  /** map id (`components/schemas`, `definitions`, `webhooks`) → kept entry names. */
  readonly keptEntries = new Map<string, Kept>();
  /** Kept top-level extensions. */
  readonly keptExtensions = new Set<string>();
  /** Kept subtrees not scanned yet. */
  private readonly queue: unknown[] = [];

  constructor(readonly layout: Layout) {}

  /** Scans the queued subtrees until none is left or the closure gives up. */
  run(): void {
    while (this.queue.length > 0 && !this.whole) this.scan(this.queue.pop());
  }

  /** The map a section id names, or undefined. */
  private mapOf(id: string): Obj | undefined {
    if (id.startsWith('components/')) {
      const section = this.layout.components?.[id.slice('components/'.length)];
      return isObject(section) ? section : undefined;
    }
    const v = this.layout.doc[id];
    return isObject(v) ? v : undefined;
  }

  /** Keeps entry `name` of the map `id`, or the whole map when `name` is undefined. */
  private keepEntry(id: string, name?: string): void {
    const map = this.mapOf(id);
    if (map === undefined) return; // a dangling ref: validate() reports it
    let kept = this.keptEntries.get(id);
    if (kept === true) return;
    if (name === undefined) {
      this.keptEntries.set(id, true);
      for (const [k, v] of Object.entries(map)) if (!(kept?.has(k) ?? false)) this.queue.push(v);
      return;
    }
    if (!Object.hasOwn(map, name)) return;
    if (kept === undefined) this.keptEntries.set(id, (kept = new Set()));
    if (kept.has(name)) return;
    kept.add(name);
    this.queue.push(map[name]);
  }

  /** Keeps a path item: one of its methods, its shared fields only, or all of it. */
  // `what` is a method name (lower case), 'shared' or 'all'.
  keepPath(path: string, what: string): void {
    const { paths } = this.layout;
    if (paths === undefined || !Object.hasOwn(paths, path)) return;
    const item = paths[path];
    let kept = this.keptPaths.get(path);
    if (kept === true) return;
    if (kept === undefined) {
      // First use of this path item: its shared fields (or its `$ref`) come with it.
      this.keptPaths.set(path, (kept = new Set()));
      if (isObject(item)) {
        for (const [k, v] of Object.entries(item)) if (!METHOD_SET.has(k)) this.queue.push(v);
      } else {
        this.queue.push(item);
      }
    }
    if (!isObject(item) || what === 'shared') return;
    if (what === 'all') {
      this.keptPaths.set(path, true);
      for (const m of METHODS) if (!kept.has(m) && item[m] !== undefined) this.queue.push(item[m]);
      return;
    }
    if (kept.has(what) || item[what] === undefined) return;
    kept.add(what);
    this.queue.push(item[what]);
  }

  /** Keeps what a `#/...` pointer points into. */
  private keepPointer(tokens: string[]): void {
    const [top, second, third] = tokens;
    const { v2 } = this.layout;
    if (top === undefined || top === '') {
      this.whole = true;
    } else if (top === 'paths') {
      this.keepPathsPointer(second, third);
    } else if (top === 'components' && !v2) {
      this.keepComponentsPointer(second, third);
    } else if (isTopLevelMap(v2, top)) {
      this.keepEntry(top, second);
    } else if (top.startsWith('x-')) {
      if (!this.keptExtensions.has(top)) {
        this.keptExtensions.add(top);
        this.queue.push(this.layout.doc[top]);
      }
    }
    // Other top-level fields are kept whole anyway.
  }

  /** `#/paths`, `#/paths/<path>` or `#/paths/<path>/<field>/...`. */
  private keepPathsPointer(path: string | undefined, field: string | undefined): void {
    const { paths } = this.layout;
    if (path === undefined) {
      if (paths !== undefined) for (const p of Object.keys(paths)) this.keepPath(p, 'all');
    } else if (field === undefined) {
      this.keepPath(path, 'all');
    } else {
      this.keepPath(path, METHOD_SET.has(field) ? field : 'shared');
    }
  }

  /** `#/components`, `#/components/<section>` or `#/components/<section>/<name>/...` (3.x). */
  private keepComponentsPointer(section: string | undefined, name: string | undefined): void {
    const { components } = this.layout;
    if (section === undefined) {
      if (components !== undefined) for (const s of Object.keys(components)) this.keepEntry(`components/${s}`);
    } else if (isObject(components?.[section])) {
      this.keepEntry(`components/${section}`, name);
    } else {
      // An extension or a malformed section of `components`: keep it as written.
      this.keepEntry('components', section);
    }
  }

  private keepRef(ref: string): void {
    if (ref === '#' || ref === '#/') this.whole = true;
    else if (ref.startsWith('#/')) this.keepPointer(refTokens(ref) ?? []);
    else if (ref.startsWith('#')) this.whole = true; // a plain-name fragment: found by $anchor, not by pointer
    // Anything else is external (only with remote refs allowed): the parser resolves it.
  }

  /** Keeps the security schemes a list of security requirements names. */
  keepSecurity(requirements: unknown): void {
    if (!Array.isArray(requirements)) return;
    for (const req of requirements) {
      if (!isObject(req)) continue;
      for (const name of Object.keys(req)) this.keepEntry(this.layout.v2 ? 'securityDefinitions' : 'components/securitySchemes', name);
    }
  }

  /** A discriminator's `mapping` values: schema names (3.x) or refs. */
  private keepMapping(discriminator: unknown): void {
    if (!isObject(discriminator) || !isObject(discriminator.mapping)) return;
    for (const target of Object.values(discriminator.mapping)) {
      if (typeof target !== 'string') continue;
      if (target.startsWith('#')) this.keepRef(target);
      else if (!this.layout.v2 && !target.includes('/')) this.keepEntry('components/schemas', target);
    }
  }

  /** Walks a kept subtree for refs, security requirements and discriminator mappings. */
  private scan(root: unknown): void {
    const stack: unknown[] = [root];
    while (stack.length > 0 && !this.whole) {
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
          if (k === '$ref') this.keepRef(v);
          else if (ADDRESS_KEYS.has(k)) this.whole = true;
        } else if (v !== null && typeof v === 'object') {
          if (k === 'security') this.keepSecurity(v);
          else if (k === 'discriminator') this.keepMapping(v);
          stack.push(v);
        }
      }
    }
  }
}

/** The document with only what `closure` kept, in the input's key order. */
function assemble(closure: Closure): Obj {
  const { doc, v2, paths, components } = closure.layout;
  const out: Obj = {};
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'paths' && paths !== undefined) {
      out.paths = prunePaths(paths, closure.keptPaths);
    } else if (key === 'components' && components !== undefined) {
      out.components = pruneComponents(components, closure.keptEntries);
    } else if (isTopLevelMap(v2, key)) {
      setOwn(out, key, isObject(value) ? pick(value, closure.keptEntries.get(key)) : value);
    } else if (key.startsWith('x-')) {
      if (closure.keptExtensions.has(key)) setOwn(out, key, value);
    } else {
      setOwn(out, key, value);
    }
  }
  return out;
}

/** The kept entries of `map`. */
function pick(map: Obj, kept: Kept | undefined): Obj {
  if (kept === true) return map;
  const out: Obj = {};
  if (kept !== undefined) for (const k of Object.keys(map)) if (kept.has(k)) setOwn(out, k, map[k]);
  return out;
}

/** The kept path items, each with its shared fields and only its kept methods. */
function prunePaths(paths: Obj, keptPaths: ReadonlyMap<string, Kept>): Obj {
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
  return prunedPaths;
}

/** The kept entries of each `components` section; sections left empty are dropped. */
function pruneComponents(components: Obj, keptEntries: ReadonlyMap<string, Kept>): Obj {
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
  return prunedComponents;
}
