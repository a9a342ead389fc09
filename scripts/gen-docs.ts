// Generates docs/rules.md from the rule catalog, the inputs/outputs block of docs/action.md from
// action.yml and the table of export targets in docs/exports.md from src/export/targets.
// `--check` fails (exit 1) when a committed file differs, instead of writing.
import { readFile, writeFile } from 'node:fs/promises';
import { rulesMarkdown } from '../src/report/rules.js';
import { actionReference, replaceBetweenMarkers } from './docs-lib.js';
import { exportTargetsMarkdown } from './export-table.js';

const check = process.argv.includes('--check');
const stale: string[] = [];

async function emit(file: string, text: string): Promise<void> {
  const current = await readFile(file, 'utf8').catch(() => '');
  if (current === text) return;
  if (check) stale.push(file);
  else await writeFile(file, text);
}

/** Rewrites the block between a file's `name` markers with `body`. */
async function emitBlock(file: string, name: string, body: string, from: string): Promise<void> {
  await emit(file, replaceBetweenMarkers(await readFile(file, 'utf8'), name, body, from, file));
}

await emit('docs/rules.md', rulesMarkdown());
await emitBlock('docs/action.md', 'action-reference', actionReference(await readFile('action.yml', 'utf8')), 'action.yml');
await emitBlock('docs/exports.md', 'export-targets', exportTargetsMarkdown(), 'src/export/targets');

if (stale.length) {
  console.error(`stale generated docs: ${stale.join(', ')}; run \`npm run docs\` and commit.`);
  process.exit(1);
}
