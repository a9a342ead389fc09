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
 * - Before the parser runs, the size of what its validation builds and walks is measured
 *   (deref-size.ts: `$ref`s into cycles stay refs, shared targets count at each use) and more
 *   than 64 Mi is refused as a reference bomb, naming the `$ref`: that walk is synchronous and no
 *   deadline can stop it. Stripe's description (cyclic throughout) builds 4.4 M for every
 *   operation, GitHub's 18 M.
 * - As a second guard against network access the parser's HTTP resolver gets `canRead: false`
 *   unless remote refs are allowed (its options always enable HTTP otherwise).
 * - Every file is read through {@link RepoFiles} (repo-files.ts): the document and each file a
 *   `$ref` names must resolve inside the repository root after symbolic links are resolved (no
 *   `/etc/passwd`, `file:///proc/self/environ`, `../../x.yaml` or link out of the checkout), must
 *   be a regular file (no FIFO, device, socket, directory), and stay within the size caps; YAML
 *   alias bombs are refused after parsing, before anything walks the value. The parser's own file
 *   resolver is replaced by one that serves the checked, parsed files, so `bundle()` reads
 *   nothing else. With `allowRemoteRefs`, the HTTP resolver is replaced by a fetch with a size
 *   cap, a timeout and the refusal of private addresses (remote.ts). One deadline (default 60 s)
 *   covers the load; validation gets its own.
 */
import { dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, compileErrors, dereference, validate, type ParserOptions } from '@readme/openapi-parser';
import { ConfigError } from '../../util/errors.js';
import { SourceError } from '../source-error.js';
import { escapePointerToken, cloneJson } from '../../util/json.js';
import { pruneForValidation, type KeptOperation } from './prune.js';
import { dereferencedSize, estimateDereferencedSize, resolvedByPointerAlone, type DerefSize } from './deref-size.js';
import { expandedSize } from './expanded-size.js';
import { MAX_TOTAL_BYTES, RepoFiles } from './repo-files.js';
import { shown } from './repo-path.js';
import { findRepositoryRoot } from '../../util/repository-root.js';

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
  /** The repository root the document's files were confined to (absolute). */
  root: string;
  /**
   * Every file read to build it (the document and each file it refers to, as absolute paths;
   * remote documents as URLs), validation's reads included once {@link validateOpenApiDocument}
   * has run.
   */
  files: Set<string>;
}

/** Options of {@link loadOpenApiDocument}. */
export interface LoadDocumentOptions {
  /** Resolve `http(s)` `$ref`s over the network. Default false: such refs fail the load. */
  allowRemoteRefs?: boolean;
  /** Prefix for error messages, e.g. `integration.json:3: spec`. */
  context?: string;
  /**
   * The repository root (absolute, or relative to the working directory): the document and every
   * file it references must resolve inside it, symbolic links resolved. Default
   * ({@link findRepositoryRoot}): the nearest directory at or above the document containing
   * `.git`; else the working directory when the document is inside it; else the document's
   * directory. Callers should pass the root the integration config was checked against
   * (`IntegrationConfig.root`).
   */
  root?: string;
  /** Time for the whole load, in milliseconds (default 60 000); validation gets as much again. */
  timeoutMs?: number;
  /** Tests only: let remote refs reach loopback and private addresses. */
  allowPrivateAddresses?: boolean;
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

type ResolveOptions = NonNullable<ParserOptions['resolve']>;

/**
 * Options toolgate gives `@readme/openapi-parser`: file refs on, HTTP reads off unless
 * `allowRemoteRefs`, lint rules as warnings. With `files`, every file and remote read goes
 * through it (confined to the repository, capped); without (tests), the parser's file resolver.
 * Exported for tests.
 */
export function parserOptions(allowRemoteRefs: boolean, files?: RepoFiles): ParserOptions {
  const warn = Object.fromEntries(LINT_RULES.map((r) => [r, 'warning' as const]));
  // Neither a resolver object for `file` nor `read` for `http` is in the typed options: the parser
  // uses a `file` object as the file resolver, and spreads `http` into its HTTP resolver (a plugin
  // whose `canRead` is false is never asked to read).
  const http = files ? files.httpResolver() : allowRemoteRefs ? undefined : { canRead: false };
  return {
    resolve: {
      external: true,
      file: (files ? files.fileResolver() : true) as ResolveOptions['file'],
      ...(http ? { http: http as unknown as ResolveOptions['http'] } : {}),
    },
    ...(files ? { timeoutMs: files.remaining() } : {}),
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
        walk(v, `${pointer}/${escapePointerToken(k)}`);
      }
    }
  };
  walk(root, '');
  return out;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function loadFailed(ctx: string, what: string, cause?: unknown): SourceError {
  return new SourceError(`${ctx}${what}`, 'load-failed', undefined, cause === undefined ? undefined : { cause });
}

