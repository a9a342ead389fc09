import type { HintName, Json, SafetyClass, ServerInfo, SurfaceCounts, SurfaceTool, ToolOrigin } from '../surface/model.js';

/** One hint's state on one side of a comparison. */
export interface HintState {
  /** As declared by the server; undefined = not declared. */
  declared?: boolean;
  /** With the spec default applied. */
  effective: boolean;
}

/** Where changed text sits in a tool. */
export type TextField = 'title' | 'description' | 'annotations.title' | 'inputSchema';

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
   * Text a model or a user reads (DESIGN §5): the tool's `title` or `description`, its
   * `annotations.title`, or (`field: 'inputSchema'`) a `title` or `description` inside the schema,
   * at `pointer` (relative to the schema).
   */
  | { kind: 'text-changed'; tool: string; field: TextField; pointer?: string; base?: string; head?: string }
  | { kind: 'input-schema-changed'; tool: string; base: Json; head: Json }
  | { kind: 'output-schema-changed'; tool: string; base?: Json; head?: Json }
  | { kind: 'origin-changed'; tool: string; base?: ToolOrigin; head?: ToolOrigin }
  | { kind: 'metadata-changed'; tool: string; field: 'annotations' | 'icons' | '_meta' | 'extra' }
  | { kind: 'count-changed'; count: keyof SurfaceCounts; base: number; head: number }
  | { kind: 'server-changed'; field: keyof ServerInfo; base?: string; head?: string }
  | { kind: 'source-changed'; field: 'kind' | 'transport' | 'clientCapabilities' };

