/**
 * The admitted set an export writes (docs/design.md §11, §12): what `toolgate proxy` would admit from the
 * contract alone, with no server running. Pure.
 */
import type { RuntimePolicy } from '../config/policy-model.js';
import { runtimeRefusal } from '../runtime/admission.js';
import type { Surface, SurfaceTool } from '../surface/model.js';
import type { RefusedTool } from './model.js';

/** Admitted and refused pinned tools, each in contract order. */
export interface ExportSet {
  admitted: SurfaceTool[];
  refused: RefusedTool[];
}

/**
 * Splits the contract's tools by the runtime policy ({@link runtimeRefusal}): the class must be in
 * `runtime.allow` (a disabled OpenAPI operation never is), the name must pass `runtime.deny` and
 * `runtime.allow-tools`. A name pinned twice is refused, as the proxy refuses it: a gateway
 * matching by name could not tell the two definitions apart.
 */
export function exportSet(contract: Pick<Surface, 'tools'>, runtime: RuntimePolicy): ExportSet {
  const seen = new Map<string, number>();
  for (const t of contract.tools) seen.set(t.name, (seen.get(t.name) ?? 0) + 1);
  const admitted: SurfaceTool[] = [];
  const refused: RefusedTool[] = [];
  for (const tool of contract.tools) {
    const reason = (seen.get(tool.name) ?? 0) > 1 ? 'duplicate-name' : runtimeRefusal(tool, runtime);
    if (reason) refused.push({ tool, reason });
    else admitted.push(tool);
  }
  return { admitted, refused };
}
