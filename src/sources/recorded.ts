/**
 * Recorded source: a saved `tools/list` result, for servers that need credentials or cannot run
 * in CI. The same checks apply; the report says the surface was not live.
 */
import { readFile } from 'node:fs/promises';
import type { Json } from '../surface/model.js';
import { ConfigError } from '../util/errors.js';
import type { RawSnapshot, RawTool } from './types.js';

const FIX_SHAPE =
  'save the result of a `tools/list` request: `{"tools": [...]}`, the whole JSON-RPC response `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}`, or a bare array of tools';

/**
 * Reads a recorded `tools/list` result.
 *
 * Accepted shapes: `{"tools": [...]}` (other keys such as `nextCursor` are ignored), a JSON-RPC
 * response `{"jsonrpc": "2.0", "id": …, "result": {"tools": [...]}}`, or a bare array of tools.
 * Each tool must be an object with a non-empty string `name`; everything else is kept as is.
 *
 * @param id source id from the policy.
 * @param file path of the JSON file (UTF-8, a leading BOM is ignored).
 * @returns `source.kind: 'recorded'`, `live: false`, `file`, tools in file order, each with its
 *   location (file, 1-based line, JSON pointer); diagnostics: `durationMs` (ms), `rawBytes`
 *   (bytes of the file).
 * @throws ConfigError (exit 2) when the file cannot be read, is not valid JSON (the message gives
 *   line and column), or has the wrong shape (the message gives the JSON pointer and line).
 */
export async function readRecorded(id: string, file: string): Promise<RawSnapshot> {
  const started = performance.now();
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(
      `cannot read recorded tools/list file: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      { file },
      `check the source's \`file\` path (relative to toolgate.yml); ${FIX_SHAPE}`,
    );
  }
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch (err) {
    const syntax = findSyntaxError(text);
    const offset = syntax?.offset ?? positionFromMessage((err as Error).message) ?? 0;
    const { line, column } = lineColumn(text, offset);
    throw new ConfigError(
      `recorded tools/list file is not valid JSON: ${syntax?.message ?? (err as Error).message}`,
      { file, line, column },
      'fix the JSON syntax at that position (a trailing comma, a missing quote or comment are the usual causes)',
    );
  }

  const positions = () => scanPositions(text);
  const fail = (message: string, pointer: string): never => {
    const offset = positions().get(pointer);
    const line = offset === undefined ? undefined : lineColumn(text, offset).line;
    throw new ConfigError(`recorded tools/list file: ${message}`, { file, pointer, ...(line ? { line } : {}) }, FIX_SHAPE);
  };

  let tools: Json[];
  let base: string;
  if (Array.isArray(value)) {
    tools = value;
    base = '';
  } else if (isObject(value) && 'result' in value && ('jsonrpc' in value || 'id' in value)) {
    const result = value.result;
    if (!isObject(result)) return fail('"result" is not an object', '/result');
    if (!Array.isArray(result.tools)) return fail('"result.tools" is missing or not an array', '/result');
    tools = result.tools;
    base = '/result/tools';
  } else if (isObject(value) && 'error' in value && 'jsonrpc' in value) {
    return fail('the file holds a JSON-RPC error response, not a tools/list result', '/error');
  } else if (isObject(value)) {
    if (!Array.isArray(value.tools)) return fail('"tools" is missing or not an array', 'tools' in value ? '/tools' : '');
    tools = value.tools;
    base = '/tools';
  } else {
    return fail(`expected an object or an array, found ${value === null ? 'null' : typeof value}`, '');
  }

  const pos = tools.length > 0 ? positions() : new Map<string, number>();
  const raw: RawTool[] = tools.map((tool, i) => {
    const pointer = `${base}/${i}`;
    if (!isObject(tool)) return fail(`tool ${i} is not an object`, pointer);
    if (typeof tool.name !== 'string' || tool.name === '') {
      return fail(`tool ${i} has no "name" (a non-empty string)`, 'name' in tool ? `${pointer}/name` : pointer);
    }
    const offset = pos.get(pointer);
    return { tool, location: { file, pointer, ...(offset !== undefined ? { line: lineColumn(text, offset).line } : {}) } };
  });

  return {
    source: { id, kind: 'recorded' },
    tools: raw,
    live: false,
    file,
    diagnostics: { durationMs: Math.round(performance.now() - started), rawBytes: buf.length },
  };
}

