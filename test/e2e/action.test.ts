import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { commit, git, prEvent, RepoTemplates, runAction, updateInProcess, writeFiles } from '../support/action-repo.js';
import { FakeGitHub, failures } from '../support/fake-github.js';
import { validateSarif } from '../support/sarif-schema.js';
import { CLI, READ_REPO, runNode } from '../support/run-dist.js';
import { SandboxState } from '../../src/sources/launch/state.js';

const POLICY = 'sources:\n  - id: widgets\n    recorded: tools.json\n';
const hints = (readOnly: boolean) => ({ readOnlyHint: readOnly, destructiveHint: false, idempotentHint: true, openWorldHint: false });
const tools = (...list: object[]) => JSON.stringify({ tools: list }, null, 2);
const lookup = (readOnly: boolean) => ({
  name: 'lookup',
  description: 'Looks a widget up.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: false },
  annotations: hints(readOnly),
});
const create = {
  name: 'create_widget',
  description: 'Creates a widget.',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** A workspace dir inside its own temp parent (the runner keeps summary/output files beside it). */
function workspace(): string {
  const parent = mkdtempSync(join(tmpdir(), 'tg-action-'));
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  return join(parent, 'ws');
}

/**
 * A loopback GitHub API. `bob` has write access (as a maintainer who approves); the contents
 * endpoint serves `repoDir` at any commit, as GitHub serves the repository.
 */
async function fakeGitHub(repoDir?: string): Promise<FakeGitHub> {
  const gh = await FakeGitHub.start();
  gh.grant('bob', 'write');
  if (repoDir) gh.repoDir = repoDir;
  cleanups.push(() => gh.close());
  return gh;
}

// The repositories several cases start from are built once and copied for each case. Every contract
// is pinned in this process by the pipeline `update` runs (updateInProcess, at the CLI's run root: a
// folder of a repository pins at the repository's root too), servers' too (server-everything, the
// sandbox summary): `toolgate update` through the built CLI is test/e2e/cli.test.ts's.
const templates = new RepoTemplates();
afterAll(() => templates.dispose());

/** `lookup` (read) and `create_widget`, pinned: a clean run. At `dest` (default: a new workspace). */
const cleanRepo = (dest = workspace()) =>
  templates.copy(
    'clean',
    async (dir) => {
      writeFiles(dir, { 'toolgate.yml': POLICY, 'tools.json': tools(lookup(true), create) });
      await updateInProcess(dir);
      return {};
    },
    dest,
  );

/** `lookup` (read) pinned and committed (`sha`). */
const lookupRepo = () =>
  templates.copy(
    'lookup',
    async (dir) => {
      writeFiles(dir, { 'toolgate.yml': POLICY, 'tools.json': tools(lookup(true)) });
      git(dir, 'init', '-q', '-b', 'main');
      await updateInProcess(dir);
      return { sha: commit(dir, 'base') };
    },
    workspace(),
  );

/** One tool without annotations (`ping`, an unannotated-tool warning), pinned. */
const unannotatedRepo = () =>
  templates.copy(
    'unannotated',
    async (dir) => {
      writeFiles(dir, { 'toolgate.yml': POLICY, 'tools.json': tools({ name: 'ping', inputSchema: { type: 'object', additionalProperties: false } }) });
      await updateInProcess(dir);
      return {};
    },
    workspace(),
  );

/** A repo whose base commit pins `lookup` as a write and whose head promotes it to read, contract updated. */
const promotionRepo = (): Promise<{ dir: string; baseSha: string; headSha: string }> =>
  templates.copy(
    'promotion',
    async (dir) => {
      writeFiles(dir, { 'toolgate.yml': POLICY, 'tools.json': tools(lookup(false), create) });
      git(dir, 'init', '-q', '-b', 'main');
      await updateInProcess(dir);
      const baseSha = commit(dir, 'base');
      writeFiles(dir, { 'tools.json': tools(lookup(true), create) });
      await updateInProcess(dir);
      const headSha = commit(dir, 'promote lookup to read');
      return { baseSha, headSha };
    },
    workspace(),
  );

describe('the Action (dist/index.js) on a workspace', () => {
  it('clean run: exit 0, summary written, outputs set, no error annotations', async () => {
    const { dir } = await cleanRepo();
    const r = await runAction(dir, {});
    expect(r.code, r.stdout).toBe(0);
    expect(r.summary).toContain('## toolgate: ✅ no findings');
    expect(r.summary).toContain('| 2 | 1 |');
    expect(r.outputs['tool-count']).toBe('2');
    expect(r.outputs['error-count']).toBe('0');
    expect(r.outputs['digest']).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(readFileSync(r.outputs['report-path'] as string, 'utf8')).sources[0].toolCount).toBe(2);
    expect(r.annotations).toEqual([]);
  });

  it('on a push the server starts before the pipeline loads; on a pull request only after the base policy is read', async () => {
    const dir = workspace();
    const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
    writeFiles(dir, {
      'toolgate.yml': `sources:\n  - id: everything\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(everything)}, stdio]\n${READ_REPO()}`,
    });
    git(dir, 'init', '-q', '-b', 'main');
    await updateInProcess(dir);
    const baseSha = commit(dir, 'base');
    const marksOf = (stderr: string) => JSON.parse(/^toolgate-timing-json (\{.*\})$/m.exec(stderr)![1]!) as Record<string, number>;
    const push = await runAction(dir, { env: { TOOLGATE_TIMING: '1' } });
    expect(push.code, push.stdout).toBe(0);
    const p = marksOf(push.stderr);
    expect(p['server spawned']).toBeLessThan(p['pipeline loaded']!);
    writeFiles(dir, { 'README.md': 'docs\n' });
    const headSha = commit(dir, 'docs');
    const pr = await runAction(dir, { event: prEvent({ baseSha, headSha, author: 'alice' }), env: { TOOLGATE_TIMING: '1' } });
    expect(pr.code, pr.stdout).toBe(0);
    const q = marksOf(pr.stderr);
    expect(q['server spawned']).toBeGreaterThan(q['pipeline loaded']!);
  });

  it('a tool served without a contract entry: exit 1, error annotation on the contract line, summary lists it; sarif-path is an output, the SARIF marks security rules', async () => {
    const { dir } = await lookupRepo();
    writeFiles(dir, { 'tools.json': tools(lookup(true), create) });
    const r = await runAction(dir, { inputs: { 'sarif-path': 'out/toolgate.sarif' } });
    expect(r.code).toBe(1);
    const unlisted = r.annotations.find((a) => a.includes('unlisted-tool'));
    const contract = readFileSync(join(dir, '.toolgate/widgets.surface.json'), 'utf8').split('\n');
    // create_widget sorts before lookup: its entry is missing where lookup's entry starts.
    const line = contract.findIndex((l) => l.includes('"name": "lookup"'));
    expect(unlisted).toMatch(new RegExp(`^::error file=\\.toolgate/widgets\\.surface\\.json,line=${line},title=toolgate unlisted-tool \\[widgets\\]::`));
    expect(r.summary).toContain('### Needs your attention (1)');
    expect(r.summary).toContain('unlisted-tool');
    expect(r.outputs['error-count']).not.toBe('0');
    // For code scanning: the path is an output, and the rules carry GitHub's security properties.
    expect(r.outputs['sarif-path']).toBe(join(dir, 'out/toolgate.sarif'));
    const log = JSON.parse(readFileSync(r.outputs['sarif-path'] as string, 'utf8')) as {
      runs: { tool: { driver: { rules: { id: string; properties: Record<string, unknown> }[] } } }[];
    };
    validateSarif(log);
    const rules = new Map(log.runs[0]!.tool.driver.rules.map((x) => [x.id, x.properties]));
    expect(rules.get('unlisted-tool')).toEqual({ tags: ['toolgate', 'security'], 'security-severity': '9.0', precision: 'very-high' });
    expect(rules.get('tool-added')).toEqual({ tags: ['toolgate', 'security', 'reviewable'], 'security-severity': '7.5', precision: 'very-high' });
    expect(rules.get('stdout-noise')).toEqual({ tags: ['toolgate'], precision: 'very-high' });
  });

  it('a broken policy is a configuration error; each problem gets its own annotation on its line', async () => {
    const dir = workspace();
    writeFiles(dir, { 'toolgate.yml': 'sources:\n  - id: widgets\n    recorded: tools.json\n    colour: blue\nlimits:\n  max-tools: many\n' });
    const r = await runAction(dir, {});
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error file=toolgate.yml,line=4,title=toolgate configuration error::');
    expect(r.stdout).toContain('unknown key');
    expect(r.stdout).toContain('::error file=toolgate.yml,line=6,title=toolgate configuration error::toolgate.yml:6 (at /limits/max-tools): must be integer');
  });

  it('a policy key written to inject Markdown and mentions stays inert in the job summary and the log', async () => {
    const dir = workspace();
    const key = '"<img src=x onerror=alert(1)> [approved](https://evil.example) @octocat ```\\n::set-output name=x::y"';
    writeFiles(dir, { 'toolgate.yml': `sources:\n  - id: widgets\n    recorded: tools.json\n    ${key}: 1\n` });
    const r = await runAction(dir, {});
    expect(r.code).toBe(1);
    // The summary shows the message inside a fence longer than any backtick run in it.
    expect(r.summary.startsWith('## toolgate: ❌ configuration error\n\n````\n')).toBe(true);
    expect(r.summary).toContain('unknown key "<img src=x onerror=alert(1)> [approved](https://evil.example) @octocat ```\n::set-output name=x::y"');
    expect(r.summary.split('\n').filter((l) => /^````$/.test(l))).toHaveLength(2);
    // No workflow command but ours starts a line of the log.
    const commands = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(commands).toHaveLength(2);
    expect(commands[0]).toMatch(/^::error file=toolgate\.yml,line=4,title=toolgate configuration error::/);
    expect(commands[1]).toMatch(/^::error::toolgate: configuration error: /);
  });

  it('a warning passes a push, which writes a SARIF file with rules from the catalog and results with locations', async () => {
    const { dir } = await unannotatedRepo();
    const pr = await runAction(dir, { inputs: { 'sarif-path': 'toolgate.sarif' } });
    expect(pr.code).toBe(0);
    const sarif = JSON.parse(readFileSync(join(dir, 'toolgate.sarif'), 'utf8'));
    expect(validateSarif(sarif), JSON.stringify(validateSarif.errors)).toBe(true);
    const result = sarif.runs[0].results.find((x: { ruleId: string }) => x.ruleId === 'unannotated-tool');
    expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe('.toolgate/widgets.surface.json');
    expect(sarif.runs[0].tool.driver.rules.map((x: { id: string }) => x.id)).toContain('unannotated-tool');
    // A tag push or a release is exact (the warning fails): test/action/step-verdict.test.ts.
  });
});