/**
 * Runs a parser call with our resolvers: when it fails, the error one of them threw (a located
 * ConfigError, a SourceError) wins over the parser's wrapping of it; past the deadline, a timeout.
 */
async function withResolvers<T>(files: RepoFiles, what: string, run: () => Promise<T>, wrap: (e: unknown) => Error): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (files.failure) throw files.failure;
    files.checkDeadline(what);
    throw wrap(e);
  }
}

/**
 * Loads and bundles an OpenAPI document; {@link validateOpenApiDocument} validates it.
 * @param specPath absolute or cwd-relative path of the document.
 * @throws {@link SourceError} with reason `load-failed` (exit 3) when the file is missing,
 *   cannot be parsed, is not Swagger 2.0 / OpenAPI 3.0 / 3.1, has an unresolvable or refused
 *   remote `$ref`, or when the load outlasts its deadline. The message names the file and carries
 *   the parser's message.
 * @throws {@link ConfigError} (exit 2) located at the `$ref` (file, pointer, line) when the
 *   document or a file it references resolves outside the repository root (symbolic links
 *   resolved), is not a regular file, exceeds the size caps, or expands past them through YAML
 *   aliases; and for a remote `$ref` to a private address or too large a remote document.
 */
export async function loadOpenApiDocument(specPath: string, opts: LoadDocumentOptions = {}): Promise<LoadedDocument> {
  const ctx = opts.context ? `${opts.context}: ` : '';
  const allowRemote = opts.allowRemoteRefs === true;
  const notes: string[] = [];
  const path = resolvePath(specPath);
  specPath = shown(path);
  const files = new RepoFiles({
    root: opts.root ?? findRepositoryRoot(dirname(path)),
    context: ctx,
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    allowRemoteRefs: allowRemote,
    ...(opts.allowPrivateAddresses ? { allowPrivateAddresses: true } : {}),
    document: path,
  });

  const root = await files.load(path);
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    throw loadFailed(ctx, `${specPath} is not an OpenAPI document (not a JSON/YAML object)`);
  }
  const hasExternal = await loadReferencedFiles(files, path, root, ctx, allowRemote);
  const doc = hasExternal ? await bundleDocument(files, path, specPath, ctx, allowRemote) : (root as Record<string, unknown>);
  const { protocolVersion, major, is31 } = documentVersion(doc, specPath, ctx);

  const info = doc.info;
  // OpenAPI 3.1 allows a document without `paths` (webhooks only): no operations to include.
  if (doc.paths === undefined && is31) doc.paths = {};
  if (info === null || typeof info !== 'object' || doc.paths === null || typeof doc.paths !== 'object' || Array.isArray(doc.paths)) {
    throw loadFailed(ctx, `${specPath} is not a valid OpenAPI document: \`info\` and \`paths\` must be objects`);
  }
  return { doc, protocolVersion, major, is31, notes, specPath, root: files.root, files: new Set(files.read()) };
}

/**
 * Loads, through `files`, every file the document at `path` (parsed: `root`) refers to,
 * transitively; true when it has any non-local `$ref`. We follow file refs ourselves before the
 * parser does, so that a remote ref anywhere is refused before any I/O, and every refused local
 * ref is reported where it is written.
 */
async function loadReferencedFiles(files: RepoFiles, path: string, root: object, ctx: string, allowRemote: boolean): Promise<boolean> {
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
      const refPath = refTargetPath(target, ref, file, pointer, ctx);
      if (seen.has(refPath)) continue;
      seen.add(refPath);
      queue.push({ file: refPath, value: await files.load(refPath, { ref, file, pointer }) });
    }
  }
  return hasExternal;
}

/** The absolute path of a file `$ref`'s target (`target`: the ref without its fragment), written in `file`. */
function refTargetPath(target: string, ref: string, file: string, pointer: string, ctx: string): string {
  try {
    return /^file:/i.test(target) ? fileURLToPath(target) : resolvePath(dirname(file), decodeURI(target));
  } catch (e) {
    throw new ConfigError(
      `${ctx}malformed $ref ${JSON.stringify(ref)} at ${shown(file)}#${pointer}: ${message(e)}`,
      { file, pointer },
      'write a relative path to a file inside the repository',
    );
  }
}

