/**
 * What decides where an operation's calls go and what they carry, as a tool's `origin` pins it
 * (`ToolOrigin` in surface/model.ts): the effective servers with their variables, the security
 * requirements in effect with the schemes they name, each parameter's location and name, and the
 * request and response media types. Reads the bundled document only (every `$ref` internal).
 *
 * Sources (OpenAPI 3.1.1, by object): OpenAPI Object `servers` (absent or empty: one server at
 * `/`) and `security`; Path Item Object and Operation Object `servers` (each overrides the level
 * above); Operation Object `security` (overrides the document's; `[]` removes it); Security
 * Requirement Object (the list's entries are alternatives; an empty one makes security optional);
 * Server Variable Object; Security Scheme Object; OAuth Flow Object. Swagger 2.0: `schemes`,
 * `host` and `basePath` (a missing scheme is the one the document was read with, a missing host
 * the one serving it), `consumes`, `produces`, `securityDefinitions`.
 */
import type { PinnedOAuthFlow, PinnedParameter, PinnedSecurityScheme, PinnedServer, ToolOrigin } from '../../surface/model.js';
import { canonicalJson, getOwn, hasOwn, isObject, setOwn, type Json, type JsonObject } from '../../util/json.js';
import { SourceError } from '../source-error.js';
import type { Operation } from './operations.js';
import { resolveLocalRef } from './refs.js';
import { effectiveParameters, type DocumentContext } from './tools.js';

/** The call fields of an operation's origin; `securitySchemes` and `requestBody` are absent when empty. */
export type CallPins = Required<Pick<ToolOrigin, 'servers' | 'security' | 'parameters' | 'responses'>> & Pick<ToolOrigin, 'securitySchemes' | 'requestBody'>;

/** Parameter locations in the order the contract lists them. */
const LOCATION_ORDER = ['path', 'query', 'header', 'cookie', 'body', 'formData'];

/** Swagger 2.0 `flow` → the OpenAPI 3 flow of the same grant. */
const SWAGGER_FLOWS: Readonly<Record<string, string>> = {
  implicit: 'implicit',
  password: 'password',
  application: 'clientCredentials',
  accessCode: 'authorizationCode',
};

/** A document the pins cannot be read from: fails the load (nothing pinned is better than a guess). */
function invalid(op: Operation, what: string): SourceError {
  return new SourceError(`${op.operationId ?? `${op.method} ${op.path}`}: ${what}; toolgate cannot pin where its calls go or what they carry`, 'load-failed');
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
/** Sorted, without repeats. */
const sortedSet = (list: readonly string[]): string[] => [...new Set(list)].sort();

/** Derives the call fields of one operation. @throws SourceError `load-failed` for a field that cannot be read. */
export function callPins(ctx: DocumentContext, op: Operation): CallPins {
  const security = securityRequirements(ctx, op);
  const schemes = securitySchemes(ctx, op, security);
  const requestBody = requestMediaTypes(ctx, op);
  return {
    servers: ctx.major === 2 ? swaggerServers(ctx, op) : oas3Servers(ctx, op),
    security,
    ...(Object.keys(schemes).length > 0 ? { securitySchemes: schemes } : {}),
    parameters: parameterLocations(ctx, op),
    ...(requestBody ? { requestBody } : {}),
    responses: responseMediaTypes(ctx, op),
  };
}

/**
 * The first `servers` given, operation then path item then document. An empty array is pinned as
 * `/`, the document level's rule: what a client does with an empty operation or path item list is
 * not written down, so an empty list added to either is a change a reviewer sees.
 */
function oas3Servers(ctx: DocumentContext, op: Operation): PinnedServer[] {
  for (const list of [op.operation.servers, op.pathItem.servers, ctx.doc.servers]) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw invalid(op, '`servers` is not an array');
    return list.length === 0 ? [{ url: '/' }] : uniqueServers(list.map((s) => pinServer(op, s)));
  }
  return [{ url: '/' }];
}

function pinServer(op: Operation, server: unknown): PinnedServer {
  if (!isObject(server) || typeof server.url !== 'string') throw invalid(op, 'a server has no string `url`');
  const out: PinnedServer = { url: server.url };
  if (server.variables === undefined) return out;
  if (!isObject(server.variables)) throw invalid(op, `the variables of server ${server.url} are not an object`);
  const variables: NonNullable<PinnedServer['variables']> = {};
  for (const name of Object.keys(server.variables).sort()) {
    const v = server.variables[name];
    if (!isObject(v)) throw invalid(op, `variable ${JSON.stringify(name)} of server ${server.url} is not an object`);
    const pinned: { default?: Json; enum?: Json[] } = {};
    const dflt = getOwn(v, 'default');
    if (dflt !== undefined) pinned.default = dflt;
    const values = getOwn(v, 'enum');
    if (values !== undefined) {
      if (!Array.isArray(values)) throw invalid(op, `the enum of variable ${JSON.stringify(name)} of server ${server.url} is not an array`);
      pinned.enum = uniqueJson(values);
    }
    setOwn(variables, name, pinned);
  }
  if (Object.keys(variables).length > 0) out.variables = variables;
  return out;
}

