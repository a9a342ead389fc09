/**
 * The gate holds (docs/design.md §7), end to end: the built Action on real git repositories (a base commit
 * and a pull request's head commit that ran `toolgate update`), against a loopback GitHub API
 * whose reviews carry `author_association` and whose collaborator-permission endpoint answers.
 * The contracts are written in this process by the pipeline `update` runs (updateInProcess), but
 * in 'a stale approval', whose second contract `toolgate update` writes through the built CLI.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commit,
  git,
  prEvent,
  pullRequestRepo,
  runAction,
  update,
  updateInProcess,
  writeFiles,
  type ActionRun,
  type PullRequestRepo,
} from '../support/action-repo.js';
import { FakeGitHub } from '../support/fake-github.js';

const POLICY = 'sources:\n  - id: widgets\n    recorded: tools.json\n';
const CLOSED = { type: 'object', properties: { id: { type: 'string', description: 'Widget id.' } }, additionalProperties: false };
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const WRITE = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
const lookup = { name: 'lookup', description: 'Looks a widget up.', inputSchema: CLOSED, annotations: READ };
const remove = { name: 'delete_widget', description: 'Deletes a widget.', inputSchema: CLOSED, annotations: WRITE };
const tools = (...list: object[]) => JSON.stringify({ tools: list }, null, 2);

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

type Pr = PullRequestRepo;

/**
 * A repository whose base commit has `base` (files) and the contract `toolgate update` writes for
 * it, and a pull request by alice whose head commit has `head` and an updated contract. `bob` has
 * write access; the API serves the repository's files at any commit.
 */
const pullRequest = (base: Record<string, string>, head: Record<string, string>, opts: { updateHead?: boolean } = {}): Promise<Pr> =>
  pullRequestRepo(cleanups, { base: { 'toolgate.yml': POLICY, ...base }, head }, { ...opts, inProcess: true });

/** A pull request that adopts toolgate: the base commit has no toolgate.yml, the head adds `files` and the contract. */
async function adoption(files: Record<string, string>): Promise<Pr> {
  const parent = mkdtempSync(join(tmpdir(), 'tg-gate-'));
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  const dir = join(parent, 'ws');
  writeFiles(dir, { 'README.md': 'a server\n' });
  git(dir, 'init', '-q', '-b', 'main');
  const baseSha = commit(dir, 'before toolgate');
  writeFiles(dir, files);
  await updateInProcess(dir);
  const headSha = commit(dir, 'adopt toolgate');
  const gh = await FakeGitHub.start();
  cleanups.push(() => gh.close());
  gh.grant('bob', 'write');
  gh.repoDir = dir;
  return { dir, baseSha, headSha, gh };
}

const check = (pr: Pr, env: Record<string, string> = {}): Promise<ActionRun> =>
  runAction(pr.dir, {
    event: prEvent({ baseSha: pr.baseSha, headSha: pr.headSha, author: 'alice' }),
    apiUrl: pr.gh.url,
    inputs: { 'github-token': 'ghs_test' },
    env,
  });
const approve = (pr: Pr, user: string, extra: { author_association?: string; commit_id?: string; state?: string } = {}) =>
  pr.gh.addReview(7, {
    user,
    state: extra.state ?? 'APPROVED',
    commit_id: extra.commit_id ?? pr.headSha,
    ...(extra.author_association ? { author_association: extra.author_association } : {}),
  });
const report = (r: ActionRun) =>
  JSON.parse(readFileSync(r.outputs['report-path'] as string, 'utf8')) as { findings: { ruleId: string; level: string; tool?: string; message: string }[] };

