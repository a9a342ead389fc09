/**
 * A small JSON parser that also records where each value is written, so configuration errors and
 * findings can point at a line (JSON.parse gives neither positions nor a portable error format).
 */
import type { Json } from '../types.js';

/** A 1-based position in a text. */
export interface TextPosition {
  line: number;
  column: number;
}

/** Result of {@link parseJsonWithPositions}. */
export interface PositionedJson {
  value: Json;
  /**
   * JSON pointer (RFC 6901, `~0`/`~1` escaped) → position. For an object member, the position of
   * its key (the line people read as "that entry"); for an array element or the root, the value.
   */
  positions: Map<string, TextPosition>;
}

/** A syntax error (or a duplicate key) with the 1-based line and column where it was found. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
    /** Pointer of the offending member, for a duplicate key. */
    readonly pointer?: string,
  ) {
    super(message);
  }
}

/** Escapes one reference token of a JSON pointer (RFC 6901 §3). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Parses strict JSON (RFC 8259; a leading BOM is allowed) and records positions.
 * Duplicate object keys are an error: in a config file the second silently winning is a mistake.
 * @throws {@link JsonSyntaxError}
 */
export function parseJsonWithPositions(text: string): PositionedJson {
  const positions = new Map<string, TextPosition>();
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let lineStart = 0;

  const pos = (): TextPosition => ({ line, column: i - lineStart + 1 });
  const fail = (message: string, at: TextPosition = pos(), pointer?: string): never => {
    throw new JsonSyntaxError(message, at.line, at.column, pointer);
  };
  const describeHere = (): string =>
    i >= text.length ? 'end of input' : `${JSON.stringify(text[i])}`;

  const skipWs = (): void => {
    for (;;) {
      const c = text[i];
      if (c === '\n') {
        i++;
        line++;
        lineStart = i;
      } else if (c === ' ' || c === '\t' || c === '\r') {
        i++;
      } else {
        return;
      }
    }
  };

  const parseString = (): string => {
    const start = pos();
    i++; // opening quote
    let out = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string', start);
      const c = text[i]!;
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        const e = text[i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && simple[e] !== undefined) {
          out += simple[e];
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          fail('invalid escape in string');
        }
        continue;
      }
      if (c < ' ') fail(c === '\n' ? 'unterminated string (line break inside a string)' : 'control character in string');
      out += c;
      i++;
    }
  };

  const parseValue = (pointer: string, depth: number): Json => {
    if (depth > 512) fail('nesting too deep');
    skipWs();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: { [k: string]: Json } = {};
      const seen = new Set<string>();
      skipWs();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        skipWs();
        if (text[i] !== '"') fail(`expected a property name in double quotes, found ${describeHere()}`);
        const keyAt = pos();
        const key = parseString();
        const child = `${pointer}/${escapePointerToken(key)}`;
        if (seen.has(key)) fail(`duplicate key ${JSON.stringify(key)}`, keyAt, child);
        seen.add(key);
        positions.set(child, keyAt);
        skipWs();
        if (text[i] !== ':') fail(`expected ':' after property name, found ${describeHere()}`);
        i++;
        obj[key] = parseValue(child, depth + 1);
        skipWs();
        if (text[i] === ',') {
          i++;
          skipWs();
          if (text[i] === '}') fail('trailing comma before }');
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail(`expected ',' or '}' after a property value, found ${describeHere()}`);
      }
    }
    if (c === '[') {
      i++;
      const arr: Json[] = [];
      skipWs();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        skipWs();
        const child = `${pointer}/${arr.length}`;
        positions.set(child, pos());
        arr.push(parseValue(child, depth + 1));
        skipWs();
        if (text[i] === ',') {
          i++;
          skipWs();
          if (text[i] === ']') fail('trailing comma before ]');
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail(`expected ',' or ']' after an array element, found ${describeHere()}`);
      }
    }
    if (c === '"') return parseString();
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
    if (m) {
      i += m[0].length;
      return m[0] === 'true' ? true : m[0] === 'false' ? false : m[0] === 'null' ? null : Number(m[0]);
    }
    return fail(`unexpected ${describeHere()}`);
  };

  skipWs();
  positions.set('', pos());
  const value = parseValue('', 0);
  skipWs();
  if (i < text.length) fail(`unexpected ${describeHere()} after the end of the JSON value`);
  return { value, positions };
}
