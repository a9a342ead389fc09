/**
 * Reading a file as it was at the pull request's base commit, from the local checkout
 * (`git show`-style, via `git cat-file`): the base contract for the change review (docs/design.md §3).
 *
 * `actions/checkout` fetches a single commit by default (`fetch-depth: 1`), so the base commit
 * is often missing: that is a configuration error with the fix spelled out, never "no base".
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { posix } from 'node:path';
import { ConfigError } from '../util/errors.js';

/** Options for {@link readFileAtCommit}. */
export interface ReadAtCommitOptions {
  /** Working directory inside the checkout (the workspace root); paths are relative to it. */
  cwd: string;
  /** Full or abbreviated commit SHA (hex). */
  sha: string;
  /** File path relative to `cwd`, `/`-separated. */
  path: string;
  /** Git executable. Default `git`. */
  git?: string;
  /** Per git call (ms). Default 30,000. */
  timeoutMs?: number;
  /** Largest file accepted (bytes). Default 64 MiB. */
  maxBytes?: number;
}

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The full SHA of commit `sha` in the checkout at `cwd`.
 * @throws ConfigError when `sha` is not hex, git is missing, the directory is not a git checkout,
 *   or the commit is not in the checkout (the fix: `fetch-depth: 0` on `actions/checkout`).
 */
