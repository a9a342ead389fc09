/**
 * `toolgate init`: the shapes its steps pass along (scan → detect → render). Types only.
 */
import type { Manager } from './lockfile.js';

/** What the scan of a repository found, paths relative to its root with `/` separators. */
export interface ScannedRepo {
  /** Every regular file the scan listed (within its depth and count limits). */
  paths: readonly string[];
  /** Text of the files it read (each bounded), by path. */
  texts: ReadonlyMap<string, string>;
  /** The default branch, when git says (`.git/refs/remotes/origin/HEAD`). */
  defaultBranch?: string;
}

/** A toolgate.yml source as init writes it (the keys of docs/policy.md). */
export type SourceSpec =
  | { mcp: { command: string; args: string[]; cwd?: string; env: string[] } }
  | { mcp: { url: string; headers: Record<string, { env: string; prefix?: string }> } }
  | { openapi: string };

/** What the workflow must do before toolgate runs, for one directory. */
export type SetupStep =
  { kind: 'node'; dir: string; manager: Manager; lockfile: boolean; build: boolean } | { kind: 'python'; dir: string; install: 'project' | 'requirements' };

/** How a source is pinned to one version, for init's summary. */
export type Pin =
  /** Pinned to the version a lockfile installs: `text` says which (`@scope/pkg 1.2.3 from package-lock.json`). */
  | { state: 'locked'; text: string }
  /** Starts whatever a registry serves that day: `text` says what and why (a TODO above the source says how to pin it). */
  | { state: 'unpinned'; text: string };

/** One thing found, and the source it becomes. */
export interface FoundSource {
  /** Source id, unique among the findings. */
  id: string;
  /** What it is, for the summary ("Node MCP server package"). */
  what: string;
  /** The file it was found in. */
  file: string;
  source: SourceSpec;
  /** Comment lines written above the source (plain text; render keeps them ASCII). */
  comments: string[];
  /** A starter OpenAPI integration config to write: its path and its `spec` (relative to it). */
  integration?: { path: string; spec: string };
  setup?: SetupStep;
  pin?: Pin;
}

/** The result of `detect`. */
export interface Detection {
  findings: FoundSource[];
  /** What was seen but not turned into a source, and why (one line each). */
  notes: string[];
  /** Branch the workflow runs on for pushes. */
  defaultBranch: string;
  /** What the workflow installs (and builds) before toolgate runs, one step per directory. */
  setup: SetupStep[];
}

/** A finding before its id is chosen: `name` is what the id is made from. */
export type Candidate = Omit<FoundSource, 'id'> & { name: string };