/** The document at `path` bundled with the files it refers to (already loaded and checked). */
async function bundleDocument(files: RepoFiles, path: string, specPath: string, ctx: string, allowRemote: boolean): Promise<Record<string, unknown>> {
  files.checkDeadline(`bundling ${specPath}`);
  const doc = await withResolvers(
    files,
    `bundling ${specPath}`,
    async () => (await bundle(path, parserOptions(allowRemote, files))) as unknown as Record<string, unknown>,
    (e) => loadFailed(ctx, `cannot resolve $refs of ${specPath}: ${message(e)}`, e),
  );
  // Each file was measured; what bundling made of them must stay finite and within the cap too.
  const size = expandedSize(doc, { limit: MAX_TOTAL_BYTES });
  if (!('size' in size)) {
    throw new ConfigError(
      `${ctx}${specPath} with the files it references ${size.kind === 'cycle' ? 'contains itself' : size.kind === 'too-deep' ? 'is nested too deeply' : 'is too large'} once bundled`,
      { file: path },
      'reference fewer or smaller files',
    );
  }
  return doc;
}

/** The document's version, as {@link LoadedDocument} gives it; a load failure when unsupported. */
function documentVersion(doc: Record<string, unknown>, specPath: string, ctx: string): Pick<LoadedDocument, 'protocolVersion' | 'major' | 'is31'> {
  if (doc.swagger !== undefined) {
    if (doc.swagger !== '2.0') throw loadFailed(ctx, `${specPath}: unsupported swagger version ${JSON.stringify(doc.swagger)} (supported: 2.0)`);
    return { protocolVersion: 'swagger-2.0', major: 2, is31: false };
  }
  if (typeof doc.openapi === 'string' && /^3\.[01]\.\d+$/.test(doc.openapi)) {
    return { protocolVersion: `openapi-${doc.openapi}`, major: 3, is31: doc.openapi.startsWith('3.1.') };
  }
  throw loadFailed(
    ctx,
    doc.openapi === undefined
      ? `${specPath} is not an OpenAPI document (no \`openapi\` or \`swagger\` field)`
      : `${specPath}: unsupported OpenAPI version ${JSON.stringify(doc.openapi)} (supported: Swagger 2.0, OpenAPI 3.0.x and 3.1.x)`,
  );
}

/**
 * Most that validating may build: 64 Mi in {@link expandedSize} units (about bytes of JSON), the
 * part validated with its `$ref`s resolved as the parser resolves them, shared targets counted at
 * each use (deref-size.ts). The walk over it cannot be interrupted; it goes at a few million units
 * a second on a loaded 2-core machine, so the cap keeps it well within the validation deadline.
 * All of GitHub's REST description builds about 18 million, all of Stripe's 4.4 million
 * (test/fixtures/openapi/README.md).
 */
const MAX_DEREFERENCED_SIZE = 64 * 1024 * 1024;

/** The refusal of a part to validate that expands past {@link MAX_DEREFERENCED_SIZE}. */
function refBomb(ctx: string, loaded: LoadedDocument, r: Exclude<DerefSize, { size: number }>): ConfigError {
  const limit = `${MAX_DEREFERENCED_SIZE / (1024 * 1024)} MiB`;
  const file = resolvePath(loaded.specPath);
  if ('cycle' in r) {
    return new ConfigError(
      `${ctx}${loaded.specPath}: resolving the $refs of the included operations and the schemas they reference made a structure that contains itself; toolgate does not validate it`,
      { file },
      'report this document to toolgate: its references are resolved in a way toolgate does not measure',
    );
  }
  const { pointer, ref } = r.tooLarge;
  const site = `the $ref at #${pointer}${ref !== undefined ? `, to ${ref},` : ''}`;
  // Pointers into a bundled document name no file of the repository: then the message names it only.
  const located = loaded.files.size === 1 && pointer !== '' ? { file, pointer } : { file };
  return new ConfigError(
    `${ctx}${loaded.specPath}: the included operations and the schemas they reference expand to more than ${limit} once their $refs are resolved (a reference bomb: ${site} expands past that, through schemas that refer to others many times over); toolgate does not validate it`,
    located,
    'reduce how often the schemas refer to one another (or include fewer operations)',
  );
}

/**
 * `target` dereferenced as the parser's `validate()` does (`circular: "ignore"`, its own
 * options), on a copy; with the object each replaced `$ref` became.
 * @throws {@link SourceError} `load-failed` for a `$ref` that points nowhere (the message
 *   `validate()` gives), a parser failure or the deadline.
 */