/** JSON values sorted by their canonical text, without repeats. */
function uniqueJson(values: readonly Json[]): Json[] {
  const byText = new Map(values.map((v) => [canonicalJson(v), v]));
  return [...byText.keys()].sort().map((k) => byText.get(k) as Json);
}

/** Servers without repeats (the first of equal ones kept), in their order. */
function uniqueServers(list: PinnedServer[]): PinnedServer[] {
  const seen = new Set<string>();
  return list.filter((s) => {
    const key = canonicalJson(s as unknown as Json);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function swaggerServers(ctx: DocumentContext, op: Operation): PinnedServer[] {
  const host = ctx.doc.host;
  const basePath = ctx.doc.basePath ?? '';
  if ((host !== undefined && typeof host !== 'string') || typeof basePath !== 'string') throw invalid(op, '`host` or `basePath` is not a string');
  if (host === undefined) return [{ url: basePath === '' ? '/' : basePath }];
  const schemes = strings(op.operation.schemes !== undefined ? op.operation.schemes : ctx.doc.schemes);
  if (schemes.length === 0) return [{ url: `//${host}${basePath}` }];
  return uniqueServers(schemes.map((scheme) => ({ url: `${scheme}://${host}${basePath}` })));
}

/** The requirements in effect, each scheme → sorted scopes, sorted and without repeats. */
function securityRequirements(ctx: DocumentContext, op: Operation): Array<Record<string, string[]>> {
  const list = hasOwn(op.operation, 'security') ? op.operation.security : ctx.doc.security;
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw invalid(op, '`security` is not an array');
  const byText = new Map<string, Record<string, string[]>>();
  for (const req of list) {
    if (!isObject(req)) throw invalid(op, 'a security requirement is not an object');
    const pinned: Record<string, string[]> = {};
    for (const name of Object.keys(req).sort()) {
      const scopes = req[name];
      if (!Array.isArray(scopes)) throw invalid(op, `the scopes of security requirement ${JSON.stringify(name)} are not an array`);
      setOwn(pinned, name, sortedSet(strings(scopes)));
    }
    byText.set(canonicalJson(pinned), pinned);
  }
  return [...byText.keys()].sort().map((k) => byText.get(k)!);
}

/** The schemes the requirements name, resolved; a name the document does not define fails. */
function securitySchemes(ctx: DocumentContext, op: Operation, requirements: ReadonlyArray<Record<string, string[]>>): Record<string, PinnedSecurityScheme> {
  const where = ctx.major === 2 ? 'securityDefinitions' : 'components.securitySchemes';
  const defined = ctx.major === 2 ? ctx.doc.securityDefinitions : isObject(ctx.doc.components) ? ctx.doc.components.securitySchemes : undefined;
  const out: Record<string, PinnedSecurityScheme> = {};
  for (const name of sortedSet(requirements.flatMap((r) => Object.keys(r)))) {
    const raw = isObject(defined) ? getOwn(defined, name) : undefined;
    const scheme = raw === undefined ? undefined : resolveLocalRef(ctx.doc, raw);
    if (!isObject(scheme)) throw invalid(op, `its security requirement names the scheme ${JSON.stringify(name)}, which ${where} does not define`);
    setOwn(out, name, ctx.major === 2 ? swaggerScheme(scheme) : oas3Scheme(scheme));
  }
  return out;
}

const text = (o: JsonObject, key: string): string | undefined => {
  const v = getOwn(o, key);
  return typeof v === 'string' ? v : undefined;
};

/** The named string fields of `o` that are set. */
function fields<K extends string>(o: JsonObject, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const k of keys) {
    const v = text(o, k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function scopeNames(scopes: Json | undefined): string[] {
  return isObject(scopes) ? Object.keys(scopes).sort() : [];
}

function oas3Scheme(s: JsonObject): PinnedSecurityScheme {
  const out: PinnedSecurityScheme = {
    type: text(s, 'type') ?? JSON.stringify(getOwn(s, 'type') ?? null),
    ...fields(s, ['in', 'name', 'scheme', 'bearerFormat', 'openIdConnectUrl'] as const),
  };
  const flows = getOwn(s, 'flows');
  if (isObject(flows)) {
    const pinned: Record<string, PinnedOAuthFlow> = {};
    for (const name of Object.keys(flows).sort()) {
      const flow = flows[name];
      if (!isObject(flow)) continue;
      setOwn(pinned, name, { ...fields(flow, ['authorizationUrl', 'tokenUrl', 'refreshUrl'] as const), scopes: scopeNames(getOwn(flow, 'scopes')) });
    }
    out.flows = pinned;
  }
  return out;
}

function swaggerScheme(s: JsonObject): PinnedSecurityScheme {
  const type = text(s, 'type') ?? JSON.stringify(getOwn(s, 'type') ?? null);
  if (type === 'basic') return { type: 'http', scheme: 'basic' };
  if (type === 'apiKey') return { type, ...fields(s, ['in', 'name'] as const) };
  if (type !== 'oauth2') return { type };
  const flow = text(s, 'flow') ?? '';
  const name = hasOwn(SWAGGER_FLOWS, flow) ? SWAGGER_FLOWS[flow]! : flow;
  const pinned: Record<string, PinnedOAuthFlow> = {};
  setOwn(pinned, name, { ...fields(s, ['authorizationUrl', 'tokenUrl'] as const), scopes: scopeNames(getOwn(s, 'scopes')) });
  return { type, flows: pinned };
}

function parameterLocations(ctx: DocumentContext, op: Operation): PinnedParameter[] {
  const rank = (where: string) => {
    const i = LOCATION_ORDER.indexOf(where);
    return i < 0 ? LOCATION_ORDER.length : i;
  };
  const byKey = new Map<string, PinnedParameter>();
  for (const p of effectiveParameters(ctx, op)) {
    const [where, name] = [String(p.in), String(p.name)];
    const pinned: PinnedParameter = { in: where, name, ...serialization(op, p as JsonObject, where, name, ctx.major === 2) };
    byKey.set(`${where}\0${name}`, pinned);
  }
  return [...byKey.values()].sort(
    (a, b) => rank(a.in) - rank(b.in) || (a.in < b.in ? -1 : a.in > b.in ? 1 : 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

/** OpenAPI 3.1.1 §4.8.12.4.4 (Style Values) and §4.8.12.4.1 (Fixed Fields): `style` by location, `explode` by style. */
const DEFAULT_STYLE: Readonly<Record<string, string>> = { query: 'form', cookie: 'form', path: 'simple', header: 'simple' };

/**
 * How a parameter's value is written into the request, where it differs from the default (see
 * {@link PinnedParameter}). `style` and `explode` do not apply to a parameter described by
 * `content`. @throws SourceError `load-failed` for a field of the wrong type.
 */
function serialization(op: Operation, p: JsonObject, where: string, name: string, swagger: boolean): Omit<PinnedParameter, 'in' | 'name'> {
  const label = `${where} parameter ${JSON.stringify(name)}`;
  const field = <T extends 'string' | 'boolean'>(key: string, type: T): (T extends 'string' ? string : boolean) | undefined => {
    const v = getOwn(p, key);
    if (v === undefined) return undefined;
    if (typeof v !== type) throw invalid(op, `${label} has a \`${key}\` that is not a ${type}`);
    return v as never;
  };
  const out: Omit<PinnedParameter, 'in' | 'name'> = {};
  if (field('allowEmptyValue', 'boolean') === true) out.allowEmptyValue = true;
  if (swagger) {
    const format = field('collectionFormat', 'string');
    if (format !== undefined && format !== 'csv') out.collectionFormat = format;
    return out;
  }
  if (field('allowReserved', 'boolean') === true) out.allowReserved = true;
  const content = getOwn(p, 'content');
  if (content !== undefined) {
    if (!isObject(content)) throw invalid(op, `${label} has a \`content\` that is not an object`);
    out.content = Object.keys(content).sort();
    return out;
  }
  const fallback = hasOwn(DEFAULT_STYLE, where) ? DEFAULT_STYLE[where] : undefined;
  const style = field('style', 'string') ?? fallback;
  if (style !== undefined && style !== fallback) out.style = style;
  const explode = field('explode', 'boolean') ?? style === 'form';
  if (explode !== (style === 'form')) out.explode = explode;
  return out;
}

/** Media types of the request body, sorted; undefined when the operation takes none. */
function requestMediaTypes(ctx: DocumentContext, op: Operation): string[] | undefined {
  if (ctx.major === 2) {
    if (!effectiveParameters(ctx, op).some((p) => p.in === 'body' || p.in === 'formData')) return undefined;
    return sortedSet(strings(op.operation.consumes !== undefined ? op.operation.consumes : ctx.doc.consumes));
  }
  if (op.operation.requestBody === undefined) return undefined;
  const body = resolveLocalRef(ctx.doc, op.operation.requestBody);
  return isObject(body) && isObject(body.content) ? Object.keys(body.content).sort() : [];
}

/** Media types of each response by status code (extensions `x-*` left out). */
function responseMediaTypes(ctx: DocumentContext, op: Operation): Record<string, string[]> {
  const responses = op.operation.responses;
  const out: Record<string, string[]> = {};
  if (!isObject(responses)) return out;
  const produces = ctx.major === 2 ? sortedSet(strings(op.operation.produces !== undefined ? op.operation.produces : ctx.doc.produces)) : [];
  for (const code of Object.keys(responses).sort()) {
    if (code.startsWith('x-')) continue;
    const r = resolveLocalRef(ctx.doc, responses[code]);
    if (!isObject(r)) continue;
    const types = ctx.major === 2 ? (r.schema !== undefined ? produces : []) : isObject(r.content) ? Object.keys(r.content).sort() : [];
    setOwn(out, code, types);
  }
  return out;
}
