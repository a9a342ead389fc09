/**
 * Client settings files (JSON, comments allowed where the client allows them) that an export
 * shares with the user's other settings: read leniently, edited in place (jsonc-parser keeps every
 * other byte: comments, order, indentation), written ASCII only. Pure.
 */
import { applyEdits, modify, parse, visit, type ParseError } from 'jsonc-parser';
import type { Json } from '../util/json.js';
import { ConfigError } from '../util/errors.js';
import { asciiJson, quoted } from './literals.js';

/** A JSON document, two-space indented, ASCII only, with a final newline. */
export function jsonDocument(value: Json): string {
  return `${asciiJson(JSON.stringify(value, null, 2))}\n`;
}

/**
 * Parses a settings file: as strict JSON (`strict`, Claude Code's reading: a file that is not is
 * ignored whole, the export's rules with it), else JSON with comments and trailing commas. A key
 * given twice in one object is refused: readers disagree on which one counts.
 * @throws ConfigError naming the line of the first syntax error or the key given twice (the file
 *   is not the export's to repair).
 */
export function parseSettings(text: string, what: string, opts: { strict?: boolean } = {}): Json {
  if (opts.strict) {
    try {
      deepSafe(what, () => JSON.parse(text.replace(/^\uFEFF/, '')) as unknown);
    } catch (e) {
      if (e instanceof ConfigError) throw e;
      throw new ConfigError(
        `cannot read ${what}: it is not strict JSON (${(e as Error).message}), and Claude Code ignores such a file whole, the export's rules with it`,
        undefined,
        'Remove comments and trailing commas (`claude doctor` lists what Claude Code rejects), then export again.',
      );
    }
  }
  const twice = deepSafe(what, () => duplicateKey(text));
  if (twice)
    throw new ConfigError(
      `cannot read ${what}: the key ${quoted(twice)} is given twice in one object, and readers disagree on which one counts`,
      undefined,
      'Keep one of them, then export again.',
    );
  const errors: ParseError[] = [];
  const value = deepSafe(what, () => parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as Json);
  if (errors.length) {
    const line = text.slice(0, (errors[0] as ParseError).offset).split('\n').length;
    throw new ConfigError(`cannot read ${what}: it is not valid JSON (line ${line})`, undefined, 'Fix the file, or remove it and export again.');
  }
  return value;
}

/**
 * Runs a recursive parse: jsonc-parser recurses once per nesting level, so a file nested some
 * thousands deep exhausts the stack. No settings file is; it is refused as what it is.
 * @throws ConfigError naming the file.
 */
function deepSafe<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof RangeError)
      throw new ConfigError(`cannot read ${what}: it is nested too deeply to be a settings file`, undefined, 'Fix the file, or remove it and export again.');
    throw e;
  }
}

/** The first key given twice in one object, or undefined. */
function duplicateKey(text: string): string | undefined {
  const stack: Set<string>[] = [];
  let found: string | undefined;
  visit(
    text,
    {
      onObjectBegin: () => void stack.push(new Set()),
      onObjectEnd: () => void stack.pop(),
      onObjectProperty: (name) => {
        const keys = stack[stack.length - 1];
        if (keys?.has(name)) found ??= name;
        keys?.add(name);
      },
    },
    { allowTrailingComma: true, disallowComments: false },
  );
  return found;
}

/**
 * Checks that every value on `path` that exists is an object, so the export's keys can be set in it.
 * @throws ConfigError naming the key and what it is instead.
 */
export function assertObjectsOn(doc: Json, path: readonly string[], what: string): void {
  let v: Json | undefined = doc;
  for (let i = 0; i <= path.length; i++) {
    if (v === undefined) return;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      const key = i === 0 ? 'the document' : `\`${path.slice(0, i).join('.')}\``;
      throw new ConfigError(
        `cannot merge into ${what}: ${key} is ${v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`}, not an object`,
        undefined,
        'Fix the file (or remove it), then export again.',
      );
    }
    if (i === path.length) return;
    v = Object.hasOwn(v, path[i] as string) ? (v as Record<string, Json>)[path[i] as string] : undefined;
  }
}

/** Sets each path to its value in the text, keeping everything else as it is. */
export function setInSettings(text: string, edits: readonly { path: (string | number)[]; value: Json | undefined }[]): string {
  let out = text;
  for (const e of edits) {
    const changes = deepSafe('the settings file', () => modify(out, e.path, e.value, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } })).map(
      (c) => ({ ...c, content: asciiJson(c.content) }),
    );
    out = applyEdits(out, changes);
  }
  return out.endsWith('\n') ? out : `${out}\n`;
}

/** The value at a path of parsed JSON (own keys only), or undefined. */
export function at(value: Json | undefined, path: readonly string[]): Json | undefined {
  let v = value;
  for (const k of path) {
    if (!v || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, k)) return undefined;
    v = (v as Record<string, Json>)[k];
  }
  return v;
}

/** The strings of a JSON array (anything else: empty). */
export function strings(v: Json | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * How two sets of strings differ, for a message: `has "x", "y" and lacks "z"` (ASCII-quoted, at
 * most five of each); undefined when equal.
 */
export function setDifference(committed: readonly string[], expected: readonly string[]): string | undefined {
  const c = new Set(committed);
  const e = new Set(expected);
  const extra = [...c].filter((x) => !e.has(x));
  const missing = [...e].filter((x) => !c.has(x));
  if (!extra.length && !missing.length) return undefined;
  const list = (xs: string[]) => `${xs.slice(0, 5).map(quoted).join(', ')}${xs.length > 5 ? ` and ${xs.length - 5} more` : ''}`;
  return [extra.length ? `has ${list(extra)}, which the export does not` : '', missing.length ? `lacks ${list(missing)}` : ''].filter(Boolean).join(' and ');
}

/** Those of `need` that `have` lacks. */
export function lacking(have: readonly string[], need: readonly string[]): string[] {
  const h = new Set(have);
  return need.filter((x) => !h.has(x));
}

/** `lacks "a", "b"` (at most five), or '' when nothing is lacking. */
export function lacksText(have: readonly string[], need: readonly string[]): string {
  const l = lacking(have, need);
  return l.length ? `lacks ${l.slice(0, 5).map(quoted).join(', ')}${l.length > 5 ? ` and ${l.length - 5} more` : ''}` : '';
}
