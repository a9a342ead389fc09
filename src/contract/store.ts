import { rmSync } from 'node:fs';
import { noteWritten, onInterrupt, processAlive, yieldToSignals } from '../util/cleanup.js';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { contractValidator } from '../util/validators.js';
import { ConfigError } from '../util/errors.js';
import { parseJsonDocumentSteps, type JsonDocument } from '../util/json-file.js';
import { runInSlices, runToEnd, type Steps } from '../util/slices.js';
import { getOwn, isObject, jsonEqual, type Json, type JsonObject } from '../util/json.js';
import { jsonByteLength, TOOL_MAX_BYTES } from '../surface/depth-limit.js';
import { schemaError } from '../util/schema-errors.js';
import { assertReplaceable, CONTRACT_OUTSIDE_FIX, FILE_LIMITS, formatBytes, readBounded, resolveInside } from '../util/safe-path.js';
import { assembleSurface, currentPinnedForm, deriveTool } from '../surface/normalize.js';
import { SURFACE_FORMAT_VERSION, type Surface, type SurfaceTool } from '../surface/model.js';
import { serializeContract, toolEntry, type SerializedContract } from './serialize.js';

/** A contract read from disk, with the line of each value for annotations. */
export interface LoadedContract {
  surface: Surface;
  file: string;
  /** 1-based line of a JSON pointer (or its nearest existing parent). */
  lineOf: (pointer: string) => number;
  /** Index of each tool in the file's `tools` array (the file may be unsorted after a hand edit). */
  indexOf: ReadonlyMap<string, number>;
  /** The file's text as read: `update` rewrites a contract whose text is not what it would write (an older pinned form). */
  text: string;
  /** Builds the line index behind {@link lineOf} in slices (signals handled in between); optional. */
  indexLines: () => Promise<void>;
}

const FIX_HAND_EDIT = 'Do not edit the contract by hand: restore it with `git checkout -- <file>` or run `toolgate update` and review the diff.';
const FIX_SIZE = `Contracts are limited to ${formatBytes(FILE_LIMITS.contract)} (docs/security.md): point \`contract\` at the contract toolgate wrote, or make the source list fewer tools (an OpenAPI integration's \`include\`) or split it into several sources.`;
const FIX_WRITE = 'Point `contract` in toolgate.yml at a file path in a writable directory (default: .toolgate/<source-id>.surface.json).';

/**
 * Reads and verifies a contract. Each tool's derived values (effective hints, class, digests) are
 * recomputed and must match what is stored: a hand edit cannot make a tool say two things.
 * Top-level counts, payload bytes and digest are kept as pinned (see {@link parseContract}).
 * The file is checked before it is opened: a directory, named pipe (which would block the run),
 * device or socket is refused, and so is a file over {@link FILE_LIMITS}.contract (128 MiB).
 * @returns undefined when the file does not exist (first adoption).
 * @throws ConfigError (exit 2) naming the file, line and fix for syntax errors, duplicate keys,
 *   schema violations, a newer format version or inconsistent derived values; naming the file
 *   for a special file or one over the size limit.
 */
export async function readContract(file: string, displayName = file): Promise<LoadedContract | undefined> {
  return (await readUnverifiedContract(file, displayName))?.verify();
}

/**
 * A contract read and checked (its syntax, duplicate keys, format version and schema) whose
 * tools' derived values are not verified yet: `check` verifies it against the listed tools once
 * they are normalized (docs/design.md §13: deriving 5,000 tools again costs about 500 ms of a
 * 3 s run).
 */
export interface UnverifiedContract extends Pick<LoadedContract, 'text' | 'indexLines'> {
  /**
   * Verifies every tool as {@link readContract} does, in the same order, so the same tool is
   * named when several are inconsistent. A tool whose entry equals what toolgate would write for
   * the listed tool of the same name (`listed`, normalized) is verified by that equality: its
   * derived values are the listed tool's, computed by `deriveTool` from the same definition. Any
   * other tool is derived again from its own definition.
   * @throws ConfigError (exit 2) as {@link readContract}.
   */
  verify(listed?: readonly SurfaceTool[]): Promise<LoadedContract>;
}

