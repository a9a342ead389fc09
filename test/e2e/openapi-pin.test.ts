/**
 * Where OpenAPI calls go and what they carry, end to end (docs/design.md §7), once per path: a
 * real git repository whose base commit serves a real document (the Swagger Petstore;
 * test/fixtures/openapi/README.md) and whose pull request edits one pinned field and runs
 * `toolgate update`, judged by the built CLI (`check --base`) and by the built Action against a
 * loopback GitHub API, where it fails until someone with write access approves (each pinned field
 * is a row of test/github/approval-gate-openapi.test.ts). Then the approval's staleness: an
 * approval stops counting when a file the surface is built from changes after it, even when the
 * contract does not; and the upgrade from contract format 1.
 */
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commit, prEvent, pullRequestRepo, runAction, updateInProcess, writeFiles, type ActionRun, type PullRequestRepo } from '../support/action-repo.js';
import { edit, fixtureText } from '../support/openapi-docs.js';
import { runCli } from '../support/run-dist.js';
import { parseContract } from '../../src/contract/store.js';
import { serializeContract } from '../../src/contract/serialize.js';
import { assembleSurface, deriveTool } from '../../src/surface/normalize.js';

const POLICY = 'sources:\n  - id: pets\n    openapi: api/integration.json\n';
const integration = (spec: string, include: string[], policies: Record<string, string> = {}) =>
  JSON.stringify({ type: 'openapi', spec, include, policies }, null, 2) + '\n';

const PETSTORE = fixtureText('petstore3/openapi.yaml');
const PETSTORE_FILES = {
  'api/openapi.yaml': PETSTORE,
  'api/integration.json': integration('./openapi.yaml', ['getPetById', 'findPetsByStatus', 'getInventory', 'addPet'], { addPet: 'read' }),
};

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

type Pr = PullRequestRepo;

/**
 * A repository whose base commit has `base` and its contract, and alice's pull request with `head`
 * and an updated contract, written in this process by the pipeline `update` runs
 * (updateInProcess); the upgrade cases below run `toolgate update` through the built CLI.
 */
const pullRequest = (base: Record<string, string>, head: Record<string, string>): Promise<Pr> =>
  pullRequestRepo(cleanups, { base: { 'toolgate.yml': POLICY, ...base }, head }, { prefix: 'tg-openapi-pin-', inProcess: true });

const check = (pr: Pr): Promise<ActionRun> =>
  runAction(pr.dir, {
    event: prEvent({ baseSha: pr.baseSha, headSha: pr.headSha, author: 'alice' }),
    apiUrl: pr.gh.url,
    inputs: { 'github-token': 'ghs_test' },
  });
const approve = (pr: Pr, commitId = pr.headSha) => pr.gh.addReview(7, { user: 'bob', state: 'APPROVED', commit_id: commitId });

type Found = { ruleId: string; level: string; tool?: string; message: string };
const findings = (r: ActionRun) => (JSON.parse(readFileSync(r.outputs['report-path'] as string, 'utf8')) as { findings: Found[] }).findings;

/**
 * A pull request that edits a pinned field: the rule, the tool, what the message says, base files,
 * head files. One case runs the built CLI and Action; every pinned field (servers, security,
 * parameters, media types, Swagger 2.0, a server variable) is a row of
 * test/github/approval-gate-openapi.test.ts, judged in-process with the same assertions.
 */
const CHANGES: [string, string, string, string, Record<string, string>, Record<string, string>][] = [
  [
    "the document's `servers` URL moves to another host",
    'operation-server-changed',
    'getPetById',
    'server https://petstore3.swagger.io/api/v3 → https://petstore3.attacker.example/api/v3',
    PETSTORE_FILES,
    { 'api/openapi.yaml': edit(PETSTORE, 'url: https://petstore3.swagger.io/api/v3', 'url: https://petstore3.attacker.example/api/v3') },
  ],
];