describe('the Action on runners as they are (GHES, act, Gitea/Forgejo) and when things fail', () => {
  it('no GITHUB_STEP_SUMMARY: a clean run still passes, writes the report and sets the outputs, and says the summary was skipped', async () => {
    const { dir } = await cleanRepo();
    const r = await runAction(dir, { env: { GITHUB_STEP_SUMMARY: '' } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('no job summary');
    expect(r.outputs['tool-count']).toBe('2');
    expect(JSON.parse(readFileSync(r.outputs['report-path'] as string, 'utf8')).sources[0].toolCount).toBe(2);
  });

  it('a configuration error sets what is known: one error, no digest; and its failure line carries no escape or bidi character', async () => {
    const dir = workspace();
    writeFiles(dir, { 'toolgate.yml': 'sources:\n  - id: widgets\n    recorded: tools.json\n    "evil\\u202e\\u001b[31m": 1\n' });
    const r = await runAction(dir, {});
    expect(r.code).toBe(1);
    expect(r.outputs['error-count']).toBe('1');
    expect(r.outputs['digest']).toBe('');
    const failed = r.stdout.split('\n').find((l) => l.startsWith('::error::toolgate: configuration error')) ?? '';
    expect(failed).not.toMatch(/[\u001b\u202e]/);
    expect(failed).toContain('<U+202E>');
  });

  it('the job summary says whether the servers ran sandboxed: one line when they did, a warning naming each that did not', async () => {
    const dir = workspace();
    const annotated = join(process.cwd(), 'test/fixtures/servers/annotated.mjs');
    writeFiles(dir, {
      'toolgate.yml': `sources:\n  - id: notes\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(annotated)}]\n${READ_REPO()}`,
    });
    await updateInProcess(dir);
    // The two runs are independent: each in a workspace of its own, at the same time.
    const other = workspace();
    cpSync(dir, other, { recursive: true });
    const [sandboxed, bare] = await Promise.all([
      runAction(dir, {}),
      runAction(other, { env: { TOOLGATE_SANDBOX_UNAVAILABLE: 'as on a runner without the sandbox' } }),
    ]);
    expect(sandboxed.code, sandboxed.stdout).toBe(0);
    if (new SandboxState().support().available) {
      expect(sandboxed.summary).toContain('🔒 **Sandbox:** The server ran in bubblewrap, loopback only.');
      expect(sandboxed.summary).not.toContain('unsandboxed');
    }
    expect(bare.summary).toContain(
      '> **Servers ran unsandboxed:** **notes** (TOOLGATE\\_SANDBOX\\_UNAVAILABLE is set \\(as on a runner without the sandbox\\)).',
    );
    expect(bare.summary).toContain('toolgate/toolgate/setup-sandbox@v0');
    expect(bare.summary).not.toContain('🔒');
  });

  it('a source that fails is result error, even with fail-on: never, and leaves the digest output empty (no hash of an empty surface)', async () => {
    const dir = workspace();
    writeFiles(dir, { 'toolgate.yml': 'sources:\n  - id: down\n    mcp:\n      command: node\n      args: [-e, "process.exit(3)"]\n' });
    const r = await runAction(dir, { inputs: { 'fail-on': 'never' } });
    expect([r.code, r.outputs['result']]).toEqual([1, 'error']);
    expect(r.outputs['digest']).toBe('');
  });
});

describe('pull requests: base comparison and review-gated read promotions', () => {
  // Which reviews count (the author's own, CHANGES_REQUESTED after an approval, dismissed) is
  // judged in test/github/approval-gate.test.ts over readApproval; here, each path through the Action.
  const run = async (
    gh: FakeGitHub,
    repo: { dir: string; baseSha: string; headSha: string },
    extra: { inputs?: Record<string, string>; event?: unknown; eventName?: string } = {},
  ) => {
    gh.repoDir = repo.dir;
    return runAction(repo.dir, {
      event: extra.event ?? prEvent({ baseSha: repo.baseSha, headSha: repo.headSha, author: 'alice' }),
      ...(extra.eventName ? { eventName: extra.eventName } : {}),
      apiUrl: gh.url,
      inputs: { 'github-token': 'ghs_test', ...extra.inputs },
    });
  };

  it('a promotion with no review fails, naming who must approve', async () => {
    const gh = await fakeGitHub();
    const repo = await promotionRepo();
    const r = await run(gh, repo);
    expect(r.code).toBe(1);
    expect(r.summary).toContain('read-promotion-unreviewed');
    expect(r.stdout).toContain('someone other than @alice');
  });

  it('approved by another user: passes, and the summary says who approved', async () => {
    const gh = await fakeGitHub();
    const repo = await promotionRepo();
    gh.addReview(7, { user: 'bob', state: 'APPROVED', commit_id: repo.headSha });
    const r = await run(gh, repo);
    expect(r.code, r.stdout).toBe(0);
    expect(r.summary).toContain('approved by');
    expect(r.summary).toMatch(/bob/);
  });

  it('review.fresh: an approval on an older commit does not count', async () => {
    const gh = await fakeGitHub();
    const repo = await promotionRepo();
    writeFiles(repo.dir, { 'toolgate.yml': POLICY + 'review:\n  fresh: true\n' });
    repo.headSha = commit(repo.dir, 'fresh reviews');
    gh.addReview(7, { user: 'bob', state: 'APPROVED', commit_id: repo.baseSha });
    expect((await run(gh, repo)).code).toBe(1);
    gh.addReview(7, { user: 'bob', state: 'APPROVED', commit_id: repo.headSha });
    expect((await run(gh, repo)).code).toBe(0);
  });

  it('a base commit missing from the checkout tells the user to fetch it', async () => {
    const gh = await fakeGitHub();
    const repo = await promotionRepo();
    const r = await run(gh, { ...repo, baseSha: 'f'.repeat(40) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('fetch-depth: 0');
  });

  it('pull_request_target: refuses to start anything unless the base policy allows it, and says why', async () => {
    const gh = await fakeGitHub();
    const repo = await promotionRepo();
    const r = await run(gh, repo, { eventName: 'pull_request_target' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('refusing to start servers or load specs under pull_request_target');
    expect(gh.requests.length).toBe(0);
  });
  it('pull_request_target allowed by the base policy: the checked-out commit is checked, and the check run goes on it, not on the PR head', async () => {
    const gh = await fakeGitHub();
    const dir = workspace();
    writeFiles(dir, { 'toolgate.yml': `${POLICY}allow-pull-request-target: true\n`, 'tools.json': tools(lookup(true)) });
    git(dir, 'init', '-q', '-b', 'main');
    await updateInProcess(dir);
    const baseSha = commit(dir, 'base');
    writeFiles(dir, { 'tools.json': tools(lookup(true), create) });
    await updateInProcess(dir);
    const headSha = commit(dir, 'pull request');
    git(dir, 'checkout', '-q', baseSha); // what actions/checkout does by default under pull_request_target
    gh.repoDir = dir;
    const r = await runAction(dir, {
      eventName: 'pull_request_target',
      event: prEvent({ baseSha, headSha, author: 'alice' }),
      apiUrl: gh.url,
      inputs: { 'github-token': 'ghs_test' },
    });
    expect(r.code, r.stdout).toBe(0);
    const runs = [...gh.checkRuns.values()];
    expect(runs.map((c) => c.head_sha)).toEqual([baseSha]);
  });
});

describe('pull requests: check run, sticky comment, SARIF, degraded tokens', () => {
  it('120 findings go to a check run in batches of 50; no workflow-command annotations then', async () => {
    const gh = await fakeGitHub();
    const dir = workspace();
    const many = Array.from({ length: 120 }, (_, i) => ({
      name: `tool_${String(i).padStart(3, '0')}`,
      inputSchema: { type: 'object', additionalProperties: false },
    }));
    writeFiles(dir, { 'toolgate.yml': POLICY, 'tools.json': tools(...many) });
    git(dir, 'init', '-q', '-b', 'main');
    await updateInProcess(dir);
    const sha = commit(dir, 'base');
    gh.repoDir = dir;
    const r = await runAction(dir, { event: prEvent({ baseSha: sha, headSha: sha, author: 'alice' }), apiUrl: gh.url, inputs: { 'github-token': 'ghs_test' } });
    expect(r.code, r.stdout).toBe(0);
    const posts = gh.requestsTo('POST', /\/check-runs$/);
    const patches = gh.requestsTo('PATCH', /\/check-runs\/\d+$/);
    expect(posts).toHaveLength(1);
    // Not the job's name (`toolgate`): branch protection requires this one by a name of its own.
    expect((posts[0]?.body as { name?: string }).name).toBe('toolgate review');
    const sizes = [posts[0], ...patches].map((q) => ((q?.body as { output?: { annotations?: unknown[] } }).output?.annotations ?? []).length);
    expect(sizes).toEqual([50, 50, 20]);
    expect(r.annotations).toEqual([]);
  });

  it('a token without checks: write (403) degrades to workflow-command annotations, capped with a "more" line', async () => {
    const gh = await fakeGitHub();
    gh.fail({ method: 'POST', path: /check-runs/, ...failures.forbidden() });
    const dir = workspace();
    const many = Array.from({ length: 25 }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: 'object', additionalProperties: false } }));
    writeFiles(dir, { 'toolgate.yml': POLICY, 'tools.json': tools(...many) });
    git(dir, 'init', '-q', '-b', 'main');
    await updateInProcess(dir);
    const sha = commit(dir, 'base');
    gh.repoDir = dir;
    const r = await runAction(dir, { event: prEvent({ baseSha: sha, headSha: sha, author: 'alice' }), apiUrl: gh.url, inputs: { 'github-token': 'ghs_test' } });
    expect(r.code).toBe(0);
    expect(r.annotations.filter((a) => a.startsWith('::warning'))).toHaveLength(10);
    expect(r.stdout).toContain('15 more findings are not shown as annotations');
    expect(r.stdout).toContain('checks: write');
  });

  // Pages past 100 comments and the marker under another login are unit-tested over the same API
  // (test/github/comment.test.ts); here the Action's path: two runs, one comment, edited in place.
  it('the sticky comment is found past 100 comments under the comment-author login (an App token) and updated in place, never duplicated', async () => {
    const gh = await fakeGitHub();
    gh.actor = { login: 'toolgate-app[bot]', id: 99, type: 'Bot' };
    const repo = await promotionRepo();
    gh.repoDir = repo.dir;
    gh.addReview(7, { user: 'bob', state: 'APPROVED', commit_id: repo.headSha });
    for (let i = 0; i < 120; i++) gh.addComment(7, `chatter ${i}`);
    const inputs = { 'github-token': 'ghs_test', comment: 'true', 'comment-author': 'toolgate-app[bot]' };
    const event = prEvent({ baseSha: repo.baseSha, headSha: repo.headSha, author: 'alice' });
    expect((await runAction(repo.dir, { event, apiUrl: gh.url, inputs })).code).toBe(0);
    expect((await runAction(repo.dir, { event, apiUrl: gh.url, inputs })).code).toBe(0);
    const ours = (gh.comments.get(7) ?? []).filter((c) => c.body.includes('toolgate'));
    expect(ours).toHaveLength(1);
    expect(gh.requestsTo('PATCH', /\/issues\/comments\/\d+$/)).toHaveLength(1);
  });

  it('on a fork PR: no comment, no check run, annotations and summary still work, and the log says how to comment', async () => {
    const gh = await fakeGitHub();
    const repo = await promotionRepo();
    gh.repoDir = repo.dir;
    gh.addReview(7, { user: 'bob', state: 'APPROVED', commit_id: repo.headSha });
    const r = await runAction(repo.dir, {
      event: prEvent({ baseSha: repo.baseSha, headSha: repo.headSha, author: 'alice', fork: true }),
      apiUrl: gh.url,
      inputs: { 'github-token': 'ghs_test', comment: 'true' },
    });
    expect(r.code).toBe(0);
    expect(gh.requestsTo('POST', /comments|check-runs/)).toHaveLength(0);
    expect(r.stdout).toContain('workflow_run');
    expect(r.summary).toContain('toolgate');
  });
});

describe('exports: a pull request that changes the contract and forgets the gateway config fails', () => {
  const EXPORTING = `${POLICY}exports:\n  - to: claude-code\n    file: .claude/settings.json\n`;
  /** Base: lookup pinned and exported; head: create_widget added (contract updated), export as given. */
  const exportRepo = (reExport: boolean): Promise<{ dir: string; baseSha: string; headSha: string }> =>
    templates.copy(
      `export ${reExport}`,
      async (dir) => {
        writeFiles(dir, { 'toolgate.yml': EXPORTING, 'tools.json': tools(lookup(true)) });
        git(dir, 'init', '-q', '-b', 'main');
        await updateInProcess(dir);
        expect((await runNode(CLI, ['export'], { cwd: dir })).code).toBe(0);
        const baseSha = commit(dir, 'base');
        writeFiles(dir, { 'tools.json': tools(lookup(true), create) });
        await updateInProcess(dir);
        if (reExport) expect((await runNode(CLI, ['export'], { cwd: dir })).code).toBe(0);
        const headSha = commit(dir, 'add create_widget');
        return { baseSha, headSha };
      },
      workspace(),
    );
  const run = async (gh: FakeGitHub, repo: { dir: string; baseSha: string; headSha: string }, inputs: Record<string, string> = {}) => {
    gh.repoDir = repo.dir;
    gh.addReview(7, { user: 'bob', state: 'APPROVED', commit_id: repo.headSha });
    return runAction(repo.dir, {
      event: prEvent({ baseSha: repo.baseSha, headSha: repo.headSha, author: 'alice' }),
      apiUrl: gh.url,
      inputs: { 'github-token': 'ghs_test', ...inputs },
    });
  };

  it('the new tool is approved, but the stale export still fails the check, annotated on the export', async () => {
    const gh = await fakeGitHub();
    const r = await run(gh, await exportRepo(false));
    expect(r.code).toBe(1);
    expect(r.summary).toContain('export-stale');
    const report = JSON.parse(readFileSync(r.outputs['report-path'] as string, 'utf8')) as {
      findings: { ruleId: string; level: string; location?: { file: string } }[];
    };
    const stale = report.findings.filter((f) => f.ruleId === 'export-stale');
    expect(stale).toEqual([expect.objectContaining({ level: 'error', location: expect.objectContaining({ file: '.claude/settings.json' }) })]);
  });

  it('exported again in the pull request: passes', async () => {
    const gh = await fakeGitHub();
    const r = await run(gh, await exportRepo(true));
    expect(r.code, r.stdout).toBe(0);
  });

  it('the `exports` input checks a file toolgate.yml does not list (one `TARGET FILE` a line)', async () => {
    const gh = await fakeGitHub();
    const repo = await exportRepo(true);
    writeFiles(repo.dir, { 'deploy/tools.yaml': 'widgets:\n  - lookup\n' });
    const headSha = commit(repo.dir, 'a hand-written Docker tools.yaml');
    const r = await run(gh, { ...repo, headSha }, { exports: '# gateway configs\ndocker deploy/tools.yaml\n' });
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(r.outputs['report-path'] as string, 'utf8')) as { findings: { ruleId: string; message: string }[] };
    expect(report.findings.filter((f) => f.ruleId === 'export-stale').map((f) => f.message)).toEqual([
      expect.stringContaining(
        'the docker export deploy/tools.yaml is not what `toolgate export --to docker --source widgets -o deploy/tools.yaml` writes from .toolgate/widgets.surface.json',
      ),
    ]);
    // A line that is not `TARGET FILE` is refused as the inputs are read: test/action/inputs.test.ts.
  });
});

describe('inputs and outputs users of oasdiff, Spectral and CodeQL expect', () => {
  const unannotated = { name: 'ping', inputSchema: { type: 'object', additionalProperties: false } };

  // Which fail-on, exact and event give which result, counts and exit code is a table over the
  // inputs and the pipeline (test/action/step-verdict.test.ts); here each path through the Action.
  it('fail-on: a warning passes by default and fails with fail-on: warning; a bad level is an input error; result and notice-count are set each time', async () => {
    const dir = workspace();
    // One warning (unannotated-tool) and one notice (partially-annotated-tool), no error.
    const partial = { name: 'pong', inputSchema: { type: 'object', additionalProperties: false }, annotations: { readOnlyHint: true } };
    writeFiles(dir, { 'toolgate.yml': POLICY, 'tools.json': tools(unannotated, partial) });
    await updateInProcess(dir);
    // Three independent runs, each in a workspace of its own, at the same time.
    const [other, third] = [workspace(), workspace()];
    for (const copy of [other, third]) cpSync(dir, copy, { recursive: true });
    const [plain, warning, bad] = await Promise.all([
      runAction(dir, {}),
      runAction(other, { inputs: { 'fail-on': 'warning' } }),
      runAction(third, { inputs: { 'fail-on': 'warnings' } }),
    ]);
    expect([plain.code, plain.outputs['result'], plain.outputs['error-count'], plain.outputs['warning-count'], plain.outputs['notice-count']]).toEqual([
      0,
      'pass',
      '0',
      '1',
      '1',
    ]);
    expect([warning.code, warning.outputs['result'], warning.outputs['notice-count']]).toEqual([1, 'fail', '1']);
    expect(warning.stdout).toContain('toolgate: 0 error-level findings and 1 warning (fail-on: warning)');
    expect([bad.code, bad.outputs['result']]).toEqual([1, 'error']);
    expect(bad.stdout).toContain('input "fail-on" must be error, warning, notice or never, not "warnings"');
  });

  it('working-directory: a repository checked out below the workspace (actions/checkout path:)', async () => {
    const ws = workspace();
    const { dir } = await cleanRepo(join(ws, 'repo'));
    writeFiles(ws, { 'README.md': 'the workspace itself has no toolgate.yml\n' });
    const [without, r] = await Promise.all([runAction(ws, {}), runAction(ws, { inputs: { 'working-directory': 'repo' } })]);
    expect([without.code, without.outputs['result']]).toEqual([1, 'error']);
    expect([r.code, r.outputs['result'], r.outputs['tool-count']]).toEqual([0, 'pass', '2']);
    expect(r.outputs['report-path']).toBe(join(dir, 'toolgate-report.json'));
    // A working-directory or config outside the workspace (as written, or through a link) and one
    // that does not exist are refused as the inputs are read: test/action/inputs.test.ts.
  });

  it('working-directory in a monorepo: the base is read from the API at that folder of the repository, not at its root', async () => {
    const gh = await fakeGitHub();
    const ws = workspace();
    // The root has a toolgate.yml of its own, for another source; the package in sub/ has its own.
    writeFiles(ws, { 'toolgate.yml': 'sources:\n  - id: other\n    recorded: missing.json\n' });
    const sub = join(ws, 'sub');
    writeFiles(sub, { 'toolgate.yml': POLICY, 'tools.json': tools(lookup(false), create) });
    git(ws, 'init', '-q', '-b', 'main');
    await updateInProcess(sub);
    const baseSha = commit(ws, 'base');
    writeFiles(sub, { 'tools.json': tools(lookup(true), create) });
    await updateInProcess(sub);
    const headSha = commit(ws, 'promote lookup to read');
    gh.repoDir = ws;
    const r = await runAction(ws, {
      event: prEvent({ baseSha, headSha, author: 'alice' }),
      apiUrl: gh.url,
      inputs: { 'github-token': 'ghs_test', 'working-directory': 'sub' },
    });
    // Judged against sub/'s base contract: the read promotion waits for a review.
    expect([r.code, r.outputs['result']], r.stdout).toEqual([1, 'fail']);
    expect(r.stdout).toContain('read-promotion-unreviewed');
    expect(gh.requestsTo('GET', /\/contents\//).map((q) => decodeURIComponent(q.path.split('?')[0]!.replace(/^.*\/contents\//, '')))).toEqual(
      expect.arrayContaining(['sub/toolgate.yml', 'sub/.toolgate/widgets.surface.json']),
    );
  });

  it('an error that is not a configuration error still sets result: error', async () => {
    const { dir } = await lookupRepo();
    writeFiles(dir, { 'package.json': '{}' });
    const r = await runAction(dir, { env: { GITHUB_STEP_SUMMARY: join(dir, 'no-such-dir', 'summary.md') } });
    expect(r.code).toBe(1);
    expect(r.outputs['result']).toBe('error');
  });

  it('a merge queue run (merge_group) checks the queued commit for drift and posts the check run on it, so the queue does not stall', async () => {
    const gh = await fakeGitHub();
    const { dir, sha } = await lookupRepo();
    gh.repoDir = dir;
    const event = {
      action: 'checks_requested',
      merge_group: { head_sha: sha, head_ref: 'refs/heads/gh-readonly-queue/main/pr-7-abc', base_sha: sha, base_ref: 'refs/heads/main' },
    };
    const env = { GITHUB_SHA: sha, GITHUB_REF: 'refs/heads/gh-readonly-queue/main/pr-7-abc' };
    const clean = await runAction(dir, { event, eventName: 'merge_group', apiUrl: gh.url, env, inputs: { 'github-token': 'ghs_test' } });
    expect([clean.code, clean.outputs['result']], clean.stdout).toEqual([0, 'pass']);
    const posted = gh.requestsTo('POST', /\/check-runs$/).map((q) => q.body as { name?: string; head_sha?: string; conclusion?: string });
    expect(posted).toEqual([expect.objectContaining({ name: 'toolgate review', head_sha: sha, conclusion: 'success' })]);
    // The queued commit drifted from its contract (a PR merged ahead changed the server): it fails.
    writeFiles(dir, { 'tools.json': tools(lookup(false)) });
    const drifted = await runAction(dir, { event, eventName: 'merge_group', apiUrl: gh.url, env, inputs: { 'github-token': 'ghs_test' } });
    expect([drifted.code, drifted.outputs['result']], drifted.stdout).toEqual([1, 'fail']);
    expect(drifted.stdout).toContain('contract-stale');
  });

  it('check-name names the check run', async () => {
    const gh = await fakeGitHub();
    const { dir, sha } = await lookupRepo();
    gh.repoDir = dir;
    const r = await runAction(dir, {
      event: prEvent({ baseSha: sha, headSha: sha, author: 'alice' }),
      apiUrl: gh.url,
      inputs: { 'github-token': 'ghs_test', 'check-name': 'toolgate (staging servers)' },
    });
    expect(r.code, r.stdout).toBe(0);
    expect(gh.requestsTo('POST', /\/check-runs$/).map((q) => (q.body as { name?: string }).name)).toEqual(['toolgate (staging servers)']);
    // check-run accepts only true or false: test/action/inputs.test.ts.
  });
});
