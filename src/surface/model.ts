/**
 * The surface model: what toolgate pins and compares.
 *
 * Names follow the MCP specification (2025-11-25, "Server Features › Tools"):
 * `tool`, `inputSchema`, `outputSchema`, `annotations`, and the four behaviour hints.
 */
import type { Json, JsonObject } from '../util/json.js';

/** The four tool behaviour hints of the MCP spec (Tools › Tool annotations). */
export const HINT_NAMES = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
/** One of {@link HINT_NAMES}. */
export type HintName = (typeof HINT_NAMES)[number];

/**
 * Value a client must assume when a server does not declare a hint.
 * Source: MCP spec, schema `ToolAnnotations` (readOnlyHint default false, destructiveHint default
 * true, idempotentHint default false, openWorldHint default true).
 */
export const HINT_DEFAULTS: Readonly<Record<HintName, boolean>> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/** Hints exactly as the server declared them (a missing key means "not declared"). */
export type DeclaredHints = Partial<Record<HintName, boolean>>;
/** Hints after applying {@link HINT_DEFAULTS} to every undeclared one. */
export type EffectiveHints = Record<HintName, boolean>;

/**
 * How far a tool may be trusted to run unattended.
 * - `read`: effective `readOnlyHint` true (MCP), or GET/HEAD or a reviewed `read` policy (OpenAPI).
 * - `write`: an MCP tool that is not read-only.
 * - `disabled`: an OpenAPI operation whose verb is not GET/HEAD and that no policy promotes;
 *   it stays in the surface (so a later promotion is a visible change) but is not reachable.
 */
export type SafetyClass = 'read' | 'write' | 'disabled';

/**
 * A server an operation's calls go to (OpenAPI 3 Server Object; Swagger 2.0 `schemes` + `host` +
 * `basePath`). Descriptions are not pinned: they decide nothing.
 */
export interface PinnedServer {
  /**
   * As written, variables in braces (`https://{region}.api.example.com/v1`). A relative URL
   * (`/v3`, `//host/v1`) is pinned as written: it resolves against where the document is served.
   */
  url: string;
  /** Server variables by name (keys sorted): `default` and `enum` (sorted, no repeats) as written. */
  variables?: Record<string, { default?: Json; enum?: Json[] }>;
}

/**
 * One OAuth 2.0 flow of a security scheme (OpenAPI 3 OAuth Flow Object): its URLs and the names of
 * its scopes (sorted; their descriptions are not pinned).
 */
export interface PinnedOAuthFlow {
  authorizationUrl?: string;
  tokenUrl?: string;
  refreshUrl?: string;
  scopes: string[];
}

/**
 * A security scheme a security requirement names, resolved (OpenAPI 3 Security Scheme Object
 * names; Swagger 2.0 definitions are written in them: `basic` is `http` with `scheme: basic`, an
 * `oauth2` `flow` of `implicit`, `password`, `application` or `accessCode` is the flow
 * `implicit`, `password`, `clientCredentials` or `authorizationCode`). Only the fields that decide
 * which credential a call carries and where it is obtained are pinned.
 */
export interface PinnedSecurityScheme {
  /** `apiKey`, `http`, `oauth2`, `openIdConnect`, `mutualTLS`, or as written. */
  type: string;
  /** apiKey: `query`, `header` or `cookie`. */
  in?: string;
  /** apiKey: the parameter's name. */
  name?: string;
  /** http: the authorization scheme (`basic`, `bearer`, ...). */
  scheme?: string;
  /** http bearer: the token's format, as a hint. */
  bearerFormat?: string;
  /** oauth2: flows by name (`implicit`, `password`, `clientCredentials`, `authorizationCode`). */
  flows?: Record<string, PinnedOAuthFlow>;
  /** openIdConnect: the discovery URL. */
  openIdConnectUrl?: string;
}

/** One parameter of an operation: where it is sent and its name (OpenAPI Parameter Object `in`, `name`). */
export interface PinnedParameter {
  /** `path`, `query`, `header`, `cookie` (Swagger 2.0 also `body`, `formData`). */
  in: string;
  name: string;
}

/**
 * Where an OpenAPI-derived tool comes from (OpenAPI names): which operation, and what decides
 * where its calls go and what they carry. The call fields are absent only from tools of contracts
 * written before toolgate pinned them (contract format 1): a tool made now has all of them but
 * `securitySchemes` and `requestBody`, which are absent when empty.
 */