export async function resolveCommit(options: Pick<ReadAtCommitOptions, 'cwd' | 'sha' | 'git' | 'timeoutMs'>): Promise<string> {
  const { cwd, sha } = options;
  if (!/^[0-9a-f]{4,64}$/i.test(sha)) {
    throw new ConfigError(`base commit ${JSON.stringify(sha)} is not a commit SHA`);
  }
  if (!existsSync(cwd)) throw new ConfigError(`workspace directory ${cwd} does not exist`);
  const git = (args: string[]): Promise<GitResult> => runGit(options.git ?? 'git', args, { ...options, path: '.' });
  const commit = await git(['rev-parse', '--verify', '--quiet', `${sha}^{commit}`]);
  if (commit.code !== 0) {
    if (/not a git repository/i.test(commit.stderr)) {
      throw new ConfigError(
        `${cwd} is not a git checkout, so the base contract at ${sha} cannot be read`,
        undefined,
        'Check out the repository with actions/checkout before running toolgate; if it is checked out below the workspace (`path:`), set the input `working-directory` to that path.',
      );
    }
    if (/dubious ownership/i.test(commit.stderr)) {
      throw new ConfigError(`git refuses to read ${cwd}: ${commit.stderr.trim()}`, undefined, `run \`git config --global --add safe.directory ${cwd}\` first`);
    }
    const shallow = (await git(['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true';
    throw new ConfigError(
      `the pull request's base commit ${sha} is not in the checkout${shallow ? ' (it is a shallow clone)' : ''}, ` + 'so the base contract cannot be read',
      undefined,
      'set `fetch-depth: 0` on actions/checkout, or fetch the base commit first ' + `(\`git fetch --no-tags --depth=1 origin ${sha}\`)`,
    );
  }
  return commit.stdout.trim();
}

/**
 * Paths of every symbolic link at commit `sha` under `cwd` (`git ls-tree -r`, mode 120000),
 * relative to `cwd`; empty when git cannot say. A link retargeted between an approval and the
 * head can swap a watched file for another without the file's own path changing.
 */
export async function symlinksAt(cwd: string, sha: string, git = 'git'): Promise<string[]> {
  if (!/^[0-9a-f]{4,64}$/i.test(sha)) return [];
  const r = await runGit(git, ['ls-tree', '-r', '-z', `${sha}^{commit}`], { cwd, sha, path: '.' }).catch(() => undefined);
  if (!r || r.code !== 0) return [];
  return r.stdout.split('\0').flatMap((entry) => {
    const m = /^120000 blob [0-9a-f]+\t(.*)$/s.exec(entry);
    return m ? [m[1] as string] : [];
  });
}

/**
 * The full SHA of a git ref (`origin/main`, a tag, a SHA) in the checkout at `cwd`, for
 * `toolgate check --base REF`.
 * @throws ConfigError when the ref is not a ref name or git does not know it.
 */
export async function resolveRef(cwd: string, ref: string, git = 'git'): Promise<string> {
  // A ref that starts with "-" would be read by git as an option.
  if (!/^[A-Za-z0-9._/@{}~^][A-Za-z0-9._/@{}~^-]*$/.test(ref)) {
    throw new ConfigError(`--base ${JSON.stringify(ref)} is not a git ref`, undefined, 'Pass a branch, tag or commit, e.g. --base origin/main.');
  }
  const r = await runGit(git, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], { cwd, sha: ref, path: '.' });
  if (r.code !== 0) {
    throw new ConfigError(
      `--base ${ref}: git knows no such commit here${/not a git repository/i.test(r.stderr) ? ` (${cwd} is not a git checkout)` : ''}`,
      undefined,
      'Fetch it first (e.g. `git fetch origin main`), or pass another ref.',
    );
  }
  return r.stdout.trim();
}

/** The commit the checkout at `cwd` has checked out (`git rev-parse HEAD`); `undefined` when git cannot say. */
export async function checkedOutCommit(cwd: string, git = 'git'): Promise<string | undefined> {
  const r = await runGit(git, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd, sha: 'HEAD', path: '.' }).catch(() => undefined);
  return r?.code === 0 ? r.stdout.trim() : undefined;
}

/**
 * Where `cwd` lies inside its git repository (`git rev-parse --show-prefix`: `''` at the top,
 * else `sub/dir/`), so paths relative to it can be asked of the GitHub API, which knows the
 * repository's root only. Undefined when `cwd` is not in a git checkout.
 */
export async function repositoryPrefix(cwd: string, git = 'git'): Promise<string | undefined> {
  const r = await runGit(git, ['rev-parse', '--show-prefix'], { cwd, sha: 'HEAD', path: '.' }).catch(() => undefined);
  return r?.code === 0 ? r.stdout.trim() : undefined;
}

/**
 * Returns the file's text at commit `sha`, or `undefined` when the file does not exist there
 * (first adoption: no contract at base).
 *
 * @throws ConfigError when `sha` is not hex, `path` leaves the checkout, git is missing, the
 *   directory is not a git checkout, the commit is not in the checkout (the fix:
 *   `fetch-depth: 0` on `actions/checkout`, or `git fetch origin <sha>`), or the path is a
 *   directory at that commit.
 */
export async function readFileAtCommit(options: ReadAtCommitOptions): Promise<string | undefined> {
  const rel = posix.normalize(options.path.replace(/\\/g, '/'));
  if (rel.startsWith('/') || rel === '..' || rel.startsWith('../') || /^[A-Za-z]:/.test(rel)) {
    throw new ConfigError(`contract path ${JSON.stringify(options.path)} must be relative to the workspace`);
  }
  const resolved = await resolveCommit(options);
  const git = (args: string[]): Promise<GitResult> => runGit(options.git ?? 'git', args, options);
  // `<commit>:./<path>` resolves the path relative to cwd, not the repository root.
  const object = `${resolved}:./${rel}`;
  const type = await git(['cat-file', '-t', object]);
  if (type.code !== 0) return undefined;
  if (type.stdout.trim() !== 'blob') {
    throw new ConfigError(`${rel} is a ${type.stdout.trim()} at the base commit ${options.sha}, not a file`, { file: rel });
  }
  const blob = await git(['cat-file', 'blob', object]);
  if (blob.code !== 0) {
    throw new Error(`git cat-file blob ${object} failed: ${blob.stderr.trim()}`);
  }
  return blob.stdout;
}

/**
 * The environment git runs with. The workspace may hold code from the pull request, and that code
 * may already have run (an install script): replace refs (`refs/replace/*`) and grafts could make
 * the base commit read as anything, so both are ignored; and git gets only PATH and HOME, never
 * the Action's token (`INPUT_*`) or the runner's secrets, in case the repository's config makes it
 * start a program.
 */
function gitEnv(): NodeJS.ProcessEnv {
  const pass = (k: string) => (process.env[k] !== undefined ? { [k]: process.env[k] } : {});
  return {
    ...pass('PATH'),
    ...pass('HOME'),
    ...pass('SystemRoot'),
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_GRAFT_FILE: '/dev/null',
  };
}

/**
 * Which of `paths` differ between commits `from` and `to` (`git diff --name-only`, no external
 * diff or textconv programs). Used to tell whether an approval still covers the head: it does not
 * when a contract, an integration config, the policy or a file an OpenAPI surface is built from
 * changed after the approved commit.
 * @param paths relative to `cwd`; `../` leads out of it (a document outside the workspace but
 *   inside the repository is watched too).
 * @returns the changed paths (relative to the repository's top directory, `/`-separated), or
 *   `undefined` when either commit is not in the checkout (a force-push dropped it): the caller
 *   treats that as changed.
 */
export async function changedPaths(cwd: string, from: string, to: string, paths: readonly string[], git = 'git'): Promise<string[] | undefined> {
  if (![from, to].every((sha) => /^[0-9a-f]{4,64}$/i.test(sha))) return undefined;
  if (paths.length === 0) return [];
  const o: ReadAtCommitOptions = { cwd, sha: to, path: '.' };
  const r = await runGit(
    git,
    ['diff', '--no-ext-diff', '--no-textconv', '--name-only', `${from}^{commit}`, `${to}^{commit}`, '--', ...paths.map((p) => `:(literal)${p}`)],
    o,
  );
  if (r.code !== 0) return undefined;
  return r.stdout.split('\n').filter((l) => l !== '');
}

function runGit(gitBin: string, args: string[], o: ReadAtCommitOptions): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      gitBin,
      args,
      {
        cwd: o.cwd,
        encoding: 'utf8',
        timeout: o.timeoutMs ?? 30_000,
        maxBuffer: o.maxBytes ?? 64 * 1024 * 1024,
        env: gitEnv(),
        windowsHide: true,
      },
      (err, stdout, stderr) => {
        if (err) {
          const e = err as NodeJS.ErrnoException & { code?: unknown; killed?: boolean };
          if (e.code === 'ENOENT') {
            reject(new ConfigError(`git was not found (${gitBin}); it is needed to read the base contract`));
            return;
          }
          if (e.killed || typeof e.code !== 'number') {
            reject(new Error(`git ${args.join(' ')} failed: ${e.message}`, { cause: err }));
            return;
          }
          resolve({ code: e.code, stdout, stderr });
          return;
        }
        resolve({ code: 0, stdout, stderr });
      },
    );
  });
}
