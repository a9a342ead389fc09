// Builds the committed bundles: dist/index.js (the Action, node24) and dist/cli.js (the CLI,
// Node 22+) with their shared chunks, plus the schema-diff worker they start (options in
// scripts/bundles.mjs), and dist/THIRD-PARTY-LICENSES.txt for the packages they hold.
// Deterministic, so CI can check dist/ is fresh.
import { build } from 'esbuild';
import { readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, bareImports, bundleOptions, withoutUnusedBanner } from './bundles.mjs';
import { thirdPartyLicenses } from './third-party-licenses.mjs';

const dist = join(ROOT, 'dist');
await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

const metafiles = [];
for (const options of await bundleOptions()) metafiles.push((await build({ ...options, metafile: true })).metafile);
const built = metafiles.flatMap((m) => Object.keys(m.outputs)).filter((f) => /\.m?js$/.test(f));
for (const f of built) {
  const text = await readFile(join(ROOT, f), 'utf8');
  const slim = withoutUnusedBanner(text);
  if (slim !== text) await writeFile(join(ROOT, f), slim);
}
const cliPath = join(dist, 'cli.js');
const cli = await readFile(cliPath, 'utf8');
await writeFile(cliPath, `#!/usr/bin/env node\n${cli}`);

// Marks dist/ as ESM even when installed somewhere without our package.json beside it.
await writeFile(join(dist, 'package.json'), JSON.stringify({ type: 'module' }) + '\n');

// The published package has no runtime dependencies: a bundle that loads a package from
// node_modules would fail where toolgate is installed.
const outputs = metafiles
  .flatMap((m) => Object.keys(m.outputs))
  .filter((f) => /\.m?js$/.test(f))
  .sort();
const bare = await bareImports(outputs.map((f) => join(ROOT, f)));
if (bare.size > 0) {
  for (const [name, files] of bare) console.error(`dist/ imports ${name} from node_modules (${files.join(', ')}): bundle it`);
  process.exit(1);
}

await writeFile(join(dist, 'THIRD-PARTY-LICENSES.txt'), await thirdPartyLicenses(metafiles, ROOT));
