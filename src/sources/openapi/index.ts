/**
 * The `openapi` source: an integration config's explicit `include` allowlist of operations of an
 * OpenAPI document → raw tools with origin, safety class and the config line of each entry.
 *
 * Integration config (JSON; every key but `policies` and `id` required):
 * ```json
 * { "id": "rental-app", "type": "openapi", "spec": "./openapi.json",
 *   "include": ["getOutfits", "postOrdersQuote", "GET /pets/{petId}"],
 *   "policies": { "postOrdersQuote": "read" } }
 * ```
 * `spec` is relative to the config file. `include` entries and `policies` keys name an
 * operation by `operationId` or as `"METHOD /path"`.
 */
import { relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ConfigError } from '../../util/errors.js';
import { SourceError } from '../source-error.js';
import type { RawSnapshot, RawTool } from '../types.js';
import { loadIntegrationConfig, type IncludeEntry, type IntegrationConfig } from './config.js';
import { loadOpenApiDocument, validateOpenApiDocument, type LoadedDocument } from './document.js';
import { describeOperation, findOperation, indexOperations, type Operation, type OperationIndex } from './operations.js';
import { toolFromOperation, toolName } from './tools.js';
import { callPins, type CallPins } from './call.js';

export { integrationLines, loadIntegrationConfig, type IntegrationConfig } from './config.js';
export { MAX_TOOL_NAME_LENGTH, toolNameFromMethodPath, toolNameFromOperationId } from './names.js';