/**
 * {@link readContract} up to the tools' verification; see {@link UnverifiedContract}.
 * @returns undefined when the file does not exist.
 * @throws ConfigError as {@link readContract}, for all but the tools' derived values.
 */
export async function readUnverifiedContract(file: string, displayName = file): Promise<UnverifiedContract | undefined> {
  let text: string;
  try {
    text = (await readBounded(file, FILE_LIMITS.contract, 'the contract', { display: displayName || file, fix: { size: FIX_SIZE } })).toString('utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(
      `cannot read the contract: ${fsReason(e)}`,
      { file: displayName || file },
      'Point `contract` in toolgate.yml at a file (default: .toolgate/<source-id>.surface.json).',
    );
  }
  const parsed = await runInSlices(documentSteps(text, displayName));
  return {
    text: parsed.text,
    indexLines: () => runInSlices(parsed.doc.indexLines()),
    verify: (listed) => runInSlices(verifySteps(parsed, listed)),
  };
}

/** Why a file operation failed, in words (the common errno codes), else the system message. */
function fsReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR') return 'a parent of it is not a directory';
  return (e as Error).message;
}

/** Parses and verifies contract text; see {@link readContract}. Pure apart from errors. */
export function parseContract(text: string, file: string): LoadedContract {
  return runToEnd(parseSteps(text, file));
}

/** {@link parseContract} as steps: one per tool verified (a 100,000-tool contract takes seconds). */
function* parseSteps(text: string, file: string): Steps<LoadedContract> {
  return yield* verifySteps(yield* documentSteps(text, file));
}

/** A contract's text parsed and checked against its schema, its tools not verified yet. */
interface ParsedContract {
  text: string;
  file: string;
  doc: JsonDocument;
  stored: Omit<Surface, 'tools'> & { tools: StoredTool[] };
}

/** Parses contract text and checks it as a document: syntax, duplicate keys, format version, schema. */
function* documentSteps(text: string, file: string): Steps<ParsedContract> {
  // Findings point at tools and their keys (`/tools/3/annotations/readOnlyHint`): 4 levels.
  // A key given twice means what the last parser to read it decides: refused at its line.
  const doc = yield* parseJsonDocumentSteps(text, file, FIX_HAND_EDIT, {
    lineDepth: 4,
    duplicateKeys: 'error',
    duplicateKeyText: { what: 'contract', fix: FIX_HAND_EDIT },
  });
  const raw = doc.value as JsonObject;
  notAContract(raw, file, doc.lineOf);
  if (raw && typeof raw === 'object' && typeof raw.formatVersion === 'number' && raw.formatVersion > SURFACE_FORMAT_VERSION) {
    throw new ConfigError(
      `contract format ${raw.formatVersion} is newer than this toolgate understands (${SURFACE_FORMAT_VERSION})`,
      { file, line: doc.lineOf('/formatVersion'), pointer: '/formatVersion' },
      'Upgrade toolgate to the version that wrote this contract.',
    );
  }
  const validate = contractValidator();
  if (!validate(raw)) throw schemaError(validate.errors ?? [], file, doc.lineOf, FIX_HAND_EDIT);
  return { text, file, doc, stored: raw as unknown as ParsedContract['stored'] };
}

