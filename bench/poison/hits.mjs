#!/usr/bin/env node
// Every suspicious-text hit on every surface bench/poison audits (the real benign sets,
// guardbench's and MCPSecBench's cases, the handwritten and own sets; with --test the test split
// too), as JSON: one line per hit with its surface, tool, pointer, pattern and span. Two builds
// that find the same give the same file, so a change made for speed is shown to change nothing:
//
//   node bench/poison/hits.mjs --test /tmp/base/dist/cli.js > /tmp/a.json
//   node bench/poison/hits.mjs --test dist/cli.js > /tmp/b.json && cmp /tmp/a.json /tmp/b.json
import { resolve } from 'node:path';
import { auditAll, surfaces } from './surfaces.mjs';

const args = process.argv.slice(2);
const cli = resolve(args.find((a) => !a.startsWith('--')) ?? 'dist/cli.js');
const list = surfaces({ test: args.includes('--test') });
const lines = [];
auditAll(cli, list).forEach((findings, i) => {
  for (const f of findings) for (const h of f.data.hits) lines.push(JSON.stringify({ set: list[i].set, surface: list[i].name, tool: f.tool ?? null, ...h }));
});
process.stdout.write(`[\n${lines.join(',\n')}\n]\n`);
