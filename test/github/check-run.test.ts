import { describe, expect, it } from 'vitest';
import { annotationLevel, findingsToAnnotations, publishCheckRun, type CheckAnnotation, type CheckRunInput } from '../../src/github/check-run.js';
import type { Finding, Level } from '../../src/rules/types.js';
import { failures, TEST_REPO, useFakeGitHub } from '../support/fake-github.js';

const fake = useFakeGitHub();
const REPO = TEST_REPO;
const HEAD = '89e6c98d92887913cadf06b2adb97f26cde4849b';
const octokit = fake.octokit;

const levels: Level[] = ['error', 'warning', 'notice'];
const annotations = (n: number): CheckAnnotation[] =>
  Array.from({ length: n }, (_, i) => ({
    path: '.toolgate/widgets.surface.json',
    startLine: i + 1,
    level: levels[i % 3]!,
    title: `rule-${i}`,
    message: `finding ${i}`,
  }));
const input = (n: number, extra: Partial<CheckRunInput> = {}): CheckRunInput => ({
  name: 'toolgate',
  conclusion: 'failure',
  title: `${n} findings`,
  summary: '## toolgate\n',
  annotations: annotations(n),
  ...extra,
});

describe('publishCheckRun', () => {
  it('creates one completed check run when there are at most 50 annotations', async () => {
    const result = await publishCheckRun(octokit(), REPO, HEAD, input(50));
    expect(result).toMatchObject({ ok: true, annotationsSent: 50, annotationsDropped: 0, requests: 1 });
    expect(fake.gh.requests).toHaveLength(1);
    const body = fake.gh.requests[0]!.body as Record<string, any>;
    expect(body).toMatchObject({ name: 'toolgate', head_sha: HEAD, status: 'completed', conclusion: 'failure' });
    expect(body['output'].annotations).toHaveLength(50);
    expect(body['output'].annotations[0]).toEqual({
      path: '.toolgate/widgets.surface.json',
      start_line: 1,
      end_line: 1,
      annotation_level: 'failure',
      message: 'finding 0',
      title: 'rule-0',
    });
    expect(body['output'].annotations.slice(0, 3).map((a: any) => a.annotation_level)).toEqual(['failure', 'warning', 'notice']);
  });

  it('sends the first 50 on create and PATCHes the rest in batches of 50', async () => {
    const result = await publishCheckRun(octokit(), REPO, HEAD, input(120));
    expect(result).toMatchObject({ ok: true, annotationsSent: 120, requests: 3 });
    const posts = fake.gh.requestsTo('POST', /\/check-runs$/);
    const patches = fake.gh.requestsTo('PATCH', /\/check-runs\/\d+$/);
    expect(posts).toHaveLength(1);
    expect(patches.map((p) => (p.body as any).output.annotations.length)).toEqual([50, 20]);
    for (const p of patches) expect((p.body as any).output).toMatchObject({ title: '120 findings', summary: '## toolgate\n' });
    const run = [...fake.gh.checkRuns.values()][0]!;
    expect(run.annotations.map((a) => a['message'])).toEqual(annotations(120).map((a) => a.message));
    expect(run.conclusion).toBe('failure');
    if (result.ok) expect(result.id).toBe(run.id);
  });

  it('creates a check run with no annotations', async () => {
    const result = await publishCheckRun(octokit(), REPO, HEAD, input(0, { conclusion: 'success' }));
    expect(result).toMatchObject({ ok: true, requests: 1 });
    expect([...fake.gh.checkRuns.values()][0]).toMatchObject({ conclusion: 'success', annotations: [] });
  });

  it('bounds the number of annotations sent', async () => {
    const result = await publishCheckRun(octokit(), REPO, HEAD, input(160, { maxAnnotations: 100 }));
    expect(result).toMatchObject({ ok: true, annotationsSent: 100, annotationsDropped: 60, requests: 2 });
  });

  it('cuts the summary to 65,535 characters and long titles to 255, which GitHub accepts', async () => {
    const long = 'é'.repeat(70_000);
    const result = await publishCheckRun(
      octokit(),
      REPO,
      HEAD,
      input(1, { summary: long, text: long, annotations: [{ ...annotations(1)[0]!, title: 't'.repeat(400) }] }),
    );
    expect(result.ok).toBe(true);
    const out = (fake.gh.requests[0]!.body as any).output;
    expect(out.summary.length).toBe(65_535);
    expect(out.summary.endsWith('_(truncated)_')).toBe(true);
    expect(out.text.length).toBe(65_535);
    expect(out.annotations[0].title.length).toBe(255);
  });

  it('returns ok:false on 403 (token without checks: write) instead of throwing', async () => {
    fake.gh.fail({ method: 'POST', path: /\/check-runs$/, ...failures.forbidden() });
    const result = await publishCheckRun(octokit(), REPO, HEAD, input(3));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.status).toBe(403);
      expect(result.reason).toMatch(/could not create the check run \(Resource not accessible by integration\).*checks: write/);
    }
    expect(fake.gh.requests).toHaveLength(1); // a permission error is not retried
  });

  it('returns ok:false with the id when an append is forbidden', async () => {
    fake.gh.fail({ method: 'PATCH', path: /\/check-runs\/\d+$/, ...failures.forbidden() });
    const result = await publishCheckRun(octokit(), REPO, HEAD, input(60));
    expect(result).toMatchObject({ ok: false, status: 403, id: [...fake.gh.checkRuns.keys()][0] });
  });

  it('retries a 500 and a secondary rate limit, then succeeds', async () => {
    fake.gh.fail({ method: 'POST', path: /\/check-runs$/, ...failures.serverError() });
    fake.gh.fail({ method: 'PATCH', path: /\/check-runs\/\d+$/, ...failures.secondaryRateLimit(1) });
    const result = await publishCheckRun(octokit(), REPO, HEAD, input(70));
    expect(result).toMatchObject({ ok: true, requests: 2 });
    expect(fake.gh.requests).toHaveLength(4);
    expect([...fake.gh.checkRuns.values()]).toHaveLength(1);
    expect([...fake.gh.checkRuns.values()][0]!.annotations).toHaveLength(70);
  });

  it('throws on other errors (e.g. 422)', async () => {
    fake.gh.fail({ method: 'POST', path: /\/check-runs$/, status: 422, body: { message: 'Validation Failed' } });
    await expect(publishCheckRun(octokit(), REPO, HEAD, input(1))).rejects.toThrow(/422 Validation Failed/);
  });
});

