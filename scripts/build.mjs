// Builds the committed bundles: dist/index.js (the Action, node24) and dist/cli.js (the CLI,
// Node 20+) with their shared chunks, plus the schema-diff worker they start. Deterministic, so CI can check dist/ is fresh.
import { build } from 'esbuild';
import { readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';

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

// src/util/validators.ts compiles toolgate's own JSON Schemas with Ajv on first use. In the
// bundles that module is replaced by Ajv's standalone code for the same schemas and options, so
// no run pays for compiling them (50-150 ms of start-up). Same exports, same error objects.
const precompiledValidators = {
  name: 'precompiled-validators',
  setup(b) {
    const readSchema = async (f) => JSON.parse(await readFile(new URL(`../schema/${f}`, import.meta.url), 'utf8'));
    // Options as in src/util/validators.ts (VALIDATOR_OPTIONS), plus standalone ESM output.
    const standalone = async (opts, file) => {
      const ajv = new Ajv({ ...opts, code: { source: true, esm: true } });
      return standaloneCode.default(ajv, ajv.compile(await readSchema(file)));
    };
    const modules = {
      policy: () => standalone({ allErrors: true, strict: false, validateSchema: false }, 'toolgate.schema.json'),
      contract: () => standalone({ allErrors: false, strict: false, validateSchema: false }, 'contract.schema.json'),
    };
    b.onLoad({ filter: /[\\/]src[\\/]util[\\/]validators\.ts$/ }, () => ({
      contents: [
        "import policy from 'toolgate-validator:policy';",
        "import contract from 'toolgate-validator:contract';",
        'export const policyValidator = () => policy;',
        'export const contractValidator = () => contract;',
      ].join('\n'),
      loader: 'js',
    }));
    b.onResolve({ filter: /^toolgate-validator:/ }, (args) => ({ path: args.path.slice('toolgate-validator:'.length), namespace: 'toolgate-validator' }));
    // The standalone code imports Ajv's small runtime helpers (ucs2length, equal, ...).
    b.onLoad({ filter: /.*/, namespace: 'toolgate-validator' }, async (args) => ({ contents: await modules[args.path](), loader: 'js', resolveDir: resolve('src/util') }));
  },
};

// @actions/core imports its OIDC client (and with it @actions/http-client → undici, ~400 KB) and
// its `platform` helpers (@actions/exec) at the top of core.js, for getIDToken() and `platform`,
// which toolgate never calls. Both modules only define things, so they can be marked free of side
// effects and esbuild drops them: the Action's first bundle stops loading undici at start-up.
// undici still arrives with @actions/github when the pipeline needs the GitHub API.
const unusedActionsCoreParts = {
  name: 'unused-actions-core-parts',
  setup(b) {
    b.onResolve({ filter: /^\.\/(oidc-utils|platform)\.js$/ }, async (args) => {
      if (args.pluginData?.skip || !/[\\/]@actions[\\/]core[\\/]lib$/.test(args.resolveDir)) return undefined;
      const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: { skip: true } });
      return { path: r.path, sideEffects: false };
    });
  },
};

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
  plugins: [precompiledValidators, unusedActionsCoreParts],
};

// The Action and the CLI in one build with code splitting: shared code lands in dist/chunks/, and
// what a command loads with import() (the CLI's heavy commands) is only read when it runs.
await build({
  ...common,
  entryPoints: { index: 'src/action.ts', cli: 'src/bin.ts' },
  outdir: 'dist',
  splitting: true,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
});
const cli = await readFile('dist/cli.js', 'utf8');
await writeFile('dist/cli.js', `#!/usr/bin/env node\n${cli}`);

const worker = ['src/diff/schema/worker.mjs', 'src/diff/schema/worker.ts'].find((p) => existsSync(p));
if (worker) await build({ ...common, entryPoints: [worker], outfile: 'dist/schema-worker.mjs' });

// Marks dist/ as ESM even when installed somewhere without our package.json beside it.
await writeFile('dist/package.json', JSON.stringify({ type: 'module' }) + '\n');
