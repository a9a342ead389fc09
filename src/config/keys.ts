/**
 * Every key of `toolgate.yml` (schema/toolgate.schema.json) and of an OpenAPI integration config
 * (schema/integration.schema.json), with the direction of change that relaxes it (docs/design.md
 * §7). `diffPolicies` (policy-diff.ts) judges a pull request's policy edits from these rows, and
 * the resolver (policy-resolve.ts) takes each key's default from them, so that what an absent key means
 * is the same to both. test/config/policy-keys.test.ts walks both schemas and fails on a key that
 * has no row here.
 *
 * Adding a key: add its row below, next to its siblings (the order of the rows is the order in
 * which changes on one line are listed). A leaf's row is enough for `diffPolicies` to judge it,
 * with a generic message; a message of its own goes in policy-wording.ts.
 *
 * @module
 */
import type { Json, JsonObject } from '../util/json.js';
import { DEFAULT_CONTAINMENT, DEFAULT_LIST_LIMITS, DEFAULT_TIMEOUTS, defaultContractPath } from './source-config.js';

/**
 * The change that makes a key less strict:
 * - `raising` / `lowering`: a number, larger / smaller (a limit with no default: removing it is
 *   raising it to no limit);
 * - `turning-on` / `turning-off`: a boolean;
 * - `{ towards }`: an enum, moving to that value (moving away is a tightening);
 * - `adding` / `removing`: an entry of a list or map;
 * - `any-change`: every difference (what runs, where it connects, which file is read);
 * - `lowering-a-level`: rule levels (`off` < `notice` < `warning` < `error`), and `overrides`
 *   entries: one added that lowers a level, or removed that raised one, or moved after an entry
 *   it now wins over (the last matching entry decides);
 * - `by-key`: a block whose keys each have their own row;
 * - `entry`: part of what an entry of a list is: a change makes it another entry (the old one
 *   removed, the new one added), judged as the list's row says;
 * - `neutral`: no direction relaxes it (`why` says why).
 */
export type Relaxes =
  | 'raising'
  | 'lowering'
  | 'turning-on'
  | 'turning-off'
  | { towards: string }
  | 'adding'
  | 'removing'
  | 'any-change'
  | 'lowering-a-level'
  | 'by-key'
  | 'entry'
  | 'neutral';

/** Where a default is needed: the list entry that holds the key, and that side's whole document. */
export interface DefaultScope {
  entry?: JsonObject;
  doc: JsonObject;
}

/**
 * How values of a key compare and show: `path` resolved against the policy's directory;
 * `patterns` a pattern or a list of them; `logins` GitHub logins or teams, by `loginKey` (an
 * empty list is none); `safety-fields` names of `safety-fields`, by what the field means
 * (pointer, safer value, default); `header-name` case-insensitive map keys.
 */
export type ValueAs = 'path' | 'patterns' | 'logins' | 'safety-fields' | 'header-name';

/** One key. */
export interface PolicyKey {
  /**
   * Where the key is: property names joined by `.`, `[]` after a list whose items are objects,
   * `*` for the keys of a map (`sources[].mcp.headers.*.env`).
   */
  key: string;
  relaxes: Relaxes;
  /** One line: what the relaxing direction lets through, or why the key has none. */
  why: string;
  /** `PolicyChange.kind` of its changes (inherited from the nearest enclosing row that has one). */
  kind?: string;
  /** The value an absent key has; the resolver uses the same. */
  default?: Json | ((scope: DefaultScope) => Json | undefined);
  as?: ValueAs;
  /** A list of objects keyed by this property (`id`) rather than by their whole content. */
  keyedBy?: string;
  /** A list whose absence means everything (no restriction), said in words. */
  absentMeans?: string;
  /** Report every entry added (or removed) in one change, rather than one change each. */
  grouped?: boolean;
  /**
   * Integration config keys: the rules that judge a change of the key. An integration config is
   * not diffed itself: it is what the source's surface is built from, and the surface is.
   */
  judgedBy?: readonly string[];
  /**
   * What kind of entry a list entry is (a source: an MCP server over stdio or HTTP, an OpenAPI
   * integration, a recording), with the key that makes it so: an entry of another kind is one
   * change, and its keys of either kind are not compared.
   */
  variant?: (entry: JsonObject) => { key: string; words: string };
}

