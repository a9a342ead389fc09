/**
 * Recorded source: a saved `tools/list` result, for servers that need credentials or cannot run
 * in CI. The same checks apply; the report says the surface was not live.
 */
import type { Json } from '../util/json.js';
import { jsonByteLength, TOOL_MAX_BYTES } from '../surface/depth-limit.js';
import { ConfigError } from '../util/errors.js';
import { FILE_LIMITS, readBounded } from '../util/safe-path.js';
import { parseJsonDocument, type JsonDocument } from '../util/json-file.js';
import { isObject } from '../util/json.js';
import type { RawSnapshot, RawTool } from './types.js';

const FIX_SHAPE =
  'save the result of a `tools/list` request: `{"tools": [...]}` (with the server\'s `instructions` from its `initialize` result beside `tools` when it sends any), the whole JSON-RPC response `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}`, or a bare array of tools';

/**
 * Reads a recorded `tools/list` result.
 *
 * Accepted shapes: `{"tools": [...]}` (other keys such as `nextCursor` are ignored), a JSON-RPC
 * response `{"jsonrpc": "2.0", "id": …, "result": {"tools": [...]}}`, or a bare array of tools.
 * Each tool must be an object with a non-empty string `name`; everything else is kept as is. Beside
 * `tools` (in the object or in `result`), an `instructions` string is the server's instructions
 * from its `initialize` result: text every turn of the model reads, pinned and judged like a live
 * server's.
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
  const buf = await readRecording(file);
  const doc = parseJsonDocument(
    buf.toString('utf8'),
    file,
    'fix the JSON syntax at that position (a trailing comma, a missing quote or comment are the usual causes)',
    {
      label: 'recorded tools/list file',
      // Locations name a tool (`/result/tools/3/name` at most), not lines inside its schema.
      lineDepth: 4,
    },
  );
  const { tools, base } = toolsOf(doc, file);
  const instructions = instructionsOf(doc, base, file);
  // Each entry is kept as listed, as for a live server: one that is not a valid tool becomes a
  // `malformed-tool` finding at its line and the rest is still pinned.
  const raw: RawTool[] = tools.map((tool, i) => {
    const pointer = `${base}/${i}`;
    const bytes = jsonByteLength(tool);
    if (bytes > TOOL_MAX_BYTES) {
      throw new ConfigError(
        `tool #${i + 1} is ${bytes} bytes, more than one tool may be (${TOOL_MAX_BYTES} bytes, 4 MiB)`,
        { file, line: doc.lineOf(pointer), pointer },
        'Record the server again: no real tool is this large.',
      );
    }
    return { tool, location: { file, pointer, line: doc.lineOf(pointer) } };
  });

  return {
    source: { id, kind: 'recorded' },
    ...(instructions !== undefined ? { server: { instructions } } : {}),
    tools: raw,
    live: false,
    file,
    diagnostics: { durationMs: Math.round(performance.now() - started), rawBytes: buf.length },
  };
}

/** The recording's bytes. @throws ConfigError naming the file when it cannot be read. */
async function readRecording(file: string): Promise<Buffer> {
  try {
    return await readBounded(file, FILE_LIMITS.recorded, 'the recorded tools/list file');
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(
      `cannot read recorded tools/list file: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      { file },
      `check the source's \`recorded\` path in toolgate.yml (relative to toolgate.yml); ${FIX_SHAPE}`,
    );
  }
}

/**
 * The `instructions` kept beside the tools (`/instructions` or `/result/instructions`), if any.
 * @throws ConfigError at its pointer and line when it is not a string.
 */
function instructionsOf(doc: JsonDocument, base: string, file: string): string | undefined {
  const holder = base === '/result/tools' && isObject(doc.value) ? doc.value.result : doc.value;
  if (!isObject(holder) || !('instructions' in holder)) return undefined;
  const value = holder.instructions;
  if (typeof value === 'string') return value;
  const pointer = `${base.slice(0, -'/tools'.length)}/instructions`;
  throw new ConfigError(
    `recorded tools/list file: "instructions" is ${value === null ? 'null' : typeof value}, not a string`,
    { file, pointer, line: doc.lineOf(pointer) },
    "Keep the `instructions` string of the server's initialize result as it was sent, or leave the key out.",
  );
}

/**
 * The tools of a recording and the pointer of their list: a bare array, `{tools}`, or a JSON-RPC
 * response (or its `result` kept under that name).
 * @throws ConfigError at the pointer and line of a wrong shape, an error response, or one page of a longer list.
 */
function toolsOf(doc: JsonDocument, file: string): { tools: Json[]; base: string } {
  const value = doc.value;
  const fail = (message: string, pointer: string): never => {
    throw new ConfigError(`recorded tools/list file: ${message}`, { file, pointer, line: doc.lineOf(pointer) }, FIX_SHAPE);
  };
  // A page with a `nextCursor` is not the whole list: pinning it would leave the rest unreviewed.
  const cursorCheck = (page: { [key: string]: Json }, at: string): void => {
    if (typeof page.nextCursor === 'string') {
      throw new ConfigError(
        `recorded tools/list file is one page of a longer list (nextCursor ${JSON.stringify(page.nextCursor.slice(0, 40))})`,
        { file, pointer: `${at}/nextCursor`, line: doc.lineOf(`${at}/nextCursor`) },
        'Record every page (follow nextCursor until it is absent) and save all the tools in one list.',
      );
    }
  };
  if (Array.isArray(value)) return { tools: value, base: '' };
  if (isObject(value) && 'result' in value && !('tools' in value)) {
    // A JSON-RPC response, or just its `result` member kept under that name.
    const result = value.result;
    if (!isObject(result)) return fail('"result" is not an object', '/result');
    if (!Array.isArray(result.tools)) return fail('"result.tools" is missing or not an array', '/result');
    cursorCheck(result, '/result');
    return { tools: result.tools, base: '/result/tools' };
  }
  if (isObject(value) && 'error' in value && 'jsonrpc' in value) return fail('the file holds a JSON-RPC error response, not a tools/list result', '/error');
  if (isObject(value)) {
    if (!Array.isArray(value.tools)) return fail('"tools" is missing or not an array', 'tools' in value ? '/tools' : '');
    cursorCheck(value, '');
    return { tools: value.tools, base: '/tools' };
  }
  return fail(`expected an object or an array, found ${value === null ? 'null' : typeof value}`, '');
}
