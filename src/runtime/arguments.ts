/**
 * Call-time argument check (docs/design.md §11): a `tools/call` reaches the server only when its arguments
 * validate against the **pinned** `inputSchema` and name no argument the schema does not declare
 * at the top level (even where the schema allows more: an undeclared argument is a channel the
 * review never saw). Validators are compiled once per pinned tool.
 */
import { Ajv, type ValidateFunction, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { RE2JS } from 're2js';
import type { SurfaceTool } from '../surface/model.js';
import type { Json } from '../util/json.js';
import { getOwn, isObject } from '../util/json.js';

/** Whether the arguments may go to the server, and why not. */
export type ArgumentsVerdict = { ok: true } | { ok: false; detail: string };

/**
 * Patterns (`pattern`, `patternProperties`, `format: regex` aside) run on RE2 (re2js): linear
 * time, so an argument cannot hang the proxy on a backtracking pattern (`^(a+)+$`). A pattern RE2
 * cannot compile (lookaround, backreferences) makes the schema fail to compile: the tool's calls
 * are refused, not let through unchecked.
 */
const re2: Options['code'] = {
  regExp: ((pattern: string, flags: string) => {
    const re = RE2JS.compile(pattern, flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
    return { test: (s: string) => re.test(s) };
  }) as unknown as NonNullable<Options['code']>['regExp'],
};
const OPTIONS: Options = { strict: false, allErrors: false, validateSchema: false, addUsedSchema: false, code: re2 };
const MAX_NAMED = 5;

/**
 * The dialects a pinned schema is checked in. The contract does not keep a draft `$schema` URI
 * (it is no part of the digest), so the server must not pick the dialect at call time: a schema
 * is checked as JSON Schema 2020-12 (MCP's default) and as draft-07 (what most SDKs emit), and
 * the arguments must pass both; a dialect the schema does not compile in is left out.
 */
const DIALECTS: readonly (new (o: Options) => Ajv)[] = [Ajv2020, Ajv];

function compileAll(schema: object): ValidateFunction[] {
  const out: ValidateFunction[] = [];
  let first: unknown;
  for (const A of DIALECTS) {
    try {
      const ajv = new A(OPTIONS);
      (addFormats as unknown as (a: Ajv) => void)(ajv);
      out.push(ajv.compile(schema));
    } catch (e) {
      first ??= e;
    }
  }
  if (out.length === 0) throw first instanceof Error ? first : new Error(String(first));
  return out;
}

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
    try {
      const schema = pinned.inputSchema ?? true;
      // The keyword would make Ajv look for a meta-schema; the dialects are chosen above.
      const body = isObject(schema) ? Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')) : schema;
      v = compileAll(body as Json as object);
    } catch (e) {
      v = e instanceof Error ? e : new Error(String(e));
    }
    this.compiled.set(pinned.digest, v);
    return v;
  }
}
