/**
 * The operations of a document and how `include`/`policies` entries name them: by `operationId`,
 * or as `"METHOD /path"` for documents without operationIds.
 */
import { toolNameFromOperationId } from './names.js';
import { resolveLocalRef, type JsonNode } from './refs.js';
import { closest } from '../../util/suggest.js';
import { isObject as isJsonObject } from '../../util/json.js';

/** HTTP methods an OpenAPI path item can hold (`trace` is OpenAPI 3 only; harmless for 2.0). */
export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One operation of the document. */
export interface Operation {
  /** Upper-case, e.g. `GET`. */
  method: string;
  /** Path template as written, e.g. `/pets/{petId}`. */
  path: string;
  /** Absent when the document gives none (an empty string counts as none). */
  operationId?: string;
  operation: Record<string, JsonNode>;
  pathItem: Record<string, JsonNode>;
}

/** Lookup tables over a document's operations. */
export interface OperationIndex {
  all: Operation[];
  byOperationId: Map<string, Operation[]>;
  /** `METHOD path` → operations (normally one). */
  byMethodPath: Map<string, Operation[]>;
  /** `METHOD path-with-{}-placeholders` → operations: `GET /pets/{id}` matches `/pets/{petId}`. */
  byMethodTemplate: Map<string, Operation[]>;
}

const isObject = (v: unknown): v is Record<string, JsonNode> => isJsonObject(v);

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const template = (path: string): string => path.replace(/\{[^}]*\}/g, '{}');

/** Lists the operations under `paths` (path items given by `$ref` are followed). */
export function indexOperations(doc: Record<string, unknown>): OperationIndex {
  const index: OperationIndex = { all: [], byOperationId: new Map(), byMethodPath: new Map(), byMethodTemplate: new Map() };
  const paths = doc.paths as Record<string, JsonNode>;
  for (const [path, rawItem] of Object.entries(paths)) {
    const pathItem = resolveLocalRef(doc, rawItem);
    if (!isObject(pathItem)) continue;
    for (const m of METHODS) {
      const operation = pathItem[m];
      if (!isObject(operation)) continue;
      const id = typeof operation.operationId === 'string' && operation.operationId !== '' ? operation.operationId : undefined;
      const op: Operation = { method: m.toUpperCase(), path, ...(id !== undefined ? { operationId: id } : {}), operation, pathItem };
      index.all.push(op);
      if (id !== undefined) push(index.byOperationId, id, op);
      push(index.byMethodPath, `${op.method} ${path}`, op);
      push(index.byMethodTemplate, `${op.method} ${template(path)}`, op);
    }
  }
  return index;
}

/** Outcome of {@link findOperation}. */
export type EntryMatch = { kind: 'found'; operation: Operation } | { kind: 'unknown'; suggestions: string[] } | { kind: 'ambiguous'; candidates: Operation[] };

const METHOD_PATH = /^([A-Za-z]+)\s+(\/\S*)$/;

/** Human label of an operation: `operationId (METHOD /path)` or `METHOD /path`. */
export function describeOperation(op: Operation): string {
  return op.operationId !== undefined ? `${op.operationId} (${op.method} ${op.path})` : `${op.method} ${op.path}`;
}

/**
 * Finds the operation an `include`/`policies` entry names. An entry is an `operationId`, or
 * `METHOD /path` (method case-insensitive; the path matched exactly, else with parameter names
 * ignored). It is ambiguous when it names more than one operation: a duplicated operationId,
 * two path templates differing only in parameter names, or a string that is both an operationId
 * and a `METHOD /path` of another operation.
 */
export function findOperation(index: OperationIndex, entry: string): EntryMatch {
  const found = new Set<Operation>(index.byOperationId.get(entry) ?? []);
  const m = METHOD_PATH.exec(entry.trim());
  if (m && (METHODS as readonly string[]).includes(m[1]!.toLowerCase())) {
    const method = m[1]!.toUpperCase();
    const exact = index.byMethodPath.get(`${method} ${m[2]}`);
    for (const op of exact ?? index.byMethodTemplate.get(`${method} ${template(m[2]!)}`) ?? []) found.add(op);
  }
  if (found.size === 1) return { kind: 'found', operation: [...found][0]! };
  if (found.size > 1) return { kind: 'ambiguous', candidates: [...found] };

  // Likely slips: a tool name or a different case instead of the operationId, else a typo.
  const lower = entry.toLowerCase();
  const ids = index.all.flatMap((op) => (op.operationId !== undefined ? [op.operationId] : []));
  const suggestions = ids.filter((id) => id.toLowerCase() === lower || toolNameFromOperationId(id) === entry).slice(0, 3);
  if (suggestions.length === 0) {
    const near = closest(entry, ids);
    if (near !== undefined) suggestions.push(near);
  }
  return { kind: 'unknown', suggestions };
}
