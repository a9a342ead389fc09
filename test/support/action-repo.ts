import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FakeGitHub } from './fake-github.js';
import { ACTION, CLI, runNode, type RunResult } from './run-dist.js';
import type { CheckResult } from '../../src/judge/result.js';

/** Runs git in `dir` with a fixed identity and no user config. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
    },
  }).trim();
}

/** Writes files (path → text) under `dir`. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
}

/** `toolgate update` with the built CLI (contracts are always written by the tool). */
export async function update(dir: string): Promise<void> {
  const r = await runNode(CLI, ['update'], { cwd: dir });
  if (r.code !== 0) throw new Error(`update failed: ${r.stderr}`);
}

/**
 * The contracts `toolgate update` writes, written in this process by the same pipeline (the
 * policy read as the CLI reads it, runCheck in update mode at the CLI's run root), for a case about
 * something else that needs a contract: starting the CLI (node, the bundle, the tokenizer) costs
 * more than the case it sets up. A server source is started from this process, sandboxed as the
 * CLI starts it. Throws when a source fails (where `update` exits 3: it exits 0 otherwise); returns
 * the run. Cases about `update` itself use {@link update}.
 */
export async function updateInProcess(dir: string): Promise<CheckResult> {
  const [{ loadPolicy }, { runRoot }, { checkRunOptions, runCheck }, { silentLogger }] = await Promise.all([
    import('../../src/config/policy-file.js'),
    import('../../src/cli/prepare.js'),
    import('../../src/run-check.js'),
    import('../../src/util/logger.js'),
  ]);
  const policy = await loadPolicy(join(dir, 'toolgate.yml'));
  const r = await runCheck(checkRunOptions({ policy, mode: 'update', root: runRoot(policy, dir), logger: silentLogger }));
  const failed = r.sources.find((s) => s.failure);
  if (failed) throw new Error(`update failed: ${failed.id}: ${failed.failure?.message}`);
  return r;
}

