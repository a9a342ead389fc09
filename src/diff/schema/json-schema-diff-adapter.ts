/**
 * json-schema-diff as a second opinion, run off the main thread with a hard time budget.
 *
 * Why a worker: json-schema-diff is synchronous at heart, costs 70–150 ms per call and can run
 * for minutes on nested `oneOf` (docs/design.md §14). A timer cannot interrupt synchronous code on the
 * same thread, but `Worker.terminate()` can. Workers are pooled (at most two, the CI core count)
 * and replaced after a timeout; idle workers are `unref()`ed so they never keep the CLI alive.
 *
 * Where the worker script lives:
 * - from source (vitest, tsx): `worker.mjs` next to this file;
 * - from the esbuild bundle: `schema-worker.mjs` (ESM, with a `createRequire` banner because
 *   json-schema-diff's dependencies `require()` Node built-ins) or `schema-worker.cjs` next to the
 *   bundle (`dist/`), built as an extra entry point from `worker.mjs`.
 * The first that exists wins; {@link setSchemaWorkerUrl} overrides.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Json } from '../../util/json.js';

/** One pair of subschemas to diff. */
export interface JsdTask {
  path: string;
  before: Json;
  after: Json;
}
/** json-schema-diff's answer for one task. */
export interface JsdResult {
  path: string;
  additionsFound: boolean;
  removalsFound: boolean;
}
/** Outcome of one job (all tasks of one schema pair). */
export type JsdOutcome = { ok: true; results: JsdResult[] } | { ok: false; reason: string; timedOut: boolean };

/** How long a fresh worker may take to load json-schema-diff before the job fails. */
const STARTUP_TIMEOUT_MS = 30_000;
/** Heap cap per worker: nested oneOf can also explode in memory; only the worker dies. */
const WORKER_HEAP_MB = 1024;

let workerUrlOverride: URL | undefined;

/**
 * Overrides where the worker script is loaded from (a `file:` URL or path), e.g. for a bundle
 * laid out differently from `dist/schema-worker.mjs`. Pass `undefined` to restore the default.
 * @internal used by the tests only
 */
export function setSchemaWorkerUrl(url: URL | string | undefined): void {
  if (url === undefined || url instanceof URL) workerUrlOverride = url;
  else workerUrlOverride = url.startsWith('file:') ? new URL(url) : pathToFileURL(resolve(url));
}

/** Resolves the worker script; throws with the paths tried when none exists. */
export function resolveSchemaWorkerUrl(): URL {
  if (workerUrlOverride) return workerUrlOverride;
  // `../schema-worker.mjs`: the bundles are split, so this code may sit in dist/chunks/.
  const candidates = ['./worker.mjs', './schema-worker.mjs', '../schema-worker.mjs', './schema-worker.cjs'].map((f) => new URL(f, import.meta.url));
  for (const c of candidates) {
    if (c.protocol === 'file:' && existsSync(fileURLToPath(c))) return c;
  }
  throw new Error(`json-schema-diff worker not found (tried ${candidates.map((c) => c.href).join(', ')})`);
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  busy: boolean;
}

interface Job {
  tasks: JsdTask[];
  budgetMs: number;
  resolve: (o: JsdOutcome) => void;
}

const maxWorkers = Math.max(1, Math.min(2, availableParallelism()));
const slots: Slot[] = [];
const queue: Job[] = [];
let nextId = 1;

function spawnSlot(): Slot {
  const worker = new Worker(resolveSchemaWorkerUrl(), { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (m: { type?: string }): void => {
      if (m?.type === 'ready') {
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve();
      }
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
  ready.catch(() => undefined); // observed by the job that awaits it
  const slot: Slot = { worker, ready, busy: false };
  // A crash while idle must not become an unhandled 'error' event.
  worker.on('error', () => retire(slot));
  worker.on('exit', () => {
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
  });
  slots.push(slot);
  return slot;
}

function retire(slot: Slot): void {
  const i = slots.indexOf(slot);
  if (i >= 0) slots.splice(i, 1);
  void slot.worker.terminate();
}

function pump(): void {
  while (queue.length > 0) {
    let slot = slots.find((s) => !s.busy);
    if (!slot && slots.length < maxWorkers) {
      try {
        slot = spawnSlot();
      } catch (err) {
        // The worker script cannot be found: every queued job fails the same way.
        const reason = `json-schema-diff worker could not start: ${(err as Error).message}`;
        for (const job of queue.splice(0)) job.resolve({ ok: false, reason, timedOut: false });
        return;
      }
    }
    if (!slot) return;
    const job = queue.shift() as Job;
    slot.busy = true;
    slot.worker.ref();
    void runOn(slot, job).then((outcome) => {
      if (slots.includes(slot)) {
        slot.busy = false;
        slot.worker.unref();
      }
      job.resolve(outcome);
      pump();
    });
  }
}

async function runOn(slot: Slot, job: Job): Promise<JsdOutcome> {
  let startupTimer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      slot.ready,
      new Promise<never>((_, reject) => {
        startupTimer = setTimeout(() => reject(new Error(`no answer within ${STARTUP_TIMEOUT_MS} ms`)), STARTUP_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    retire(slot);
    return { ok: false, reason: `json-schema-diff worker could not start: ${(err as Error).message}`, timedOut: false };
  } finally {
    clearTimeout(startupTimer);
  }

  const id = nextId++;
  return new Promise<JsdOutcome>((resolve) => {
    const { worker } = slot;
    const finish = (o: JsdOutcome): void => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      resolve(o);
    };
    const onMessage = (m: { id?: number; ok?: boolean; results?: JsdResult[]; error?: string }): void => {
      if (m?.id !== id) return;
      if (m.ok) finish({ ok: true, results: m.results ?? [] });
      else finish({ ok: false, reason: `json-schema-diff failed: ${m.error ?? 'unknown error'}`, timedOut: false });
    };
    const onError = (err: Error): void => {
      retire(slot);
      const oom = (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish({
        ok: false,
        reason: oom ? `json-schema-diff ran out of memory (${WORKER_HEAP_MB} MB)` : `json-schema-diff worker crashed: ${err.message}`,
        timedOut: false,
      });
    };
    const onExit = (code: number): void => {
      retire(slot);
      finish({ ok: false, reason: `json-schema-diff worker exited (code ${code})`, timedOut: false });
    };
    const timer = setTimeout(() => {
      // The only way to stop synchronous work in a worker: kill it; the next job gets a new one.
      retire(slot);
      finish({ ok: false, reason: `timed out after ${job.budgetMs} ms`, timedOut: true });
    }, job.budgetMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ id, tasks: job.tasks });
  });
}

/**
 * Runs json-schema-diff on each task in a pooled worker. The budget covers all tasks of the job
 * and starts when a worker takes the job (queueing does not count). Never rejects: timeouts,
 * library errors and worker crashes come back as `{ ok: false, reason }`.
 */
export function runJsonSchemaDiff(tasks: JsdTask[], budgetMs: number): Promise<JsdOutcome> {
  if (tasks.length === 0) return Promise.resolve({ ok: true, results: [] });
  return new Promise<JsdOutcome>((resolve) => {
    queue.push({ tasks, budgetMs, resolve });
    pump();
  });
}

/** Terminates all pooled workers. @internal for tests and bench/schema-ghes.mjs (runs end without it) */
export async function closeSchemaWorkers(): Promise<void> {
  const all = slots.splice(0);
  await Promise.all(all.map((s) => s.worker.terminate()));
}
