/**
 * Loads an OpenAPI document (Swagger 2.0, OpenAPI 3.0, 3.1; JSON or YAML) with
 * `@readme/openapi-parser`, refusing remote `$ref`s unless allowed.
 *
 * Strategy (measured on GitHub's 13 MB description, 2-core machine):
 * - `parse()` reads the root file (≈0.35 s). We scan it (and, recursively, every file it refers
 *   to) for `$ref`s. A remote one (`http:`, `https:`, `//host`) fails before any I/O unless
 *   `allowRemoteRefs`: the check never touches the network.
 * - Only when there are external (file) refs do we call `bundle()` (≈1.2 s on GitHub, which has
 *   none), so the result is one document whose refs are all internal (`#/...`). Refs are left in
 *   place, so circular schemas stay finite; tools.ts maps them into `$defs`.
 * - Validation ({@link validateOpenApiDocument}, run by the source once the `include` entries are
 *   resolved) gives the parser's `validate()` (dereference + JSON Schema check against the
 *   OpenAPI meta-schema + its spec rules) a pruned copy of the document: the top-level fields,
 *   the included operations with their path items' shared fields, and every component (2.0:
 *   definition, parameter, response, security definition) they reach by `$ref`, transitively
 *   (rule in prune.ts). So toolgate validates the operations it turns into tools and everything
 *   they reference; problems in parts of the document no tool uses (other operations, unused
 *   components, other methods of an included path, top-level `x-*` extensions, a dangling
 *   internal `$ref` there) do not fail the check. Syntax errors anywhere still do (every file is
 *   parsed whole), as do a missing referenced file and a refused remote `$ref` anywhere.
 *   The pruned copy is cloned in memory (`validate()` dereferences in place), not re-read from
 *   disk. On GitHub's description a 50-operation integration validates ≈0.4 MB of the 6.9 MB
 *   (as JSON), and `toolgate audit` took ≈1.7 s instead of ≈4.8 s (2 cores, load ≈5); all 1,223
 *   operations ≈2.9 s instead of ≈3.6 s (the 0.6 MB `x-webhooks` and what only it uses are left
 *   out). Most of what remains is the parser compiling the OpenAPI meta-schema on every call.
 *   An invalid kept part fails the check rather than yielding a partial surface. The parser's
 *   lint-like rules (duplicate operationId, path parameter mismatches, array without items...)
 *   are downgraded to warnings and reported as notes (for the validated part only): the
 *   integration's author usually cannot fix a vendor's document. `validate: false` (source option) skips this pass.
 * - As a second guard against network access the parser's HTTP resolver gets `canRead: false`
 *   unless remote refs are allowed (its options always enable HTTP otherwise).
 */
import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, compileErrors, parse, validate, type ParserOptions } from '@readme/openapi-parser';
import { SourceError } from '../../util/errors.js';
import { cloneJson, pruneForValidation, type KeptOperation } from './prune.js';

/** A loaded document: one JSON tree whose `$ref`s are all internal (`#/...`). */
export interface LoadedDocument {
  /** The bundled document (plain JSON; `$ref`s kept). */
  doc: Record<string, unknown>;
  /** `swagger-2.0` or `openapi-<version>` as written in the document, e.g. `openapi-3.1.0`. */
  protocolVersion: string;
  /** 2 for Swagger 2.0, 3 for OpenAPI 3.x (3.0 and 3.1 differ only where noted in tools.ts). */
  major: 2 | 3;
  /** True for OpenAPI 3.1 (JSON Schema 2020-12 semantics, `$ref` siblings apply). */
  is31: boolean;
  /** Parser warnings and other notes worth showing. */
  notes: string[];
  /** The document's path as messages show it (relative to the working directory when under it). */
  specPath: string;
}

/** Options of {@link loadOpenApiDocument}. */
export interface LoadDocumentOptions {
  /** Resolve `http(s)` `$ref`s over the network. Default false: such refs fail the load. */
  allowRemoteRefs?: boolean;
  /** Prefix for error messages, e.g. `integration.json:3: spec`. */
  context?: string;
}

const LINT_RULES = [
  'array-without-items',
  'duplicate-non-request-body-parameters',
  'duplicate-operation-id',
  'non-optional-path-parameters',
  'path-parameters-not-in-parameters',
  'path-parameters-not-in-path',
] as const;

function isRemote(ref: string): boolean {
  return /^(?:https?:)?\/\//i.test(ref);
}

/**
 * Options toolgate gives `@readme/openapi-parser`: file refs on, HTTP reads off unless
 * `allowRemoteRefs`, lint rules as warnings. Exported for tests.
 */