describe('findingsToAnnotations', () => {
  const finding = (over: Partial<Finding>): Finding => ({
    ruleId: 'unlisted-tool',
    level: 'error',
    source: 'widgets',
    message: 'Tool `delete_widget` is served but not in the contract.',
    fix: 'Run `toolgate update` and commit the contract.',
    pointer: '/tools/delete_widget',
    fingerprint: '0123456789abcdef',
    ...over,
  });
  it('maps levels and locations, with a fallback path for findings without one', () => {
    expect(annotationLevel('error')).toBe('failure');
    expect(annotationLevel('warning')).toBe('warning');
    expect(annotationLevel('notice')).toBe('notice');
    const out = findingsToAnnotations(
      [finding({ tool: 'delete_widget', location: { file: '.toolgate/widgets.surface.json', line: 12 } }), finding({ level: 'notice' })],
      'toolgate.yml',
    );
    expect(out).toEqual([
      {
        path: '.toolgate/widgets.surface.json',
        startLine: 12,
        level: 'error',
        title: 'unlisted-tool: delete_widget',
        message: 'Tool `delete_widget` is served but not in the contract.\nFix: Run `toolgate update` and commit the contract.',
      },
      {
        path: 'toolgate.yml',
        startLine: 1,
        level: 'notice',
        title: 'unlisted-tool',
        message: 'Tool `delete_widget` is served but not in the contract.\nFix: Run `toolgate update` and commit the contract.',
      },
    ]);
  });
});

describe('publishCheckRun: server text in annotations', () => {
  it('titles, messages and raw details carry no ESC, CR, BEL or bidi control (U+202E would show …gnp.exe as …exe.png)', async () => {
    const evil = 'run\u202egnp.exe\u001b[31m\r\n\u0007::warning::x';
    await publishCheckRun(octokit(), REPO, HEAD, {
      name: 'toolgate',
      title: 't',
      summary: 's',
      conclusion: 'failure',
      annotations: [{ path: 'a', startLine: 1, level: 'error', title: evil, message: evil, rawDetails: evil }],
    });
    const sent = (fake.gh.requestsTo('POST', /check-runs$/)[0]?.body as { output: { annotations: Record<string, string>[] } }).output.annotations[0]!;
    for (const key of ['title', 'message', 'raw_details']) {
      expect(sent[key], key).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
      expect(sent[key], key).toContain('<U+202E>');
    }
  });
});
