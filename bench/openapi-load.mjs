#!/usr/bin/env node
// Splits the OpenAPI source's cost: snapshotOpenApi() on one integration, with the parser's
// document validation on (toolgate's default) or off (`validate: false`, an API option that the
// policy file does not expose). Runs from source:
//
//   node_modules/.bin/tsx bench/openapi-load.mjs <integration.json> [--no-validate]
//
// Prints one JSON line: {"validate":true,"ms":..,"tools":..}.
import { snapshotOpenApi } from '../src/sources/openapi/index.ts';

const file = process.argv[2];
const validate = !process.argv.includes('--no-validate');
const t0 = performance.now();
const snap = await snapshotOpenApi(file, { validate });
const ms = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ validate, ms: Math.round(ms), tools: snap.tools.length })}\n`);
