import { rmSync } from 'node:fs';
import { onInterrupt } from '../util/cleanup.js';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { contractValidator } from '../util/validators.js';
import { ConfigError } from '../util/errors.js';
import { parseJsonDocument } from '../util/json-file.js';
import { schemaError } from '../util/schema-errors.js';
import { assembleSurface, deriveTool } from '../surface/normalize.js';
import { SURFACE_FORMAT_VERSION, type Json, type JsonObject, type Surface, type SurfaceTool } from '../surface/model.js';
import { serializeContract } from './serialize.js';

/** A contract read from disk, with the line of each value for annotations. */
export interface LoadedContract {
  surface: Surface;
  file: string;
  /** 1-based line of a JSON pointer (or its nearest existing parent). */
  lineOf: (pointer: string) => number;
  /** Index of each tool in the file's `tools` array (the file may be unsorted after a hand edit). */
  indexOf: ReadonlyMap<string, number>;
}

const FIX_HAND_EDIT = 'Do not edit the contract by hand: restore it with `git checkout -- <file>` or run `toolgate update` and review the diff.';


/**
 * Reads and verifies a contract. Each tool's derived values (effective hints, class, digests) are
 * recomputed and must match what is stored: a hand edit cannot make a tool say two things.
 * Top-level counts, payload bytes and digest are kept as pinned (see {@link parseContract}).
 * @returns undefined when the file does not exist (first adoption).
 * @throws ConfigError (exit 2) naming the file, line and fix for syntax errors, schema violations,
 *   a newer format version or inconsistent derived values.
 */
export async function readContract(file: string, displayName = file): Promise<LoadedContract | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(
      `cannot read the contract: ${fsReason(e)}`,
      { file: displayName || file },
      'Point `contract` in toolgate.yml at a file (default: .toolgate/<source-id>.surface.json).',
    );
  }
  return parseContract(text, displayName);
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
  // Findings point at tools and their keys (`/tools/3/annotations/readOnlyHint`): 4 levels.
  const doc = parseJsonDocument(text, file, FIX_HAND_EDIT, { lineDepth: 4 });
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
  const stored = raw as unknown as Omit<Surface, 'tools'> & { tools: StoredTool[] };
  const tools = stored.tools.map((entry, i) => verifyTool(entry, i, file, doc.lineOf));
  // Aggregates stay as pinned: removing a tool entry by hand is a legitimate way to revoke it, and
  // the pinned counts are what `count-mismatch` compares. Any disagreement with the tools shows up
  // as drift (`contract-stale`), not as a broken file.
  const surface: Surface = {
    ...assembleSurface({ source: stored.source, server: stored.server }, tools),
    counts: stored.counts,
    payloadBytes: stored.payloadBytes,
    digest: stored.digest,
  };
  const indexOf = new Map<string, number>();
  stored.tools.forEach((t, i) => {
    if (!indexOf.has(t.name)) indexOf.set(t.name, i);
  });
  return { surface, file, lineOf: doc.lineOf, indexOf };
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
  const pinned: Parameters<typeof deriveTool>[0] = { name: entry.name, inputSchema: entry.inputSchema };
  for (const k of ['title', 'description', 'outputSchema', 'annotations', 'icons', '_meta', 'extra', 'origin'] as const) {
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
    if ((entry.effectiveHints as Record<string, boolean>)[h] !== v) throw at(`effectiveHints/${h}`, `has effective ${h} ${String(!v)} but its annotations give ${String(v)}`);
  }
  if (t.inputSchemaDigest !== entry.inputSchemaDigest) throw at('inputSchemaDigest', 'inputSchemaDigest does not match its inputSchema');
  if (t.digest !== entry.digest) throw at('digest', 'digest does not match its definition');
  return t;
}

/**
 * Writes a contract atomically: a temp file in the same directory, fsync, then rename over the
 * target, so a crash or kill never leaves a truncated contract.
 * @returns the serialized text and line map.
 * @throws ConfigError (exit 2) naming the file when it cannot be written (a directory, no permission).
 */
export async function writeContract(file: string, surface: Surface): Promise<ReturnType<typeof serializeContract>> {
  const out = serializeContract(surface);
  try {
    await writeFileAtomic(file, out.text);
  } catch (e) {
    throw new ConfigError(`cannot write the contract: ${fsReason(e)}`, { file }, 'Point `contract` in toolgate.yml at a file path in a writable directory (default: .toolgate/<source-id>.surface.json).');
  }
  return out;
}

/**
 * Atomic write (temp file + fsync + rename); the temp file is removed on failure.
 *
 * A process killed between creating its temp file and the rename (SIGKILL, OOM, a cancelled CI
 * job) cannot remove it: the target is intact (old or new, never partial) but a
 * `.<name>.<pid>.<hex>.tmp` sibling stays. Each write therefore first deletes such siblings of
 * the same target whose writer process is gone, so they never accumulate.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await removeStaleTemps(file);
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const unregister = onInterrupt(() => rmSync(tmp, { force: true }));
  try {
    const fh = await open(tmp, 'wx', 0o644);
    try {
      await fh.writeFile(text, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
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

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Type guard used by callers handling plain JSON. */
export type { Json };