// Each widening kind, and who counts as an approver, are tables over the same logic
// (test/github/approval-gate.test.ts); here the built Action runs once per path.
describe('a widening change fails without an eligible approval and passes with one', () => {
  it('tool-added: a new destructive write tool', async () => {
    const rule = 'tool-added';
    const pr = await pullRequest({ 'tools.json': tools(lookup) }, { 'tools.json': tools(lookup, remove) });
    const r = await check(pr);
    expect(r.code, r.stdout).toBe(1);
    const found = report(r).findings.filter((f) => f.ruleId === rule);
    expect(found.length, r.stdout).toBeGreaterThan(0);
    expect(found.every((f) => f.level === 'error' && /someone other than @alice with write access/.test(f.message))).toBe(true);

    approve(pr, 'bob');
    const ok = await check(pr);
    expect(ok.code, ok.stdout).toBe(0);
    expect(
      report(ok)
        .findings.filter((f) => f.ruleId === rule)
        .every((f) => f.level === 'notice' && f.message.endsWith('approved by @bob')),
    ).toBe(true);
    // The permission was asked of the API, not assumed from author_association.
    expect(pr.gh.requestsTo('GET', /\/collaborators\/bob\/permission$/).length).toBeGreaterThan(0);
  }, 60_000);
});

describe('approvals that do not count', () => {
  const newTool = () => pullRequest({ 'tools.json': tools(lookup) }, { 'tools.json': tools(lookup, remove) });

  // An account with no association (NONE) that the permission endpoint would call a writer is a row
  // of test/github/eligibility.test.ts; the Action prints why such an approval does not count in
  // 'on first adoption the PR cannot name its own reviewers' below.
  it('a stale approval: the contract changed after the approved commit; a later docs-only commit keeps it', async () => {
    const pr = await newTool();
    const approved = pr.headSha;
    approve(pr, 'bob', { commit_id: approved });
    writeFiles(pr.dir, { 'README.md': 'docs only\n' });
    pr.headSha = commit(pr.dir, 'docs');
    expect((await check(pr)).code, 'a docs-only commit keeps the approval').toBe(0);

    writeFiles(pr.dir, { 'tools.json': tools(lookup, remove, { ...remove, name: 'wipe_all' }) });
    await update(pr.dir);
    pr.headSha = commit(pr.dir, 'one more tool after the approval');
    const r = await check(pr);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/@bob \(approved [0-9a-f]{7}; \.toolgate\/widgets\.surface\.json/);
  }, 60_000);
});

