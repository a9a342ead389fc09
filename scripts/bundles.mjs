// What dist/ is made of: the esbuild options of the committed bundles (scripts/build.mjs builds
// them; test/licenses.test.ts rebuilds them in memory to see which packages they hold), and the
// check that the bundles load nothing from node_modules (the published package has no runtime
// dependencies: every library is bundled).
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';

const repo = (p) => new URL(`../${p}`, import.meta.url);
/** The repository root: the builds' working directory, so paths in metafiles are relative to it. */
export const ROOT = fileURLToPath(repo('')).replace(/[\\/]$/, '');

// CommonJS dependencies bundled into ESM need `require`, `__filename` and `__dirname`. esbuild puts
// the banner on every file; scripts/build.mjs takes it off those that use none of the three
// (withoutUnusedBanner): each createRequire costs its chunk's load a little.
const banner = [
  "import { createRequire as __tgCreateRequire } from 'node:module';",
  "import { fileURLToPath as __tgFileURLToPath } from 'node:url';",
  "import { dirname as __tgDirname } from 'node:path';",
  'const require = __tgCreateRequire(import.meta.url);',
  'const __filename = __tgFileURLToPath(import.meta.url);',
  'const __dirname = __tgDirname(__filename);',
].join('\n');

/**
 * A built file's text without the banner when nothing after it says `require`, `__filename` or
 * `__dirname` (as a word, anywhere: in a string too, so a doubt keeps the banner). Free
 * variables keep their names through minification, so a file that uses one always says it.
 */
export function withoutUnusedBanner(text) {
  if (!text.startsWith(banner)) return text;
  const rest = text.slice(banner.length);
  return /\b(require|__filename|__dirname)\b/.test(rest) ? text : rest.replace(/^\n/, '');
}

// `yaml` resolves to its CommonJS build under Node's conditions: one function around the whole
// library, compiled and run in full when the policy loads. Its ESM build (the package's
// "default" export condition, same code; it warns with console.warn where the CommonJS build
// calls process.emitWarning, and never reads LOG_TOKENS/LOG_STREAM) is tree-shaken and loads
// ~12 ms sooner on the way to the first server.
const yamlEsm = {
  name: 'yaml-esm',
  setup(b) {
    const browserIndex = createRequire(import.meta.url)
      .resolve('yaml/package.json')
      .replace(/package\.json$/, 'browser/index.js');
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: browserIndex }));
  },
};

