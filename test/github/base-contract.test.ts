import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileAtCommit } from '../../src/github/base-contract.js';
import { ConfigError } from '../../src/util/errors.js';

const CONTRACT = '.toolgate/widgets.surface.json';
let root: string;
let base: string;
let head: string;
let beforeAdoption: string;

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: root,
    },
  }).trim();

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'toolgate-git-'));
  mkdirSync(join(root, 'repo'));
  const repo = join(root, 'repo');
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), 'hello\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'initial');
  beforeAdoption = git(repo, 'rev-parse', 'HEAD');
  mkdirSync(join(repo, '.toolgate'));
  writeFileSync(join(repo, CONTRACT), '{\n  "tools": ["read_widget"]\n}\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'adopt toolgate');
  base = git(repo, 'rev-parse', 'HEAD');
  writeFileSync(join(repo, CONTRACT), '{\n  "tools": ["delete_widget", "read_widget"]\n}\n');
  git(repo, 'commit', '-q', '-am', 'add delete_widget');
  head = git(repo, 'rev-parse', 'HEAD');
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('readFileAtCommit', () => {
  it('reads the contract as it was at the base commit, not the working tree', async () => {
    const cwd = join(root, 'repo');
    expect(await readFileAtCommit({ cwd, sha: base, path: CONTRACT })).toBe('{\n  "tools": ["read_widget"]\n}\n');
    expect(await readFileAtCommit({ cwd, sha: head, path: CONTRACT })).toContain('delete_widget');
  });

  it('accepts an abbreviated SHA and Windows separators', async () => {
    const cwd = join(root, 'repo');
    expect(await readFileAtCommit({ cwd, sha: base.slice(0, 12), path: CONTRACT.replace('/', '\\') })).toContain('read_widget');
  });

  it('resolves the path relative to cwd (workspace in a subdirectory)', async () => {
    const cwd = join(root, 'repo', '.toolgate');
    expect(await readFileAtCommit({ cwd, sha: base, path: 'widgets.surface.json' })).toContain('read_widget');
  });

  it('returns undefined when the file does not exist at base (first adoption)', async () => {
    const cwd = join(root, 'repo');
    expect(await readFileAtCommit({ cwd, sha: beforeAdoption, path: CONTRACT })).toBeUndefined();
  });

  it('a base commit missing from a shallow checkout is a ConfigError with the fix', async () => {
    const shallow = join(root, 'shallow');
    git(root, 'clone', '-q', '--depth=1', '--no-local', `file://${join(root, 'repo')}`, shallow);
    const err = await readFileAtCommit({ cwd: shallow, sha: base, path: CONTRACT }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    const e = err as ConfigError;
    expect(e.message).toBe(`the pull request's base commit ${base} is not in the checkout (it is a shallow clone), so the base contract cannot be read`);
    expect(e.fix).toMatch(/fetch-depth: 0/);
    expect(e.fix).toContain(`git fetch --no-tags --depth=1 origin ${base}`);
    // Following the advice works.
    git(shallow, 'fetch', '-q', '--no-tags', '--depth=1', 'origin', base);
    expect(await readFileAtCommit({ cwd: shallow, sha: base, path: CONTRACT })).toContain('read_widget');
  });

  it('an unknown commit is a ConfigError', async () => {
    const cwd = join(root, 'repo');
    await expect(readFileAtCommit({ cwd, sha: 'deadbeef'.repeat(5), path: CONTRACT })).rejects.toThrow(/is not in the checkout/);
  });

  it('rejects a non-SHA, a path outside the workspace, a directory, and a non-repository', async () => {
    const cwd = join(root, 'repo');
    await expect(readFileAtCommit({ cwd, sha: 'HEAD~1', path: CONTRACT })).rejects.toThrow(/is not a commit SHA/);
    await expect(readFileAtCommit({ cwd, sha: base, path: '../etc/passwd' })).rejects.toThrow(/must be relative/);
    await expect(readFileAtCommit({ cwd, sha: base, path: '/etc/passwd' })).rejects.toThrow(/must be relative/);
    await expect(readFileAtCommit({ cwd, sha: base, path: '.toolgate' })).rejects.toThrow(/is a tree at the base commit/);
    const plain = mkdtempSync(join(tmpdir(), 'toolgate-nogit-'));
    try {
      await expect(readFileAtCommit({ cwd: plain, sha: base, path: CONTRACT })).rejects.toThrow(/is not a git checkout/);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });

  it('reports a missing git as a ConfigError', async () => {
    await expect(readFileAtCommit({ cwd: join(root, 'repo'), sha: base, path: CONTRACT, git: 'git-does-not-exist' })).rejects.toThrow(/git was not found/);
  });
});
