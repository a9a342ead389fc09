/**
 * The Action's verdict as a table: the inputs read from the runner's environment
 * (readActionInputs), the real pipeline in-process (runCheck on a recorded listing pinned by
 * `update` mode, with the options the Action builds) and stepVerdict, which turns the result and
 * `fail-on` into the `result` and count outputs and the message the step fails with (exit 1).
 * test/e2e/action.test.ts runs the built Action once per path (pass, fail, input error).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readActionInputs } from '../../src/action/inputs.js';
import { stepVerdict } from '../../src/action/check.js';
import { parsePolicy } from '../../src/config/policy.js';
import { checkRunOptions, runCheck } from '../../src/run-check.js';
import { silentLogger } from '../../src/util/logger.js';

const POLICY = 'sources:\n  - id: widgets\n    recorded: tools.json\n';
/** No annotations at all: an unannotated-tool warning. */
const unannotated = { name: 'ping', inputSchema: { type: 'object', additionalProperties: false } };
/** Only readOnlyHint: a partially-annotated-tool notice. */
const partial = { name: 'pong', inputSchema: { type: 'object', additionalProperties: false }, annotations: { readOnlyHint: true } };

/** A workspace per listing, each pinned by `update` once. */
const LISTINGS = { 'a warning and a notice': [unannotated, partial], 'a notice': [partial], 'a tool that is no longer served': [] as object[] };
type Listing = keyof typeof LISTINGS;
const workspaces = new Map<Listing, string>();

beforeAll(async () => {
  for (const [name, tools] of Object.entries(LISTINGS) as [Listing, object[]][]) {
    const root = mkdtempSync(join(tmpdir(), 'tg-verdict-'));
    writeFileSync(join(root, 'toolgate.yml'), POLICY);
    // The last listing is pinned with a tool and then served without it: an error (contract-stale)
    // and a warning (tool-removed).
    writeFileSync(join(root, 'tools.json'), JSON.stringify({ tools: tools.length ? tools : [partial] }));
    await runCheck({ policy: parsePolicy(POLICY, join(root, 'toolgate.yml'), root), mode: 'update', root, logger: silentLogger });
    if (!tools.length) writeFileSync(join(root, 'tools.json'), JSON.stringify({ tools: [] }));
    workspaces.set(name, root);
  }
});
afterAll(() => {
  for (const root of workspaces.values()) rmSync(root, { recursive: true, force: true });
});

/** The Action's run on `listing` with `env` (the event and the inputs) as the runner sets it. */
async function verdict(listing: Listing, env: Record<string, string>) {
  const root = workspaces.get(listing)!;
  const inputs = readActionInputs({ GITHUB_WORKSPACE: root, GITHUB_EVENT_NAME: 'push', ...env });
  const policy = parsePolicy(POLICY, join(root, inputs.config), root);
  const result = await runCheck(
    checkRunOptions({ policy, mode: inputs.mode, root, logger: silentLogger, sourceIds: inputs.sources, exact: inputs.exact, failOn: inputs.failOn }),
  );
  const v = stepVerdict(result, inputs, { reportPath: join(root, 'toolgate-report.json') });
  const o = v.outputs;
  return { exit: v.failure ? 1 : 0, row: [o.result, o.errorCount, o.warningCount, o.noticeCount], failure: v.failure, outputs: o };
}