export function parserOptions(allowRemoteRefs: boolean): ParserOptions {
  const warn = Object.fromEntries(LINT_RULES.map((r) => [r, 'warning' as const]));
  return {
    resolve: {
      external: true,
      file: true,
      // Not in the typed options: the parser spreads this object into its HTTP resolver, and a
      // plugin whose `canRead` is false is never asked to read.
      ...(allowRemoteRefs ? {} : { http: { canRead: false } as NonNullable<ParserOptions['resolve']>['http'] }),
    },
    validate: { rules: { openapi: warn, swagger: { ...warn, 'unknown-required-schema-property': 'warning' } } },
  };
}

/** Collects the non-local `$ref` strings of a parsed file with their JSON pointers. */
function externalRefs(root: unknown): Array<{ ref: string; pointer: string }> {
  const out: Array<{ ref: string; pointer: string }> = [];
  const walk = (node: unknown, pointer: string): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach((v, i) => walk(v, `${pointer}/${i}`));
      return;
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        if (!v.startsWith('#')) out.push({ ref: v, pointer: `${pointer}/$ref` });
      } else {
        walk(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      }
    }
  };
  walk(root, '');
  return out;
}

/** A path as messages show it: relative to the working directory when under it. */
function shown(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function loadFailed(ctx: string, what: string, cause?: unknown): SourceError {
  return new SourceError(`${ctx}${what}`, 'load-failed', undefined, cause === undefined ? undefined : { cause });
}

/** Reads one file with the parser (no `$ref` resolution). */
async function parseOne(path: string, ctx: string): Promise<unknown> {
  try {
    return await parse(path, { resolve: { external: false } });
  } catch (e) {
    throw loadFailed(ctx, `cannot parse ${shown(path)}: ${message(e)}`, e);
  }
}

/**
 * Loads and bundles an OpenAPI document; {@link validateOpenApiDocument} validates it.
 * @param specPath absolute or cwd-relative path of the document.
 * @throws {@link SourceError} with reason `load-failed` (exit 3) when the file is missing,
 *   cannot be parsed, is not Swagger 2.0 / OpenAPI 3.0 / 3.1, has an unresolvable or refused
 *   `$ref`. The message names the file and carries the parser's message.
 */
export async function loadOpenApiDocument(specPath: string, opts: LoadDocumentOptions = {}): Promise<LoadedDocument> {
  const ctx = opts.context ? `${opts.context}: ` : '';
  const allowRemote = opts.allowRemoteRefs === true;
  const notes: string[] = [];
  const path = resolvePath(specPath);
  specPath = shown(path);

  try {
    const s = await stat(path);
    if (!s.isFile()) throw loadFailed(ctx, `OpenAPI document ${specPath} is not a file`);
  } catch (e) {
    if (e instanceof SourceError) throw e;
    throw loadFailed(ctx, `OpenAPI document not found: ${specPath}`, e);
  }

  const root = await parseOne(path, ctx);
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    throw loadFailed(ctx, `${specPath} is not an OpenAPI document (not a JSON/YAML object)`);
  }

  // Follow file refs ourselves first, so that a remote ref anywhere is refused before any I/O.
  let hasExternal = false;
  const seen = new Set<string>([path]);
  const queue: Array<{ file: string; value: unknown }> = [{ file: path, value: root }];
  while (queue.length > 0) {
    const { file, value } = queue.shift()!;
    for (const { ref, pointer } of externalRefs(value)) {
      hasExternal = true;
      if (isRemote(ref)) {
        if (allowRemote) continue;
        throw loadFailed(
          ctx,
          `remote $ref ${JSON.stringify(ref)} at ${shown(file)}#${pointer} refused: toolgate does not fetch documents over the network unless remote refs are allowed (\`allow-remote-refs: true\` in toolgate.yml), or make the reference a local file`,
        );
      }
      const target = ref.split('#', 1)[0]!;
      if (target === '') continue;
      let refPath: string;
      try {
        refPath = /^file:/i.test(target) ? fileURLToPath(target) : resolvePath(dirname(file), decodeURI(target));
      } catch (e) {
        throw loadFailed(ctx, `malformed $ref ${JSON.stringify(ref)} at ${shown(file)}#${pointer}: ${message(e)}`, e);
      }
      if (seen.has(refPath)) continue;
      seen.add(refPath);
      try {
        await stat(refPath);
      } catch (e) {
        throw loadFailed(ctx, `$ref ${JSON.stringify(ref)} at ${shown(file)}#${pointer}: file not found: ${shown(refPath)}`, e);
      }
      queue.push({ file: refPath, value: await parseOne(refPath, ctx) });
    }
  }

  const options = parserOptions(allowRemote);
  let doc: Record<string, unknown>;
  if (hasExternal) {
    try {
      doc = (await bundle(path, options)) as unknown as Record<string, unknown>;
    } catch (e) {
      throw loadFailed(ctx, `cannot resolve $refs of ${specPath}: ${message(e)}`, e);
    }
  } else {
    doc = root as Record<string, unknown>;
  }

  let protocolVersion: string;
  let major: 2 | 3;
  let is31 = false;
  if (doc.swagger !== undefined) {
    if (doc.swagger !== '2.0') throw loadFailed(ctx, `${specPath}: unsupported swagger version ${JSON.stringify(doc.swagger)} (supported: 2.0)`);
    protocolVersion = 'swagger-2.0';
    major = 2;
  } else if (typeof doc.openapi === 'string' && /^3\.[01]\.\d+$/.test(doc.openapi)) {
    protocolVersion = `openapi-${doc.openapi}`;
    major = 3;
    is31 = doc.openapi.startsWith('3.1.');
  } else {
    throw loadFailed(
      ctx,
      doc.openapi === undefined
        ? `${specPath} is not an OpenAPI document (no \`openapi\` or \`swagger\` field)`
        : `${specPath}: unsupported OpenAPI version ${JSON.stringify(doc.openapi)} (supported: Swagger 2.0, OpenAPI 3.0.x and 3.1.x)`,
    );
  }

  const info = doc.info;
  // OpenAPI 3.1 allows a document without `paths` (webhooks only): no operations to include.
  if (doc.paths === undefined && is31) doc.paths = {};
  if (info === null || typeof info !== 'object' || doc.paths === null || typeof doc.paths !== 'object' || Array.isArray(doc.paths)) {
    throw loadFailed(ctx, `${specPath} is not a valid OpenAPI document: \`info\` and \`paths\` must be objects`);
  }
  return { doc, protocolVersion, major, is31, notes, specPath };
}

