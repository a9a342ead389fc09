// ESLint flat config: JavaScript and typescript-eslint recommended rules; the type-aware set on
// src/ (floating promises, unsafe any, ...), the plain set on tests, scripts and fixtures. On
// src/ also: no import cycles, no import from a higher layer (the table below), no console.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/**
 * The layers of src/, lowest first, as the pipeline reads: a module may import its own layer and
 * the layers below it, never one above. Type-only and dynamic imports count too (a type import is
 * still a dependency). A path names a directory or a file; a file or directory listed in a lower layer
 * than its directory (the rule catalog) belongs to that lower layer. scripts/import-layers.mjs checks that
 * every file of src/ is in the table and walks the same graph with the TypeScript parser.
 *
 * | layer          | paths                                                     | what it is                                              |
 * | -------------- | --------------------------------------------------------- | ------------------------------------------------------- |
 * | util           | util/, version.ts                                         | JSON toolkit, errors, paths, slices, logging            |
 * | surface        | surface/                                                  | the surface model, pinned forms, normalizing a listing  |
 * | rule catalog   | rules/types.ts, rules/catalog.ts, rules/catalog/          | rule ids, levels, the finding shape                     |
 * | config         | config/                                                   | toolgate.yml: policy, sources, reviewers, policy diff   |
 * | contract       | contract/                                                 | reading and writing contract files                      |
 * | sources        | sources/                                                  | MCP, OpenAPI and recorded sources, sandbox              |
 * | diff           | diff/                                                     | surface and schema comparison                           |
 * | rules          | rules/                                                    | rule checks and their evaluation                        |
 * | judge          | judge/                                                    | one source's findings, the run's result types           |
 * | review         | review/                                                   | approvals, the pull request's base state                |
 * | runtime        | runtime/                                                  | `toolgate proxy`: admission, relay, decision log        |
 * | export         | export/                                                   | gateway and client configs from a contract              |
 * | init           | init/                                                     | `toolgate init`: detect and render starter files        |
 * | report         | report/                                                   | terminal, Markdown, JSON, SARIF, annotations            |
 * | github         | github/                                                   | GitHub API: PR facts in, check runs and comments out    |
 * | orchestration  | run-check.ts, run-diff.ts                                 | one run over every source                               |
 * | commands       | action/ (check, inputs, outputs), cli/ (commands, export, | the Action's and the CLI's commands                     |
 * |                | init, prepare, proxy, types)                              |                                                         |
 * | entry points   | action/index.ts, action/main.ts, cli/bin.ts,              | what the bundles start                                  |
 * |                | cli/program.ts                                            |                                                         |
 */
export const LAYERS = [
  ['util', ['util', 'version.ts']],
  ['surface', ['surface']],
  ['rule catalog', ['rules/types.ts', 'rules/catalog.ts', 'rules/catalog']],
  ['config', ['config']],
  ['contract', ['contract']],
  ['sources', ['sources']],
  ['diff', ['diff']],
  ['rules', ['rules']],
  ['judge', ['judge']],
  ['review', ['review']],
  ['runtime', ['runtime']],
  ['export', ['export']],
  ['init', ['init']],
  ['report', ['report']],
  ['github', ['github']],
  ['orchestration', ['run-check.ts', 'run-diff.ts']],
  [
    'commands',
    [
      'action/check.ts',
      'action/inputs.ts',
      'action/outputs.ts',
      'cli/commands.ts',
      'cli/config-error-output.ts',
      'cli/early-args.ts',
      'cli/export.ts',
      'cli/init.ts',
      'cli/prepare.ts',
      'cli/proxy.ts',
      'cli/types.ts',
    ],
  ],
  ['entry points', ['action/index.ts', 'action/main.ts', 'cli/bin.ts', 'cli/program.ts']],
].map(([name, paths]) => ({ name, paths: paths.map((p) => `src/${p}`) }));

/** `import-x/no-restricted-paths` zones: each layer's paths may not import a path of a higher layer. */
function layerZones() {
  const zones = [];
  LAYERS.forEach((layer, i) => {
    const allowed = LAYERS.slice(0, i + 1).flatMap((l) => l.paths);
    for (const higher of LAYERS.slice(i + 1)) {
      for (const from of higher.paths) {
        // A lower-layer file inside a higher layer's directory (rules/catalog.ts in rules/) stays importable.
        const except = allowed.filter((p) => p.startsWith(`${from}/`)).map((p) => p.slice(from.length + 1));
        zones.push({
          target: layer.paths,
          from,
          except,
          message: `Layer "${layer.name}" may not import layer "${higher.name}" (the layer table is in eslint.config.js).`,
        });
      }
    }
  });
  return zones;
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.ci/node24/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_`-prefixed names mark what a destructuring leaves out on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { varsIgnorePattern: '^_', argsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    // Layering and cycles. Imports are written `./x.js` for `./x.ts` (NodeNext).
    files: ['src/**/*.ts', 'src/**/*.mjs'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.mjs', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.mjs', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layerZones() }],
      // The CLI and the Action write with process.stdout/stderr.write (and @actions/core), never console.
      'no-console': 'error',
    },
  },
  {
    // Tests feed hostile text (control characters, invisible code points) and read loose JSON.
    files: ['test/**/*.ts', 'bench/**/*.mjs'],
    rules: { 'no-control-regex': 'off', 'no-misleading-character-class': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        setImmediate: 'readonly',
      },
    },
  },
);
