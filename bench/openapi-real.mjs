#!/usr/bin/env node
// `toolgate update` then `toolgate check` on each real OpenAPI document of the test fixtures
// (test/fixtures/openapi/README.md: Stripe, Twilio, Box, Asana, DigitalOcean) and on GitHub's REST
// description from @octokit/openapi, each with its fixture's integration (12-18 operations), in a
// fresh repository per document. Wall time from spawn to exit; peak RSS of the toolgate process
// (bench/lib/peak-rss.mjs, getrusage ru_maxrss).
//
//   npm run build && node bench/openapi-real.mjs [--dist DIR] [--only stripe,github]
//
// Prints one Markdown table row per document and command; `--dist` measures another build (a copy
// of an earlier dist/, to compare before and after a change).
import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REAL = join(REPO, 'test/fixtures/openapi/real');
const PEAK = join(REPO, 'bench/lib/peak-rss.mjs');
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const cli = join(resolve(arg('--dist') ?? join(REPO, 'dist')), 'cli.js');
const only = arg('--only')?.split(',');

/** Each document: its name, the files to copy (from → to, inside the new repository), and the integration. */
const DOCS = [
  ['stripe', [[join(REAL, 'stripe/spec3.yaml'), 'api/spec3.yaml']], join(REAL, 'stripe/integration.json')],
  [
    'github',
    [[join(REPO, 'node_modules/@octokit/openapi/generated/api.github.com.json'), 'api/api.github.com.json']],
    join(REPO, 'test/fixtures/openapi/github/integration.json'),
    './api.github.com.json',
  ],
  ['twilio', [[join(REAL, 'twilio/twilio_api_v2010.json'), 'api/twilio_api_v2010.json']], join(REAL, 'twilio/integration.json')],
  ['box', [[join(REAL, 'box/openapi.json'), 'api/openapi.json']], join(REAL, 'box/integration.json')],
  ['asana', [[join(REAL, 'asana/asana_oas.yaml'), 'api/asana_oas.yaml']], join(REAL, 'asana/integration.json')],
  ['digitalocean', [], join(REAL, 'digitalocean/integration.json')],
];

/** Runs `node cli.js args` in `cwd`: exit code, wall ms, peak RSS in MB. */
function run(args, cwd) {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', PEAK, cli, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let peak = '';
    let stderr = '';
    child.stdio[3].on('data', (d) => (peak += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      const ms = Math.round(performance.now() - started);
      const rss = peak ? Math.round(JSON.parse(peak).maxRssKB / 1024) : NaN;
      done({ code, ms, rss, stderr: stderr.split('\n').slice(0, 3).join(' ') });
    });
  });
}

process.stdout.write('| document | document size | operations | command | exit | wall time | peak RSS |\n|---|---|---|---|---|---|---|\n');
for (const [name, copies, integrationFile, spec] of DOCS) {
  if (only && !only.includes(name)) continue;
  const dir = mkdtempSync(join(tmpdir(), `toolgate-bench-${name}-`));
  try {
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'api'));
    let bytes = 0;
    for (const [from, to] of copies) {
      copyFileSync(from, join(dir, to));
      bytes += statSync(from).size;
    }
    if (name === 'digitalocean') {
      execFileSync('tar', ['-xzf', join(REAL, 'digitalocean/specification.tar.gz'), '-C', join(dir, 'api')]);
      bytes = Number(
        execFileSync('du', ['-sb', join(dir, 'api/specification')])
          .toString()
          .split('\t')[0],
      );
    }
    const integration = JSON.parse(readFileSync(integrationFile, 'utf8'));
    if (spec) integration.spec = spec;
    writeFileSync(join(dir, 'api/integration.json'), JSON.stringify(integration, null, 2));
    writeFileSync(join(dir, 'toolgate.yml'), `sources:\n  - id: ${name}\n    openapi: api/integration.json\n`);
    for (const command of ['update', 'check']) {
      const r = await run([command], dir);
      const size = `${(bytes / 1e6).toFixed(1)} MB`;
      process.stdout.write(`| ${name} | ${size} | ${integration.include.length} | ${command} | ${r.code} | ${r.ms} ms | ${r.rss} MB |\n`);
      if (r.code !== 0) process.stderr.write(`${name} ${command}: ${r.stderr}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
