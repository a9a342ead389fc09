import type { SourceConfig } from '../config/source-config.js';
import type { RawSnapshot } from './types.js';
import { snapshotMcp } from './mcp.js';
import { readRecorded } from './recorded.js';
import { snapshotOpenApi } from './openapi/index.js';

/** Options that come from the policy rather than the source entry. */
export interface SnapshotOptions {
  /** Allow OpenAPI `$ref`s to http(s) URLs (network access). */
  allowRemoteRefs?: boolean;
  /** The repository (toolgate.yml's directory): read-only in a server's sandbox, its `.git` hidden. */
  root?: string;
}

/**
 * Takes a raw snapshot of one configured source.
 * @throws SourceError (exit 3) when a server or document fails; ConfigError (exit 2) for bad input files.
 */
export function snapshotSource(cfg: SourceConfig, opts: SnapshotOptions = {}): Promise<RawSnapshot> {
  switch (cfg.kind) {
    case 'mcp':
      return snapshotMcp(cfg.id, cfg.mcp, opts.root);
    case 'openapi':
      return snapshotOpenApi(cfg.integration, { idOverride: cfg.id, allowRemoteRefs: opts.allowRemoteRefs ?? false });
    case 'recorded':
      return readRecorded(cfg.id, cfg.file);
  }
}