/** Verifies a parsed contract's tools (see {@link UnverifiedContract.verify}) and assembles its surface. */
function* verifySteps({ text, file, doc, stored }: ParsedContract, listed?: readonly SurfaceTool[]): Steps<LoadedContract> {
  yield;
  const twins = new Map(listed?.map((t) => [t.name, t]));
  const written: SurfaceTool[] = [];
  for (let i = 0; i < stored.tools.length; i++) {
    const entry = stored.tools[i]!;
    const twin = twins.get(entry.name);
    // No size check here: the listed tool was within the limit (sources/mcp.ts), and this entry is its.
    if (twin && jsonEqual(entry as unknown as Json, toolEntry(twin))) {
      written.push({ ...twin });
      yield;
      continue;
    }
    // Before the tool's own (longer) verification, so a huge entry is refused in one step.
    const bytes = jsonByteLength(entry);
    if (bytes > TOOL_MAX_BYTES) {
      throw new ConfigError(
        `contract tool #${i + 1} is ${bytes} bytes, more than one tool may be (${TOOL_MAX_BYTES} bytes, 4 MiB)`,
        { file, line: doc.lineOf(`/tools/${i}`), pointer: `/tools/${i}` },
        FIX_HAND_EDIT,
      );
    }
    yield;
    written.push(verifyTool(entry, i, file, doc.lineOf));
    yield;
  }
  // A contract written before an equivalence was normalized (`required: []`...) is read in today's
  // pinned form, so a server that still sends the same schema is no drift.
  const tools = written.map(inCurrentForm);
  const base = { source: stored.source, server: stored.server, ...(stored.protectedResource ? { protectedResource: stored.protectedResource } : {}) };
  const assembled = assembleSurface(base, tools);
  // Aggregates stay as pinned: removing a tool entry by hand is a legitimate way to revoke it, and
  // the pinned counts are what `count-mismatch` compares. Any disagreement with the tools shows up
  // as drift (`contract-stale`), not as a broken file. Aggregates that matched the tools as written
  // move with them into the current form.
  let { payloadBytes, digest } = stored;
  let tokens = stored.tokens;
  if (tools.some((t, i) => t !== written[i])) {
    const asWritten = assembleSurface(base, written);
    if (digest === asWritten.digest) digest = assembled.digest;
    if (payloadBytes === asWritten.payloadBytes) payloadBytes = assembled.payloadBytes;
    // Tokens of the old form are not those of the current one: counted again when needed.
    tokens = undefined;
  }
  const surface: Surface = { ...assembled, counts: stored.counts, payloadBytes, ...(tokens ? { tokens } : {}), digest };
  const indexOf = new Map<string, number>();
  stored.tools.forEach((t, i) => {
    if (!indexOf.has(t.name)) indexOf.set(t.name, i);
  });
  return { surface, file, lineOf: doc.lineOf, indexOf, text, indexLines: () => runInSlices(doc.indexLines()) };
}

/**
 * A file with neither `formatVersion` nor `source` was never a contract (a saved `tools/list`
 * result, a policy file, something else): "do not edit by hand" would mislead, so say what it is
 * and how to make a contract from it.
 */
function notAContract(raw: unknown, file: string, lineOf: (p: string) => number): void {
  const obj = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as JsonObject) : undefined;
  if (obj && ('formatVersion' in obj || 'source' in obj)) return;
  const toolsList = obj && Array.isArray(obj.tools);
  throw new ConfigError(
    toolsList
      ? 'not a toolgate contract: it looks like a saved `tools/list` result (a `tools` array without `formatVersion`)'
      : 'not a toolgate contract: it has no `formatVersion` and no `source`',
    { file, line: lineOf(''), pointer: '' },
    toolsList
      ? `Make a contract from it with \`toolgate snapshot --tools-json ${file} --output <contract.json>\`, or audit it directly with \`toolgate audit --tools-json ${file}\`.`
      : 'Pass a contract written by `toolgate update` or `toolgate snapshot` (by default `.toolgate/<source-id>.surface.json`).',
  );
}

type StoredTool = SurfaceTool & Record<string, unknown>;

