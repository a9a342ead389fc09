// Generates docs/rules.md from the rule catalog, the README's inputs/outputs block from
// action.yml and its table of export targets from src/export/targets. `--check` fails (exit 1) when a committed file differs, instead of writing.
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

await emit('docs/rules.md', rulesMarkdown());
const readme = await readFile('README.md', 'utf8');
const withAction = replaceBetweenMarkers(readme, 'action-reference', actionReference(await readFile('action.yml', 'utf8')));
await emit('README.md', replaceBetweenMarkers(withAction, 'export-targets', exportTargetsMarkdown(), 'src/export/targets'));

if (stale.length) {
  console.error(`stale generated docs: ${stale.join(', ')}; run \`npm run docs\` and commit.`);
  process.exit(1);
}
