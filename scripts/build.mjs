// Builds the two committed bundles: dist/index.js (the Action, node24) and dist/cli.js (the CLI,
// Node 20+), plus the schema-diff worker they start. Deterministic, so CI can check dist/ is fresh.
import { build } from 'esbuild';
import { readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm('dist', { recursive: true, force: true });
await mkdir('dist', { recursive: true });

// CommonJS dependencies bundled into ESM need `require`, `__filename` and `__dirname`.
const banner = [
  "import { createRequire as __tgCreateRequire } from 'node:module';",
  "import { fileURLToPath as __tgFileURLToPath } from 'node:url';",
  "import { dirname as __tgDirname } from 'node:path';",
  'const require = __tgCreateRequire(import.meta.url);',
  'const __filename = __tgFileURLToPath(import.meta.url);',
  'const __dirname = __tgDirname(__filename);',
].join('\n');

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  // Prefer ESM builds: jsonc-parser's UMD main requires its parts dynamically.
  mainFields: ['module', 'main'],
  logLevel: 'warning',
  define: { __TOOLGATE_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: banner },
};

const entries = [
  { in: 'src/action.ts', out: 'dist/index.js' },
  { in: 'src/bin.ts', out: 'dist/cli.js', shebang: true },
];
const worker = ['src/diff/schema/worker.mjs', 'src/diff/schema/worker.ts'].find((p) => existsSync(p));
if (worker) entries.push({ in: worker, out: 'dist/schema-worker.mjs' });

for (const e of entries) {
  await build({ ...common, entryPoints: [e.in], outfile: e.out, banner: { js: (e.shebang ? '#!/usr/bin/env node\n' : '') + banner } });
}
// Marks dist/ as ESM even when installed somewhere without our package.json beside it.
await writeFile('dist/package.json', JSON.stringify({ type: 'module' }) + '\n');
