/**
 * Tool names for OpenAPI operations.
 *
 * Rule (stable: changing it renames tools, which is a removal plus an unlisted tool):
 * 1. From `operationId`: every character outside `[A-Za-z0-9_.-]` becomes `_`, one `_` per code
 *    point (`repos/get` → `repos_get`, `issues/list-for-repo` → `issues_list-for-repo`).
 * 2. Without `operationId`: lower-case method, `_`, then the path with `{`/`}` dropped and every
 *    other character outside `[A-Za-z0-9_.-]` (including `/`) turned into `_`, runs of `_`
 *    collapsed, leading/trailing `_` trimmed (`GET /pets/{petId}` → `get_pets_petId`, `GET /` → `get`).
 * 3. A name longer than {@link MAX_TOOL_NAME_LENGTH} is cut to 55 characters and suffixed with `_`
 *    and the first 8 hex digits of sha256(original operationId, or `METHOD path`), so names stay
 *    unique and stable (GitHub has 25 operationIds over 64 characters).
 * The original `operationId` always stays visible in the tool's `origin`.
 */
import { createHash } from 'node:crypto';

/** Longest tool name produced. 64 is the lowest limit seen in MCP clients and LLM function APIs. */
export const MAX_TOOL_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

const INVALID = /[^A-Za-z0-9_.-]/gu;

function fitLength(name: string, original: string): string {
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  const hash = createHash('sha256').update(original, 'utf8').digest('hex').slice(0, HASH_LENGTH);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

/** Tool name for an operation with an `operationId` (rules 1 and 3 above). */
export function toolNameFromOperationId(operationId: string): string {
  const replaced = operationId.replace(INVALID, '_');
  return fitLength(replaced, operationId);
}

/** Tool name for an operation without `operationId` (rules 2 and 3 above). */
export function toolNameFromMethodPath(method: string, path: string): string {
  const pathPart = path
    .replace(/[{}]/g, '')
    .replace(INVALID, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
  const name = pathPart === '' ? method.toLowerCase() : `${method.toLowerCase()}_${pathPart}`;
  return fitLength(name, `${method.toUpperCase()} ${path}`);
}
