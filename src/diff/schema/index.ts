/**
 * Schema change classification: how an `inputSchema` change affects the inputs
 * a tool accepts, and whether a schema admits undeclared arguments.
 *
 * @example
 * const v = await classifySchemaChange(base.inputSchema, head.inputSchema);
 * if (v.kind === 'widened' || v.kind === 'both' || v.kind === 'unclassified') // schema-widened
 */
export type { SchemaVerdict } from './types.js';
export { classifySchemaChanges } from './classify.js';
export { allowsUnknownArguments } from './open-arguments.js';
/** @internal one pair at a time: tests and bench/schema-ghes.mjs */
export { classifySchemaChange } from './classify.js';
/** @internal the comparison form: bench/schema-ghes.mjs */
export { normalizeSchema } from './normalize.js';
/** @internal tests and bench/schema-ghes.mjs end the worker pool */
export { closeSchemaWorkers } from './json-schema-diff-adapter.js';
