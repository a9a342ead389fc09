/**
 * One OpenAPI operation → one tool (`name`, `title`, `description`, `inputSchema`).
 *
 * `inputSchema` shape (the tool's arguments):
 * ```
 * { "type": "object",
 *   "properties": { "<param>": <schema>, ..., "body": <request body schema> },
 *   "required": [ required params..., "body" if the body is required ],   // omitted when empty
 *   "additionalProperties": false,
 *   "$defs": { ... } }                                                     // only for recursive schemas
 * ```
 * - Parameters (path, query, header) are properties named after the parameter, in that order;
 *   path-level parameters apply unless the operation overrides the same name and location.
 *   A name already taken gets its location as prefix (`query_id`); `body` is reserved for the
 *   request body when there is one. The parameter's `description` is copied into its schema
 *   when the schema has none; `required: true` puts it in `required`.
 * - Cookie parameters are not exposed (session state the HTTP client owns, not an argument a
 *   model should choose); the snapshot notes them. Header parameters named `Accept`,
 *   `Content-Type` or `Authorization` are skipped, as OpenAPI 3 says they SHALL be ignored.
 * - OpenAPI 3 parameters take `schema`, or the schema of the first `content` entry.
 *   Swagger 2.0 non-body parameters are their own schema (`in`, `name`, `required`,
 *   `collectionFormat`, `allowEmptyValue` removed; `type: file` → `{type: string, format: binary}`).
 * - Request body: OpenAPI 3 `requestBody.content`, first match of `application/json`, any
 *   `*+json`, `application/x-www-form-urlencoded`, `multipart/form-data`, else the first entry
 *   (no schema → `{}`); required when `requestBody.required`. Swagger 2.0: the `in: body`
 *   parameter's schema, or an object of the `in: formData` parameters.
 * - The root has `additionalProperties: false`: toolgate builds this wrapper, and an argument it
 *   does not list has nowhere to go. No `outputSchema` is derived.
 *
 * Text: `description` is the operation's `description`, else its `summary`; `title` is the
 * `summary` only when both exist and differ (MCP `title` is a display name; the summary fits,
 * and is not repeated when it already is the description).
 */
import type { Json, JsonObject } from '../../util/json.js';
import { toolNameFromMethodPath, toolNameFromOperationId } from './names.js';
import type { Operation } from './operations.js';
import { resolveLocalRef } from './refs.js';
import { withSchemaBuilder, type SchemaBuilder } from './schema.js';
import { isObject as isJsonObject, setOwn } from '../../util/json.js';

const LOCATIONS = ['path', 'query', 'header'] as const;
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
const SWAGGER_PARAM_META = new Set(['in', 'name', 'required', 'collectionFormat', 'allowEmptyValue']);

const isObject = (v: unknown): v is Record<string, unknown> => isJsonObject(v);

/** What {@link toolFromOperation} needs to know about the document. */
export interface DocumentContext {
  doc: Record<string, unknown>;
  major: 2 | 3;
  is31: boolean;
}

/** The derived tool and anything worth noting about it. */
export interface DerivedTool {
  tool: JsonObject;
  notes: string[];
}

/** Tool name of an operation (see names.ts for the rule). */
export function toolName(op: Operation): string {
  return op.operationId !== undefined ? toolNameFromOperationId(op.operationId) : toolNameFromMethodPath(op.method, op.path);
}

/**
 * The operation's parameters, `$ref`s resolved: its own, and its path item's that it does not
 * override (same `in` and `name`), path item's first (OpenAPI, Path Item Object `parameters`).
 */
export function effectiveParameters(ctx: DocumentContext, op: Operation): Array<Record<string, unknown>> {
  const resolveAll = (list: unknown): Array<Record<string, unknown>> =>
    Array.isArray(list) ? list.map((p) => resolveLocalRef(ctx.doc, p)).filter(isObject) : [];
  const own = resolveAll(op.operation.parameters);
  const key = (p: Record<string, unknown>) => `${String(p.in)}\0${String(p.name)}`;
  const overridden = new Set(own.map(key));
  return [...resolveAll(op.pathItem.parameters).filter((p) => !overridden.has(key(p))), ...own];
}

function withDescription(schema: Json, description: unknown): Json {
  if (typeof description !== 'string' || description === '' || !isObject(schema) || schema.description !== undefined) return schema;
  return { ...schema, description };
}

function swaggerParamSchema(b: SchemaBuilder, p: Record<string, unknown>): Json {
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) if (!SWAGGER_PARAM_META.has(k)) setOwn(rest, k, v);
  if (rest.type === 'file') {
    rest.type = 'string';
    rest.format = 'binary';
  }
  return b.schema(rest);
}

