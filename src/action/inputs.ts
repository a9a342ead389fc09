import { existsSync, realpathSync } from 'node:fs';
import { relative, resolve, isAbsolute, sep } from 'node:path';
import { ConfigError } from '../util/errors.js';
import { FAIL_ON_VALUES, type FailOn, type Mode } from '../judge/result.js';

/** The Action's inputs, validated (see action.yml for their documentation). */
export interface ActionInputs {
  /**
   * Absolute root of the run: GITHUB_WORKSPACE, or the repository checked out below it
   * (`working-directory`, for `actions/checkout` with `path:`). Paths of other inputs are relative to it.
   */
  workspace: string;
  /** Policy path relative to the workspace. */
  config: string;
  /** Source ids to check (all when empty). */
  sources: string[];
  mode: Mode;
  /** Release gating: warnings fail too. */
  exact: boolean;
  /** The lowest level that fails (input `fail-on`; when unset, from `exact`). */
  failOn: FailOn;
  /** Check run name (input `check-name`; default `toolgate`, with the sources when some are selected). */
  checkName?: string;
  /** JSON report path relative to the workspace. */
  reportPath: string;
  /** SARIF output path relative to the workspace; empty = none. */
  sarifPath: string;
  /** Token for reviews, check runs and comments; empty = no GitHub API calls. */
  token: string;
  /** Post/update one sticky PR comment. */
  comment: boolean;
  /** Login whose comments may carry the sticky marker. */
  commentAuthor: string;
  /** `auto`: try a check run, fall back to workflow-command annotations on 403. */
  checkRun: boolean;
  /** Committed exports to check besides toolgate.yml's `exports:` (input `exports`: `TARGET FILE` lines). */
  exports: { to: string; file: string }[];
}

/**
 * The `exports` input: one `TARGET FILE` pair a line (blank lines and `#` comments skipped).
 * @throws ConfigError naming the line that is not a pair.
 */
export function parseExportsInput(text: string): { to: string; file: string }[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const m = /^(\S+)\s+(.+)$/.exec(l);
      if (!m)
        throw new ConfigError(
          `input "exports": ${JSON.stringify(l)} is not "TARGET FILE"`,
          undefined,
          'Write one export a line, its target then its file, e.g. `claude-code .claude/settings.json`.',
        );
      return { to: m[1] as string, file: m[2] as string };
    });
}

/** Splits a list input on commas and newlines. */
export function splitList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Reads input `name` as the runner passes it: `INPUT_<NAME>`, trimmed, '' when unset (as @actions/core's `getInput`). */
type InputReader = (name: string) => string;

const inputsIn =
  (env: NodeJS.ProcessEnv): InputReader =>
  (name) =>
    (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();

/** A true/false input; anything else (`auto`, `yes`, a typo) is refused, never taken as a default. */
function bool(input: InputReader, name: string, fallback: boolean): boolean {
  const v = (input(name) || String(fallback)).toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new ConfigError(`input "${name}" must be true or false, not "${v}"`, undefined, `Set \`${name}: true\` or \`${name}: false\`.`);
}

/** Whether `rel` (a `relative()` result) leaves its base: `..` as a whole segment, or another root. */
const leaves = (rel: string) => rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);

/**
 * `value` relative to `workspace`, which it must not leave, as written or through a symbolic link
 * (the real paths are compared when the path exists: every later "inside" check trusts it).
 */
function inWorkspace(workspace: string, name: string, value: string): string {
  const abs = resolve(workspace, value);
  const rel = relative(workspace, abs);
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return undefined;
    }
  };
  const [realRoot, realPath] = [real(workspace), real(abs)];
  if (leaves(rel) || (realRoot !== undefined && realPath !== undefined && leaves(relative(realRoot, realPath)))) {
    throw new ConfigError(
      `input "${name}" points outside the workspace: ${value}`,
      undefined,
      `Give a path inside ${workspace} (symbolic links are followed).`,
    );
  }
  return rel;
}

/**
 * Reads the inputs (`INPUT_*`) and what they depend on (`GITHUB_WORKSPACE`, `GITHUB_EVENT_NAME`,
 * `GITHUB_REF`) from `env`; touches the file system only to resolve `working-directory`, `config`
 * and `exports` inside the workspace.
 * @throws ConfigError for an invalid value (names the input and the accepted values).
 */
export function readActionInputs(env: NodeJS.ProcessEnv = process.env): ActionInputs {
  const input = inputsIn(env);
  const runnerWorkspace = resolve(env.GITHUB_WORKSPACE ?? process.cwd());
  const workingDirectory = input('working-directory') || '.';
  const workspace = resolve(runnerWorkspace, inWorkspace(runnerWorkspace, 'working-directory', workingDirectory));
  if (!existsSync(workspace)) {
    throw new ConfigError(
      `input "working-directory": ${workingDirectory} does not exist in the workspace`,
      undefined,
      'Give the `path:` the repository was checked out to with actions/checkout.',
    );
  }
  const mode = input('mode') || 'check';
  if (mode !== 'check' && mode !== 'audit') {
    throw new ConfigError(
      `input "mode" must be check or audit, not "${mode}"`,
      undefined,
      'Set `mode: check` (default) or `mode: audit` in the workflow step.',
    );
  }
  const exactInput = (input('exact') || 'auto').toLowerCase();
  if (!['auto', 'true', 'false'].includes(exactInput)) {
    throw new ConfigError(
      `input "exact" must be auto, true or false, not "${exactInput}"`,
      undefined,
      'Leave it unset (auto: exact on tag pushes and releases).',
    );
  }
  const event = env.GITHUB_EVENT_NAME ?? '';
  const isRelease = event === 'release' || (event === 'push' && (env.GITHUB_REF ?? '').startsWith('refs/tags/'));
  const exact = exactInput === 'auto' ? isRelease : exactInput === 'true';
  const failOnInput = input('fail-on').toLowerCase();
  if (failOnInput && !(FAIL_ON_VALUES as readonly string[]).includes(failOnInput)) {
    throw new ConfigError(
      `input "fail-on" must be ${FAIL_ON_VALUES.slice(0, -1).join(', ')} or ${FAIL_ON_VALUES.at(-1)}, not "${failOnInput}"`,
      undefined,
      'Leave it unset (errors fail; with `exact`, warnings too), or set one of those levels.',
    );
  }
  const checkName = input('check-name');
  return {
    workspace,
    config: inWorkspace(workspace, 'config', input('config') || 'toolgate.yml'),
    sources: splitList(input('sources')),
    mode,
    exact,
    failOn: (failOnInput as FailOn) || (exact ? 'warning' : 'error'),
    ...(checkName ? { checkName } : {}),
    // Where outputs may go (the workspace or RUNNER_TEMP, links resolved) is checked when they are
    // written (util/safe-path `resolveInside`): here only the text.
    reportPath: input('report-path') || 'toolgate-report.json',
    sarifPath: input('sarif-path'),
    token: input('github-token'),
    comment: bool(input, 'comment', false),
    commentAuthor: input('comment-author') || 'github-actions[bot]',
    checkRun: bool(input, 'check-run', true),
    exports: parseExportsInput(input('exports')).map((e) => ({ ...e, file: inWorkspace(workspace, 'exports', e.file) })),
  };
}
