import type { ErrorObject } from 'ajv';
import { ConfigError } from './errors.js';

/**
 * Turns the first Ajv error into a ConfigError naming the file, the line and JSON pointer of the
 * offending value, and a fix. `lineOf` maps a JSON pointer to a 1-based line.
 */
export function schemaError(
  errors: readonly ErrorObject[],
  file: string,
  lineOf: (pointer: string) => number,
  fix: string,
): ConfigError {
  // Prefer the most specific error: Ajv lists `anyOf`/`oneOf` summaries after their branches.
  const err = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  if (!err) return new ConfigError('invalid file', { file }, fix);
  let pointer = err.instancePath;
  let message: string;
  switch (err.keyword) {
    case 'additionalProperties': {
      const key = String((err.params as { additionalProperty: string }).additionalProperty);
      pointer = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      message = `unknown key "${key}"`;
      break;
    }
    case 'required':
      message = `missing required key "${String((err.params as { missingProperty: string }).missingProperty)}"`;
      break;
    case 'enum':
      message = `${err.message ?? 'invalid value'}: ${(err.params as { allowedValues: unknown[] }).allowedValues
        .map((v) => JSON.stringify(v))
        .join(', ')}`;
      break;
    default:
      message = err.message ?? `invalid (${err.keyword})`;
  }
  return new ConfigError(message, { file, line: lineOf(pointer), pointer: pointer || '/' }, fix);
}