function verifyTool(entry: StoredTool, i: number, file: string, lineOf: (p: string) => number): SurfaceTool {
  const pinned: Parameters<typeof deriveTool>[0] = { name: entry.name };
  for (const k of ['inputSchema', 'title', 'description', 'outputSchema', 'annotations', 'icons', '_meta', 'extra', 'origin'] as const) {
    if (entry[k] !== undefined) (pinned as Record<string, unknown>)[k] = entry[k];
  }
  const sourceClass = entry.origin ? (entry.safetyClass === 'write' ? undefined : entry.safetyClass) : undefined;
  const t = deriveTool(pinned, sourceClass);
  const at = (key: string, what: string) =>
    new ConfigError(
      `contract is inconsistent: tool "${entry.name}" ${what}`,
      { file, line: lineOf(`/tools/${i}/${key}`), pointer: `/tools/${i}/${key}` },
      FIX_HAND_EDIT,
    );
  if (t.safetyClass !== entry.safetyClass) throw at('safetyClass', `has safetyClass "${entry.safetyClass}" but its annotations give "${t.safetyClass}"`);
  for (const [h, v] of Object.entries(t.effectiveHints)) {
    if ((entry.effectiveHints as Record<string, boolean>)[h] !== v)
      throw at(`effectiveHints/${h}`, `has effective ${h} ${String(!v)} but its annotations give ${String(v)}`);
  }
  const misplaced = misplacedExtraKey(entry);
  if (misplaced) throw at(`extra/${misplaced}`, `keeps "${misplaced}" in \`extra\`, where only a value of the wrong type is kept (a malformed tool as served)`);
  if (t.malformed !== entry.malformed) {
    throw at(
      'malformed',
      t.malformed === undefined ? 'is marked malformed but its definition is well formed' : `is malformed (${t.malformed}) but not marked so`,
    );
  }
  if (t.inputSchemaDigest !== entry.inputSchemaDigest) throw at('inputSchemaDigest', 'inputSchemaDigest does not match its inputSchema');
  if (t.digest !== entry.digest) throw at('digest', 'digest does not match its definition');
  return t;
}

/**
 * A spec key in `extra` that `normalizeTool` would not have put there: `name`, `icons` or
 * `_meta` (kept in their own slots whatever their type), or a typed key whose own slot is also
 * set or whose value has the right type (`extra.title: "x"`). Such a contract shows the
 * tool one way and serves it another, so it is refused as hand-edited.
 */
function misplacedExtraKey(entry: StoredTool): string | undefined {
  const extra = entry.extra;
  if (!extra) return undefined;
  // Never written there: in the model view they would replace the tool's own name, icons or _meta.
  for (const key of ['name', 'icons', '_meta']) if (getOwn(extra, key) !== undefined) return key;
  for (const key of ['inputSchema', 'outputSchema', 'annotations', 'title', 'description'] as const) {
    const v = getOwn(extra, key);
    if (v === undefined) continue;
    const fits = key === 'title' || key === 'description' ? typeof v === 'string' : isObject(v);
    if (fits || entry[key] !== undefined || (v === null && key !== 'inputSchema')) return key;
  }
  return undefined;
}

/** A verified tool in the current pinned form ({@link currentPinnedForm}); itself when already in it. */
function inCurrentForm(t: SurfaceTool): SurfaceTool {
  const current = currentPinnedForm(t);
  if (current === t) return t;
  return deriveTool(current, t.origin && t.safetyClass !== 'write' ? t.safetyClass : undefined);
}

/**
 * Writes a contract atomically: a temp file in the same directory, fsync, then rename over the
 * target, so a crash or kill never leaves a truncated contract.
 * @param opts.root with it, the contract must really be inside this directory (the policy's
 *   root): `..`, absolute paths and symbolic links leading out of it are refused
 *   ({@link resolveInside}). `loadPolicy` checks the same for toolgate.yml at load time.
 * @param opts.serialized `serializeContract(surface)`, when the caller has it.
 * @returns the serialized text and line map.
 * A file already there is replaced only when it is a contract (or not JSON at all: a broken
 * contract, which `update` repairs): a recording, an integration config or any other JSON
 * document at the contract path is an input, never overwritten.
 * @throws ConfigError (exit 2) naming the file when it cannot be written (a directory, a symbolic
 *   link, a named pipe or other special file, no permission, outside `root`, a JSON document that
 *   is not a contract), or when it would be over {@link FILE_LIMITS}.contract (it could not be
 *   read back).
 */
