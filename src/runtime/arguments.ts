/**
 * Call-time argument check (docs/design.md §11): a `tools/call` reaches the server only when its arguments
 * validate against the **pinned** `inputSchema` and name no argument the schema does not declare
 * at the top level (even where the schema allows more: an undeclared argument is a channel the
 * review never saw). Validators are compiled once per pinned tool.
 */
import type { ValidateFunction } from 'ajv';
import type { SurfaceTool } from '../surface/model.js';
import { compileInputSchema } from '../surface/schema-validators.js';
import { getOwn, isObject } from '../util/json.js';

/** Whether the arguments may go to the server, and why not. */
export type ArgumentsVerdict = { ok: true } | { ok: false; detail: string };

const MAX_NAMED = 5;

/** Checks call arguments against pinned tools; one compiled validator per tool digest. */
export class ArgumentsChecker {
  private readonly compiled = new Map<string, ValidateFunction[] | Error>();

  /**
   * @param pinned the tool as the contract pins it (its `inputSchema` is what is enforced).
   * @param args `params.arguments` of the call, as sent (absent = `{}`).
   */
  check(pinned: SurfaceTool, args: unknown): ArgumentsVerdict {
    const value = args === undefined ? {} : args;
    if (!isObject(value))
      return { ok: false, detail: `arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}` };
    const schema = pinned.inputSchema;
    const props = isObject(schema) ? getOwn(schema, 'properties') : undefined;
    const declared = isObject(props) ? props : {};
    const unknown = Object.keys(value).filter((k) => getOwn(declared, k) === undefined);
    if (unknown.length) {
      const named = unknown
        .slice(0, MAX_NAMED)
        .map((k) => JSON.stringify(k))
        .join(', ');
      return {
        ok: false,
        detail: `unknown argument${unknown.length === 1 ? '' : 's'} ${named}${unknown.length > MAX_NAMED ? ` and ${unknown.length - MAX_NAMED} more` : ''}: the pinned inputSchema declares ${
          Object.keys(declared).length
            ? Object.keys(declared)
                .slice(0, 20)
                .map((k) => JSON.stringify(k))
                .join(', ')
            : 'no arguments'
        }`,
      };
    }
    const validators = this.validatorsFor(pinned);
    if (validators instanceof Error)
      return { ok: false, detail: `the pinned inputSchema cannot be compiled, so no call is let through: ${validators.message.slice(0, 300)}` };
    for (const validate of validators) {
      let valid: boolean;
      try {
        valid = validate(value);
      } catch (e) {
        // A recursive schema meeting arguments nested deeper than the stack: not checked, not let through.
        return { ok: false, detail: `the arguments could not be checked against the pinned inputSchema: ${(e as Error).message.slice(0, 200)}` };
      }
      if (valid) continue;
      const e = validate.errors?.[0];
      return {
        ok: false,
        detail: e ? `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}`.slice(0, 500) : 'the arguments do not match the pinned inputSchema',
      };
    }
    return { ok: true };
  }

  private validatorsFor(pinned: SurfaceTool): ValidateFunction[] | Error {
    let v = this.compiled.get(pinned.digest);
    if (v) return v;
    // The dialects and options are the ones the schema diff compared the change in.
    const { validators, failures } = compileInputSchema(pinned.inputSchema ?? true);
    v = validators.length > 0 ? validators.map((x) => x.validate) : (failures[0]?.error ?? new Error('no dialect compiled the schema'));
    this.compiled.set(pinned.digest, v);
    return v;
  }
}