describe('approvals and the base cannot be walked around (found by an attack on the gate)', () => {
  it('a stale approval through a symlinked contract directory: the real path is watched too', async () => {
    const pr = await pullRequest({ 'tools.json': tools(lookup) }, { 'README.md': 'docs\n' }, { updateHead: false });
    // Commit A: move the contracts behind a symlink; the surface is the same, and bob approves it.
    git(pr.dir, 'mv', '.toolgate', 'contracts');
    execFileSync('ln', ['-s', 'contracts', '.toolgate'], { cwd: pr.dir });
    const approved = commit(pr.dir, 'contracts behind a symlink');
    approve(pr, 'bob', { commit_id: approved });
    // Commit B: a new destructive tool, written through the symlink.
    writeFiles(pr.dir, { 'tools.json': tools(lookup, remove) });
    await updateInProcess(pr.dir);
    pr.headSha = commit(pr.dir, 'a new tool after the approval');
    const r = await check(pr);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/@bob \(approved [0-9a-f]{7}; .*contracts\/widgets\.surface\.json/);
  }, 60_000);

  it('a contents API that answers 404 for every path (a token that cannot see the repository) is not read as a first adoption', async () => {
    const pr = await pullRequest(
      { 'tools.json': tools(lookup) },
      { 'toolgate.yml': `${POLICY}rules:\n  policy-relaxed: off\n  tool-added: off\n`, 'tools.json': tools(lookup, remove) },
    );
    pr.gh.fail({ method: 'GET', path: /\/contents\//, status: 404, body: { message: 'Not Found' }, times: 100 });
    const r = await check(pr);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('does not exist at the base commit');
    expect(r.stdout).toContain('but the checkout has it there');
  }, 60_000);

  it('on first adoption the PR cannot name its own reviewers: write access is still required', async () => {
    const pr = await adoption({ 'toolgate.yml': `${POLICY}review:\n  reviewers: [mallory-alt]\n`, 'tools.json': tools(remove) });
    approve(pr, 'mallory-alt', { author_association: 'NONE' });
    const r = await check(pr);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toContain('@mallory-alt (author_association NONE: no write access)');
  }, 60_000);

  it('an approval stays stale when a link in the middle of a symlink chain is retargeted', async () => {
    const pr = await pullRequest({ 'tools.json': tools(lookup) }, { 'README.md': 'docs\n' }, { updateHead: false });
    // Commit A: .toolgate/widgets.surface.json -> ../contracts/current.json -> v1.json; v2.json (with a new tool) already there.
    mkdirSync(join(pr.dir, 'contracts'));
    renameSync(join(pr.dir, '.toolgate/widgets.surface.json'), join(pr.dir, 'contracts/v1.json'));
    writeFiles(pr.dir, { 'tools.json': tools(lookup, remove) });
    await updateInProcess(pr.dir); // the contract that serves the new tool
    renameSync(join(pr.dir, '.toolgate/widgets.surface.json'), join(pr.dir, 'contracts/v2.json'));
    writeFiles(pr.dir, { 'tools.json': tools(lookup) });
    symlinkSync('v1.json', join(pr.dir, 'contracts/current.json'));
    symlinkSync('../contracts/current.json', join(pr.dir, '.toolgate/widgets.surface.json'));
    const approved = commit(pr.dir, 'contracts behind a chain of links');
    approve(pr, 'bob', { commit_id: approved });
    // Commit B: retarget only the middle link, and serve the new tool.
    rmSync(join(pr.dir, 'contracts/current.json'));
    symlinkSync('v2.json', join(pr.dir, 'contracts/current.json'));
    writeFiles(pr.dir, { 'tools.json': tools(lookup, remove) });
    pr.headSha = commit(pr.dir, 'retarget the middle link');
    const r = await check(pr);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toContain('contracts/current.json');
  }, 60_000);

  it("on first adoption the PR's own policy cannot turn the gate off", async () => {
    const pr = await adoption({
      'toolgate.yml': `${POLICY}rules:\n  policy-relaxed: off\n  tool-added: off\noverrides:\n  - tools: ["*"]\n    rules: { tool-added: notice }\n`,
      'tools.json': tools(remove),
    });
    const r = await check(pr);
    expect(r.code, r.stdout).toBe(1);
    const f = report(r).findings;
    expect(f.find((x) => x.ruleId === 'policy-relaxed')?.level).toBe('error');
    expect(f.find((x) => x.ruleId === 'tool-added')?.level).toBe('error');
  }, 60_000);

  it('an event payload without the author: no approval counts', async () => {
    const pr = await pullRequest({ 'tools.json': tools(lookup) }, { 'tools.json': tools(lookup, remove) });
    approve(pr, 'bob');
    const event = prEvent({ baseSha: pr.baseSha, headSha: pr.headSha, author: 'alice' }) as { pull_request: { user?: unknown } };
    delete event.pull_request.user;
    const r = await runAction(pr.dir, { event, apiUrl: pr.gh.url, inputs: { 'github-token': 'ghs_test' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('no author login');
  }, 60_000);
});

describe('the base branch policy judges the pull request', () => {
  // The other relaxations are a table over the same logic (test/github/approval-gate.test.ts).
  it('an override that turns tool-added off for every tool: the base policy still applies and the relaxation is an error', async () => {
    const shell = { ...remove, name: 'run_shell' };
    const pr = await pullRequest(
      { 'toolgate.yml': POLICY, 'tools.json': tools(lookup) },
      { 'toolgate.yml': `${POLICY}overrides:\n  - tools: ["*"]\n    rules:\n      tool-added: off\n`, 'tools.json': tools(lookup, shell) },
    );
    const r = await check(pr);
    expect(r.code, r.stdout).toBe(1);
    const f = report(r).findings;
    expect(
      f.some((x) => x.ruleId === 'policy-relaxed' && x.level === 'error'),
      r.stdout,
    ).toBe(true);
    expect(f.some((x) => x.ruleId === 'tool-added' && x.tool === 'run_shell' && x.level === 'error')).toBe(true);
  }, 60_000);

  it('the relaxation is annotated on the head policy line that makes it', async () => {
    const pr = await pullRequest({ 'tools.json': tools(lookup) }, { 'toolgate.yml': `${POLICY}rules:\n  description-changed: off\n` });
    const r = await check(pr);
    expect(r.code).toBe(1);
    const checkRun = [...pr.gh.checkRuns.values()][0];
    const annotation = checkRun?.annotations.find((a) => String(a['message']).includes('description-changed'));
    expect(annotation).toMatchObject({ path: 'toolgate.yml', start_line: 5, annotation_level: 'failure' });
  }, 60_000);

  it('a tightening passes: a notice, applied after the merge', async () => {
    const pr = await pullRequest({ 'tools.json': tools(lookup) }, { 'toolgate.yml': `${POLICY}review:\n  fresh: true\n` });
    const r = await check(pr);
    expect(r.code, r.stdout).toBe(0);
    expect(report(r).findings.find((x) => x.ruleId === 'policy-tightened')).toMatchObject({ level: 'notice' });
  }, 60_000);

  it("the PR's own policy cannot approve itself: reviewers it adds do not count in this PR", async () => {
    const pr = await pullRequest(
      { 'toolgate.yml': `${POLICY}review:\n  reviewers: [sec-lead]\n`, 'tools.json': tools(lookup) },
      { 'toolgate.yml': `${POLICY}review:\n  reviewers: [sec-lead, bob]\n`, 'tools.json': tools(lookup, remove) },
    );
    approve(pr, 'bob');
    const r = await check(pr);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('not named in review.reviewers');
  }, 60_000);

  it('first adoption: the head policy applies, is one change to approve, and every tool is new', async () => {
    const pr = await adoption({ 'toolgate.yml': POLICY, 'tools.json': tools(lookup, remove) });
    const r = await check(pr);
    expect(r.code).toBe(1);
    const f = report(r).findings;
    expect(f.filter((x) => x.ruleId === 'policy-relaxed').map((x) => x.message)).toEqual([
      expect.stringContaining('toolgate.yml is new in this pull request (first adoption)'),
    ]);
    expect(
      f
        .filter((x) => x.ruleId === 'tool-added')
        .map((x) => x.tool)
        .sort(),
    ).toEqual(['delete_widget', 'lookup']);
    approve(pr, 'bob');
    expect((await check(pr)).code).toBe(0);
  }, 60_000);

  it("a source that passes the runner's cache token to its server is refused before anything starts", async () => {
    const head = POLICY.replace(
      '    recorded: tools.json\n',
      '    mcp:\n      command: node\n      args: [-e, "process.exit(9)"]\n      env: [ACTIONS_RUNTIME_TOKEN]\n',
    );
    const pr = await pullRequest({ 'tools.json': tools(lookup) }, { 'toolgate.yml': head }, { updateHead: false });
    const r = await check(pr, { ACTIONS_RUNTIME_TOKEN: 'secret-cache-token' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error file=toolgate.yml,line=6,title=toolgate configuration error::');
    expect(r.stdout).toMatch(/passes the runner's own .*ACTIONS_RUNTIME_TOKEN.* to its server/);
    expect(r.stdout).not.toContain('secret-cache-token');
  }, 60_000);
});

describe('the base is read where the pull request cannot forge it', () => {
  it('git replace refs planted in the workspace change nothing: the base comes from the API, and git ignores them too', async () => {
    const pr = await pullRequest({ 'tools.json': tools(lookup) }, { 'tools.json': tools(lookup, remove) });
    // What a postinstall script could do: make the base commit read as the head.
    execFileSync('git', ['replace', '-f', pr.baseSha, pr.headSha], { cwd: pr.dir });
    expect(git(pr.dir, 'show', `${pr.baseSha}:.toolgate/widgets.surface.json`)).toContain('delete_widget');
    const viaApi = await check(pr);
    expect(viaApi.code).toBe(1);
    expect(report(viaApi).findings.some((f) => f.ruleId === 'tool-added' && f.tool === 'delete_widget')).toBe(true);

    delete pr.gh.repoDir; // a token without contents: read: the base is read with git
    const viaGit = await check(pr);
    expect(viaGit.code).toBe(1);
    expect(viaGit.stdout).toContain('reading the base commit with git instead');
    expect(report(viaGit).findings.some((f) => f.ruleId === 'tool-added' && f.tool === 'delete_widget')).toBe(true);
  }, 60_000);
});
