/**
 * Exports (docs/design.md §12): the contract's admitted set written in the format of a gateway or client
 * that teams already run. Each target is one entry of {@link ExportTarget}; the table of docs/exports.md of
 * what each target enforces is generated from these entries.
 */
import type { RuntimePolicy } from '../config/policy-model.js';
import type { SurfaceTool } from '../surface/model.js';

/** How much of one guarantee a target gives. */
export type Coverage = 'yes' | 'partial' | 'no';

/** What a target enforces of the contract (the table of docs/exports.md; each "yes" is proved by a test). */
export interface Enforcement {
  /** Only admitted tool names are reachable. */
  names: Coverage;
  /** Call arguments are checked against the pinned `inputSchema`. */
  arguments: Coverage;
  /** Annotations (the pinned hints) are tested at call time. */
  annotations: Coverage;
  /** A tool whose live definition drifted from the pinned one is refused. */
  schemaPin: Coverage;
}

/** A pinned tool the export does not admit, and why (the runtime policy's reason). */
export interface RefusedTool {
  tool: SurfaceTool;
  reason: 'class-not-allowed' | 'denied' | 'not-in-allow-tools' | 'less-safe' | 'duplicate-name';
}

/** Everything a target renders from: pure data. */
export interface ExportInput {
  /** Source id in toolgate.yml. */
  sourceId: string;
  /** The server's name in the target (a key in the client's or gateway's config); default the source id. */
  server: string;
  /** The contract file, as shown to people (relative to the repository). */
  contractFile: string;
  /** Admitted tools, in contract order (names sorted by UTF-8 bytes). */
  admitted: readonly SurfaceTool[];
  /** Pinned tools the runtime policy does not admit, in contract order. */
  refused: readonly RefusedTool[];
  runtime: RuntimePolicy;
  /** How the source is reached, for a target that starts or connects to the server itself. */
  transport?: { command: string; args: readonly string[] } | { url: string };
  /** The gateway a route attaches to (Envoy AI Gateway `parentRefs`), when the entry names one. */
  gateway?: string;
}

/** One export target. */
export interface ExportTarget {
  /** `--to` value. */
  id: string;
  /** The product, as its makers write it. */
  product: string;
  /** What is written, in the product's own names (`MCPToolConfig` resource). */
  artifact: string;
  /** Where the product's documentation of this format is. */
  docs: string;
  /** Syntax of a line comment, or undefined when the format has none (then the notes go to a sibling file). */
  comment?: '#' | '//';
  /** A file name to suggest (`-o`), from the server name. */
  suggestedFile(server: string): string;
  enforces: Enforcement;
  /** How the tests check this target's output (its own engine or the documented format), for the table of docs/exports.md. */
  verifiedBy: string;
  /** What the target cannot enforce of a reviewed contract: listed in every export's header. */
  cannot: readonly string[];
  /**
   * The document body (no header).
   * @throws ConfigError for a name the target cannot represent (see names.ts): never rewritten.
   */
  render(input: ExportInput): string;
  /**
   * For a file the export shares with other settings (a client's settings.json): how the
   * committed file differs from the export in the part the export owns, or undefined when it does
   * not. Without it, the whole file must equal the export byte for byte.
   */
  compare?(committed: string, expected: string, input: ExportInput): { line?: number; why: string } | undefined;
  /**
   * For such a file: the existing file with the export's part replaced (`-o` onto it), and notes
   * for the user about what changed in their part of it (rules removed, rules kept).
   * @throws ConfigError when it cannot be merged without changing anything else.
   */
  merge?(existing: string, expected: string, input: ExportInput): { text: string; notes: string[] };
}

/** What no name-only target enforces, said the same way in every export that lists it. */
export const NAME_ONLY = {
  arguments: 'Arguments: any arguments reach the server.',
  definitions: 'Definitions: a tool whose description, schema or hints changed after the review keeps its name and passes.',
} as const;
