/**
 * Schema change classification (project issue 4): how an `inputSchema` change affects the inputs
 * a tool accepts, and whether a schema admits undeclared arguments.
 *
 * @example
 * const v = await classifySchemaChange(base.inputSchema, head.inputSchema);
 * if (v.kind === 'widened' || v.kind === 'both' || v.kind === 'unclassified') // schema-widened
 */
export type { ClassifyOptions, SchemaDelta, SchemaVerdict } from './types.js';
export { classifySchemaChange, classifySchemaChanges, DEFAULT_BUDGET_MS } from './classify.js';
export { allowsUnknownArguments } from './open-arguments.js';
export { normalizeSchema, canonicalJson, type NormalizedSchema, type NormalizeOptions } from './normalize.js';
export { setSchemaWorkerUrl, closeSchemaWorkers } from './json-schema-diff-adapter.js';
