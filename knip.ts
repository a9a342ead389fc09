// knip: unused files, exports, types and dependencies. `npm run knip` runs it twice: the default
// mode (tests, scripts and bench count as users) and `--production`, where only what the shipped
// code (the `!` patterns) uses counts, so an export that only a test reaches is reported unless it
// is tagged `@internal` in its JSDoc (a real internal function the tests call directly).
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  entry: [
    // The bundles' entry points (scripts/bundles.mjs) and the schema-diff worker thread.
    'src/action/index.ts!',
    'src/cli/bin.ts!',
    'src/diff/schema/worker.mjs!',
    'scripts/*.{mjs,ts}',
    'bench/*.mjs',
    'bench/poison/*.mjs',
    'bench/poison/data/*/*.mjs',
    // Preloaded with `node --import` by bench/run.mjs.
    'bench/lib/peak-rss.mjs',
    // MCP servers the tests start as child processes, by path.
    'test/fixtures/servers/**/*.mjs',
  ],
  project: ['src/**/*.{ts,mjs}!', 'scripts/**/*.{ts,mjs}', 'bench/**/*.mjs', 'test/**/*.{ts,mjs}'],
  // An export its own module uses is not dead: the tests of a real internal function may import it.
  ignoreExportsUsedInFile: true,
  // Packages the tests and the benchmark run by path (node_modules/...), not by import.
  ignoreDependencies: [
    '@modelcontextprotocol/inspector',
    '@modelcontextprotocol/server-everything',
    '@modelcontextprotocol/server-filesystem',
    '@modelcontextprotocol/server-memory',
  ],
  // System tools some tests and the benchmark call (coreutils, the jq Debian package, valgrind's
  // callgrind_control), not npm packages.
  ignoreBinaries: ['mkfifo', 'jq', 'callgrind_control'],
};

export default config;
