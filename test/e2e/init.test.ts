/**
 * `toolgate init` (dist/cli.js) on the fixture repositories of test/fixtures/init/: what it
 * writes loads with the policy loader, it never replaces a file without --force, never writes
 * outside the repository or through a link, and never copies a value from the repository that
 * it should not (environment values, URL credentials, invisible characters).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadPolicy } from '../../src/config/policy-file.js';
import { loadIntegrationConfig } from '../../src/sources/openapi/config.js';
import { detect } from '../../src/init/detect.js';
import { render } from '../../src/init/render.js';
import { REPO, runCli, tempWorkspace } from '../support/run-dist.js';

const FIXTURES = join(REPO, 'test/fixtures/init');
const SCHEMA_LINE = '# yaml-language-server: $schema=https://raw.githubusercontent.com/toolgate/toolgate/main/schema/toolgate.schema.json';

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

/** `<tmp>/repo` holding a copy of the fixture, and `<tmp>/outside` beside it. */
function repoFrom(fixture?: string): { tmp: string; repo: string; outside: string } {
  const w = tempWorkspace('tg-init-');
  cleanups.push(w.cleanup);
  const repo = join(w.dir, 'repo');
  const outside = join(w.dir, 'outside');
  mkdirSync(repo);
  mkdirSync(outside);
  if (fixture) cpSync(join(FIXTURES, fixture), repo, { recursive: true });
  return { tmp: w.dir, repo, outside };
}

/** Every file and link under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => !e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');

interface Workflow {
  on: { pull_request: null; pull_request_review: { types: string[] }; push: { branches: string[] } };
  permissions: Record<string, string>;
  jobs: { toolgate: { steps: { uses?: string; run?: string; with?: Record<string, unknown>; 'working-directory'?: string }[] } };
}

/** Runs init in a copy of `fixture`; checks what every run must satisfy; returns the files written. */
async function initIn(fixture: string, extra: string[] = []) {
  const { tmp, repo } = repoFrom(fixture);
  const before = tree(tmp);
  const r = await runCli(['init', ...extra], { cwd: repo });
  expect(r.code, r.stderr).toBe(0);
  const added = tree(tmp).filter((f) => !before.includes(f));
  // Nothing outside the repository; inside it, only what init writes.
  for (const f of added) expect(f).toMatch(/^repo\/(toolgate\.yml|\.github\/workflows\/toolgate\.yml|integrations\/[a-z0-9._-]+\.json)$/);
  const policyText = read(repo, 'toolgate.yml');
  expect(policyText.split('\n')[0]).toBe(SCHEMA_LINE);
  const policy = await loadPolicy(join(repo, 'toolgate.yml'));
  const workflow = parse(read(repo, '.github/workflows/toolgate.yml')) as Workflow;
  expect(Object.keys(workflow.on)).toEqual(['pull_request', 'pull_request_review', 'push', 'merge_group']);
  expect(workflow.permissions).toEqual({ contents: 'read', checks: 'write', 'pull-requests': 'write' });
  const steps = workflow.jobs.toolgate.steps;
  expect(steps[0]).toEqual({ uses: 'actions/checkout@v4', with: { 'fetch-depth': 0 } });
  expect(steps.at(-1)).toMatchObject({ uses: 'toolgate/toolgate@v0', with: { comment: true } });
  expect(steps.some((s) => s.uses === 'toolgate/toolgate/setup-sandbox@v0')).toBe(true);
  return { repo, r, added: added.map((f) => f.slice('repo/'.length)), policy, policyText, workflow, steps };
}

