// json-schema-diff runner for worker_threads (plain JS so that Node loads it as-is from the
// source tree, and esbuild can bundle it into dist/schema-worker.mjs).
// Protocol: parent -> {id, tasks: [{path, before, after}]}; worker -> {type: 'ready'} once,
// then {id, ok: true, results: [{path, additionsFound, removalsFound}]} or {id, ok: false, error}.
// The parent enforces the time budget by terminating this thread.
import { parentPort } from 'node:worker_threads';
import jsonSchemaDiff from 'json-schema-diff';

if (!parentPort) throw new Error('schema worker must run in a worker thread');
const port = parentPort;

port.on('message', async (msg) => {
  const results = [];
  try {
    for (const task of msg.tasks) {
      const r = await jsonSchemaDiff.diffSchemas({ sourceSchema: task.before, destinationSchema: task.after });
      // The delta schemas can be large and toolgate reports paths, not delta schemas: drop them.
      results.push({ path: task.path, additionsFound: r.additionsFound, removalsFound: r.removalsFound });
    }
    port.postMessage({ id: msg.id, ok: true, results });
  } catch (err) {
    port.postMessage({ id: msg.id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});

port.postMessage({ type: 'ready' });
