/**
 * The validators a pinned `inputSchema` is enforced with: Ajv 8 in two dialects, with the options
 * the proxy checks call arguments with (src/runtime/arguments.ts, docs/design.md §11). The schema
 * diff compiles both sides of a change with the same function (diff/schema/classify.ts), so that
 * what it compares is what the proxy enforces.
 */
import { Ajv, type ValidateFunction, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { RE2JS } from 're2js';
import type { Json } from '../util/json.js';
import { getOwn, isObject } from '../util/json.js';

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

/** A dialect a pinned schema is checked in, by the name reports use. */
export type Dialect = 'JSON Schema 2020-12' | 'JSON Schema draft-07';

/**
 * The dialects a pinned schema is checked in. The contract does not keep a draft `$schema` URI
 * (it is no part of the digest), so the server must not pick the dialect at call time: a schema
 * is checked as JSON Schema 2020-12 (MCP's default) and as draft-07 (what most SDKs emit), and
 * the arguments must pass both; a dialect the schema does not compile in is left out.
 */
const DIALECTS: readonly { dialect: Dialect; Validator: new (o: Options) => Ajv }[] = [
  { dialect: 'JSON Schema 2020-12', Validator: Ajv2020 },
  { dialect: 'JSON Schema draft-07', Validator: Ajv },
];

/** What {@link compileInputSchema} made of a schema, per dialect, in the order of {@link DIALECTS}. */
export interface CompiledInputSchema {
  /** The dialects the schema compiles in, with their validators: arguments must pass every one. */
  validators: { dialect: Dialect; validate: ValidateFunction }[];
  /** The dialects it does not compile in, and Ajv's error. None compiling means no call passes. */
  failures: { dialect: Dialect; error: Error }[];
}

/**
 * Compiles a pinned `inputSchema` (or `true` for a tool without one) in every dialect. A root
 * `$schema` is left out: the keyword would make Ajv look for a meta-schema, and the dialects are
 * chosen here. A schema with an `$id` whose fragment is a JSON pointer is refused in every
 * dialect without asking Ajv, which loops on it. Never throws; each dialect's error is in
 * `failures`.
 */
export function compileInputSchema(schema: Json): CompiledInputSchema {
  const body = isObject(schema) ? Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')) : schema;
  const out: CompiledInputSchema = { validators: [], failures: [] };
  const pointerId = findPointerId(body);
  for (const { dialect, Validator } of DIALECTS) {
    try {
      if (pointerId !== undefined) {
        // Ajv follows `$id`s that name each other's JSON pointer without end (a hang, not an error).
        throw new Error(`$id ${JSON.stringify(pointerId)} has a JSON pointer fragment, which no JSON Schema draft allows`);
      }
      const ajv = new Validator(OPTIONS);
      (addFormats as unknown as (a: Ajv) => void)(ajv);
      out.validators.push({ dialect, validate: ajv.compile(body as object | boolean) });
    } catch (e) {
      out.failures.push({ dialect, error: e instanceof Error ? e : new Error(String(e)) });
    }
  }
  return out;
}

/** The dialects, in the order {@link compileInputSchema} reports them. */
export const DIALECT_NAMES: readonly Dialect[] = DIALECTS.map((d) => d.dialect);

/** Ajv's class for `dialect`, with the rules it validates by (its `RULES`). */
export function dialectValidator(dialect: Dialect): new (o: Options) => Ajv {
  return (DIALECTS.find((d) => d.dialect === dialect) ?? DIALECTS[0]!).Validator;
}

const undefinedKeywords = new Map<Dialect, ReadonlySet<string>>();

/**
 * The keywords another dialect validates by and `dialect` does not (read from each Ajv's
 * `RULES.all`): under `dialect` they constrain nothing (strict mode is off, so Ajv ignores them).
 * For draft-07: `prefixItems`, `dependentRequired`, `dependentSchemas`, `$dynamicRef`,
 * `$recursiveRef`, `unevaluatedProperties`... For 2020-12: `additionalItems`. Computed once.
 */
export function keywordsUndefinedIn(dialect: Dialect): ReadonlySet<string> {
  let set = undefinedKeywords.get(dialect);
  if (!set) {
    const own = new (dialectValidator(dialect))(OPTIONS).RULES.all;
    set = new Set(DIALECTS.flatMap((d) => Object.keys(new d.Validator(OPTIONS).RULES.all)).filter((k) => !(k in own)));
    undefinedKeywords.set(dialect, set);
  }
  return set;
}

let dialectKeywords: ReadonlySet<string> | undefined;

/**
 * The keywords the dialects define differently, read from Ajv's rules of each (the keyword is in
 * one only, or its definition differs in the value it takes or the code it runs): `prefixItems`,
 * `$dynamicRef`, `unevaluatedProperties`, `items`... Computed once.
 */
export function keywordsDefinedDifferently(): ReadonlySet<string> {
  if (dialectKeywords) return dialectKeywords;
  const rules = DIALECTS.map(({ Validator }) => new Validator(OPTIONS).RULES.all);
  const definition = (r: (typeof rules)[number], k: string): Record<string, unknown> | boolean | undefined => {
    const rule = r[k];
    return typeof rule === 'object' ? (rule.definition as unknown as Record<string, unknown>) : rule;
  };
  // Functions by identity (one module's code, or another's), the rest by value; error texts aside.
  const same = (k: string): boolean => {
    const [a, b] = rules.map((r) => definition(r, k));
    if (typeof a !== 'object' || typeof b !== 'object') return a === b;
    const fields = new Set([...Object.keys(a), ...Object.keys(b)].filter((f) => f !== 'keyword' && f !== 'error'));
    return [...fields].every((f) => (typeof a[f] === 'function' ? a[f] === b[f] : JSON.stringify(a[f]) === JSON.stringify(b[f])));
  };
  dialectKeywords = new Set(rules.flatMap((r) => Object.keys(r)).filter((k) => !same(k)));
  return dialectKeywords;
}

/**
 * Whether `schema` has a keyword the dialects define differently (anywhere, data included:
 * erring towards yes). Only such a schema can compile in one dialect and not in the other: every
 * other keyword is the same rule in both. `items` counts only as an array (draft-07's tuple,
 * which 2020-12 refuses): as one schema both take it alike, unless next to `prefixItems`, which
 * counts by itself.
 */
export function usesDialectKeywords(schema: Json): boolean {
  const keywords = keywordsDefinedDifferently();
  const walk = (v: Json): boolean => {
    if (Array.isArray(v)) return v.some(walk);
    if (!isObject(v)) return false;
    for (const k of Object.keys(v)) {
      const value = v[k] as Json;
      if (keywords.has(k) && (k !== 'items' || Array.isArray(value))) return true;
      if (walk(value)) return true;
    }
    return false;
  };
  return walk(schema);
}

/** The first `$id` string with a JSON pointer fragment (`…#/…`) anywhere in `value`, data included. */
function findPointerId(value: Json): string | undefined {
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = findPointerId(v);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const id = getOwn(value, '$id');
  if (typeof id === 'string' && /#\/./.test(id)) return id;
  for (const k of Object.keys(value)) {
    const found = findPointerId(value[k] as Json);
    if (found !== undefined) return found;
  }
  return undefined;
}