/** Options of {@link snapshotOpenApi}. */
export interface SnapshotOpenApiOptions {
  /** Source id to use instead of the config's `id` (e.g. the id given in toolgate.yml). */
  idOverride?: string;
  /** Resolve `http(s)` `$ref`s over the network. Default false: such a ref fails the load. */
  allowRemoteRefs?: boolean;
  /**
   * Validate the included operations and everything they reference with the parser (default
   * true; see `validateOpenApiDocument`: parts of the document no tool uses are not validated).
   * False still fails on unparsable documents, dangling `$ref`s and unsupported versions.
   */
  validate?: boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

function resolveEntry(cfg: IntegrationConfig, index: OperationIndex, entry: string, pointer: string, line: number, what: string): Operation {
  const match = findOperation(index, entry);
  const loc = { file: cfg.file, line, pointer };
  if (match.kind === 'found') return match.operation;
  if (match.kind === 'ambiguous') {
    throw new ConfigError(
      `${what} ${JSON.stringify(entry)} is ambiguous: it names ${match.candidates.map(describeOperation).join(' and ')} in ${cfg.spec}`,
      loc,
      'name the operation by its exact operationId, or by "METHOD /path" with the path exactly as the document writes it',
    );
  }
  const hint = match.suggestions.length > 0 ? ` (did you mean ${match.suggestions.map((s) => JSON.stringify(s)).join(' or ')}?)` : '';
  throw new ConfigError(
    `${what} ${JSON.stringify(entry)} names no operation of ${cfg.spec}${hint}: the document changed or the entry is misspelled`,
    loc,
    'use an operationId from the document (or "METHOD /path" when it has none); if the operation was removed or renamed upstream, update this entry and review the change',
    'unknown-operation',
  );
}

/**
 * Snapshots an OpenAPI integration: one raw tool per `include` entry, in `include` order, disabled
 * ones included (so a later promotion is a visible change).
 *
 * Per tool: `tool` = `{name, title?, description?, inputSchema}` (see tools.ts for the schema
 * shape and names.ts for the name rule); `origin` = `{method, path, operationId?, promoted?}`
 * (`promoted: true` only for a non-GET/HEAD operation with a `read` policy) and the call fields
 * that decide where its calls go and what they carry (`servers`, `security`, `securitySchemes`,
 * `parameters`, `requestBody`, `responses`: see call.ts); `safetyClass` =
 * `read` for GET/HEAD or a `read` policy, else `disabled`; `location` = the integration file,
 * the line of the `include` entry and its pointer (`/include/3`). The line of a `policies` entry
 * comes from {@link integrationLines} (`/policies/<escaped key>`).
 *
 * `source.files` = every file read (the document and each file it refers to) by repository path.
 * `server` = `{name: info.title, version: info.version, protocolVersion: "openapi-3.1.0" |
 * "swagger-2.0"}`. `diagnostics.notes` carries parser warnings and skipped cookie parameters.
 *
 * @param integrationPath the integration config (JSON); `spec` is resolved against its directory.
 * @throws {@link ConfigError} (exit 2) for mistakes in the config, each naming its file, line,
 *   pointer and fix: see {@link loadIntegrationConfig}, plus `unknown-operation` (an `include` or
 *   `policies` entry the document lacks), an ambiguous entry, two entries naming one operation,
 *   `policy-not-included` (a policy for an operation not in `include`) and a tool-name collision
 *   after sanitization.
 * @throws {@link SourceError} `load-failed` (exit 3) when the document is missing, unparsable,
 *   unsupported, has a dangling or refused remote `$ref`, or when the included operations or
 *   anything they reference are invalid (checked after the config errors above, since which
 *   part of the document is validated depends on `include`).
 */
export async function snapshotOpenApi(integrationPath: string, opts: SnapshotOpenApiOptions = {}): Promise<RawSnapshot> {
  const started = performance.now();
  const cfg = await loadIntegrationConfig(integrationPath);
  const id = opts.idOverride ?? cfg.id;
  if (id === undefined) {
    throw new ConfigError(
      'integration config has no `id` and the source gives none',
      { file: cfg.file, line: 1, pointer: '' },
      'add "id": "<source id>" to the integration config',
    );
  }

  const docOpts = {
    context: `${cfg.file}:${cfg.specLine} (spec)`,
    ...(opts.allowRemoteRefs !== undefined ? { allowRemoteRefs: opts.allowRemoteRefs } : {}),
  };
  const loaded = await loadOpenApiDocument(cfg.specPath, { ...docOpts, root: cfg.root });
  const index = indexDocument(loaded, docOpts.context);
  const resolved = resolveIncludes(cfg, index);
  const included = new Set(resolved.map((r) => r.op));
  const promotedOps = resolvePromotions(cfg, index, included);

  // Validation covers what the tools are made of: the included operations and what they reference.
  const notes = [...loaded.notes];
  if (opts.validate !== false) notes.push(...(await validateOpenApiDocument(loaded, included, docOpts)));
  const tools: RawTool[] = resolved.map(({ entry, op }) => {
    const derived = toolFromOperation(loaded, op);
    notes.push(...derived.notes);
    return rawTool(cfg.file, entry, op, derived.tool, promotedOps.get(op), pinsOf(loaded, op, docOpts.context));
  });

  const info = loaded.doc.info as Record<string, unknown>;
  return {
    source: { id, kind: 'openapi', files: repositoryPaths(loaded) },
    server: {
      ...(typeof info.title === 'string' ? { name: info.title } : {}),
      ...(typeof info.version === 'string' ? { version: info.version } : {}),
      protocolVersion: loaded.protocolVersion,
    },
    tools,
    live: true,
    file: integrationPath,
    diagnostics: { durationMs: Math.round(performance.now() - started), ...(notes.length > 0 ? { notes } : {}) },
  };
}

/** The call fields of an operation's origin; one that cannot be read fails the load, naming the document. */
function pinsOf(loaded: LoadedDocument, op: Operation, context: string): CallPins {
  try {
    return callPins(loaded, op);
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    throw new SourceError(`${context}: ${loaded.specPath}: ${e.message}`, 'load-failed', undefined, { cause: e });
  }
}

/**
 * The files read to build the surface as the contract records them: paths from the repository
 * root, `/`-separated (a file outside it was refused when read), remote documents as their URLs;
 * sorted.
 */
function repositoryPaths(loaded: LoadedDocument): string[] {
  const out = new Set<string>();
  for (const f of loaded.files) out.add(/^https?:\/\//i.test(f) ? f : relative(loaded.root, f).split(sep).join('/'));
  return [...out].sort();
}

/** The document's operations; a dangling or looping path item `$ref` is a load failure. */
function indexDocument(loaded: LoadedDocument, context: string): OperationIndex {
  try {
    return indexOperations(loaded.doc);
  } catch (e) {
    // A dangling or looping path item `$ref`, found before validation could report it.
    if (!(e instanceof SourceError)) throw e;
    throw new SourceError(`${context}: ${loaded.specPath}: ${e.message}`, 'load-failed', undefined, { cause: e });
  }
}

/** An `include` entry with the operation it names and that operation's tool name. */
interface ResolvedEntry {
  entry: IncludeEntry;
  op: Operation;
  name: string;
}

/**
 * The `include` entries with their operations, in `include` order. Two entries naming one
 * operation, or two operations whose tool names collide, are config errors.
 */
function resolveIncludes(cfg: IntegrationConfig, index: OperationIndex): ResolvedEntry[] {
  const included = new Map<Operation, IncludeEntry>();
  const names = new Map<string, IncludeEntry>();
  const resolved: ResolvedEntry[] = [];
  for (const entry of cfg.include) {
    const op = resolveEntry(cfg, index, entry.entry, entry.pointer, entry.line, '`include` entry');
    const same = included.get(op);
    if (same) {
      throw new ConfigError(
        `\`include\` entry ${JSON.stringify(entry.entry)} names the same operation as ${JSON.stringify(same.entry)} (${same.pointer}, line ${same.line}): ${describeOperation(op)}`,
        { file: cfg.file, line: entry.line, pointer: entry.pointer },
        'remove one of them',
      );
    }
    included.set(op, entry);
    const name = toolName(op);
    const clash = names.get(name);
    if (clash) {
      throw new ConfigError(
        `tool name ${JSON.stringify(name)} of ${describeOperation(op)} collides with ${JSON.stringify(clash.entry)} (${clash.pointer}, line ${clash.line}) after sanitization to [A-Za-z0-9_.-]{1,64}`,
        { file: cfg.file, line: entry.line, pointer: entry.pointer },
        'include only one of the two operations (toolgate cannot give them distinct names), or ask the document owner to use distinct operationIds',
      );
    }
    names.set(name, entry);
    resolved.push({ entry, op, name });
  }
  return resolved;
}

/** Where a `policies` entry is written. */
interface PolicyLocation {
  line: number;
  pointer: string;
}

/**
 * Each operation a `policies` entry names, with where that entry is: a promotion's findings
 * point at the line a reviewer must read, not at the operation's `include` line. A policy for an
 * operation not in `include` is a config error.
 */
function resolvePromotions(cfg: IntegrationConfig, index: OperationIndex, included: ReadonlySet<Operation>): Map<Operation, PolicyLocation> {
  const promotedOps = new Map<Operation, PolicyLocation>();
  for (const policy of cfg.policies) {
    const op = resolveEntry(cfg, index, policy.key, policy.pointer, policy.line, '`policies` entry');
    if (!included.has(op)) {
      throw new ConfigError(
        `\`policies\` entry ${JSON.stringify(policy.key)} names ${describeOperation(op)}, which is not in \`include\``,
        { file: cfg.file, line: policy.line, pointer: policy.pointer },
        'add the operation to `include`, or remove the policy',
        'policy-not-included',
      );
    }
    promotedOps.set(op, { line: policy.line, pointer: policy.pointer });
  }
  return promotedOps;
}

/**
 * The raw tool of an included operation: `read` for GET/HEAD, or when a policy promotes it
 * (`policy`: where that policy is written, which is then the tool's location); else `disabled`.
 */
function rawTool(file: string, entry: IncludeEntry, op: Operation, tool: RawTool['tool'], policy: PolicyLocation | undefined, pins: CallPins): RawTool {
  const safe = SAFE_METHODS.has(op.method);
  const promotion = safe ? undefined : policy;
  const promoted = promotion !== undefined;
  return {
    tool,
    origin: {
      method: op.method,
      path: op.path,
      ...(op.operationId !== undefined ? { operationId: op.operationId } : {}),
      ...(promoted ? { promoted: true } : {}),
      ...pins,
    },
    safetyClass: safe || promoted ? 'read' : 'disabled',
    location: promotion ? { file, ...promotion } : { file, line: entry.line, pointer: entry.pointer },
  };
}