async function dereferenceForValidation(
  target: Record<string, unknown>,
  files: RepoFiles,
  allowRemote: boolean,
  ctx: string,
  specPath: string,
): Promise<{ doc: object; inlinedBy: Map<object, string> }> {
  const inlinedBy = new Map<object, string>();
  const onDereference = (ref: string, value: unknown): void => {
    if (value !== null && typeof value === 'object' && !inlinedBy.has(value)) inlinedBy.set(value, ref);
  };
  const doc = await withResolvers(
    files,
    `validating ${specPath}`,
    async () =>
      (await dereference(cloneJson(target) as Parameters<typeof dereference>[0], {
        ...parserOptions(allowRemote, files),
        dereference: { circular: 'ignore', onDereference },
      })) as object,
    (e) => {
      if (e instanceof Error && e.name === 'MissingPointerError') {
        const result = { valid: false as const, errors: [{ message: e.message }], warnings: [], additionalErrors: 0, specification: null };
        return loadFailed(ctx, `${specPath} is not a valid OpenAPI document: ${compileErrors(result)}`, e);
      }
      return loadFailed(ctx, `${specPath} could not be validated: ${message(e)}`, e);
    },
  );
  return { doc, inlinedBy };
}

/** Options of {@link validateOpenApiDocument}: the ones the document was loaded with. */
export type ValidateDocumentOptions = Pick<LoadDocumentOptions, 'allowRemoteRefs' | 'context' | 'timeoutMs' | 'allowPrivateAddresses'>;

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
 *   message names the file and carries the parser's errors), the parser fails or outlasts the
 *   deadline (`timeoutMs`, default 60 s; the parser checks it while dereferencing).
 * @throws {@link ConfigError} (exit 2) when the part to validate would expand past 64 MiB once
 *   its `$ref`s are resolved as the parser resolves them (a reference bomb; deref-size.ts), or the parser resolves a `$ref` against a `$id`
 *   to a file outside the repository.
 */
export async function validateOpenApiDocument(
  loaded: LoadedDocument,
  operations: Iterable<KeptOperation>,
  opts: ValidateDocumentOptions = {},
): Promise<string[]> {
  const ctx = opts.context ? `${opts.context}: ` : '';
  const { specPath } = loaded;
  let target = pruneForValidation(loaded.doc, operations).doc;
  if (loaded.is31 && target !== loaded.doc && emptyOas31(target) && !emptyOas31(loaded.doc)) target = loaded.doc;
  // The parser dereferences, then walks what it built as a tree (deref-size.ts): a "reference
  // bomb" would run past any deadline in a walk nothing can interrupt. Estimated first (a bomb is
  // refused in milliseconds); where the parser may resolve a `$ref` other than by JSON pointer,
  // dereferenced here and measured as built, before anything walks it.
  const estimate = estimateDereferencedSize(target, MAX_DEREFERENCED_SIZE);
  if (!('size' in estimate)) throw refBomb(ctx, loaded, estimate);
  // The document is in memory with internal refs only; a file or URL the parser still resolves
  // (a `$ref` against a `$id`) goes through the same confinement and caps as the load.
  const files = new RepoFiles({
    root: loaded.root,
    context: ctx,
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    allowRemoteRefs: opts.allowRemoteRefs === true,
    ...(opts.allowPrivateAddresses ? { allowPrivateAddresses: true } : {}),
    document: resolvePath(loaded.specPath),
  });
  let input: object;
  if (resolvedByPointerAlone(target)) {
    input = cloneJson(target);
  } else {
    const built = await dereferenceForValidation(target, files, opts.allowRemoteRefs === true, ctx, specPath);
    const size = dereferencedSize(built.doc, MAX_DEREFERENCED_SIZE, built.inlinedBy);
    if (!('size' in size)) throw refBomb(ctx, loaded, size);
    // Given what it would build itself, the parser's own dereferencing finds nothing more to replace.
    input = built.doc;
  }
  const result = await withResolvers(
    files,
    `validating ${specPath}`,
    () => validate(input as Parameters<typeof validate>[0], parserOptions(opts.allowRemoteRefs === true, files)),
    (e) => loadFailed(ctx, `${specPath} could not be validated: ${message(e)}`, e),
  );
  for (const f of files.read()) loaded.files.add(f);
  if (!result.valid) throw loadFailed(ctx, `${specPath} is not a valid ${result.specification ?? 'OpenAPI'} document: ${compileErrors(result)}`);
  return result.warnings.map((w) => `${specPath}: ${w.message}`);
}