/** Commits everything; returns the commit SHA. */
export function commit(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

/**
 * Repositories built once per test file and copied for each case. Building one runs `toolgate
 * update` through the CLI (and git) once or twice, which costs more than the Action run a case is
 * about; a copy is the whole directory, `.git` included (the same commits, the same SHAs), in a
 * workspace of its own, so cases still share nothing they write. `dispose` (in `afterAll`)
 * removes the originals.
 */
export class RepoTemplates {
  private readonly built = new Map<string, Promise<{ dir: string; meta: object }>>();
  private readonly parents: string[] = [];

  /**
   * Copies to `dest` (which must not exist) the repository `build` makes in an empty directory,
   * built on the first call for `key`; returns what `build` returned, with `dir: dest`.
   */
  async copy<T extends object>(key: string, build: (dir: string) => Promise<T>, dest: string): Promise<T & { dir: string }> {
    let made = this.built.get(key);
    if (!made) {
      const parent = mkdtempSync(join(tmpdir(), 'tg-template-'));
      this.parents.push(parent);
      const dir = join(parent, 'ws');
      mkdirSync(dir);
      made = build(dir).then((meta) => ({ dir, meta }));
      this.built.set(key, made);
    }
    const { dir, meta } = await made;
    cpSync(dir, dest, { recursive: true, verbatimSymlinks: true });
    return { ...(meta as T), dir: dest };
  }

  /** Removes every original. */
  dispose(): void {
    for (const p of this.parents) rmSync(p, { recursive: true, force: true });
    this.parents.length = 0;
    this.built.clear();
  }
}

/** A repository with a base commit and a pull request's head commit, and a loopback GitHub API serving it. */
export interface PullRequestRepo {
  dir: string;
  baseSha: string;
  headSha: string;
  gh: FakeGitHub;
}

/**
 * A repository whose base commit has `base` (files) and the contract `toolgate update` writes for
 * it (`atBase` may then change the files before the commit), and a pull request whose head commit
 * has `head` and, unless `updateHead` is false, an updated contract (written by `toolgate update`
 * through the built CLI, or with `inProcess` by {@link updateInProcess}). `bob` has write access;
 * the API serves the repository's files at any commit. Everything is removed by the functions
 * pushed on `cleanups`.
 */
export async function pullRequestRepo(
  cleanups: (() => Promise<void> | void)[],
  files: { base: Record<string, string>; head: Record<string, string> },
  opts: { updateHead?: boolean; atBase?: (dir: string) => void; prefix?: string; inProcess?: boolean } = {},
): Promise<PullRequestRepo> {
  const parent = mkdtempSync(join(tmpdir(), opts.prefix ?? 'tg-gate-'));
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  const dir = join(parent, 'ws');
  writeFiles(dir, files.base);
  git(dir, 'init', '-q', '-b', 'main');
  const pin = opts.inProcess ? updateInProcess : update;
  await pin(dir);
  opts.atBase?.(dir);
  const baseSha = commit(dir, 'base');
  writeFiles(dir, files.head);
  if (opts.updateHead !== false) await pin(dir);
  const headSha = commit(dir, 'pull request');
  const gh = await FakeGitHub.start();
  cleanups.push(() => gh.close());
  gh.grant('bob', 'write');
  gh.repoDir = dir;
  return { dir, baseSha, headSha, gh };
}

/** A pull_request event payload in GitHub's shape (fields toolgate reads, plus context). */
export function prEvent(opts: { baseSha: string; headSha: string; author: string; number?: number; fork?: boolean; action?: string }): unknown {
  const repo = { full_name: 'acme/widgets-mcp', name: 'widgets-mcp', owner: { login: 'acme' } };
  return {
    action: opts.action ?? 'synchronize',
    number: opts.number ?? 7,
    pull_request: {
      number: opts.number ?? 7,
      user: { login: opts.author, type: 'User' },
      base: { sha: opts.baseSha, ref: 'main', repo },
      head: {
        sha: opts.headSha,
        ref: 'feature',
        repo: opts.fork ? { full_name: 'mallory/widgets-mcp', name: 'widgets-mcp', owner: { login: 'mallory' } } : repo,
      },
    },
    repository: repo,
  };
}

/** What one run of dist/index.js left behind. */
export interface ActionRun extends RunResult {
  summary: string;
  outputs: Record<string, string>;
  /** Workflow-command annotation lines printed. */
  annotations: string[];
}

/**
 * Runs the built Action as GitHub does: `node dist/index.js` with INPUT_* variables, the event
 * payload in GITHUB_EVENT_PATH, and the step summary and outputs files.
 */
export async function runAction(
  dir: string,
  opts: { event?: unknown; eventName?: string; inputs?: Record<string, string>; apiUrl?: string; env?: Record<string, string> },
): Promise<ActionRun> {
  const summaryFile = join(dir, '..', `${Date.now()}-${Math.random()}.summary.md`);
  const outputFile = join(dir, '..', `${Date.now()}-${Math.random()}.output.txt`);
  writeFileSync(summaryFile, '');
  writeFileSync(outputFile, '');
  const env: Record<string, string> = {
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: dir,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_OUTPUT: outputFile,
    GITHUB_REPOSITORY: 'acme/widgets-mcp',
    GITHUB_EVENT_NAME: opts.eventName ?? (opts.event ? 'pull_request' : 'push'),
    ...(opts.apiUrl ? { GITHUB_API_URL: opts.apiUrl } : {}),
    ...opts.env,
  };
  if (opts.event) {
    const eventFile = join(dir, '..', `${Date.now()}-${Math.random()}.event.json`);
    writeFileSync(eventFile, JSON.stringify(opts.event));
    env.GITHUB_EVENT_PATH = eventFile;
  }
  for (const [k, v] of Object.entries(opts.inputs ?? {})) env[`INPUT_${k.toUpperCase()}`] = v;
  const r = await runNode(ACTION, [], { cwd: dir, env, timeoutMs: 90_000 });
  return {
    ...r,
    summary: readFileSync(summaryFile, 'utf8'),
    outputs: parseOutputs(readFileSync(outputFile, 'utf8')),
    annotations: r.stdout.split('\n').filter((l) => /^::(error|warning|notice)[ :]/.test(l)),
  };
}

/** Parses the GITHUB_OUTPUT file (heredoc form that @actions/core writes). */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i] as string);
    if (!m) continue;
    const [, name, delim] = m;
    const body: string[] = [];
    while (++i < lines.length && lines[i] !== delim) body.push(lines[i] as string);
    out[name as string] = body.join('\n');
  }
  return out;
}