export interface ToolOrigin {
  /** Upper-case HTTP method, e.g. `GET`. */
  method: string;
  /** Path template as written in the document, e.g. `/repos/{owner}/{repo}`. */
  path: string;
  /** The operation's `operationId`, when the document has one. */
  operationId?: string;
  /** True when a `policies` entry promoted this non-GET/HEAD operation to `read`. */
  promoted?: boolean;
  /**
   * The effective servers, in the document's order: the operation's `servers`, else its path
   * item's, else the document's, else `/` (OpenAPI 3.x, Server Object); Swagger 2.0: one URL per
   * scheme of the operation's `schemes` (else the document's) from `host` and `basePath`.
   */
  servers?: PinnedServer[];
  /**
   * The security requirements in effect (the operation's `security`, else the document's): the
   * alternatives, any one of which a call satisfies, each scheme name → its scopes (sorted).
   * `[]`: no security; an empty requirement `{}` among them: credentials are optional. Sorted
   * and without repeats (their order means nothing).
   */
  security?: Array<Record<string, string[]>>;
  /** The schemes those requirements name, resolved from `components.securitySchemes` (2.0: `securityDefinitions`). */
  securitySchemes?: Record<string, PinnedSecurityScheme>;
  /** Every parameter (path-level ones the operation does not override included), by location then name. */
  parameters?: PinnedParameter[];
  /** Media types the request body may be sent as (sorted); absent when the operation takes no body. */
  requestBody?: string[];
  /** Media types of each response by status code (`200`, `4XX`, `default`), sorted. */
  responses?: Record<string, string[]>;
}

/** One tool of a surface, normalized. */
export interface SurfaceTool {
  /** Tool name, compared byte for byte. */
  name: string;
  title?: string;
  description?: string;
  /**
   * Normalized JSON Schema of the arguments (root `$schema` dropped, keys sorted). Absent only
   * for a malformed tool whose `inputSchema` is missing or not an object (then, if one was
   * served, it is in `extra`): use `argumentsSchema` to judge what it accepts.
   */
  inputSchema?: JsonObject;
  outputSchema?: Json;
  /** The declared `annotations` object, normalized (keys sorted); absent when the server sent none. */
  annotations?: JsonObject;
  icons?: Json;
  _meta?: Json;
  /**
   * Other top-level keys the server sent (e.g. a non-default `execution`), kept so they are
   * pinned; also a spec key whose value has the wrong type (`title: 5`, `inputSchema: "x"`),
   * so a malformed tool is pinned exactly as served.
   */
  extra?: JsonObject;
  /**
   * Derived: why the tool does not have the MCP `Tool` shape (e.g. "`inputSchema.type` is
   * missing, not \"object\""), when it does not. Strict clients drop such a tool, lenient ones
   * still offer it, so it is pinned as served, counted and judged like any other.
   */
  malformed?: string;
  /** Derived: hints the server declared. */
  declaredHints: DeclaredHints;
  /** Derived: hints with the spec defaults applied. */
  effectiveHints: EffectiveHints;
  /** Derived: see {@link SafetyClass}. */
  safetyClass: SafetyClass;
  /** OpenAPI tools only. */
  origin?: ToolOrigin;
  /** Derived: sha256 (hex) of the canonical JSON of the tool as the model sees it. */
  digest: string;
  /** Derived: sha256 (hex) of the canonical `inputSchema`, so only changed schemas are diffed. */
  inputSchemaDigest: string;
  /** Derived: UTF-8 bytes of the compact JSON of the tool as the model sees it (not pinned). */
  viewBytes: number;
}

/**
 * Counts over the reachable tools (safety class other than `disabled`).
 * Counting follows the spec's hint semantics: destructive and idempotent only mean something for
 * a tool that is not read-only.
 */
export interface SurfaceCounts {
  toolCount: number;
  /** effective readOnlyHint true */
  readOnlyToolCount: number;
  /** not read-only and effective destructiveHint true */
  destructiveToolCount: number;
  /** effective openWorldHint true */
  openWorldToolCount: number;
  /** not read-only and effective idempotentHint true */
  idempotentToolCount: number;
  /** declares none of the four hints (a `title` or vendor keys alone do not count) */
  unannotatedToolCount: number;
  /** OpenAPI operations kept in the surface but not reachable */
  disabledToolCount: number;
}