export async function writeContract(
  file: string,
  surface: Surface,
  opts: { root?: string; serialized?: SerializedContract } = {},
): Promise<SerializedContract> {
  // A caller that compared the text with the file already (`update`) passes it: serializing a
  // 100,000-tool contract is seconds of work.
  const out = opts.serialized ?? serializeContract(surface);
  const bytes = Buffer.byteLength(out.text, 'utf8');
  if (bytes > FILE_LIMITS.contract) {
    throw new ConfigError(
      `cannot write the contract: it would be ${formatBytes(bytes)} (${bytes} bytes), over the limit of ${formatBytes(FILE_LIMITS.contract)}`,
      { file },
      FIX_SIZE,
    );
  }
  try {
    const target = opts.root === undefined ? file : await resolveInside(opts.root, file, { what: 'the contract', display: file, fix: CONTRACT_OUTSIDE_FIX });
    await replacesOnlyContracts(target, file);
    await writeFileAtomic(target, out.text, { what: 'the contract' });
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`cannot write the contract: ${fsReason(e)}`, { file }, FIX_WRITE);
  }
  return out;
}

/**
 * Refuses to replace a JSON document that is not a contract (see {@link writeContract}): valid
 * JSON, a non-empty object without `formatVersion` and `source`, or a non-empty array. Absent,
 * unreadable, special or oversized files are left to the write to report.
 */
async function replacesOnlyContracts(target: string, shown: string): Promise<void> {
  let value: unknown;
  try {
    value = JSON.parse((await readBounded(target, FILE_LIMITS.contract, 'the contract')).toString('utf8'));
  } catch {
    return;
  }
  const obj = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  if (!obj || Object.keys(obj).length === 0) return;
  if (!Array.isArray(obj) && ('formatVersion' in obj || 'source' in obj)) return;
  const listing = Array.isArray(obj) || Array.isArray(obj.tools) || 'result' in obj;
  throw new ConfigError(
    `cannot write the contract: the file there is not a toolgate contract${listing ? ' (it looks like a saved `tools/list` result)' : ''}; \`update\` replaces contracts only, never another file`,
    { file: shown },
    `Point \`contract\` in toolgate.yml at a file of its own (default: .toolgate/<source-id>.surface.json)${listing ? `; to make a contract from a saved listing: \`toolgate snapshot --tools-json ${shown} --output <contract.json>\`` : ''}.`,
  );
}

/**
 * Atomic write (temp file + fsync + rename); the temp file is removed on failure.
 *
 * The target must be a regular file or absent: a symbolic link (the rename would replace the
 * link, and a reader of the link would not see the write), a directory, a named pipe, a device or
 * a socket is refused (ConfigError naming `what`). The temp file is created exclusively
 * (`O_CREAT|O_EXCL`, which does not follow a link planted at its name). Where the target may
 * be (inside the repository) is the caller's check: {@link resolveInside} gives the real path.
 *
 * A process killed between creating its temp file and the rename (SIGKILL, OOM, a cancelled CI
 * job) cannot remove it: the target is intact (old or new, never partial) but a
 * `.<name>.<pid>.<hex>.tmp` sibling stays. Each write therefore first deletes such siblings of
 * the same target whose writer process is gone, so they never accumulate.
 */
export async function writeFileAtomic(file: string, text: string, opts: { what?: string; display?: string } = {}): Promise<void> {
  await assertReplaceable(file, opts.what ?? 'the file');
  await mkdir(dirname(file), { recursive: true });
  await removeStaleTemps(file);
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // `wx` (O_CREAT|O_EXCL): a file or link already at this name is not followed, and not ours to remove.
  let created = false;
  const unregister = onInterrupt(() => created && rmSync(tmp, { force: true }));
  try {
    const fh = await open(tmp, 'wx', 0o644);
    created = true;
    try {
      await fh.writeFile(text, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    // A signal that came while writing is handled here, before the rename: the old file stays.
    await yieldToSignals();
    await rename(tmp, file);
    noteWritten(opts.display ?? file);
  } catch (e) {
    if (created) await rm(tmp, { force: true });
    throw e;
  } finally {
    unregister();
  }
}

/** Deletes `.<name>.<pid>.<hex>.tmp` siblings of `file` left by writers that no longer run. */
async function removeStaleTemps(file: string): Promise<void> {
  const prefix = `.${basename(file)}.`;
  let names: string[];
  try {
    names = await readdir(dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name.slice(prefix.length));
    if (!m || processAlive(Number(m[1]))) continue;
    await rm(join(dirname(file), name), { force: true }).catch(() => undefined);
  }
}