function isObject(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** 1-based line and column (UTF-16 code units) of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
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

/** Older V8 messages say "at position N"; newer ones may not, hence {@link findSyntaxError}. */
function positionFromMessage(message: string): number | undefined {
  const m = /position (\d+)/.exec(message);
  return m ? Number(m[1]) : undefined;
}

/** Pointer depth up to which {@link scanPositions} records offsets (`/result/tools/3/name`). */
const MAX_POINTER_DEPTH = 4;

class JsonScanError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/**
 * A small JSON scanner (RFC 8259) that records where values start, so messages can point at a
 * line: `JSON.parse` gives neither positions of values nor, on every Node version, of errors.
 */
class Scanner {
  i = 0;
  readonly offsets = new Map<string, number>();
  constructor(private readonly s: string) {}

  run(): void {
    this.value('', 0);
    this.ws();
    if (this.i < this.s.length) this.fail(`unexpected ${this.describe()} after the end of the JSON value`);
  }

  private fail(message: string): never {
    throw new JsonScanError(message, this.i);
  }

  private describe(): string {
    return this.i >= this.s.length ? 'end of input' : `character ${JSON.stringify(this.s[this.i])}`;
  }

  private ws(): void {
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i]!)) this.i++;
  }

  private value(ptr: string, depth: number): void {
    this.ws();
    if (depth <= MAX_POINTER_DEPTH) this.offsets.set(ptr, this.i);
    const c = this.s[this.i];
    if (c === '{') return this.object(ptr, depth);
    if (c === '[') return this.array(ptr, depth);
    if (c === '"') return void this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const lit of ['true', 'false', 'null']) {
      if (this.s.startsWith(lit, this.i)) {
        this.i += lit.length;
        return;
      }
    }
    this.fail(`expected a value, found ${this.describe()}`);
  }

  private object(ptr: string, depth: number): void {
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail(`expected a property name in double quotes, found ${this.describe()}`);
      const key = this.string();
      this.ws();
      if (this.s[this.i] !== ':') this.fail(`expected ':' after a property name, found ${this.describe()}`);
      this.i++;
      this.value(`${ptr}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
      this.ws();
      const c = this.s[this.i];
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === '}') {
        this.i++;
        return;
      }
      this.fail(`expected ',' or '}' after a property value, found ${this.describe()}`);
    }
  }

  private array(ptr: string, depth: number): void {
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') {
      this.i++;
      return;
    }
    for (let n = 0; ; n++) {
      this.value(`${ptr}/${n}`, depth + 1);
      this.ws();
      const c = this.s[this.i];
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === ']') {
        this.i++;
        return;
      }
      this.fail(`expected ',' or ']' after an array element, found ${this.describe()}`);
    }
  }

  private string(): string {
    const start = ++this.i;
    let out = '';
    let from = start;
    while (this.i < this.s.length) {
      const c = this.s.charCodeAt(this.i);
      if (c === 34) {
        out += this.s.slice(from, this.i);
        this.i++;
        return out;
      }
      if (c < 0x20) this.fail('control character in a string (escape it, e.g. \\n)');
      if (c === 92) {
        out += this.s.slice(from, this.i);
        const e = this.s[this.i + 1];
        if (e === 'u') {
          const hex = this.s.slice(this.i + 2, this.i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape in a string');
          out += String.fromCharCode(parseInt(hex, 16));
          this.i += 6;
        } else {
          const map: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
          if (e === undefined || !(e in map)) this.fail('bad escape in a string');
          out += map[e!];
          this.i += 2;
        }
        from = this.i;
        continue;
      }
      this.i++;
    }
    this.i = start - 1;
    return this.fail('unterminated string');
  }

  private number(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 400));
    if (!m || m[0] === '-') this.fail('bad number');
    this.i += m![0].length;
  }
}

/** Offset and message of the first syntax error, or undefined when `text` is valid JSON. */
export function findSyntaxError(text: string): { offset: number; message: string } | undefined {
  try {
    new Scanner(text).run();
    return undefined;
  } catch (err) {
    if (err instanceof JsonScanError) return { offset: err.offset, message: err.message };
    throw err;
  }
}

/** Start offset of every value down to {@link MAX_POINTER_DEPTH}, by JSON pointer. */
function scanPositions(text: string): Map<string, number> {
  const sc = new Scanner(text);
  sc.run();
  return sc.offsets;
}
