/**
 * The OpenAPI integration config: a JSON file people write, naming a document, an explicit
 * `include` allowlist and a `policies` map. Loaded with positions so every mistake names its line.
 * Its shape is checked against `schema/integration.schema.json`; what a JSON Schema cannot say
 * (where `spec` leads, duplicate `include` entries) is checked here.
 */
import { dirname, resolve } from 'node:path';
import type { ErrorObject } from 'ajv';
import { ConfigError } from '../../util/errors.js';
import { FILE_LIMITS, readBounded } from '../../util/safe-path.js';
import { pointerSegments, toPointer, getOwn, isObject, type Json } from '../../util/json.js';
import { parseJsonDocument, type JsonDocument } from '../../util/json-file.js';
import { didYouMean } from '../../util/suggest.js';
import { schemaError, type SchemaProblem } from '../../util/schema-errors.js';
import { integrationValidator } from '../../util/validators.js';
import integrationSchema from '../../../schema/integration.schema.json' with { type: 'json' };
import { confinementProblem } from './repo-path.js';
import { findRepositoryRoot } from '../../util/repository-root.js';

/**
 * Keys an integration config may have (the schema's `properties`). `$schema` is accepted so
 * editors can offer completion.
 */
export const INTEGRATION_KEYS: readonly string[] = Object.keys(integrationSchema.properties);

/** One `include` entry with where it is written. */
export interface IncludeEntry {
  /** The entry as written: an `operationId` or `"METHOD /path"`. */
  entry: string;
  /** `/include/<index>`. */
  pointer: string;
  line: number;
}

/** One `policies` member with where it is written. */
export interface PolicyEntry {
  /** The key as written: an `operationId` or `"METHOD /path"`. */
  key: string;
  value: 'read';
  /** `/policies/<escaped key>`. */
  pointer: string;
  line: number;
}

/** A validated integration config. */
export interface IntegrationConfig {
  /** The config file path as given by the caller (used in messages and locations). */
  file: string;
  id?: string;
  /** `spec` exactly as written. */
  spec: string;
  /** `spec` resolved against the config file's directory. */
  specPath: string;
  /**
   * The repository root `spec` was checked against (absolute): the document and every file it
   * references must resolve inside it. Pass it on to `loadOpenApiDocument` (`root`).
   */
  root: string;
  specLine: number;
  include: IncludeEntry[];
  policies: PolicyEntry[];
  /** JSON pointer → 1-based line of every member and element (see {@link integrationLines}). */
  lines: Map<string, number>;
}

const SYNTAX_FIX = 'fix the JSON syntax at this position';

/** The fix of a problem the wording below does not know (a schema change it has not caught up with). */
const SCHEMA_FIX = 'Fix the integration config at that line; its schema is schema/integration.schema.json';

function parseConfig(text: string, file: string): JsonDocument {
  return parseJsonDocument(text, file, SYNTAX_FIX, { label: 'integration config', duplicateKeys: 'error' });
}

/**
 * Line of every JSON pointer in an integration config's text: `/include/3` → the line of the
 * fourth `include` entry, `/policies/markdown~1render` → the line of that policy's key (pointer
 * tokens are RFC 6901-escaped: `/` → `~1`, `~` → `~0`). For findings such as
 * `promoted-operation-moved` that point at a `policies` entry.
 * @param file used in the error message only.
 * @throws {@link ConfigError} when the text is not valid JSON (with line and column).
 */
export function integrationLines(text: string, file = '<integration config>'): Map<string, number> {
  return parseConfig(text, file).lines();
}

function typeName(v: Json | undefined): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Options of {@link loadIntegrationConfig}. */
export interface LoadIntegrationOptions {
  /**
   * The repository (workspace) root, absolute: `spec` must resolve inside it, symbolic links
   * resolved. Default (`findRepositoryRoot`): the nearest directory at or above the config
   * containing `.git`; else the working directory when the config or `spec` is inside it; else
   * the config's directory.
   */
  root?: string;
}