/** Options of {@link validateOpenApiDocument}: the ones the document was loaded with. */
export type ValidateDocumentOptions = Pick<LoadDocumentOptions, 'allowRemoteRefs' | 'context'>;

/** True when an OpenAPI 3.1 document has no entry in `paths`, `webhooks` or `components`. */
function emptyOas31(doc: Record<string, unknown>): boolean {
  const count = (v: unknown) => (v !== null && typeof v === 'object' ? Object.keys(v).length : 0);
  return count(doc.paths) + count(doc.webhooks) + count(doc.components) === 0;
}

/**
 * Validates the part of a loaded document that the given operations use: the top-level fields,
 * those operations (with their path items' shared fields) and everything they reach by `$ref`,
 * transitively (prune.ts). Problems elsewhere in the document do not fail. The pruned part is
 * cloned (the parser dereferences in place) and validated from memory with the same parser call
 * and options as the whole document would be. Falls back to the whole document when the pruning
 * cannot follow the refs (`$id`, `#anchor`, a ref to the root) and for a 3.1 document whose
 * pruned copy would have no path, webhook or component (the parser requires one).
 * @returns the parser's warnings as notes (`<spec>: <message>`).
 * @throws {@link SourceError} `load-failed` (exit 3) when the validated part is invalid (the
 *   message names the file and carries the parser's errors) or the parser fails.
 */
export async function validateOpenApiDocument(loaded: LoadedDocument, operations: Iterable<KeptOperation>, opts: ValidateDocumentOptions = {}): Promise<string[]> {
  const ctx = opts.context ? `${opts.context}: ` : '';
  const { specPath } = loaded;
  let target = pruneForValidation(loaded.doc, operations).doc;
  if (loaded.is31 && target !== loaded.doc && emptyOas31(target) && !emptyOas31(loaded.doc)) target = loaded.doc;
  let result;
  try {
    result = await validate(cloneJson(target) as Parameters<typeof validate>[0], parserOptions(opts.allowRemoteRefs === true));
  } catch (e) {
    throw loadFailed(ctx, `${specPath} could not be validated: ${message(e)}`, e);
  }
  if (!result.valid) throw loadFailed(ctx, `${specPath} is not a valid ${result.specification ?? 'OpenAPI'} document: ${compileErrors(result)}`);
  return result.warnings.map((w) => `${specPath}: ${w.message}`);
}
