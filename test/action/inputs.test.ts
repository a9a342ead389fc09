/**
 * The Action's inputs as a table: readActionInputs on the environment the runner sets (`INPUT_*`,
 * the event name and ref, GITHUB_WORKSPACE) over a real workspace with a repository checked out
 * below it and a symbolic link out of it. test/e2e/action.test.ts runs the built Action once per
 * path (a good input, and one input error with its `result: error`).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readActionInputs, type ActionInputs } from '../../src/action/inputs.js';
import { ConfigError } from '../../src/util/errors.js';

// <parent>/ws is the runner's workspace, ws/repo a checkout below it (actions/checkout `path:`),
// ws/linked a symbolic link to <parent>/victim, outside it.
const parent = mkdtempSync(join(tmpdir(), 'tg-inputs-'));
const ws = join(parent, 'ws');
mkdirSync(join(ws, 'repo'), { recursive: true });
mkdirSync(join(parent, 'victim'));
writeFileSync(join(parent, 'victim', 'toolgate.yml'), 'sources: []\n');
symlinkSync(join(parent, 'victim'), join(ws, 'linked'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const read = (inputs: Record<string, string>, env: Record<string, string> = {}): ActionInputs =>
  readActionInputs({
    GITHUB_WORKSPACE: ws,
    GITHUB_EVENT_NAME: 'pull_request',
    ...env,
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
  });

/** The ConfigError message reading `inputs` throws. */
function refusal(inputs: Record<string, string>): string {
  try {
    read(inputs);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).message;
  }
  throw new Error(`accepted: ${JSON.stringify(inputs)}`);
}

describe('inputs the Action refuses, naming the input and what it accepts', () => {
  it.each([
    ['fail-on', { 'fail-on': 'warnings' }, 'input "fail-on" must be error, warning, notice or never, not "warnings"'],
    ['check-run', { 'check-run': 'auto' }, 'input "check-run" must be true or false, not "auto"'],
    ['comment', { comment: 'yes' }, 'input "comment" must be true or false, not "yes"'],
    ['mode', { mode: 'update' }, 'input "mode" must be check or audit, not "update"'],
    ['exact', { exact: 'always' }, 'input "exact" must be auto, true or false, not "always"'],
    ['exports: a line that is not TARGET FILE', { exports: 'docker' }, 'input "exports": "docker" is not "TARGET FILE"'],
    ['exports: a file outside the workspace', { exports: 'docker ../../elsewhere.yaml' }, 'input "exports" points outside the workspace: ../../elsewhere.yaml'],
    [
      'working-directory outside the workspace',
      { 'working-directory': '../elsewhere' },
      'input "working-directory" points outside the workspace: ../elsewhere',
    ],
    [
      'working-directory through a symbolic link out of it',
      { 'working-directory': 'linked' },
      'input "working-directory" points outside the workspace: linked',
    ],
    ['working-directory that does not exist', { 'working-directory': 'nope' }, 'input "working-directory": nope does not exist in the workspace'],
    [
      'config through a symbolic link out of the workspace',
      { 'working-directory': 'repo', config: '../linked/toolgate.yml' },
      'input "config" points outside the workspace: ../linked/toolgate.yml',
    ],
  ])('%s', (_what, inputs, message) => {
    expect(refusal(inputs)).toBe(message);
  });
});

describe('inputs as read', () => {
  it('the defaults', () => {
    expect(read({})).toEqual({
      workspace: ws,
      config: 'toolgate.yml',
      sources: [],
      mode: 'check',
      exact: false,
      failOn: 'error',
      reportPath: 'toolgate-report.json',
      sarifPath: '',
      token: '',
      comment: false,
      commentAuthor: 'github-actions[bot]',
      checkRun: true,
      exports: [],
    });
  });

  it.each<[string, Record<string, string>, Partial<ActionInputs>]>([
    ['check-name names the check run', { 'check-name': ' toolgate (staging servers) ' }, { checkName: 'toolgate (staging servers)' }],
    ['check-run: false', { 'check-run': 'FALSE' }, { checkRun: false }],
    ['comment and comment-author', { comment: 'true', 'comment-author': 'toolgate-app[bot]' }, { comment: true, commentAuthor: 'toolgate-app[bot]' }],
    ['working-directory: the checkout below the workspace', { 'working-directory': 'repo' }, { workspace: join(ws, 'repo'), config: 'toolgate.yml' }],
    [
      'exports: one TARGET FILE a line, comments and blank lines skipped',
      { exports: '# gateway configs\n\ndocker deploy/tools.yaml\nclaude-code .claude/settings.json\n' },
      {
        exports: [
          { to: 'docker', file: 'deploy/tools.yaml' },
          { to: 'claude-code', file: '.claude/settings.json' },
        ],
      },
    ],
    ['sources: commas and lines', { sources: 'a, b\nc' }, { sources: ['a', 'b', 'c'] }],
    [
      'sarif-path and report-path as written (checked when written)',
      { 'sarif-path': 'out/x.sarif', 'report-path': 'r.json' },
      { sarifPath: 'out/x.sarif', reportPath: 'r.json' },
    ],
  ])('%s', (_what, inputs, expected) => {
    expect(read(inputs)).toMatchObject(expected);
  });

  it.each<[string, Record<string, string>, Record<string, string>, Pick<ActionInputs, 'exact' | 'failOn'>]>([
    ['a pull request is not exact', {}, {}, { exact: false, failOn: 'error' }],
    ['a tag push is exact: warnings fail', {}, { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/tags/v1.0.0' }, { exact: true, failOn: 'warning' }],
    ['a release is exact', {}, { GITHUB_EVENT_NAME: 'release' }, { exact: true, failOn: 'warning' }],
    ['a branch push is not', {}, { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' }, { exact: false, failOn: 'error' }],
    ['exact: true on a pull request', { exact: 'true' }, {}, { exact: true, failOn: 'warning' }],
    [
      'an explicit fail-on wins over exact',
      { 'fail-on': 'never' },
      { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/tags/v1.0.0' },
      { exact: true, failOn: 'never' },
    ],
  ])('%s', (_what, inputs, env, expected) => {
    expect(read(inputs, env)).toMatchObject(expected);
  });
});
