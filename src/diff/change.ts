import type { HintName, ProtectedResource, SafetyClass, ServerInfo, SurfaceCounts, SurfaceTool, ToolOrigin } from '../surface/model.js';
import type { Json } from '../util/json.js';

/** One hint's state on one side of a comparison. */
export interface HintState {
  /** As declared by the server; undefined = not declared. */
  declared?: boolean;
  /** With the spec default applied. */
  effective: boolean;
  /**
   * The value as sent when it is not a boolean (e.g. `"true"`): the spec's clients ignore it, but
   * lenient ones coerce it, so a change of it is judged as a claim (see rules/checks/hints).
   */
  invalid?: Json;
}

/** A call field of an OpenAPI tool's origin (see `ToolOrigin`): what a `call-changed` change is in. */
export type CallField = 'servers' | 'security' | 'parameters' | 'requestBody' | 'responses';

/** What one {@link CallDifference} is. */
export type CallDifferenceKind =
  | 'server-added'
  | 'server-removed'
  | 'server-changed'
  | 'servers-reordered'
  | 'server-variable-widened'
  | 'server-variable-default-changed'
  | 'server-variable-narrowed'
  | 'security-removed'
  | 'security-optional'
  | 'optional-removed'
  | 'requirement-added'
  | 'requirement-removed'
  | 'scopes-added'
  | 'scopes-removed'
  | 'scheme-changed'
  | 'scheme-scopes-changed'
  | 'parameter-moved'
  | 'parameter-added'
  | 'parameter-removed'
  | 'media-type-added'
  | 'media-type-removed'
  | 'response-media-changed'
  | 'unpinned';

/**
 * One difference in where an OpenAPI operation's calls go or what they carry, classed (the rules
 * read `widens`; diff/call-diff.ts says which difference widens and why).
 */
export interface CallDifference {
  what: CallDifferenceKind;
  /** Whether the agent's calls may now reach or carry more (docs/design.md §7: needs an approval). */
  widens: boolean;
  /** Before → after in words, e.g. `server https://api.example.com/v1 → https://evil.example.net/v1`. */
  text: string;
}

/** Where changed text sits in a tool. */
export type TextField = 'title' | 'description' | 'annotations.title' | 'inputSchema' | 'outputSchema';

/**
 * One difference between a base surface and a head surface. `tool` is the tool name.
 * Produced by {@link import('./diff-surfaces.js').diffSurfaces}; judged by the rules.
 */
export type Change =
  | { kind: 'tool-added'; tool: string; head: SurfaceTool }
  | { kind: 'tool-removed'; tool: string; base: SurfaceTool }
  | { kind: 'hint-changed'; tool: string; hint: HintName; base: HintState; head: HintState }
  | { kind: 'class-changed'; tool: string; base: SafetyClass; head: SafetyClass; headTool: SurfaceTool; baseTool: SurfaceTool }
  /**
   * Text a model or a user reads (docs/design.md §1, §7): the tool's `title` or `description`, its
   * `annotations.title`, or (`field: 'inputSchema'`) a `title` or `description` inside the schema,
   * at `pointer` (relative to the schema).
   */
  | {
      kind: 'text-changed';
      tool: string;
      field: TextField;
      pointer?: string;
      base?: string;
      head?: string;
      /**
       * Set on the one change (`pointer` `/…`) that holds a schema's texts past the per-tool bound:
       * how many; `base` and `head` list them as `pointer: text` lines.
       */
      more?: number;
    }
  | { kind: 'input-schema-changed'; tool: string; base: Json; head: Json }
  | { kind: 'output-schema-changed'; tool: string; base?: Json; head?: Json }
  /** Which operation an OpenAPI tool is changed: its method, path, operationId or promotion (`base`/`head`: those fields). */
  | { kind: 'origin-changed'; tool: string; base?: ToolOrigin; head?: ToolOrigin }
  /**
   * Where an OpenAPI tool's calls go or what they carry changed, in one call field of its origin:
   * `base`/`head` are that field's pinned values (absent on a side that has none), `differences`
   * the classed differences.
   */
  | { kind: 'call-changed'; tool: string; field: CallField; differences: CallDifference[]; base?: Json; head?: Json }
  /**
   * The base pins which operation an OpenAPI tool is but not where its calls go or what they
   * carry (a contract of format 1, written before toolgate pinned them): all of it is new to review.
   */
  | { kind: 'call-first-pinned'; tool: string; head: ToolOrigin }
  /**
   * Keys a client may show or a model may read besides the text fields: vendor keys of
   * `annotations`, `icons`, `_meta`, unknown top-level keys (`extra`); `base`/`head` are their
   * canonical JSON (absent when the side has none).
   */
  | { kind: 'metadata-changed'; tool: string; field: 'annotations' | 'icons' | '_meta' | 'extra'; base?: string; head?: string }
  | { kind: 'count-changed'; count: keyof SurfaceCounts; base: number; head: number }
  | { kind: 'server-changed'; field: keyof ServerInfo; base?: string; head?: string }
  /** The server's instructions (text clients give the model) were added, changed or removed. */
  | { kind: 'instructions-changed'; base?: string; head?: string }
  /** `files`: the files an OpenAPI source was built from (the document and each file it refers to). */
  | { kind: 'source-changed'; field: 'kind' | 'transport' | 'clientCapabilities' | 'files' }
  /**
   * A field of the server's protected resource metadata (RFC 9728) changed: `resource` or
   * `resource_name` (`base`/`head`, absent when the side has none), or what was `added` to or
   * `removed` from `authorization_servers` or `scopes_supported` (with `base`/`head` the first
   * authorization server when it changed: clients use the first).
   */
  | { kind: 'auth-metadata-changed'; field: keyof ProtectedResource; base?: string; head?: string; added?: string[]; removed?: string[] };

/**
 * Whether an `auth-metadata-changed` change lets tokens reach further: an added
 * authorization server or scope (the fallbacks clients use when none is listed count as added),
 * another first authorization server (the one clients use), or a new or changed `resource` or
 * `resource_name`. Removals alone only narrow what a client will ask for.
 */
export function authChangeWidens(c: Extract<Change, { kind: 'auth-metadata-changed' }>): boolean {
  if (c.added !== undefined || c.removed !== undefined) return (c.added?.length ?? 0) > 0 || (c.head !== undefined && c.head !== c.base);
  return c.head !== undefined;
}

/** "authorization_servers + https://b - https://a", "resource https://a → https://b". */
export function describeAuthChange(c: Extract<Change, { kind: 'auth-metadata-changed' }>): string {
  if (c.added !== undefined || c.removed !== undefined) {
    const first = c.head !== undefined && c.head !== c.base ? [`(first, which clients use: ${c.base ?? 'none'} → ${c.head})`] : [];
    return [`${c.field}`, ...(c.added ?? []).map((x) => `+ ${x}`), ...(c.removed ?? []).map((x) => `- ${x}`), ...first].join(' ');
  }
  return `${c.field} ${c.base ?? 'none'} → ${c.head ?? 'none'}`;
}