/**
 * Reads and validates an integration config.
 * @param file path of the config (relative to the working directory or absolute).
 * @throws {@link ConfigError} (exit 2) naming the file, line, JSON pointer and fix for: a missing
 *   file, invalid JSON, a duplicate key, anything `schema/integration.schema.json` refuses
 *   (unknown keys with the allowed key they resemble, wrong types, a missing `type`, `spec` or
 *   `include`, `type` other than `openapi`, a `spec` that is a URL, a policy value other than
 *   `"read"`: `invalid-policy`), each problem of the file at once, the first in file order with
 *   the others in `others`; then a `spec` that resolves outside the repository (symbolic links
 *   resolved) or to something other than a regular file, and a duplicate `include` entry.
 *   Checks against the document (`unknown-operation`, `policy-not-included`) happen later; a
 *   missing document is reported when it is loaded.
 */
export async function loadIntegrationConfig(file: string, opts: LoadIntegrationOptions = {}): Promise<IntegrationConfig> {
  const doc = parseConfig(await readConfigText(file), file);
  const raw = validateShape(doc, file);
  const lines = doc.lines();
  const at = (pointer: string) => ({ file, line: lines.get(pointer) ?? 1, pointer });
  const { specPath, root } = await resolveSpec(raw.spec, file, opts.root, at('/spec'));
  return {
    file,
    ...(raw.id !== undefined ? { id: raw.id } : {}),
    spec: raw.spec,
    specPath,
    root,
    specLine: lines.get('/spec') ?? 1,
    include: includeEntries(raw.include, lines, at),
    policies: Object.keys(raw.policies ?? {}).map((key) => {
      const pointer = toPointer(['policies', key]);
      return { key, value: 'read' as const, pointer, line: lines.get(pointer) ?? 1 };
    }),
    lines,
  };
}

/** An integration config as the schema accepts it. */
interface RawIntegration {
  id?: string;
  type: 'openapi';
  spec: string;
  include: string[];
  policies?: Record<string, 'read'>;
}

/** The config's text, at most {@link FILE_LIMITS}`.integrationConfig` bytes. */
async function readConfigText(file: string): Promise<string> {
  try {
    return (await readBounded(file, FILE_LIMITS.integrationConfig, 'the integration config', { display: file })).toString('utf8');
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(
      code === 'ENOENT' ? 'integration config not found' : `integration config cannot be read (${code ?? String(e)})`,
      { file },
      "check the source's `openapi` path in toolgate.yml (relative to toolgate.yml)",
    );
  }
}

/**
 * Checks the parsed config against `schema/integration.schema.json`; every problem is reported
 * at once, worded by {@link wordProblem}. Duplicate `include` entries (`uniqueItems`, there for
 * editors) are left to {@link includeEntries}, which names the entry that repeats and its line.
 */
function validateShape(doc: JsonDocument, file: string): RawIntegration {
  const validate = integrationValidator();
  const errors = validate(doc.value) ? [] : (validate.errors ?? []).filter((e) => e.keyword !== 'uniqueItems');
  if (errors.length > 0) throw schemaError(errors, file, doc.lineOf, SCHEMA_FIX, integrationSchema, (err) => wordProblem(err, doc.value));
  return doc.value as unknown as RawIntegration;
}

/** What a missing required key's fix says. */
const ADD_KEY: Record<string, string> = {
  type: 'set "type": "openapi"',
  spec: 'add "spec": "<path to the OpenAPI document, relative to this file>"',
  include: 'add "include": [<operationId or "METHOD /path">, ...] listing every operation agents may reach',
};

/**
 * One schema problem in the config's own words (the messages and fixes of the checks the schema
 * replaced): the key, what was expected, what was found, and the fix.
 */
function wordProblem(err: ErrorObject, config: Json): Partial<SchemaProblem> | undefined {
  const [key, entry, ...deeper] = pointerSegments(err.instancePath);
  if (deeper.length > 0) return undefined;
  const value = valueAt(config, key, entry);
  const found = typeof value === 'string' ? JSON.stringify(value) : typeName(value);
  switch (key) {
    case undefined:
      return wordTopLevel(err, value);
    case 'type':
      return { message: `integration \`type\` must be "openapi", found ${JSON.stringify(value)}`, fix: 'set "type": "openapi"' };
    case 'id':
      return {
        message: `integration \`id\` must be a string matching ${integrationSchema.properties.id.pattern}, found ${JSON.stringify(value)}`,
        fix: 'use lower-case letters, digits, ".", "_" and "-", starting with a letter or digit',
      };
    case 'spec':
      return err.keyword === 'not'
        ? {
            message: '`spec` must be a local file path; URLs are not fetched',
            fix: 'commit the document to the repository (or download it in an earlier CI step) and reference that file',
          }
        : { message: `\`spec\` must be a non-empty string, found ${found}`, fix: 'set it to the path of the OpenAPI document, relative to this file' };
    case 'include':
      return entry === undefined
        ? { message: `\`include\` must be an array, found ${typeName(value)}`, fix: 'list operationIds (or "METHOD /path") in an array' }
        : { message: `\`include\` entries must be non-empty strings, found ${found}`, fix: 'write an operationId or "METHOD /path"' };
    case 'policies':
      return entry === undefined
        ? { message: `\`policies\` must be an object, found ${typeName(value)}`, fix: 'write { "<operationId>": "read" }' }
        : {
            message: `invalid policy ${JSON.stringify(value)} for ${JSON.stringify(entry)}: the only policy is "read"`,
            fix: 'use "read" to let agents call this operation unattended, or remove the entry to keep it disabled',
            ruleId: 'invalid-policy',
          };
    default:
      return undefined;
  }
}

