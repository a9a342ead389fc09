/**
 * Call-time argument check (DESIGN §9): a `tools/call` reaches the server only when its arguments
 * validate against the **pinned** `inputSchema` and name no argument the schema does not declare
 * at the top level (even where the schema allows more: an undeclared argument is a channel the
 * review never saw). Validators are compiled once per pinned tool.
 */
import { Ajv, type ValidateFunction, type Options } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type { Json, SurfaceTool } from '../surface/model.js';
import { getOwn, isObject } from '../util/json.js';

/** Whether the arguments may go to the server, and why not. */
export type ArgumentsVerdict = { ok: true } | { ok: false; detail: string };

const OPTIONS: Options = { strict: false, allErrors: false, validateSchema: false, addUsedSchema: false };
const MAX_NAMED = 5;

/**
 * The Ajv class for a schema's dialect (`$schema`). MCP 2025-11-25: a schema without `$schema`
 * is JSON Schema 2020-12.
 */
function ajvFor(dialect: unknown): Ajv {
  const d = typeof dialect === 'string' ? dialect : '';
  const ajv = /draft-04/.test(d) ? new (AjvDraft04 as unknown as new (o: Options) => Ajv)(OPTIONS) : /draft-0[67]/.test(d) ? new Ajv(OPTIONS) : /2019-09/.test(d) ? new Ajv2019(OPTIONS) : new Ajv2020(OPTIONS);
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

/** Checks call arguments against pinned tools; one compiled validator per tool digest. */
export class ArgumentsChecker {
  private readonly compiled = new Map<string, ValidateFunction | Error>();

  /**
   * @param pinned the tool as the contract pins it (its `inputSchema` is what is enforced).
   * @param dialect the `$schema` the server declares for it (the contract may leave a draft URI out).
   * @param args `params.arguments` of the call, as sent (absent = `{}`).
   */
  check(pinned: SurfaceTool, dialect: unknown, args: unknown): ArgumentsVerdict {
    const value = args === undefined ? {} : args;
    if (!isObject(value)) return { ok: false, detail: `arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}` };
    const schema = pinned.inputSchema;
    const props = isObject(schema) ? getOwn(schema, 'properties') : undefined;
    const declared = isObject(props) ? props : {};
    const unknown = Object.keys(value).filter((k) => getOwn(declared, k) === undefined);
    if (unknown.length) {
      const named = unknown.slice(0, MAX_NAMED).map((k) => JSON.stringify(k)).join(', ');
      return { ok: false, detail: `unknown argument${unknown.length === 1 ? '' : 's'} ${named}${unknown.length > MAX_NAMED ? ` and ${unknown.length - MAX_NAMED} more` : ''}: the pinned inputSchema declares ${Object.keys(declared).length ? Object.keys(declared).slice(0, 20).map((k) => JSON.stringify(k)).join(', ') : 'no arguments'}` };
    }
    const validate = this.validatorFor(pinned, dialect);
    if (validate instanceof Error) return { ok: false, detail: `the pinned inputSchema cannot be compiled, so no call is let through: ${validate.message.slice(0, 300)}` };
    if (validate(value)) return { ok: true };
    const e = validate.errors?.[0];
    return { ok: false, detail: e ? `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}`.slice(0, 500) : 'the arguments do not match the pinned inputSchema' };
  }

  private validatorFor(pinned: SurfaceTool, dialect: unknown): ValidateFunction | Error {
    const key = `${pinned.digest}|${String(dialect)}`;
    let v = this.compiled.get(key);
    if (v) return v;
    try {
      const schema = pinned.inputSchema ?? true;
      // The dialect picks the Ajv class; the keyword itself would make Ajv look for a meta-schema.
      const body = isObject(schema) ? Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')) : schema;
      v = ajvFor(dialect).compile(body as Json as object);
    } catch (e) {
      v = e instanceof Error ? e : new Error(String(e));
    }
    this.compiled.set(key, v);
    return v;
  }
}