// src/util/validators.ts compiles toolgate's own JSON Schemas with Ajv on first use. In the
// bundles that module is replaced by Ajv's standalone code for the same schemas and options, so
// no run pays for compiling them (50-150 ms of start-up). Same exports, same error objects.
const precompiledValidators = {
  name: 'precompiled-validators',
  setup(b) {
    const readSchema = async (f) => JSON.parse(await readFile(repo(`schema/${f}`), 'utf8'));
    // Options as in src/util/validators.ts (VALIDATOR_OPTIONS), plus standalone ESM output.
    const standalone = async (opts, file) => {
      const ajv = new Ajv({ ...opts, code: { source: true, esm: true } });
      return standaloneCode.default(ajv, ajv.compile(await readSchema(file)));
    };
    const modules = {
      policy: () => standalone({ allErrors: true, strict: false, validateSchema: false }, 'toolgate.schema.json'),
      contract: () => standalone({ allErrors: false, strict: false, validateSchema: false }, 'contract.schema.json'),
      integration: () => standalone({ allErrors: true, strict: false, validateSchema: false }, 'integration.schema.json'),
    };
    b.onLoad({ filter: /[\\/]src[\\/]util[\\/]validators\.ts$/ }, () => ({
      contents: [
        "import policy from 'toolgate-validator:policy';",
        "import contract from 'toolgate-validator:contract';",
        "import integration from 'toolgate-validator:integration';",
        'export const policyValidator = () => policy;',
        'export const contractValidator = () => contract;',
        'export const integrationValidator = () => integration;',
      ].join('\n'),
      loader: 'js',
    }));
    b.onResolve({ filter: /^toolgate-validator:/ }, (args) => ({ path: args.path.slice('toolgate-validator:'.length), namespace: 'toolgate-validator' }));
    // The standalone code imports Ajv's small runtime helpers (ucs2length, equal, ...).
    b.onLoad({ filter: /.*/, namespace: 'toolgate-validator' }, async (args) => ({
      contents: await modules[args.path](),
      loader: 'js',
      resolveDir: fileURLToPath(repo('src/util')),
    }));
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

// @actions/core imports node:crypto at the top of file-command.js for one call,
// `crypto.randomUUID()` when a value is written to GITHUB_OUTPUT or GITHUB_ENV. Loading
// node:crypto costs the Action's start 4-8 ms, also for a run that stops on its configuration;
// here it loads at that call. The build fails if the text changes (a new @actions/core).
const lazyCryptoInActionsCore = {
  name: 'lazy-crypto-in-actions-core',
  setup(b) {
    b.onLoad({ filter: /[\\/]@actions[\\/]core[\\/]lib[\\/]file-command\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const from = "import * as crypto from 'crypto';";
      if (!text.includes(from) || text.split('crypto.').length !== 2)
        throw new Error(`${args.path} no longer has \`${from}\` used once: see the lazy-crypto-in-actions-core plugin in scripts/bundles.mjs`);
      const lazy =
        "import { createRequire as __tgLazyRequire } from 'node:module';\nconst crypto = { randomUUID: () => __tgLazyRequire(import.meta.url)('node:crypto').randomUUID() };";
      return { contents: text.replace(from, lazy), loader: 'js' };
    });
  },
};

// @apidevtools/json-schema-ref-parser (which @readme/openapi-parser bundles into its dist/) loads
// undici for its HTTP resolver with `import(undiciModuleName)`, a name in a variable, which
// esbuild leaves to Node: dist/ would then need undici in node_modules. toolgate replaces that
// resolver with its own fetch (src/sources/openapi/remote.ts), but the import is made a literal
// so esbuild bundles undici (in a chunk loaded only if that code ever runs) and dist/ needs
// nothing installed. The build fails if the text changes (a new version of either package).
const refParserUndici = {
  name: 'ref-parser-undici',
  setup(b) {
    const files =
      /[\\/]node_modules[\\/](@readme[\\/]openapi-parser[\\/]dist[\\/]index|@apidevtools[\\/]json-schema-ref-parser[\\/]dist[\\/]lib[\\/]resolvers[\\/]http)\.js$/;
    b.onLoad({ filter: files }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const from = 'await import(undiciModuleName)';
      if (!text.includes(from)) throw new Error(`${args.path} no longer has \`${from}\`: see the ref-parser-undici plugin in scripts/bundles.mjs`);
      return { contents: text.replace(from, 'await import("undici")'), loader: 'js' };
    });
  },
};

// gpt-tokenizer ships o200k_base's 200,000 ranks as one JavaScript array literal (2.4 MB). V8
// compiles it, and rebuilds each of its strings from the code cache, on every start that counts
// tokens: about 90 ms of the 200 ms the tokenizer costs to load. The same array as a JSON string
// given to JSON.parse is only scanned once; the ranks are identical (checked here on the array
// itself), so are the counts. The build fails if the module stops being one default array.
const tokenizerRanksAsJson = {
  name: 'tokenizer-ranks-as-json',
  setup(b) {
    b.onLoad({ filter: /[\\/]gpt-tokenizer[\\/]esm[\\/]bpeRanks[\\/]o200k_base\.js$/ }, async (args) => {
      const { default: ranks } = await import(pathToFileURL(args.path).href);
      if (!Array.isArray(ranks) || ranks.length < 100_000)
        throw new Error(`${args.path} no longer exports the ranks as one array: see the tokenizer-ranks-as-json plugin in scripts/bundles.mjs`);
      const json = JSON.stringify(ranks);
      // Strict deep equality tells a hole from the null JSON writes for it.
      if (!isDeepStrictEqual(ranks, JSON.parse(json))) throw new Error(`${args.path}: the ranks do not survive JSON (a hole or a value JSON cannot hold)`);
      return { contents: `export default JSON.parse(${JSON.stringify(json)});\n`, loader: 'js' };
    });
  },
};

/**
 * The esbuild options of dist/, without `write` and `metafile`: the Action and the CLI in one
 * build with code splitting (shared code lands in dist/chunks/, and what a command loads with
 * import(), the CLI's heavy commands, is only read when it runs), then the schema-diff worker.
 */
export async function bundleOptions() {
  const pkg = JSON.parse(await readFile(repo('package.json'), 'utf8'));
  const common = {
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    // Stripped from the bundles: dist/THIRD-PARTY-LICENSES.txt holds them, with each bundled
    // package's license files (scripts/third-party-licenses.mjs).
    legalComments: 'none',
    // Prefer ESM builds: jsonc-parser's UMD main requires its parts dynamically.
    mainFields: ['module', 'main'],
    logLevel: 'warning',
    define: { __TOOLGATE_VERSION__: JSON.stringify(pkg.version) },
    banner: { js: banner },
    plugins: [yamlEsm, precompiledValidators, unusedActionsCoreParts, lazyCryptoInActionsCore, refParserUndici, tokenizerRanksAsJson],
  };
  const out = [
    {
      ...common,
      entryPoints: { index: 'src/action/index.ts', cli: 'src/cli/bin.ts' },
      outdir: 'dist',
      splitting: true,
      entryNames: '[name]',
      chunkNames: 'chunks/[name]-[hash]',
    },
  ];
  const worker = ['src/diff/schema/worker.mjs', 'src/diff/schema/worker.ts'].find((p) => existsSync(repo(p)));
  if (worker) out.push({ ...common, entryPoints: [worker], outfile: 'dist/schema-worker.mjs' });
  return out;
}

/**
 * Every module specifier the given built files import or require that is not part of Node
 * (`node:fs`, `fs`, ...), with the files that do: what they would load from node_modules. Read
 * by esbuild's parser, so text in strings (Ajv's generated `require("ajv/dist/runtime/...")`
 * code templates) does not count, and a name that minification turned into a literal does.
 */
export async function bareImports(files) {
  const found = new Map();
  await build({
    entryPoints: files,
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    outdir: 'bare-imports-scan',
    logLevel: 'silent',
    plugins: [
      {
        name: 'record-bare-imports',
        setup(b) {
          // Each file is read on its own (all of them are entry points): nothing is followed.
          b.onResolve({ filter: /.*/ }, (args) => {
            if (args.kind === 'entry-point') return undefined;
            if (!/^[./]/.test(args.path) && !isBuiltin(args.path)) found.set(args.path, [...new Set([...(found.get(args.path) ?? []), args.importer])].sort());
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  return new Map([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
