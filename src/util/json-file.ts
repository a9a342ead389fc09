import { createHash } from 'node:crypto';
import { printParseErrorCode, visit } from 'jsonc-parser';
import { ConfigError } from './errors.js';
import type { Json } from './json.js';
import { toPointer } from './json.js';
import { runToEnd, type Steps } from './slices.js';

/** A parsed JSON document that can tell the line of any value by JSON pointer. */
export interface JsonDocument {
  value: Json;
  /**
   * 1-based line of the value at `pointer` (RFC 6901), or of its nearest existing parent.
   * For an object member, the line of its key (where a reader looks); for an array element or the
   * root, the line where the value starts.
   */
  lineOf: (pointer: string) => number;
  /** Every member and element (and the root, `''`) by RFC 6901 pointer → line as {@link lineOf} gives it. */
  lines: () => Map<string, number>;
  /**
   * Builds the line index as steps, so a caller can run it in slices before it asks
   * {@link lineOf} (which otherwise builds it at once: about a second on a 128 MiB contract).
   */
  indexLines: () => Steps<void>;
}

/** Options of {@link parseJsonDocument}. */
export interface JsonDocumentOptions {
  /**
   * Names the document in error messages: `"<label> is not valid JSON: …"`.
   * Without it the message starts `invalid JSON: …`.
   */
  label?: string;
  /**
   * `'error'` refuses an object with the same key twice (JSON.parse would silently keep the last
   * one: in a file people write, that is a mistake). Default `'last-wins'`, like JSON.parse.
   */
  duplicateKeys?: 'error' | 'last-wins';
  /**
   * How a refused duplicate key is told: `what` names the document (default: `label`, else
   * "JSON document"), `fix` replaces the default fix ("remove one of the duplicate keys").
   */
  duplicateKeyText?: { what?: string; fix?: string };
  /**
   * Deepest level whose lines are indexed (default: all). A contract needs tools and their keys
   * (`/tools/3/annotations/readOnlyHint`), not every node of every schema.
   */
  lineDepth?: number;
}

/** Deepest nesting accepted; deeper documents are refused instead of exhausting the stack. */
export const MAX_JSON_DEPTH = 512;

/** Line (1-based) and column (1-based) of a UTF-16 offset in `text`. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Parses strict JSON (RFC 8259: no comments, no trailing commas; a leading BOM is ignored) keeping
 * positions. Lines and columns count from the text after the BOM.
 * @param file shown in errors.
 * @param fix the fix printed with a syntax error.
 * @throws ConfigError naming `file:line:column` and what is wrong at the first syntax error (and,
 *   with `duplicateKeys: 'error'`, at the second occurrence of a key, with its pointer).
 */
export function parseJsonDocument(text: string, file: string, fix: string, options: JsonDocumentOptions = {}): JsonDocument {
  return runToEnd(parseJsonDocumentSteps(text, file, fix, options));
}

/**
 * {@link parseJsonDocument} as steps: its scans of the text (depth, duplicate keys) yield every
 * megabyte, and it yields around `JSON.parse` (native, one step: ~1 s on the largest contract
 * accepted), so a caller running it with `runInSlices` handles a signal in between.
 */