/** Kind of source a surface was taken from. */
export type SourceKind = 'mcp' | 'openapi' | 'recorded';

/** What the surface says about its source (only deterministic facts: this is pinned). */
export interface SurfaceSource {
  /** Source id from the policy (`[a-z0-9][a-z0-9._-]*`). */
  id: string;
  kind: SourceKind;
  /** Transport for MCP sources. */
  transport?: 'stdio' | 'streamable-http' | 'sse';
  /**
   * Client capabilities toolgate declared in `initialize`: part of the contract because servers
   * list different tools to different clients.
   */
  clientCapabilities?: JsonObject;
  /**
   * OpenAPI sources: every file read to build the surface (the document and each file it refers
   * to), as paths from the repository root (`/`-separated), sorted; a remote `$ref` target as its
   * URL. A change to any of them after an approval makes the approval stale (review/base-state).
   */
  files?: string[];
}

/** Server identity from `initialize` (MCP `serverInfo`) and the negotiated protocol version. */
export interface ServerInfo {
  name?: string;
  version?: string;
  protocolVersion?: string;
  /**
   * The server's `instructions` (the `initialize` result): text clients put into the model's
   * context, so it is pinned and reviewed like a description.
   */
  instructions?: string;
}

/**
 * Tokens per turn pinned in a contract by `toolgate update`: the `o200k_base` tokens
 * of what a client sends the model for the reachable tools (see surface/tokens.ts). Absent from
 * contracts written before it was pinned, and from surfaces nobody counted.
 */
export interface PinnedTokens {
  encoding: 'o200k_base';
  perTurn: number;
}

/**
 * Who authorizes an HTTP server: the pinned fields of its OAuth 2.0 Protected
 * Resource Metadata (RFC 9728 §2 names). Without repeats; scopes sorted, authorization servers in
 * their order (clients use the first).
 */
export interface ProtectedResource {
  /** The resource identifier tokens are issued for. */
  resource: string;
  /** Issuer identifiers of the authorization servers that issue tokens for it. */
  authorization_servers?: string[];
  /** Scopes a token for it may carry. */
  scopes_supported?: string[];
  /** Human-readable name (shown on consent screens). */
  resource_name?: string;
}

/** What RFC 9728 discovery found for an HTTP server (sources/protected-resource.ts looks). */
export type Discovery =
  /** A usable document, reduced to what is pinned. */
  | { state: 'found'; metadata: ProtectedResource; url: string }
  /** No document (404 at every URL tried). */
  | { state: 'absent' }
  /** A document or an answer no client can use; `reason` says why. */
  | { state: 'unusable'; reason: string };

/**
 * Current contract/surface format version. A newer one is refused with an upgrade hint; an older
 * one is read. 2: OpenAPI tools pin where their calls go and what they carry (`origin.servers`,
 * `security`, ...), and OpenAPI sources the files read to build them (`source.files`); a format 1
 * contract lacks both, which `check` reports as one stale contract to update (rules/checks).
 */
export const SURFACE_FORMAT_VERSION = 2;

/** A normalized snapshot of one source. Also the shape of a contract file. */
export interface Surface {
  /** A contract of an older format is read into this one (what it lacks stays absent). */
  formatVersion: typeof SURFACE_FORMAT_VERSION;
  source: SurfaceSource;
  server?: ServerInfo;
  counts: SurfaceCounts;
  /** UTF-8 bytes of the compact JSON of the reachable tools as advertised (after normalization). */
  payloadBytes: number;
  /** Tokens per turn, when counted (always by `update`; see {@link PinnedTokens}). */
  tokens?: PinnedTokens;
  /**
   * HTTP sources: the server's protected resource metadata, when it publishes a usable document
   * (see sources/protected-resource.ts). Absent for stdio, OpenAPI and recorded sources.
   */
  protectedResource?: ProtectedResource;
  /**
   * sha256 (hex) of the canonical JSON array of the reachable tools' digests in name order (each
   * the sha256 of that tool's canonical JSON): what a client can pin.
   */
  digest: string;
  /** Sorted by name (byte order). */
  tools: SurfaceTool[];
}
