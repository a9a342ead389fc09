import type { ErrorObject } from 'ajv';
import { ConfigError } from './errors.js';
import { didYouMean } from './suggest.js';
import { escapePointerToken, hasOwn, pointerSegments } from './json.js';

/** Most problems of one file reported together (the rest are counted). */
const MAX_PROBLEMS = 20;

/** One problem as {@link schemaError} reports it. */
export interface SchemaProblem {
  message: string;
  /** JSON pointer of the offending value (the generic wording gives `/` for the document itself). */
  pointer: string;
  fix: string;
  /** Catalog rule id when the mistake is also a rule (see {@link ConfigError.ruleId}). */
  ruleId?: string;
}

/**
 * Words one problem in a file's own terms: gets Ajv's error and the generic wording, returns what
 * to say instead (any of message, pointer, fix, rule id), or undefined to keep the generic one.
 * Called only for the problems shown, and never changes which line a problem is on.
 */
export type SchemaWording = (err: ErrorObject, generic: SchemaProblem) => Partial<SchemaProblem> | undefined;

/**
 * Turns Ajv's errors into one ConfigError naming the file, the line and JSON pointer of the
 * offending value, and a fix: the first problem in file order, with the others (one per value,
 * at most 20) in `others`, so a file with several mistakes is fixed in one pass. `lineOf` maps a
 * JSON pointer to a 1-based line. With `schema` (the root schema the errors came from), an
 * unknown key gets the closest allowed key as a suggestion. With `word`, each problem shown can
 * be worded in the file's own terms (see {@link SchemaWording}).
 */
export function schemaError(
  errors: readonly ErrorObject[],
  file: string,
  lineOf: (pointer: string) => number,
  fix: string,
  schema?: object,
  word?: SchemaWording,
): ConfigError {
  // Linear in the number of errors (a policy with 100,000 unknown keys has as many): each is
  // located (lineOf answers from an index) and sorted; only the problems shown are described,
  // since a suggestion ("did you mean") costs an edit distance to every allowed key.
  const found: { err: ErrorObject; pointer: string; line: number }[] = [];
  const seen = new Set<string>();
  // Ajv lists `anyOf`/`oneOf` summaries after their branches: keep the first error per value.
  for (const err of errors) {
    const { pointer } = describeError(err, undefined);
    const key = err.keyword === 'additionalProperties' ? pointer : err.instancePath;
    if (seen.has(key)) continue;
    seen.add(key);
    found.push({ err, pointer, line: lineOf(pointer) });
  }
  found.sort((a, b) => a.line - b.line);
  const [first, ...others] = found.slice(0, MAX_PROBLEMS).map(({ err, pointer, line }) => {
    const generic: SchemaProblem = { message: describeError(err, schema).message, pointer: pointer || '/', fix };
    const p = { ...generic, ...word?.(err, generic) };
    return new ConfigError(p.message, { file, line, pointer: p.pointer }, p.fix, p.ruleId);
  });
  if (!first) return new ConfigError('invalid file', { file }, fix);
  first.others = others;
  first.othersOmitted = found.length - 1 - others.length;
  return first;
}

function describeError(err: ErrorObject, schema: object | undefined): { pointer: string; message: string } {
  let pointer = err.instancePath;
  let message: string;
  switch (err.keyword) {
    case 'additionalProperties': {
      const key = String((err.params as { additionalProperty: string }).additionalProperty);
      pointer = `${pointer}/${escapePointerToken(key)}`;
      message = `unknown key "${key}"${schema ? didYouMean(key, allowedKeys(schema, err.instancePath)) : ''}`;
      break;
    }
    case 'required':
      message = `missing required key "${String((err.params as { missingProperty: string }).missingProperty)}"`;
      break;
    case 'enum':
      message = `${err.message ?? 'invalid value'}: ${(err.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
      break;
    case 'const':
      message = `must be ${JSON.stringify((err.params as { allowedValue: unknown }).allowedValue)}`;
      break;
    default:
      message = err.message ?? `invalid (${err.keyword})`;
  }
  return { pointer, message };
}

/**
 * `properties` keys of the subschema that validates the object at `instancePath`. Ajv's own
 * `schemaPath` is relative to the last `$ref` target, so walk the root schema along the instance
 * path instead, following `$ref` (local), `properties`, `items` and `additionalProperties`.
 */
function allowedKeys(schema: object, instancePath: string): string[] {
  type Node = { $ref?: string; properties?: Record<string, Node>; items?: Node; additionalProperties?: Node | boolean } | undefined;
  const deref = (n: Node): Node => {
    let node = n;
    for (let hops = 0; node?.$ref?.startsWith('#/') && hops < 8; hops++) {
      node = node.$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], schema) as Node;
    }
    return node;
  };
  let node = deref(schema);
  for (const key of pointerSegments(instancePath)) {
    const props = node?.properties;
    const next: Node =
      (props && hasOwn(props, key) ? props[key] : undefined) ??
      (/^\d+$/.test(key) ? node?.items : undefined) ??
      (typeof node?.additionalProperties === 'object' ? node.additionalProperties : undefined);
    node = deref(next);
  }
  return Object.keys(node?.properties ?? {});
}
