import type { SourceConfig } from '../config/source-config.js';
import type { RawSnapshot } from './types.js';
import type { Launcher } from './launch/index.js';

/** Options that come from the policy rather than the source entry. */
export interface SnapshotOptions {
  /** Allow OpenAPI `$ref`s to http(s) URLs (network access). */
  allowRemoteRefs?: boolean;
  /** The repository (toolgate.yml's directory): read-only in a server's sandbox, its `.git` hidden. */
  root?: string;
  /** Starts the run's servers (its sandbox state, its early start); a new one when absent. */
  launcher?: Launcher;
}

/**
 * Takes a raw snapshot of one configured source. Each kind's code (the MCP SDK, the OpenAPI
 * parser) is loaded when a source of that kind is snapshotted, so a run loads only what its
 * sources need.
 * @throws SourceError (exit 3) when a server or document fails; ConfigError (exit 2) for bad input files.
 */
export async function snapshotSource(cfg: SourceConfig, opts: SnapshotOptions = {}): Promise<RawSnapshot> {
  switch (cfg.kind) {
    case 'mcp':
      return (await import('./mcp.js')).snapshotMcp(cfg.id, cfg.mcp, opts.root, opts.launcher);
    case 'openapi':
      return (await import('./openapi/index.js')).snapshotOpenApi(cfg.integration, { idOverride: cfg.id, allowRemoteRefs: opts.allowRemoteRefs ?? false });
    case 'recorded':
      return (await import('./recorded.js')).readRecorded(cfg.id, cfg.file);
  }
}