function oas3ParamSchema(b: SchemaBuilder, p: Record<string, unknown>): Json {
  let schema: Json = {};
  if (p.schema !== undefined) schema = b.schema(p.schema);
  else if (isObject(p.content)) {
    const first = Object.values(p.content)[0];
    if (isObject(first) && first.schema !== undefined) schema = b.schema(first.schema);
  }
  return withDescription(schema, p.description);
}

function pickMediaType(content: Record<string, unknown>): string | undefined {
  const types = Object.keys(content);
  const lower = (t: string) => t.toLowerCase().split(';', 1)[0]!.trim();
  return (
    types.find((t) => lower(t) === 'application/json') ??
    types.find((t) => lower(t).endsWith('+json')) ??
    types.find((t) => lower(t) === 'application/x-www-form-urlencoded') ??
    types.find((t) => lower(t) === 'multipart/form-data') ??
    types[0]
  );
}

function build(ctx: DocumentContext, op: Operation, b: SchemaBuilder): DerivedTool {
  const notes: string[] = [];
  const properties: { [k: string]: Json } = {};
  const required: string[] = [];
  const params = effectiveParameters(ctx, op);
  const label = `${op.operationId ?? `${op.method} ${op.path}`}`;

  // Request body first, so `body` is reserved before parameters take names.
  let body: { schema: Json; required: boolean } | undefined;
  if (ctx.major === 2) {
    const bodyParam = params.find((p) => p.in === 'body');
    const formParams = params.filter((p) => p.in === 'formData');
    if (bodyParam) {
      body = { schema: withDescription(b.schema(bodyParam.schema ?? {}), bodyParam.description), required: bodyParam.required === true };
    } else if (formParams.length > 0) {
      const props: { [k: string]: Json } = {};
      const req: string[] = [];
      for (const p of formParams) {
        const name = String(p.name);
        setOwn(props, name, swaggerParamSchema(b, p));
        if (p.required === true) req.push(name);
      }
      body = { schema: { type: 'object', properties: props, ...(req.length > 0 ? { required: req } : {}) }, required: req.length > 0 };
    }
  } else if (op.operation.requestBody !== undefined) {
    const rb = resolveLocalRef(ctx.doc, op.operation.requestBody);
    if (isObject(rb)) {
      const content = isObject(rb.content) ? rb.content : {};
      const media = pickMediaType(content);
      const entry = media !== undefined ? content[media] : undefined;
      const schema = isObject(entry) && entry.schema !== undefined ? b.schema(entry.schema) : {};
      body = { schema: withDescription(schema, rb.description), required: rb.required === true };
    }
  }
  const taken = new Set<string>(body ? ['body'] : []);

  const cookies: string[] = [];
  for (const where of LOCATIONS) {
    for (const p of params.filter((x) => x.in === where)) {
      const name = String(p.name);
      if (where === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue;
      let key = name;
      for (let n = 2; taken.has(key); n++) key = n === 2 ? `${where}_${name}` : `${where}_${name}_${n}`;
      taken.add(key);
      setOwn(properties, key, ctx.major === 2 ? withDescription(swaggerParamSchema(b, p), p.description) : oas3ParamSchema(b, p));
      if (p.required === true || where === 'path') required.push(key);
    }
  }
  for (const p of params) if (p.in === 'cookie') cookies.push(String(p.name));
  if (cookies.length > 0) notes.push(`${label}: cookie parameter(s) not exposed as arguments: ${cookies.join(', ')}`);

  if (body) {
    properties.body = body.schema;
    if (body.required) required.push('body');
  }

  const defs = b.defs();
  const inputSchema: JsonObject = {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(defs ? { $defs: defs } : {}),
  };

  const summary = typeof op.operation.summary === 'string' && op.operation.summary.trim() !== '' ? op.operation.summary : undefined;
  const description = typeof op.operation.description === 'string' && op.operation.description.trim() !== '' ? op.operation.description : undefined;
  const tool: JsonObject = { name: toolName(op) };
  if (summary !== undefined && description !== undefined && summary.trim() !== description.trim()) tool.title = summary;
  const text = description ?? summary;
  if (text !== undefined) tool.description = text;
  tool.inputSchema = inputSchema;
  return { tool, notes };
}

/**
 * Derives the tool of one operation.
 * @throws {@link import('../source-error.js').SourceError} `load-failed` on a dangling `$ref`.
 */
export function toolFromOperation(ctx: DocumentContext, op: Operation): DerivedTool {
  return withSchemaBuilder(ctx.doc, ctx.is31, (b) => build(ctx, op, b));
}