describe('toolgate init on fixture repositories', () => {
  it('a Node MCP server package: node runs its bin; the workflow installs and builds it', async () => {
    const { policy, policyText, steps, r, added } = await initIn('node-server');
    expect(added.sort()).toEqual(['.github/workflows/toolgate.yml', 'toolgate.yml']);
    expect(policy.sources).toHaveLength(1);
    expect(policy.sources[0]).toMatchObject({ id: 'weather-mcp', kind: 'mcp', mcp: { transport: 'stdio', command: 'node', args: ['dist/index.js'], env: [] } });
    expect(policyText).toContain('dist/index.js is not in the repository: it is built');
    expect(steps.map((s) => s.run).filter(Boolean)).toEqual(['npm ci', 'npm run build']);
    expect(r.stdout).toContain('weather-mcp  Node MCP server package (package.json)');
    expect(r.stdout).toContain('npx toolgate update');
    expect(r.stdout).toContain('npx toolgate check');
    expect(r.stdout.indexOf('npx toolgate update')).toBeLessThan(r.stdout.indexOf('npx toolgate check'));
  });

  it('a Python MCP project: a stdio source marked TODO; the workflow sets up Python and installs it', async () => {
    const { policy, policyText, steps } = await initIn('python-server');
    expect(policy.sources[0]).toMatchObject({ id: 'notes-server', mcp: { command: 'notes-server', args: [] } });
    expect(policyText).toMatch(/# TODO: a guess: the script notes-server/);
    expect(steps.map((s) => s.uses ?? s.run)).toContain('actions/setup-python@v5');
    expect(steps.map((s) => s.run)).toContain('pip install .');
  });

  it('an OpenAPI document: a starter integration config that validates, and `toolgate update` runs on it', async () => {
    const { repo, policy, policyText, added } = await initIn('openapi');
    expect(added.sort()).toEqual(['.github/workflows/toolgate.yml', 'integrations/api.json', 'toolgate.yml']);
    expect(policy.sources.map((s) => [s.id, s.kind])).toEqual([['api', 'openapi']]);
    const config = await loadIntegrationConfig(join(repo, 'integrations/api.json'), { root: repo });
    expect(config.spec).toBe('../api/openapi.yaml');
    expect(config.include).toEqual([]);
    // Its operations are named, GETs first, to help fill `include`; docs/mkdocs.yaml is no OpenAPI document.
    expect(policyText).toContain('# its operations include: getOutfits, getOutfitById, deleteOutfit, postOrdersQuote');
    const up = await runCli(['update'], { cwd: repo });
    expect(up.code, up.stderr).toBe(0);
    expect(up.stderr).toContain('wrote .toolgate/api.surface.json (0 tools');
    // Run again with --force: the integration config it wrote is found and used as it is.
    const again = await runCli(['init', '--force'], { cwd: repo });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('api  OpenAPI integration config (integrations/api.json)');
    expect(again.stdout).not.toContain('wrote integrations/');
  });

  it('MCP client configs: one source per server, env names but never values, URL without secrets', async () => {
    const { repo, policy, policyText, r, steps } = await initIn('mcp-json');
    expect(policy.sources.map((s) => s.id)).toEqual(['weather-server', 'docs', 'db']);
    const [weather, docs, db] = policy.sources;
    expect(weather).toMatchObject({
      mcp: { transport: 'stdio', command: 'npx', args: ['-y', '@acme/weather-mcp@1.2.3', '--units', 'metric'], env: ['WEATHER_API_KEY'] },
    });
    expect(docs).toMatchObject({
      mcp: { transport: 'http', url: 'https://mcp.example.com/mcp', headers: [{ name: 'Authorization', env: 'DOCS_TOKEN', prefix: 'Bearer ' }] },
    });
    expect(db).toMatchObject({ mcp: { transport: 'stdio', command: 'uvx', args: ['mcp-server-sqlite', '--db-path', 'data/app.db'], env: ['DB_PASSWORD'] } });
    // The runner's own secret is not handed on; no value from the configs is copied anywhere.
    expect(policyText).not.toContain('GITHUB_TOKEN');
    expect(r.stderr).toContain('env "GITHUB_TOKEN" not copied');
    const everything = [policyText, read(repo, '.github/workflows/toolgate.yml'), r.stdout, r.stderr].join('\n');
    expect(everything).not.toMatch(/SECRET-VALUE|sk-live|ghp_|api_key=|db-password/);
    expect(policyText).toContain('# TODO: header "X-Static" not copied');
    // uvx without a version runs whatever is newest: flagged above the source and in the summary; an exact npx version is not.
    expect(policyText).toContain('# TODO: not pinned: `uvx mcp-server-sqlite` runs the newest release each time it starts');
    expect(r.stdout).toMatch(/^Not pinned: .*\n {2}db {2}uvx mcp-server-sqlite: no version pinned$/m);
    expect(r.stdout).not.toMatch(/^ {2}weather-server {2}.*no version pinned/m);
    expect(steps.at(-2)?.uses).toBe('toolgate/toolgate/setup-sandbox@v0');
  });

  it('an empty repository: a placeholder source that loads, and a message saying what was looked for', async () => {
    const { policy, policyText, r } = await initIn('empty');
    expect(policy.sources.map((s) => s.id)).toEqual(['my-server']);
    expect(policyText).toContain('# TODO: toolgate init found nothing to check');
    expect(r.stdout).toContain('Found nothing to check. Looked for:');
    expect(r.stdout).toContain('.mcp.json');
  });

  it('an existing toolgate.yml: exit 2 naming it, nothing written; --force replaces it; --dry-run writes nothing', async () => {
    const { repo, tmp } = repoFrom('existing');
    const original = read(repo, 'toolgate.yml');
    const before = tree(tmp);
    const r = await runCli(['init'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('toolgate.yml: it already exists');
    expect(r.stderr).toContain('--force');
    expect(tree(tmp)).toEqual(before);
    expect(read(repo, 'toolgate.yml')).toBe(original);

    const dry = await runCli(['init', '--dry-run', '--force'], { cwd: repo });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('--- toolgate.yml (exists: needs --force)');
    expect(dry.stdout).toContain(SCHEMA_LINE);
    expect(tree(tmp)).toEqual(before);

    const forced = await runCli(['init', '--force'], { cwd: repo });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('replaced toolgate.yml');
    const policy = await loadPolicy(join(repo, 'toolgate.yml'));
    expect(policy.sources[0]).toMatchObject({ id: 'existing', mcp: { command: 'node', args: ['server.js'] } });
    // Only the workflow is new, no temp file is left.
    expect(tree(tmp).filter((f) => !before.includes(f))).toEqual(['repo/.github/workflows/toolgate.yml']);
  });

  it('an existing workflow alone is a conflict too', async () => {
    const { repo } = repoFrom('empty');
    mkdirSync(join(repo, '.github/workflows'), { recursive: true });
    writeFileSync(join(repo, '.github/workflows/toolgate.yml'), 'name: mine\n');
    const r = await runCli(['init'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.github/workflows/toolgate.yml: it already exists');
    expect(existsSync(join(repo, 'toolgate.yml'))).toBe(false);
  });

  it('pushes are checked on the default branch git names', async () => {
    const { repo } = repoFrom('empty');
    mkdirSync(join(repo, '.git/refs/remotes/origin'), { recursive: true });
    writeFileSync(join(repo, '.git/refs/remotes/origin/HEAD'), 'ref: refs/remotes/origin/trunk\n');
    expect((await runCli(['init'], { cwd: repo })).code).toBe(0);
    expect((parse(read(repo, '.github/workflows/toolgate.yml')) as Workflow).on.push.branches).toEqual(['trunk']);
  });
});

describe('toolgate init refuses to write outside the repository', () => {
  it('toolgate.yml as a link to a file outside: exit 2, also with --force; the file outside is untouched', async () => {
    const { repo, outside } = repoFrom('node-server');
    writeFileSync(join(outside, 'target.yml'), 'keep\n');
    symlinkSync(join(outside, 'target.yml'), join(repo, 'toolgate.yml'));
    for (const args of [['init'], ['init', '--force']]) {
      const r = await runCli(args, { cwd: repo });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/toolgate\.yml.*(symbolic link|outside)/);
    }
    expect(read(outside, 'target.yml')).toBe('keep\n');
    expect(existsSync(join(repo, '.github'))).toBe(false);
  });

  it('.github as a link to a directory outside: exit 2, nothing written anywhere', async () => {
    const { repo, outside, tmp } = repoFrom('empty');
    symlinkSync(outside, join(repo, '.github'));
    const before = tree(tmp);
    const r = await runCli(['init', '--force'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.github/workflows/toolgate.yml');
    expect(r.stderr).toMatch(/outside/);
    expect(tree(tmp)).toEqual(before);
  });
});

describe('toolgate init and hostile repositories', () => {
  const HOSTILE = {
    mcpServers: {
      'evil\u202Ename': { command: 'node', args: ['ok.js'] },
      newline: { command: 'node', args: ['a\nb'] },
      bidi: { command: 'node', args: ['x\u202Ey'] },
      yaml: {
        command: 'yes',
        args: ['', 'on', '- z', '#c', 'a: b', '*alias', '&anchor', '!tag', '{x}', 'null', '1.0', "'q'", '"dq"', '\\', 'café', '::set-output name=x::y'],
      },
      env: {
        command: 'node',
        args: ['e.js'],
        env: {
          'BAD NAME': 'SECRET-VALUE-3',
          GITHUB_TOKEN: 'SECRET-VALUE-4',
          INPUT_X: 'SECRET-VALUE-5',
          ACTIONS_RUNTIME_TOKEN: 'SECRET-VALUE-6',
          OK_NAME: 'SECRET-VALUE-1',
          PATH: '/evil',
          HOME: '/h',
          LD_PRELOAD: '/x.so',
          NODE_OPTIONS: '--require /x.js',
        },
      },
      expr: { command: 'node', args: ['${{ secrets.DEPLOY_KEY }}'] },
      js: { url: 'javascript:alert(1)' },
      creds: { url: 'http://user:SECRET-VALUE-2@127.0.0.1:3000/mcp#frag' },
    },
  };

  it('copies values exactly (quoted where YAML would read them otherwise), skips invisible ones, never copies secrets', async () => {
    const { repo, tmp } = repoFrom();
    writeFileSync(join(repo, '.mcp.json'), JSON.stringify(HOSTILE));
    mkdirSync(join(repo, 'api'));
    // An alias bomb, a file name with a bidi control, operationIds that are not names.
    cpSync(join(REPO, 'test/fixtures/hostile-repo/bomb.yaml'), join(repo, 'api/bomb.yaml'));
    writeFileSync(join(repo, 'api/openapi\u202E.yaml'), 'openapi: 3.0.3\npaths: {}\n');
    writeFileSync(
      join(repo, 'api/openapi.json'),
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 't', version: '1' },
        paths: { '/a': { get: { operationId: 'ok_op' }, post: { operationId: 'evil\u202Eop\n# injected' } } },
      }),
    );
    const r = await runCli(['init'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const text = read(repo, 'toolgate.yml');
    // Nothing invisible, no control character but the line feed.
    expect(text.replace(/\n/g, '')).not.toMatch(/[\p{C}\u2028\u2029]/u);
    const policy = await loadPolicy(join(repo, 'toolgate.yml'));
    const byId = Object.fromEntries(policy.sources.map((s) => [s.id, s]));
    expect(Object.keys(byId).sort()).toEqual(['api', 'creds', 'env', 'evil-name', 'yaml']);
    expect(byId.yaml).toMatchObject({ mcp: { command: 'yes', args: HOSTILE.mcpServers.yaml.args } });
    expect(byId.env).toMatchObject({ mcp: { env: ['OK_NAME'] } });
    expect(byId.creds).toMatchObject({ mcp: { url: 'http://127.0.0.1:3000/mcp' } });
    expect(r.stderr).toContain('server "newline": its command or args are not plain strings');
    expect(r.stderr).toContain('server "bidi"');
    expect(r.stderr).toContain('server "js": its url is not an http(s) URL');
    expect(text).toContain('"evil\\u202ename" in .mcp.json');
    expect(text).toContain('# its operations include: ok_op, POST /a');
    expect(text).not.toContain('injected');
    // No runner command can start a line of the output.
    expect(r.stdout + r.stderr).not.toMatch(/^\s*::/m);
    const all = [
      text,
      read(repo, '.github/workflows/toolgate.yml'),
      r.stdout,
      r.stderr,
      ...tree(join(repo, 'integrations')).map((f) => read(join(repo, 'integrations'), f)),
    ].join('\n');
    expect(all).not.toContain('SECRET-VALUE');
    expect(text).not.toMatch(/GITHUB_TOKEN|INPUT_X|ACTIONS_RUNTIME_TOKEN|BAD NAME|LD_PRELOAD|NODE_OPTIONS/);
    // Names the sandbox sets itself or that change how programs load are not passed on.
    expect((byId.env as { mcp: { env: string[] } }).mcp.env).toEqual(['OK_NAME']);
    // An Actions expression would be evaluated where it reaches the workflow: never copied.
    expect(all).not.toContain('${{ secrets.DEPLOY_KEY }}');
    expect(r.stderr).toContain('server "expr"');
    // toolgate is not installed in this repository: installing it comes first.
    expect(r.stdout).toContain('npm install --save-dev github:toolgate/toolgate#v0');
    expect(tree(tmp).filter((f) => f.startsWith('outside'))).toEqual([]);
  });

  it('render(detect(files)) of every fixture loads with loadPolicy (the pure functions alone, no CLI)', async () => {
    for (const fixture of readdirSync(FIXTURES)) {
      const dir = join(FIXTURES, fixture);
      const paths = tree(dir);
      const texts = new Map(paths.map((p) => [p, read(dir, p)]));
      const out = render(detect({ paths, texts }));
      const { repo } = repoFrom();
      writeFileSync(join(repo, 'toolgate.yml'), out.toolgateYml);
      await expect(loadPolicy(join(repo, 'toolgate.yml')), fixture).resolves.toBeDefined();
      expect(() => parse(out.workflowYml), fixture).not.toThrow();
    }
  });
});

describe('detect and render (pure)', () => {
  const files = (texts: Record<string, string>, extra: string[] = []) => ({ paths: [...Object.keys(texts), ...extra], texts: new Map(Object.entries(texts)) });

  it('a monorepo package runs in its directory; pnpm and requirements.txt get their own install steps', async () => {
    const d = detect(
      files(
        {
          'packages/srv/package.json': JSON.stringify({ name: 'srv', main: 'lib/main.js', dependencies: { fastmcp: '1' }, scripts: { build: 'tsc' } }),
          'py/requirements.txt': '# deps\nfastmcp==2.0 ; python_version >= "3.10"\n-e .\n',
        },
        ['pnpm-lock.yaml', 'packages/srv/lib/main.js', 'py/server.py'],
      ),
    );
    expect(d.findings.map((f) => [f.id, f.source])).toEqual([
      ['srv', { mcp: { command: 'node', args: ['lib/main.js'], cwd: 'packages/srv', env: [] } }],
      ['py', { mcp: { command: 'python', args: ['-m', 'py'], cwd: 'py', env: [] } }],
    ]);
    const steps = (parse(render(d).workflowYml) as Workflow).jobs.toolgate.steps;
    expect(steps.filter((s) => s.run && !s.run.includes('bubblewrap'))).toEqual([
      { run: 'corepack enable && pnpm install --frozen-lockfile', 'working-directory': 'packages/srv' },
      { run: 'pip install -r requirements.txt', 'working-directory': 'py' },
    ]);
    const { repo } = repoFrom();
    writeFileSync(join(repo, 'toolgate.yml'), render(d).toolgateYml);
    expect((await loadPolicy(join(repo, 'toolgate.yml'))).sources.map((s) => s.id)).toEqual(['srv', 'py']);
  });

  it('a dev-only SDK dependency, a bin leaving the package and a git branch name that is not one are not taken', () => {
    const d = detect({
      ...files({
        'package.json': JSON.stringify({ name: 'tool', bin: 'cli.js', devDependencies: { '@modelcontextprotocol/sdk': '1' } }),
        'a/package.json': JSON.stringify({ name: 'a', bin: '../../etc/x.js', dependencies: { '@modelcontextprotocol/sdk': '1' } }),
      }),
      defaultBranch: 'main\n  evil: true',
    });
    expect(d.findings).toEqual([]);
    expect(d.notes.join('\n')).toContain('a/package.json: its bin "../../etc/x.js" is not a path inside the package');
    expect(d.defaultBranch).toBe('main');
  });
});

describe('toolgate init --help', () => {
  it('documents the command and its flags; the program help lists it', async () => {
    const r = await runCli(['init', '--help'], { cwd: REPO });
    expect(r.code).toBe(0);
    for (const s of ['--force', '--dry-run', '.mcp.json', 'docs/cli.md, "toolgate init"']) expect(r.stdout).toContain(s);
    const top = await runCli(['--help'], { cwd: REPO });
    expect(top.stdout).toMatch(/^\s+init\b/m);
    expect(top.stdout).toContain('toolgate init ');
  });
});