/** A problem with the config as a whole: not an object, a missing key, an unknown key. */
function wordTopLevel(err: ErrorObject, config: Json | undefined): Partial<SchemaProblem> | undefined {
  switch (err.keyword) {
    case 'type':
      return {
        message: `integration config must be a JSON object, found ${typeName(config)}`,
        pointer: '',
        fix: 'write an object with `type`, `spec` and `include`',
      };
    case 'required': {
      const missing = String((err.params as { missingProperty: string }).missingProperty);
      return { message: `integration config has no \`${missing}\``, pointer: '', ...(ADD_KEY[missing] ? { fix: ADD_KEY[missing] } : {}) };
    }
    case 'additionalProperties': {
      const key = String((err.params as { additionalProperty: string }).additionalProperty);
      return {
        message: `unknown key ${JSON.stringify(key)} in integration config${didYouMean(key, INTEGRATION_KEYS)}`,
        fix: `remove it; allowed keys: ${INTEGRATION_KEYS.join(', ')}`,
      };
    }
    default:
      return undefined;
  }
}

/** The value at `/<key>/<entry>` (own members only), the config itself without a key. */
function valueAt(config: Json, key: string | undefined, entry: string | undefined): Json | undefined {
  if (key === undefined) return config;
  const top = isObject(config) ? getOwn(config, key) : undefined;
  if (entry === undefined) return top;
  if (Array.isArray(top)) return /^\d+$/.test(entry) ? top[Number(entry)] : undefined;
  return isObject(top) ? getOwn(top, entry) : undefined;
}

/**
 * `spec` resolved against the config's directory, and the repository root it must stay in.
 * @throws {@link ConfigError} at `spec` when it resolves outside the root (symbolic links
 *   resolved) or to something other than a regular file.
 */
async function resolveSpec(
  spec: string,
  file: string,
  rootOption: string | undefined,
  at: { file: string; line: number; pointer: string },
): Promise<{ specPath: string; root: string }> {
  const specPath = resolve(dirname(file), spec);
  const root = resolve(rootOption ?? findRepositoryRoot(dirname(resolve(file)), specPath));
  const problem = await confinementProblem(specPath, root);
  if (problem !== undefined) {
    throw new ConfigError(
      `\`spec\` ${JSON.stringify(spec)} ${problem}`,
      at,
      'commit the OpenAPI document to the repository (or download it there in an earlier CI step) and reference that regular file by a path relative to this file',
    );
  }
  return { specPath, root };
}

/**
 * The `include` entries with their pointers and lines.
 * @throws {@link ConfigError} at the second of two equal entries, naming the first and its line.
 */
function includeEntries(
  entries: readonly string[],
  lines: ReadonlyMap<string, number>,
  at: (pointer: string) => { file: string; line: number; pointer: string },
): IncludeEntry[] {
  const firstSeen = new Map<string, string>();
  return entries.map((entry, index) => {
    const pointer = `/include/${index}`;
    const earlier = firstSeen.get(entry);
    if (earlier !== undefined) {
      throw new ConfigError(
        `duplicate \`include\` entry ${JSON.stringify(entry)} (also at ${earlier}, line ${lines.get(earlier)})`,
        at(pointer),
        'remove one of them',
      );
    }
    firstSeen.set(entry, pointer);
    return { entry, pointer, line: lines.get(pointer) ?? 1 };
  });
}
