import type { ListedTool, Listing } from '../surface/normalize.js';
import type { MarkedProcess } from './launch/escape-scan.js';

/**
 * A tool as a source produced it, before normalization: the raw `tools/list` entry (MCP), or the
 * tool derived from an OpenAPI operation with its origin and safety class.
 */
export interface RawTool extends ListedTool {
  /** Where this tool's entry is written by people (integration config line), for annotations. */
  location?: SourceLocation;
}

/** A file position people can edit (1-based line). */
export interface SourceLocation {
  file: string;
  line?: number;
  /** JSON pointer inside the file, when the file is JSON. */
  pointer?: string;
}

/** Facts about the run that are not pinned (they vary run to run). */
export interface SnapshotDiagnostics {
  /** Wall time of the whole snapshot (ms). */
  durationMs: number;
  /** Number of `tools/list` pages fetched. */
  pages?: number;
  /** Lines on the server's stdout that were not JSON-RPC (hygiene). */
  stdoutNoiseLines?: number;
  /** The first of those lines (at most 120 characters), so the finding can show what it was. */
  stdoutNoiseSample?: string;
  /** Last bytes of the server's stderr (at most 4 KiB), for error messages. */
  stderrTail?: string;
  /** Raw UTF-8 bytes of all `tools/list` result payloads received. */
  rawBytes?: number;
  /** Notes worth showing (e.g. "server sent notifications/tools/list_changed during listing"). */
  notes?: string[];
  /** How the command toolgate started ran (MCP sources that start one). */
  sandbox?: SandboxUse;
  /** Processes of the server that outlived it (a new session, a double fork), found and killed. */
  escaped?: MarkedProcess[];
  /** Hosts the sandboxed server tried to reach and could not (from its error output). */
  networkBlocked?: string[];
  /** HTTP sources: the server answered a request with 401 (it wants credentials toolgate lacked). */
  unauthorized?: boolean;
}

/** Whether a started command ran in the sandbox (and with which network), or why not. */
export type SandboxUse = { sandboxed: true; network: 'loopback' | 'open' } | { sandboxed: false; reason: string };

/** What a source returns: a {@link Listing} to build the surface from, and what the run reports about it. */
export interface RawSnapshot extends Listing {
  /** The server's tools in listing order. */
  tools: RawTool[];
  /** False for `recorded` surfaces: the report says the surface was not live. */
  live: boolean;
  diagnostics: SnapshotDiagnostics;
  /** File the surface was read from, for `recorded` and `openapi` sources. */
  file?: string;
}