const TAG = { GITHUB_REF: 'refs/tags/v1.0.0' };
const ROWS: [what: string, listing: Listing, env: Record<string, string>, exit: 0 | 1, row: [string, number, number, number], failure?: string][] = [
  ['no fail-on: errors only fail, warnings and notices pass', 'a warning and a notice', {}, 0, ['pass', 0, 1, 1]],
  ['fail-on: error, as unset', 'a warning and a notice', { 'INPUT_FAIL-ON': 'error' }, 0, ['pass', 0, 1, 1]],
  [
    'fail-on: warning fails on the warning',
    'a warning and a notice',
    { 'INPUT_FAIL-ON': 'warning' },
    1,
    ['fail', 0, 1, 1],
    'toolgate: 0 error-level findings and 1 warning (fail-on: warning)',
  ],
  [
    'fail-on: notice fails on both',
    'a warning and a notice',
    { 'INPUT_FAIL-ON': 'notice' },
    1,
    ['fail', 0, 1, 1],
    'toolgate: 0 error-level findings and 1 warning and 1 notice (fail-on: notice)',
  ],
  ['fail-on: warning passes a notice', 'a notice', { 'INPUT_FAIL-ON': 'warning' }, 0, ['pass', 0, 0, 1]],
  [
    'fail-on: notice fails where warning would not',
    'a notice',
    { 'INPUT_FAIL-ON': 'notice' },
    1,
    ['fail', 0, 0, 1],
    'toolgate: 0 error-level findings and 0 warnings and 1 notice (fail-on: notice)',
  ],
  [
    'fail-on is case-insensitive',
    'a notice',
    { 'INPUT_FAIL-ON': 'NOTICE' },
    1,
    ['fail', 0, 0, 1],
    'toolgate: 0 error-level findings and 0 warnings and 1 notice (fail-on: notice)',
  ],
  [
    'a tag push is exact: warnings fail too',
    'a warning and a notice',
    TAG,
    1,
    ['fail', 0, 1, 1],
    'toolgate: 0 error-level findings and 1 warning (exact mode: release gating)',
  ],
  [
    'a release is exact',
    'a warning and a notice',
    { GITHUB_EVENT_NAME: 'release' },
    1,
    ['fail', 0, 1, 1],
    'toolgate: 0 error-level findings and 1 warning (exact mode: release gating)',
  ],
  ['a branch push is not exact', 'a warning and a notice', { GITHUB_REF: 'refs/heads/main' }, 0, ['pass', 0, 1, 1]],
  ['exact: false on a tag push', 'a warning and a notice', { ...TAG, INPUT_EXACT: 'false' }, 0, ['pass', 0, 1, 1]],
  // The warning would fail a tag push (exact): fail-on: never passes it.
  ['a tag push, but an explicit fail-on wins: never', 'a warning and a notice', { ...TAG, 'INPUT_FAIL-ON': 'never' }, 0, ['pass', 0, 1, 1]],
  ['fail-on: never reports a warning only', 'a warning and a notice', { 'INPUT_FAIL-ON': 'never' }, 0, ['pass', 0, 1, 1]],
  ['an error fails whatever else', 'a tool that is no longer served', {}, 1, ['fail', 1, 1, 0], 'toolgate: 1 error-level finding'],
  ['fail-on: never does not fail on an error', 'a tool that is no longer served', { 'INPUT_FAIL-ON': 'never' }, 0, ['pass', 1, 1, 0]],
];

describe('fail-on, exact and the events decide the result, the counts and the exit code', () => {
  it.each(ROWS)('%s', async (_what, listing, env, exit, row, failure) => {
    const v = await verdict(listing, env);
    expect([v.exit, ...v.row]).toEqual([exit, ...row]);
    expect(v.failure).toBe(failure);
    expect(v.outputs.digest).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('outputs', () => {
  it('tool-count and the digest are the surface served; the paths are as given', async () => {
    const root = workspaces.get('a warning and a notice')!;
    const v = await verdict('a warning and a notice', {});
    expect(v.outputs).toEqual({
      result: 'pass',
      toolCount: 2,
      errorCount: 0,
      warningCount: 1,
      noticeCount: 1,
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      reportPath: join(root, 'toolgate-report.json'),
    });
  });

  it('a source that fails is result error with fail-on: never too, and leaves the digest empty', async () => {
    // A source fails only by running a server (test/e2e/action.test.ts runs one that exits): here the
    // real result of a run with its one source marked failed, as runCheck marks it (exit code 3).
    const root = workspaces.get('a warning and a notice')!;
    const inputs = readActionInputs({ GITHUB_WORKSPACE: root, GITHUB_EVENT_NAME: 'push', 'INPUT_FAIL-ON': 'never' });
    const policy = parsePolicy(POLICY, join(root, 'toolgate.yml'), root);
    const ok = await runCheck(checkRunOptions({ policy, mode: 'check', root, logger: silentLogger, failOn: inputs.failOn }));
    const failed = {
      ...ok,
      exitCode: 3 as const,
      sources: ok.sources.map(({ surface: _surface, ...s }) => ({ ...s, failure: { message: 'the server exited (code 3)', reason: 'exit' } })),
    };
    const v = stepVerdict(failed, inputs, { reportPath: 'r.json' });
    expect([v.outputs.result, v.outputs.digest, v.outputs.toolCount, v.failure]).toEqual([
      'error',
      '',
      0,
      'toolgate: a source failed (server-failed); see the log and the job summary',
    ]);
  });
});