const MIB = 1024 * 1024;

/** The default contract of a source: `.toolgate/<id>.surface.json`. */
const contractOf = ({ entry }: DefaultScope): string => defaultContractPath(typeof entry?.id === 'string' ? entry.id : '');
/** The only source's id: what an export with no `source` exports. */
const onlySource = ({ doc }: DefaultScope): Json | undefined => {
  const sources = Array.isArray(doc.sources) ? doc.sources : [];
  return sources.length === 1 ? ((sources[0] as JsonObject).id ?? undefined) : undefined;
};

/** What a source is, in words, and the key that makes it so. */
export function sourceKind(entry: JsonObject): { key: string; words: string } {
  if (entry.openapi !== undefined) return { key: 'openapi', words: 'an OpenAPI integration' };
  if (entry.recorded !== undefined) return { key: 'recorded', words: 'a recorded tools/list result' };
  const mcp = (entry.mcp ?? {}) as JsonObject;
  return { key: 'mcp', words: mcp.url !== undefined ? 'an MCP server over HTTP' : 'an MCP server over stdio' };
}

const BOUND = 'a bound on listing: reaching it fails the source (server-failed), never passes it';

/** The keys of `toolgate.yml`, in the order their changes are listed. */
export const POLICY_KEYS: readonly PolicyKey[] = [
  { key: 'version', relaxes: 'neutral', why: 'always 1: the version of the file format' },

  { key: 'rules', relaxes: 'lowering-a-level', kind: 'rule-level', why: 'a lower level (or off) lets through what a higher one failed' },
  {
    key: 'overrides',
    relaxes: 'lowering-a-level',
    kind: 'override',
    why: 'an entry added that lowers a level for the tools it matches, removed while it raised one, or moved after an entry it now wins over',
  },
  { key: 'overrides[].tools', relaxes: 'entry', as: 'patterns', why: 'the tools an override applies to' },
  { key: 'overrides[].sources', relaxes: 'entry', why: 'the sources an override applies to' },
  { key: 'overrides[].rules', relaxes: 'entry', why: 'the levels an override sets' },

  { key: 'limits', relaxes: 'by-key', why: 'each limit is judged on its own' },
  { key: 'limits.max-tools', relaxes: 'raising', kind: 'limit', why: 'more reachable tools pass (too-many-tools); no limit when removed' },
  { key: 'limits.max-payload-bytes', relaxes: 'raising', kind: 'limit', why: 'a larger tool list passes (payload-too-large)' },
  { key: 'limits.max-tokens', relaxes: 'raising', kind: 'limit', why: 'tools that cost the model more tokens pass (token-budget-exceeded)' },
  { key: 'limits.max-tokens-per-tool', relaxes: 'raising', kind: 'limit', why: 'a tool that costs more tokens passes (token-budget-exceeded)' },

  { key: 'runtime', relaxes: 'by-key', kind: 'runtime', why: 'each key of what the proxy admits is judged on its own' },
  { key: 'runtime.allow', relaxes: 'adding', default: ['read', 'write'], why: 'the proxy admits another class of tools' },
  {
    key: 'runtime.allow-tools',
    relaxes: 'adding',
    as: 'patterns',
    absentMeans: 'every pinned tool may be admitted',
    why: 'a pattern added admits more tools; removing the key admits every pinned tool',
  },
  { key: 'runtime.deny', relaxes: 'removing', as: 'patterns', default: [], why: 'a tool the pattern kept out is admitted' },
  { key: 'runtime.require-safer', relaxes: 'removing', as: 'safety-fields', default: [], why: 'tools on the less safe side of that field are admitted' },
  { key: 'runtime.max-result-bytes', relaxes: 'raising', default: 4 * MIB, why: 'larger call results reach the agent' },
  { key: 'runtime.max-message-bytes', relaxes: 'raising', default: 64 * MIB, why: 'larger JSON-RPC messages pass the proxy' },
  { key: 'runtime.log-arguments', relaxes: 'turning-on', default: false, why: 'argument values, secrets among them, are written to the decision log' },
  { key: 'runtime.on-drift', relaxes: { towards: 'hide' }, default: 'hide', why: 'a drifted server keeps serving its other tools' },
  { key: 'runtime.pass-methods', relaxes: 'adding', default: [], why: 'a method added reaches the server unjudged' },

  { key: 'exports', relaxes: 'removing', kind: 'exports', why: 'an export no longer listed is no longer checked against its contract (export-stale)' },
  { key: 'exports[].to', relaxes: 'entry', why: 'which target format the checked file is' },
  { key: 'exports[].file', relaxes: 'entry', as: 'path', why: 'which file is checked' },
  { key: 'exports[].source', relaxes: 'entry', default: onlySource, why: 'whose contract the file is checked against' },
  { key: 'exports[].server', relaxes: 'entry', default: ({ entry, doc }) => entry?.source ?? onlySource({ doc }), why: "the server's name in the file" },
  { key: 'exports[].gateway', relaxes: 'entry', why: 'the Gateway an Envoy route attaches to' },

  { key: 'deny', relaxes: 'removing', kind: 'deny', why: 'a tool the entry kept out may be reachable' },
  { key: 'deny[].tools', relaxes: 'entry', as: 'patterns', why: 'the tools an entry denies' },
  { key: 'deny[].when', relaxes: 'entry', default: 'reachable', why: 'whether reaching the tool or its read class is denied' },
  { key: 'deny[].less-safe', relaxes: 'entry', as: 'safety-fields', why: 'narrows the entry to tools on the less safe side of these fields' },
  { key: 'deny[].reason', relaxes: 'neutral', why: 'text shown in the finding; it selects nothing' },

  {
    key: 'safety-fields',
    relaxes: 'removing',
    kind: 'safety-fields',
    why: 'the selectors that name a removed or redefined field stop holding back what it held back',
  },
  { key: 'safety-fields[].name', relaxes: 'neutral', why: 'selectors are compared by the field they name (pointer, safer value, default), not by its name' },
  { key: 'safety-fields[].pointer', relaxes: 'entry', why: 'where the field is in a tool' },
  { key: 'safety-fields[].safer', relaxes: 'entry', why: 'which value is the safer side' },
  { key: 'safety-fields[].default', relaxes: 'entry', why: 'what a missing field means' },

  { key: 'review', relaxes: 'by-key', kind: 'review', why: 'each key of who must approve is judged on its own' },
  {
    key: 'review.reviewers',
    relaxes: 'adding',
    as: 'logins',
    absentMeans: 'anyone with write access other than the author may approve',
    why: 'another person (or team) whose approval counts; removing the key lets anyone with write access approve',
  },
  { key: 'review.fresh', relaxes: 'turning-off', default: false, why: 'an approval of an earlier commit counts' },
  { key: 'review.required', relaxes: 'lowering', default: 1, why: 'fewer approvals are needed' },

  {
    key: 'require-explicit-hints',
    relaxes: 'turning-off',
    kind: 'require-explicit-hints',
    default: false,
    why: 'annotation-now-implicit falls back from error to its own level',
  },
  {
    key: 'allow-pull-request-target',
    relaxes: 'turning-on',
    kind: 'allow',
    default: false,
    why: "servers and specs from the pull request run with the base repository's token and secrets",
  },
  { key: 'allow-remote-refs', relaxes: 'turning-on', kind: 'allow', default: false, why: 'OpenAPI documents may reach the network through $ref' },
  { key: 'sandbox', relaxes: { towards: 'auto' }, kind: 'sandbox', default: 'auto', why: 'servers may run unsandboxed where the machine has no sandbox' },
  { key: 'allow-runner-env', relaxes: 'adding', kind: 'allow', default: [], why: "a source may hand one more of the runner's own secrets to its server" },
  {
    key: 'schema-budget-ms',
    relaxes: 'neutral',
    default: 2000,
    why: "a comparison that runs out of time is schema-unclassified (error until approved), and the base branch's budget judges a pull request",
  },

  { key: 'sources', relaxes: 'any-change', keyedBy: 'id', variant: sourceKind, why: 'a source added is new reach; a source removed is no longer checked' },
  { key: 'sources[].id', relaxes: 'entry', why: 'a source is known by its id: a new id is a source removed and another added' },
  {
    key: 'sources[].contract',
    relaxes: 'any-change',
    kind: 'source-contract',
    as: 'path',
    default: contractOf,
    why: 'the tools are judged against another file',
  },
  { key: 'sources[].mcp', relaxes: 'by-key', why: 'each key of how the server is run is judged on its own' },
  {
    key: 'sources[].mcp.sandbox',
    relaxes: { towards: 'off' },
    kind: 'sandbox',
    default: DEFAULT_CONTAINMENT.sandbox,
    why: 'the server runs outside the sandbox',
  },
  {
    key: 'sources[].mcp.network',
    relaxes: { towards: 'open' },
    kind: 'sandbox',
    default: DEFAULT_CONTAINMENT.network,
    why: "the server gets the host's network",
  },
  {
    key: 'sources[].mcp.writable',
    relaxes: 'adding',
    kind: 'sandbox',
    as: 'path',
    default: DEFAULT_CONTAINMENT.writable,
    why: 'the server may write one more path',
  },
  {
    key: 'sources[].mcp.readable',
    relaxes: 'adding',
    kind: 'sandbox',
    as: 'path',
    default: [],
    why: 'the server may read one more path outside the repository (what it reads can leave through its tool descriptions)',
  },
  { key: 'sources[].mcp.command', relaxes: 'any-change', kind: 'source-command', why: 'another program runs' },
  { key: 'sources[].mcp.args', relaxes: 'any-change', kind: 'source-command', default: [], why: 'the program runs with other arguments' },
  { key: 'sources[].mcp.cwd', relaxes: 'any-change', kind: 'source-command', as: 'path', default: '.', why: 'the program runs in another directory' },
  {
    key: 'sources[].mcp.env',
    relaxes: 'adding',
    kind: 'source-env',
    default: [],
    grouped: true,
    why: 'one more variable (a secret, often) is handed to the server',
  },
  { key: 'sources[].mcp.url', relaxes: 'any-change', kind: 'source-url', why: 'toolgate connects to another server' },
  { key: 'sources[].mcp.start', relaxes: 'adding', kind: 'source-command', why: 'a program runs before connecting' },
  { key: 'sources[].mcp.start.command', relaxes: 'any-change', why: 'another program runs before connecting' },
  { key: 'sources[].mcp.start.args', relaxes: 'any-change', default: [], why: 'the start command runs with other arguments' },
  { key: 'sources[].mcp.start.cwd', relaxes: 'any-change', as: 'path', default: '.', why: 'the start command runs in another directory' },
  {
    key: 'sources[].mcp.start.env',
    relaxes: 'adding',
    kind: 'source-env',
    default: [],
    grouped: true,
    why: 'one more variable is handed to the start command',
  },
  {
    key: 'sources[].mcp.headers',
    relaxes: 'adding',
    kind: 'source-headers',
    as: 'header-name',
    why: "a header added or changed sends another variable's value (a credential, often) to the server",
  },
  { key: 'sources[].mcp.headers.*.env', relaxes: 'entry', why: "which variable the header's value comes from" },
  { key: 'sources[].mcp.headers.*.prefix', relaxes: 'entry', why: 'the text before the value' },
  {
    key: 'sources[].mcp.capabilities',
    relaxes: 'neutral',
    default: {},
    why: 'what the server lists under them is pinned in the contract and each listed tool judged',
  },
  {
    key: 'sources[].mcp.startup-timeout-ms',
    relaxes: 'neutral',
    default: DEFAULT_TIMEOUTS.startupMs,
    why: 'a wait: running out of it fails the source, never passes it',
  },
  {
    key: 'sources[].mcp.request-timeout-ms',
    relaxes: 'neutral',
    default: DEFAULT_TIMEOUTS.requestMs,
    why: 'a wait: running out of it fails the source, never passes it',
  },
  {
    key: 'sources[].mcp.total-timeout-ms',
    relaxes: 'neutral',
    default: DEFAULT_TIMEOUTS.totalMs,
    why: 'a wait: running out of it fails the source, never passes it',
  },
  { key: 'sources[].mcp.max-pages', relaxes: 'neutral', default: DEFAULT_LIST_LIMITS.maxPages, why: BOUND },
  { key: 'sources[].mcp.max-bytes', relaxes: 'neutral', default: DEFAULT_LIST_LIMITS.maxBytes, why: BOUND },
  { key: 'sources[].openapi', relaxes: 'any-change', kind: 'source-file', as: 'path', why: 'the tools come from another integration config' },
  { key: 'sources[].recorded', relaxes: 'any-change', kind: 'source-file', as: 'path', why: 'the tools come from another recording' },
];

