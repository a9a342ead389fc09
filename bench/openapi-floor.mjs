#!/usr/bin/env node
// The OpenAPI floor: what reading the integration's document costs with nothing else: read the
// file, JSON.parse it and find each included operationId. No validation, no tools, no report.
//
//   node bench/openapi-floor.mjs <integration.json>
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const file = process.argv[2];
const cfg = JSON.parse(readFileSync(file, 'utf8'));
const doc = JSON.parse(readFileSync(resolve(dirname(file), cfg.spec), 'utf8'));
const byId = new Map();
for (const [path, item] of Object.entries(doc.paths ?? {})) {
  for (const [method, op] of Object.entries(item)) if (op?.operationId) byId.set(op.operationId, { method, path, op });
}
let found = 0;
for (const id of cfg.include) if (byId.has(id)) found++;
process.stdout.write(`${found}\n`);