export function* parseJsonDocumentSteps(text: string, file: string, fix: string, options: JsonDocumentOptions = {}): Steps<JsonDocument> {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const syntaxError = (offset: number, detail: string): ConfigError => {
    const { line, column } = positionOf(text, offset);
    const what = options.label ? `${options.label} is not valid JSON` : 'invalid JSON';
    return new ConfigError(`${what}: ${detail}`, { file, line, column }, fix);
  };

  // JSON.parse is native, iterative (any depth is safe) and gives exact number/string semantics;
  // the position tree (an AST of the whole file: most of the cost on a 20 MB contract) is built
  // only when a line is asked for.
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    // The error's description walks the text recursively: a nesting too deep is said first.
    const deep = yield* tooDeepAt(text, MAX_JSON_DEPTH);
    if (deep >= 0) throw syntaxError(deep, `nested deeper than ${MAX_JSON_DEPTH} levels`);
    const problem = describeFirstError(text);
    throw syntaxError(problem.offset, problem.message);
  }
  yield;
  // Nesting and duplicate keys: one linear scan of the (now known valid) text, no syntax tree, so
  // that contracts of tens of MB are checked too.
  const problem = yield* firstStructureProblem(text, MAX_JSON_DEPTH, options.duplicateKeys === 'error');
  if (problem?.kind === 'deep') throw syntaxError(problem.offset, `nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (problem?.kind === 'duplicate') {
    const { line, column } = positionOf(text, problem.second);
    const key = String(problem.path[problem.path.length - 1]);
    const what = options.duplicateKeyText?.what ?? options.label ?? 'JSON document';
    throw new ConfigError(
      `${what} has a duplicate key ${JSON.stringify(key)} (first on line ${positionOf(text, problem.first).line})`,
      { file, line, column, pointer: toPointer(problem.path) },
      options.duplicateKeyText?.fix ?? 'remove one of the duplicate keys (only the last one would count)',
    );
  }

  // Lines come from a streaming scan (no syntax tree: on a 20 MB contract the tree costs seconds
  // and hundreds of MB), made on the first question and limited to `lineDepth` levels; a deeper
  // pointer gets the line of its deepest indexed ancestor.
  let index: Map<string, number> | undefined;
  const lines = (): Map<string, number> => (index ??= runToEnd(lineIndexSteps(text, options.lineDepth ?? Infinity)));
  return {
    value,
    lineOf(pointer: string): number {
      const map = lines();
      let p = pointer;
      for (;;) {
        const line = map.get(p);
        if (line !== undefined) return line;
        if (p === '') return 1;
        p = p.slice(0, p.lastIndexOf('/'));
      }
    },
    lines(): Map<string, number> {
      return new Map(lines());
    },
    *indexLines(): Steps<void> {
      if (!index) index = yield* lineIndexSteps(text, options.lineDepth ?? Infinity);
    },
  };
}

/**
 * Pointer → 1-based line for every member (its key's line) and element (where it starts), down to
 * `maxDepth` levels (pointers of at most that many segments). The text is known to be valid JSON.
 * One pass, no tokenizer: strings are skipped with `indexOf` (descriptions are most of a
 * contract), containers below `maxDepth` are skipped by counting brackets outside strings, and
 * lines are counted only up to where one is recorded (every line break in valid JSON is
 * whitespace: strings cannot hold one raw). A generic JSON visitor costs seconds on a 100 MB
 * contract; skipping strings natively and counting lines lazily keeps this well under one.
 * Yields every {@link LINE_INDEX_CHUNK} characters.
 */
function* lineIndexSteps(text: string, maxDepth: number): Steps<Map<string, number>> {
  const out = new Map<string, number>([['', 1]]);
  /** Open containers: the pointer of each, and for an object its current key, for an array its current index. */
  const frames: { object: boolean; pointer: string; key: string; index: number }[] = [];
  const lineAt = lineCounter(text);
  let expectKey = false;
  let nextYield = LINE_INDEX_CHUNK;
  // The pointer of the value the scan is at (its container's pointer and its key or index).
  const here = (): string => {
    const top = frames[frames.length - 1];
    if (!top) return '';
    return `${top.pointer}/${top.object ? escapePointerToken(top.key) : top.index}`;
  };
  // A value starts at `i`: record it (arrays: its element pointer; objects: the key did already).
  const valueStarts = (i: number) => {
    if (frames.length === 0 || frames.length > maxDepth) return;
    const p = here();
    if (p.length <= MAX_INDEXED_POINTER && !out.has(p)) out.set(p, lineAt(i));
  };
  for (let i = 0; i < text.length; i++) {
    if (i >= nextYield) {
      nextYield += LINE_INDEX_CHUNK;
      yield;
    }
    const c = text.charCodeAt(i);
    if (c === 34) {
      // A string: a key (record its line under its pointer) or a value.
      const end = stringEnd(text, i);
      if (expectKey) {
        const top = frames[frames.length - 1]!;
        const raw = text.slice(i + 1, end);
        top.key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (frames.length <= maxDepth) {
          const p = here();
          if (p.length <= MAX_INDEXED_POINTER) out.set(p, lineAt(i));
        }
        expectKey = false;
      } else valueStarts(i);
      i = end;
    } else if (c === 123 || c === 91) {
      valueStarts(i);
      if (frames.length >= maxDepth) {
        // Deeper than anyone asks: skip to the matching bracket.
        i = containerEnd(text, i);
        continue;
      }
      frames.push({ object: c === 123, pointer: here(), key: '', index: 0 });
      expectKey = c === 123;
    } else if (c === 125 || c === 93) {
      frames.pop();
      expectKey = false;
    } else if (c === 44) {
      const top = frames[frames.length - 1];
      if (top?.object) expectKey = true;
      else if (top) top.index++;
    } else if (c === 45 || (c >= 48 && c <= 57) || c === 116 || c === 102 || c === 110) {
      // A number or true/false/null: record where it starts, then skip it.
      valueStarts(i);
      while (i + 1 < text.length && !isJsonDelimiter(text.charCodeAt(i + 1))) i++;
    }
  }
  return out;
}

/**
 * Longest pointer the line index records; a longer one gets the line of its nearest recorded
 * ancestor. V8 hashes a string over 16,383 characters by its length alone, so thousands of
 * such pointers of one length in one map made the index quadratic (a 26 KB file: 10 s).
 */
const MAX_INDEXED_POINTER = 4096;

/** An RFC 6901 token for `key` (`~` → `~0`, `/` → `~1`), without a copy when neither occurs. */
function escapePointerToken(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
}

/**
 * The 1-based line of an offset, for offsets asked in increasing order: line breaks are counted
 * with `indexOf` from the last offset asked, so a whole scan counts each one once.
 */
function lineCounter(text: string): (offset: number) => number {
  let line = 1;
  let next = text.indexOf('\n');
  return (offset) => {
    while (next !== -1 && next < offset) {
      line++;
      next = text.indexOf('\n', next + 1);
    }
    return line;
  };
}

/** Offset of the quote that closes the string opening at `start` (the next one not escaped), or the text's length when none does. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    // Unterminated (only in text not yet known valid): the string runs to the end.
    if (end === -1) return text.length;
    let b = end - 1;
    while (text.charCodeAt(b) === 92) b--;
    if ((end - 1 - b) % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/** Offset of the bracket that closes the container opening at `start`, in valid JSON text (strings skipped). */
function containerEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (d === 34) i = stringEnd(text, i);
    else if (d === 123 || d === 91) depth++;
    else if ((d === 125 || d === 93) && --depth === 0) return i;
  }
  return text.length;
}

/** Characters scanned between two yields of the linear scans here (a few ms of work). */
const LINE_INDEX_CHUNK = 1 << 20;

/** Whitespace, `,`, `:`, `]` or `}`: what ends a number or literal. */
function isJsonDelimiter(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 44 || c === 58 || c === 93 || c === 125;
}

/**
 * In valid JSON text, the first of (in document order): a `[`/`{` nested deeper than `maxDepth`
 * (its offset), or, with `duplicates`, a key that its object already has (offsets of both key
 * tokens and the path to the second). Keys are compared unescaped (`"a"` and `"\u0061"` are one
 * key, as for JSON.parse). One pass, no syntax tree: about 0.1 s on a 25 MB contract.
 */
function* firstStructureProblem(
  text: string,
  maxDepth: number,
  duplicates: boolean,
): Steps<{ kind: 'deep'; offset: number } | { kind: 'duplicate'; first: number; second: number; path: (string | number)[] } | undefined> {
  /**
   * An open object (`keys`, when duplicates are looked for; keys over {@link MAX_INDEXED_POINTER}
   * characters in `longKeys`, by their sha256, for the reason given there) or array;
   * `key`/`index`: where the scan is in it.
   */
  interface Frame {
    object: boolean;
    keys: Map<string, number> | undefined;
    longKeys?: Map<string, number>;
    key: string;
    index: number;
  }
  const stack: Frame[] = [];
  let top: Frame | undefined;
  let expectKey = false;
  const n = text.length;
  let nextYield = LINE_INDEX_CHUNK;
  for (let i = 0; i < n; i++) {
    if (i >= nextYield) {
      nextYield = i + LINE_INDEX_CHUNK;
      yield;
    }
    const c = text.charCodeAt(i);
    if (c === 34) {
      const start = i;
      i = stringEnd(text, i);
      if (!expectKey || !top?.keys) continue;
      const raw = text.slice(start + 1, i);
      const key = raw.includes('\\') ? (JSON.parse(text.slice(start, i + 1)) as string) : raw;
      const long = key.length > MAX_INDEXED_POINTER;
      const keys: Map<string, number> = long ? (top.longKeys ??= new Map<string, number>()) : top.keys;
      const id = long ? createHash('sha256').update(key).digest('hex') : key;
      const first = keys.get(id);
      if (first !== undefined) return { kind: 'duplicate', first, second: start, path: [...stack.slice(0, -1).map((f) => (f.object ? f.key : f.index)), key] };
      keys.set(id, start);
      top.key = key;
      expectKey = false;
    } else if (c === 123 || c === 91) {
      if (stack.length >= maxDepth) return { kind: 'deep', offset: i };
      top = { object: c === 123, keys: c === 123 && duplicates ? new Map() : undefined, key: '', index: 0 };
      stack.push(top);
      expectKey = c === 123;
    } else if (c === 125 || c === 93) {
      stack.pop();
      top = stack[stack.length - 1];
      expectKey = false;
    } else if (c === 44 && top) {
      if (top.object) expectKey = true;
      else top.index++;
    }
  }
  return undefined;
}

/** Offset of the first `[`/`{` nested deeper than `max` (strings skipped), or -1; for text that may not be valid JSON. */
function* tooDeepAt(text: string, max: number): Steps<number> {
  let depth = 0;
  let nextYield = LINE_INDEX_CHUNK;
  for (let i = 0; i < text.length; i++) {
    if (i >= nextYield) {
      nextYield = i + LINE_INDEX_CHUNK;
      yield;
    }
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = stringEnd(text, i);
    } else if (c === 91 || c === 123) {
      if (++depth > max) return i;
    } else if (c === 93 || c === 125) {
      depth--;
    }
  }
  return -1;
}

/**
 * Where and what the first syntax error is, in words a person can act on. jsonc-parser finds the
 * error; the visitor's events up to it tell what was expected there.
 */
function describeFirstError(text: string): { offset: number; message: string } {
  if (text.trim() === '') return { offset: 0, message: 'the document is empty' };
  const stack: ('object' | 'array')[] = [];
  let last: 'start' | 'open' | 'comma' | 'colon' | 'key' | 'value' = 'start';
  let found: { offset: number; message: string } | undefined;
  let opened = 0;
  const open = (kind: 'object' | 'array') => (offset: number) => void ((last = 'open'), (opened = offset), stack.push(kind));
  try {
    visit(
      text,
      {
        onObjectBegin: open('object'),
        onArrayBegin: open('array'),
        onObjectEnd: () => void ((last = 'value'), stack.pop()),
        onArrayEnd: () => void ((last = 'value'), stack.pop()),
        onObjectProperty: () => void (last = 'key'),
        onLiteralValue: () => void (last = 'value'),
        onSeparator: (ch) => void (last = ch === ':' ? 'colon' : 'comma'),
        onError: (code, offset, length) => {
          found ??= explain(text, printParseErrorCode(code), offset, length, stack[stack.length - 1], last);
        },
      },
      { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
    );
  } catch (e) {
    // The parser recurses per level. tooDeepAt ran first, but its strings end where JSON's do,
    // and this parser's end at a line break and skip comments: brackets it saw as text can
    // still be levels here. Too deep to walk is what the text is, at the last level opened.
    if (!(e instanceof RangeError)) throw e;
    return found ?? { offset: opened, message: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  }
  return found ?? { offset: 0, message: 'not a JSON value' };
}

function explain(
  text: string,
  code: string,
  offset: number,
  length: number,
  container: 'object' | 'array' | undefined,
  last: 'start' | 'open' | 'comma' | 'colon' | 'key' | 'value',
): { offset: number; message: string } {
  const at = (message: string, where = offset) => ({ offset: where, message });
  const token = offset >= text.length ? '' : text.slice(offset, offset + Math.max(length, 1));
  const shown = token === '' ? 'end of input' : token.startsWith('"') ? cut(token) : JSON.stringify(cut(token));

  switch (code) {
    case 'UnexpectedEndOfString':
    case 'InvalidCharacter': {
      for (let i = offset + 1; i <= offset + length && i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x20) continue;
        const hint =
          c === 10 || c === 13
            ? 'a line break: close the string on this line or write it as \\n'
            : `U+${c.toString(16).toUpperCase().padStart(4, '0')}: escape it`;
        return at(`control character in a string (${hint})`, i);
      }
      return at('unterminated string');
    }
    case 'InvalidEscapeCharacter':
    case 'InvalidUnicode':
      return at('invalid escape in a string (valid: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)', badEscapeAt(text, offset, length));
    case 'UnexpectedEndOfNumber':
    case 'InvalidNumberFormat':
      return at(`invalid number ${shown}`);
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return at('comments are not allowed in JSON');
  }
  // jsonc-parser closes the container before reporting its missing end.
  if (code === 'CloseBracketExpected') return at(`expected ',' or ']' after an array element, found ${shown}`);
  if (code === 'CloseBraceExpected') return at(`expected ',' or '}' after a property value, found ${shown}`);
  if (container === undefined && last === 'value') return at(`unexpected ${shown} after the end of the JSON value`);
  if (container === 'object' && (last === 'open' || last === 'comma')) {
    if (token === '}' && last === 'comma') return at('trailing comma before }');
    return at(`expected a property name in double quotes, found ${shown}`);
  }
  if (last === 'key') return at(`expected ':' after a property name, found ${shown}`);
  if (last === 'value') {
    return container === 'object'
      ? at(`expected ',' or '}' after a property value, found ${shown}`)
      : at(`expected ',' or ']' after an array element, found ${shown}`);
  }
  if (token === ']' && last === 'comma') return at('trailing comma before ]');
  return at(`expected a value, found ${shown}`);
}

/** Offset of the first invalid `\` escape in the string token at `offset`. */
function badEscapeAt(text: string, offset: number, length: number): number {
  for (let i = offset + 1; i < offset + length; i++) {
    if (text[i] !== '\\') continue;
    const e = text[i + 1];
    if (e === 'u' ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : e === undefined || !'"\\/bfnrt'.includes(e)) return i;
    i++;
  }
  return offset;
}

function cut(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