/**
 * The keys of an OpenAPI integration config. Its changes reach the review through the surface
 * the config builds (`judgedBy`), and a change to the config after an approval makes the
 * approval stale (review/base-state.ts); no code compares two configs, so only the schema walk
 * (test/config/policy-keys.test.ts) reads this table.
 * @internal
 */
export const INTEGRATION_KEYS: readonly PolicyKey[] = [
  { key: '$schema', relaxes: 'neutral', why: 'for editors only; toolgate ignores it' },
  { key: 'id', relaxes: 'neutral', why: 'names the contract only without toolgate.yml (`audit --openapi`); a source in toolgate.yml uses its own id' },
  { key: 'type', relaxes: 'neutral', why: 'always "openapi"' },
  {
    key: 'spec',
    relaxes: 'any-change',
    judgedBy: ['tool-added', 'schema-widened', 'description-changed', 'promoted-operation-moved'],
    why: 'the tools are built from another document',
  },
  { key: 'include', relaxes: 'adding', judgedBy: ['tool-added'], why: 'an operation added is a tool agents may reach' },
  { key: 'policies', relaxes: 'adding', judgedBy: ['read-promotion-unreviewed'], why: 'a promotion lets agents call a non-GET operation unattended' },
];

const BY_KEY = new Map(POLICY_KEYS.map((k) => [k.key, k]));

/**
 * The default of a `toolgate.yml` key whose default does not depend on where it is.
 * @throws Error when the key has no row or no such default: a bug in the caller.
 */
export function defaultOf(key: string): Json {
  const d = BY_KEY.get(key)?.default;
  if (d === undefined || typeof d === 'function') throw new Error(`policy key ${key} has no fixed default`);
  return d;
}

/** The key path that holds `key`: `sources[].mcp` for `sources[].mcp.env`, `sources[]` for `sources[].id`. */
export function parentOf(key: string): string {
  const dot = key.lastIndexOf('.');
  return dot < 0 ? '' : key.slice(0, dot);
}

/** The property name a key ends with. */
export function nameOf(key: string): string {
  return key.slice(key.lastIndexOf('.') + 1);
}
