/**
 * The OpenAPI integration config: a JSON file people write, naming a document, an explicit
 * `include` allowlist and a `policies` map. Loaded with positions so every mistake names its line.
 */
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../../util/errors.js';
import { FILE_LIMITS, readBounded } from '../../util/safe-path.js';
import type { Json } from '../types.js';
import { parseJsonDocument, toPointer } from '../../util/json-file.js';
import { didYouMean } from '../../util/suggest.js';
import { SOURCE_ID_PATTERN } from '../../config/source-config.js';
import { confinementProblem, findRepositoryRoot } from './repo-files.js';

/** Keys an integration config may have. `$schema` is accepted so editors can offer completion. */
export const INTEGRATION_KEYS = ['$schema', 'id', 'type', 'spec', 'include', 'policies'] as const;

/** The only policy value: the operation may run unattended although its verb is not GET/HEAD. */
export const POLICY_VALUES = ['read'] as const;


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

function parseConfig(text: string, file: string) {
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
 *   file, invalid JSON, unknown keys, wrong types, a missing `spec`, a `spec` that resolves
 *   outside the repository (symbolic links resolved) or to something other than a regular file,
 *   `type` other than `openapi`, a duplicate `include` entry, a policy value other than `"read"`
 *   (`invalid-policy`). Checks against the document (`unknown-operation`,
 *   `policy-not-included`) happen later; a missing document is reported when it is loaded.
 */
export async function loadIntegrationConfig(file: string, opts: LoadIntegrationOptions = {}): Promise<IntegrationConfig> {
  let text: string;
  try {
    text = (await readBounded(file, FILE_LIMITS.integrationConfig, 'the integration config', { display: file })).toString('utf8');
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(
      code === 'ENOENT' ? 'integration config not found' : `integration config cannot be read (${code ?? String(e)})`,
      { file },
      'check the source\'s `openapi` path in toolgate.yml (relative to toolgate.yml)',
    );
  }
  const parsed = parseConfig(text, file);
  const root = parsed.value;
  const lines = parsed.lines();
  const at = (pointer: string) => ({ file, line: lines.get(pointer) ?? 1, pointer });

  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    throw new ConfigError(`integration config must be a JSON object, found ${typeName(root)}`, at(''), 'write an object with `type`, `spec` and `include`');
  }
  for (const key of Object.keys(root)) {
    if (!(INTEGRATION_KEYS as readonly string[]).includes(key)) {
      throw new ConfigError(
        `unknown key ${JSON.stringify(key)} in integration config${didYouMean(key, INTEGRATION_KEYS)}`,
        at(toPointer([key])),
        `remove it; allowed keys: ${INTEGRATION_KEYS.join(', ')}`,
      );
    }
  }

  if (root.type !== 'openapi') {
    throw new ConfigError(
      root.type === undefined ? 'integration config has no `type`' : `integration \`type\` must be "openapi", found ${JSON.stringify(root.type)}`,
      at(root.type === undefined ? '' : '/type'),
      'set "type": "openapi"',
    );
  }

  let id: string | undefined;
  if (root.id !== undefined) {
    if (typeof root.id !== 'string' || !SOURCE_ID_PATTERN.test(root.id)) {
      throw new ConfigError(
        `integration \`id\` must be a string matching ${SOURCE_ID_PATTERN.source}, found ${JSON.stringify(root.id)}`,
        at('/id'),
        'use lower-case letters, digits, ".", "_" and "-", starting with a letter or digit',
      );
    }
    id = root.id;
  }

  if (root.spec === undefined) {
    throw new ConfigError('integration config has no `spec`', at(''), 'add "spec": "<path to the OpenAPI document, relative to this file>"');
  }
  if (typeof root.spec !== 'string' || root.spec.trim() === '') {
    throw new ConfigError(`\`spec\` must be a non-empty string, found ${typeName(root.spec)}`, at('/spec'), 'set it to the path of the OpenAPI document, relative to this file');
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(root.spec)) {
    throw new ConfigError(
      '`spec` must be a local file path; URLs are not fetched',
      at('/spec'),
      'commit the document to the repository (or download it in an earlier CI step) and reference that file',
    );
  }
  const specPath = resolve(dirname(file), root.spec);
  const repoRoot = resolve(opts.root ?? findRepositoryRoot(dirname(resolve(file)), specPath));
  const specProblem = await confinementProblem(specPath, repoRoot);
  if (specProblem !== undefined) {
    throw new ConfigError(
      `\`spec\` ${JSON.stringify(root.spec)} ${specProblem}`,
      at('/spec'),
      'commit the OpenAPI document to the repository (or download it there in an earlier CI step) and reference that regular file by a path relative to this file',
    );
  }

  if (root.include === undefined) {
    throw new ConfigError('integration config has no `include`', at(''), 'add "include": [<operationId or "METHOD /path">, ...] listing every operation agents may reach');
  }
  if (!Array.isArray(root.include)) {
    throw new ConfigError(`\`include\` must be an array, found ${typeName(root.include)}`, at('/include'), 'list operationIds (or "METHOD /path") in an array');
  }
  const include: IncludeEntry[] = [];
  const firstSeen = new Map<string, string>();
  root.include.forEach((entry, index) => {
    const pointer = `/include/${index}`;
    if (typeof entry !== 'string' || entry.trim() === '') {
      throw new ConfigError(`\`include\` entries must be non-empty strings, found ${typeName(entry)}`, at(pointer), 'write an operationId or "METHOD /path"');
    }
    const earlier = firstSeen.get(entry);
    if (earlier !== undefined) {
      throw new ConfigError(`duplicate \`include\` entry ${JSON.stringify(entry)} (also at ${earlier}, line ${lines.get(earlier)})`, at(pointer), 'remove one of them');
    }
    firstSeen.set(entry, pointer);
    include.push({ entry, pointer, line: lines.get(pointer) ?? 1 });
  });

  const policies: PolicyEntry[] = [];
  if (root.policies !== undefined) {
    if (root.policies === null || typeof root.policies !== 'object' || Array.isArray(root.policies)) {
      throw new ConfigError(`\`policies\` must be an object, found ${typeName(root.policies)}`, at('/policies'), 'write { "<operationId>": "read" }');
    }
    for (const [key, value] of Object.entries(root.policies)) {
      const pointer = toPointer(['policies', key]);
      if (!(POLICY_VALUES as readonly Json[]).includes(value)) {
        throw new ConfigError(
          `invalid policy ${JSON.stringify(value)} for ${JSON.stringify(key)}: the only policy is "read"`,
          at(pointer),
          'use "read" to let agents call this operation unattended, or remove the entry to keep it disabled',
          'invalid-policy',
        );
      }
      policies.push({ key, value: 'read', pointer, line: lines.get(pointer) ?? 1 });
    }
  }

  return {
    file,
    ...(id !== undefined ? { id } : {}),
    spec: root.spec,
    specPath,
    root: repoRoot,
    specLine: lines.get('/spec') ?? 1,
    include,
    policies,
    lines,
  };
}
