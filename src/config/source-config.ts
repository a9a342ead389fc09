import type { JsonObject } from '../util/json.js';

/** Time limits for an MCP source (ms). Every wait has one (docs/design.md §9). */
export interface McpTimeouts {
  /** From spawn (or `start`) until `initialize` answers. Long: a cold `npx` can take over 60 s. */
  startupMs: number;
  /** For each request after `initialize` (each `tools/list` page). */
  requestMs: number;
  /** For the whole snapshot, listing included. */
  totalMs: number;
}

/** Caps on what a server may send while listing. */
export interface McpListLimits {
  /** Most `tools/list` pages followed before failing with `page-cap`. */
  maxPages: number;
  /** Most bytes of `tools/list` results (all pages) before failing with `byte-cap`. */
  maxBytes: number;
}

/** A command toolgate runs: the server itself (stdio) or an HTTP server's `start`. */
export interface CommandSpec {
  command: string;
  args: string[];
  /** Absolute working directory. */
  cwd: string;
  /** Names of environment variables passed through from toolgate's own environment. */
  env: string[];
}

/** An HTTP header whose value is read from an environment variable at run time. */
export interface HeaderFromEnv {
  name: string;
  /** Environment variable holding the value. */
  env: string;
  /** Text put before the value, e.g. `Bearer `. */
  prefix?: string;
}

/** An MCP source over stdio. */
export interface McpStdioConfig extends CommandSpec {
  transport: 'stdio';
}

/** An MCP source over Streamable HTTP (falling back to legacy SSE). */
export interface McpHttpConfig {
  transport: 'http';
  /** Endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  /** Started before connecting; ended (whole process group) after. */
  start?: CommandSpec;
  headers: HeaderFromEnv[];
}

/** How the policy wants servers contained (`sandbox:` at the top of toolgate.yml). */
export type SandboxMode = 'auto' | 'required';

/** What a source asks of its sandbox (keys of its `mcp` block). */
export interface Containment {
  /** `off`: run this source's command unsandboxed (reported). */
  sandbox: 'on' | 'off';
  /** `loopback` (default): no network but the sandbox's own loopback; `open`: the host's network. */
  network: 'loopback' | 'open';
  /** Absolute paths the command may write besides its scratch HOME and /tmp (inside the repository). */
  writable: string[];
  /**
   * Absolute paths the command may read besides the system's directories, its install
   * directories and the repository (a shared cache, an SDK): never a home directory or above one.
   * Absent: none.
   */
  readable?: string[];
  /**
   * Whether an HTTP source's `start` command gets the host's network (toolgate connects to its
   * port from outside the sandbox). False while judging a pull request whose base branch does not
   * already run that command: it is not started at all until the policy that adds it is merged.
   */
  startNetwork?: boolean;
  /**
   * While a pull request is judged: what its policy asks for beyond this containment (the base's),
   * as the keys read (`network: open`, `writable: .npm-cache`); it applies once merged.
   */
  pending?: string[];
}

/** The strictest containment: what a source gets unless its (base) policy says otherwise. */
export const DEFAULT_CONTAINMENT: Containment = { sandbox: 'on', network: 'loopback', writable: [] };

/** Settings shared by every MCP source. */
export interface McpCommon {
  /**
   * How the command toolgate starts (stdio server, HTTP `start`) is sandboxed (sources/launch/);
   * absent: the strictest, `DEFAULT_CONTAINMENT`.
   */
  containment?: Containment;
  /** Client capabilities declared in `initialize` (part of the contract). */
  capabilities: JsonObject;
  timeouts: McpTimeouts;
  limits: McpListLimits;
}

/** A source id (`schema/toolgate.schema.json` has the same pattern): it names the contract file. */
export const SOURCE_ID_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;

/** A configured source, resolved (absolute paths, defaults applied). */
export type SourceConfig =
  | { id: string; kind: 'mcp'; mcp: (McpStdioConfig | McpHttpConfig) & McpCommon; contract: string }
  | { id: string; kind: 'openapi'; integration: string; contract: string }
  | { id: string; kind: 'recorded'; file: string; contract: string };

/** Defaults for {@link McpTimeouts}. */
export const DEFAULT_TIMEOUTS: McpTimeouts = { startupMs: 90_000, requestMs: 15_000, totalMs: 180_000 };
/** Defaults for {@link McpListLimits}: 100 pages, 32 MiB. */
export const DEFAULT_LIST_LIMITS: McpListLimits = { maxPages: 100, maxBytes: 32 * 1024 * 1024 };

/** Default contract path for a source id. */
export function defaultContractPath(id: string): string {
  return `.toolgate/${id}.surface.json`;
}