describe('a change to where calls go fails, through the CLI and the Action, until approved', () => {
  it.each(CHANGES)(
    '%s: %s',
    async (_what, rule, tool, says, base, head) => {
      const pr = await pullRequest(base, head);
      // The CLI: the same change review, with the base commit's policy and contract from git.
      const cli = await runCli(['check', '--base', pr.baseSha, '--format', 'json'], { cwd: pr.dir });
      expect(cli.code, cli.stderr).toBe(1);
      const fromCli = (JSON.parse(cli.stdout) as { findings: Found[] }).findings.filter((f) => f.ruleId === rule);
      expect(
        fromCli.map((f) => [f.tool, f.level]),
        cli.stdout,
      ).toContainEqual([tool, 'error']);
      expect(fromCli.find((f) => f.tool === tool)?.message).toContain(says);

      // The Action on the pull request: an error until bob (write access) approves, then a notice.
      const r = await check(pr);
      expect(r.code, r.stdout).toBe(1);
      const found = findings(r).filter((f) => f.ruleId === rule && f.tool === tool);
      expect(found.map((f) => f.level)).toEqual(['error']);
      expect(found[0]?.message).toContain(says);
      expect(found[0]?.message).toMatch(/someone other than @alice with write access/);

      approve(pr);
      const ok = await check(pr);
      expect(ok.code, ok.stdout).toBe(0);
      expect(findings(ok).find((f) => f.ruleId === rule && f.tool === tool)).toMatchObject({
        level: 'notice',
        message: expect.stringMatching(/approved by @bob$/),
      });
    },
    120_000,
  );
});

describe('an approval covers the files the surface was built from', () => {
  it("a commit after the approval that changes only the document (a server's description: the contract stays the same) makes it stale; a docs-only commit does not", async () => {
    const pr = await pullRequest(PETSTORE_FILES, {
      'api/openapi.yaml': edit(PETSTORE, 'url: https://petstore3.swagger.io/api/v3', 'url: https://petstore3.attacker.example/api/v3'),
    });
    approve(pr);
    writeFiles(pr.dir, { 'README.md': 'docs only\n' });
    pr.headSha = commit(pr.dir, 'docs');
    expect((await check(pr)).code, 'a docs-only commit keeps the approval').toBe(0);

    const contract = readFileSync(join(pr.dir, '.toolgate/pets.surface.json'), 'utf8');
    const doc = readFileSync(join(pr.dir, 'api/openapi.yaml'), 'utf8');
    writeFiles(pr.dir, {
      'api/openapi.yaml': edit(
        doc,
        '  - url: https://petstore3.attacker.example/api/v3\n',
        '  - url: https://petstore3.attacker.example/api/v3\n    description: where the pets live\n',
      ),
    });
    await updateInProcess(pr.dir);
    expect(readFileSync(join(pr.dir, '.toolgate/pets.surface.json'), 'utf8'), 'the contract does not change').toBe(contract);
    pr.headSha = commit(pr.dir, 'only the servers of the document, after the approval');
    const r = await check(pr);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/@bob \(approved [0-9a-f]{7}; api\/openapi\.yaml changed since\)/);
    expect(findings(r).find((f) => f.ruleId === 'operation-server-changed')?.level).toBe('error');
  }, 120_000);

  it('a file the document refers to ($ref) is watched too', async () => {
    const split = {
      'api/openapi.yaml': fixtureText('split/openapi.yaml'),
      'api/components/common.yaml': fixtureText('split/components/common.yaml'),
      'api/integration.json': integration('./openapi.yaml', ['listItems', 'createItem']),
    };
    const pr = await pullRequest(split, { 'README.md': 'a change nobody reviews\n' });
    // The PR adds a new server, bob approves it…
    writeFiles(pr.dir, { 'api/openapi.yaml': `${split['api/openapi.yaml']}servers:\n  - url: https://items.example.com\n` });
    await updateInProcess(pr.dir);
    pr.headSha = commit(pr.dir, 'a new server');
    approve(pr);
    expect((await check(pr)).code).toBe(0);
    // …then a commit touches only the referenced file, in a part the surface does not pin.
    const common = readFileSync(join(pr.dir, 'api/components/common.yaml'), 'utf8');
    writeFiles(pr.dir, { 'api/components/common.yaml': `${common}x-note: edited after the approval\n` });
    pr.headSha = commit(pr.dir, 'edit the referenced file');
    const r = await check(pr);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/@bob \(approved [0-9a-f]{7}; api\/components\/common\.yaml changed since\)/);
  }, 120_000);

  it('a document reached through a symbolic link: a change to the file it points to makes the approval stale', async () => {
    // The pull request makes api/openapi.yaml a link to specs/petstore.yaml (one spec shared by several integrations), with a new server.
    const pr = await pullRequest(PETSTORE_FILES, {
      'specs/petstore.yaml': edit(PETSTORE, 'url: https://petstore3.swagger.io/api/v3', 'url: https://petstore3.attacker.example/api/v3'),
    });
    rmSync(join(pr.dir, 'api/openapi.yaml'));
    symlinkSync('../specs/petstore.yaml', join(pr.dir, 'api/openapi.yaml'));
    await updateInProcess(pr.dir);
    pr.headSha = commit(pr.dir, 'the document through a link, with a new server');
    approve(pr);
    expect((await check(pr)).code, 'approved').toBe(0);

    // After the approval only the link's target changes, in a part the contract does not pin.
    const doc = readFileSync(join(pr.dir, 'specs/petstore.yaml'), 'utf8');
    writeFiles(pr.dir, { 'specs/petstore.yaml': `${doc.trimEnd()}\nx-note: edited after the approval\n` });
    await updateInProcess(pr.dir);
    pr.headSha = commit(pr.dir, 'edit the target of the link');
    const r = await check(pr);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/@bob \(approved [0-9a-f]{7}; specs\/petstore\.yaml changed since\)/);
  }, 120_000);
});

