/**
 * The rows of the rules about a tool's schemas: input schemas that accept more or fewer arguments
 * or cannot be compared, output schemas, open arguments, tools that are not well formed. catalog.ts
 * assembles the families into one table, sorted by id.
 *
 * @module
 */
import type { RuleMeta } from '../types.js';
import { UPDATE } from './common.js';

/** The rows of this family, in id order. */
export const SCHEMA_RULES = [
  {
    id: 'malformed-tool',
    level: 'error',
    title: 'A listed tool does not have the shape of an MCP tool',
    rationale:
      'Strict clients (the MCP SDKs) drop a tool whose inputSchema is not an object of type "object", or whose title, description, outputSchema or annotations have the wrong type; lenient clients still offer it to the model. So it is pinned exactly as served, counted and judged like any other tool (annotations that are not an object declare nothing: the spec defaults apply), and reported here. An entry without a string name cannot be keyed or called: no contract is written while one is listed.',
    source: 'MCP spec 2025-11-25, schema `Tool`',
    fix: 'Fix the tool definition in the server.',
  },
  {
    id: 'open-arguments',
    level: 'notice',
    title: "A tool's inputSchema allows unknown arguments",
    rationale:
      'With additionalProperties not false, the model may pass arguments nobody reviewed, and a later server change can start honouring them without a schema change.',
    source: 'JSON Schema 2020-12, additionalProperties',
    fix: 'Set `additionalProperties: false` on the tool input schema.',
  },
  {
    id: 'output-schema-changed',
    level: 'notice',
    title: "A tool's outputSchema changed",
    rationale: 'Structured output feeds the model and downstream code; a change can break parsers.',
    source: 'MCP spec 2025-11-25, Tools › Output schema',
    fix: UPDATE,
  },
  {
    id: 'schema-narrowed',
    level: 'warning',
    title: "A tool's inputSchema accepts or declares less than before",
    rationale: 'Callers and prompts written against the old schema break.',
    source: 'JSON Schema validation semantics',
    fix: 'Make the change backward compatible or announce it, then run `toolgate update`.',
  },
  {
    id: 'schema-unclassified',
    level: 'error',
    title: "A tool's inputSchema changed in a way toolgate could not classify",
    rationale:
      'When the comparison times out, fails, or meets a recursive schema that changed, toolgate fails closed rather than pass a change it could not read. References are resolved as the validator the proxy enforces schemas with (Ajv) resolves them; one that leads outside the schema (another file, a meta-schema), names two schemas (a duplicate `$anchor` or `$id`), or goes through a dynamic scope whose target is not certain (`$dynamicRef`, `$recursiveRef` other than to the root) is unclassified, even when only a description changed beside it. So is a change that makes the proxy check the schema in fewer dialects (one that no longer compiles as JSON Schema 2020-12 stops enforcing `prefixItems`, `dependentSchemas`...).',
    source: 'JSON Schema 2020-12 Core §8.2 (base URI, `$id`, `$anchor`, `$ref`, `$dynamicRef`); docs/design.md §8 (fail closed), §14 (json-schema-diff limits)',
    fix: 'Review the schema change by hand; it passes once a reviewer with write access who is not the author approves the pull request.',
    reviewable: true,
  },
  {
    id: 'schema-widened',
    level: 'error',
    title: "A tool's inputSchema accepts inputs it did not accept before",
    rationale:
      'An allowlisted tool must match the structural snapshot that was reviewed: new inputs are new capability. Every reference is followed as a validator resolves it (JSON pointers into any part of the schema, `$anchor`, `$id` absolute, `urn:` or relative to an enclosing `$id`, and `$dynamicRef`/`$recursiveRef` where the target is certain), so a constraint dropped inside a referenced definition is a widening where the definition is used.',
    source: 'JSON Schema validation semantics; docs/design.md §7 (widening)',
    fix: 'Review the newly accepted inputs; the change passes once a reviewer with write access who is not the author approves the pull request.',
    reviewable: true,
  },
] as const satisfies readonly RuleMeta[];
