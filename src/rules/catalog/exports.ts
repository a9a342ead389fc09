/**
 * The rows of the rules about committed exports: an export that no longer says what its contract
 * does. catalog.ts assembles the families into one table, sorted by id.
 *
 * @module
 */
import type { RuleMeta } from '../types.js';

/** The rows of this family, in id order. */
export const EXPORT_RULES = [
  {
    id: 'export-stale',
    level: 'error',
    title: 'A committed export (gateway or client configuration) no longer matches its contract',
    rationale:
      'An export puts the reviewed contract into a gateway or client that enforces it (ToolHive, agentgateway, Docker MCP Gateway, Envoy AI Gateway, Claude Code, Gemini CLI, Codex). A pull request that changes the contract or the runtime block and leaves the export behind ships a gateway that still allows what was removed, or refuses what was reviewed.',
    source: 'docs/design.md §12',
    fix: 'Run `toolgate export` (it writes every export listed in toolgate.yml; `--to TARGET -o FILE` for one) and commit the result.',
  },
] as const satisfies readonly RuleMeta[];