/**
 * The contract as toolgate wrote it before it pinned call fields (format 1): the same tools
 * without them in `origin`, no `source.files`, digests computed over what remains.
 */
function asFormat1(text: string): string {
  const surface = parseContract(text, 'contract').surface;
  const tools = surface.tools.map((t) => {
    const { method, path, operationId, promoted } = t.origin!;
    const origin = { method, path, ...(operationId !== undefined ? { operationId } : {}), ...(promoted ? { promoted } : {}) };
    return deriveTool({ ...t, origin }, t.safetyClass === 'write' ? undefined : t.safetyClass);
  });
  const { files: _files, ...source } = surface.source;
  const old = { ...assembleSurface({ source }, tools), server: surface.server!, ...(surface.tokens ? { tokens: surface.tokens } : {}) };
  return serializeContract(old).text.replace('"formatVersion": 2,', '"formatVersion": 1,');
}

describe('upgrading from contract format 1 (before toolgate pinned where calls go)', () => {
  /** A repository whose base commit has the Petstore and a contract of format 1. */
  const upgrade = (runUpdate: boolean): Promise<Pr> =>
    pullRequestRepo(
      cleanups,
      { base: { 'toolgate.yml': POLICY, ...PETSTORE_FILES }, head: { 'README.md': 'bump toolgate\n' } },
      {
        prefix: 'tg-openapi-pin-',
        updateHead: runUpdate,
        atBase: (dir) => {
          const file = join(dir, '.toolgate/pets.surface.json');
          writeFileSync(file, asFormat1(readFileSync(file, 'utf8')));
        },
      },
    );

  it('a head contract of format 1: one stale contract that says to run toolgate update, not a finding per operation', async () => {
    const pr = await upgrade(false);
    const r = await check(pr);
    expect(r.code, r.stdout).toBe(1);
    const stale = findings(r).filter((f) => f.ruleId === 'contract-stale');
    expect(stale).toHaveLength(1);
    expect(stale[0]?.message).toMatch(/an older toolgate wrote it \(contract format 1, .*\): run `toolgate update` and commit it/);
  }, 120_000);

  it('after `toolgate update`: one finding for the source, naming the operations pinned for the first time, cleared by an approval', async () => {
    const pr = await upgrade(true);
    const r = await check(pr);
    expect(r.code, r.stdout).toBe(1);
    const call = findings(r).filter((f) => f.ruleId.startsWith('operation-'));
    expect(call).toHaveLength(1);
    expect(call[0]).toMatchObject({ ruleId: 'operation-server-changed', level: 'error' });
    expect(call[0]?.tool).toBeUndefined();
    expect(call[0]?.message).toContain('of 4 reachable operations (addPet, findPetsByStatus, getInventory, getPetById) are pinned here for the first time');
    expect(
      findings(r)
        .filter((f) => f.level === 'error')
        .map((f) => f.ruleId),
    ).toEqual(['operation-server-changed']);
    approve(pr);
    expect((await check(pr)).code).toBe(0);
  }, 120_000);
});
