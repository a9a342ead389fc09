/**
 * Untrusted text in every report: tool names, titles and descriptions taken from
 * HOSTILE_STRINGS go through the real pipeline (recorded source, `check` against a contract that
 * differs, so findings quote them) and then through every renderer. None of them may change the
 * structure of its medium: one workflow command per line, one table row per finding, no live
 * HTML, links or mentions in Markdown, no control characters on a terminal, JSON and SARIF that
 * parse and round-trip. The built Action is run on the same input and checked the same way.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { parsePolicy } from '../../src/config/policy.js';
import { runCheck } from '../../src/run-check.js';
import type { CheckResult } from '../../src/judge/result.js';
import { annotationCommand, renderAnnotations } from '../../src/report/annotations.js';
import { runsOf } from '../../src/report/grouping.js';
import { renderJson } from '../../src/report/json.js';
import { buildReview, type ReviewReport } from '../../src/report/review.js';
import { buildSarifLog } from '../../src/report/sarif.js';
import { renderSummary, SUMMARY_MAX_BYTES } from '../../src/report/summary.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { RULES } from '../../src/rules/catalog.js';
import type { Finding } from '../../src/rules/types.js';
import { silentLogger } from '../../src/util/logger.js';
import { HOSTILE_STRINGS } from '../fixtures/hostile-strings.js';
import { ACTION, runNode, tempWorkspace } from '../support/run-dist.js';

const POLICY = 'sources:\n  - id: hostile\n    recorded: tools.json\n';
/** Tools of the base contract: half of the hostile names, with plain text (so text changes are found). */
const PINNED = HOSTILE_STRINGS.filter((_, i) => i % 2 === 0);

function hostileTools(): unknown[] {
  // One tool is at most 4 MiB (TOOL_MAX_BYTES): the 1 MiB strings go whole into the name, title
  // and description, and their first 128 Ki characters into the schema's and the annotations' text.
  const part = (text: string) => text.slice(0, 128 * 1024);
  return HOSTILE_STRINGS.map((h) => ({
    name: h.text,
    title: h.text,
    description: `${h.text} (${h.name})`,
    inputSchema: { type: 'object', properties: { [h.text.slice(0, 200)]: { type: 'string', description: part(h.text) } } },
    annotations: { title: part(h.text), readOnlyHint: true },
  }));
}

let ws: { dir: string; cleanup: () => void };
let result: CheckResult;

beforeAll(async () => {
  ws = tempWorkspace('tg-hostile-reports-');
  writeFileSync(join(ws.dir, 'toolgate.yml'), POLICY);
  const policy = parsePolicy(POLICY, join(ws.dir, 'toolgate.yml'), ws.dir);
  // The contract: written by `update` from a tamer listing.
  const base = PINNED.map((h) => ({ name: h.text, description: 'plain', inputSchema: { type: 'object' } }));
  writeFileSync(join(ws.dir, 'tools.json'), JSON.stringify({ tools: [...base, { name: 'only_in_contract', inputSchema: { type: 'object' } }] }));
  const up = await runCheck({ policy, mode: 'update', root: ws.dir, logger: silentLogger });
  expect(up.sources[0]!.wrote).toBe(true);
  // The head: every hostile string as a name, title and description.
  writeFileSync(join(ws.dir, 'tools.json'), JSON.stringify({ tools: hostileTools() }));
  result = await runCheck({ policy, mode: 'check', root: ws.dir, logger: silentLogger });
}, 120_000);

afterAll(() => ws?.cleanup());

// ---------------------------------------------------------------------------------------------
// Structural checks, shared by the unit renderers and the built Action's real output.

const ANNOTATION = /^::(error|warning|notice) ([^:\r\n]*)::([^\r\n]*)$/;
/** Any command the Action may print: annotations, `::debug::` progress, setFailed's `::error::`. */
const COMMAND = /^::(error|warning|notice|debug)( [^:\r\n]*)?::([^\r\n]*)$/;

/** One workflow command per line, properties without a `::`, nothing that starts another command. */
function expectAnnotationLine(line: string, re: RegExp = ANNOTATION): void {
  expect(line).not.toMatch(/[\r\n]/);
  expect(line, line.slice(0, 200)).toMatch(re);
  const data = re.exec(line)![3]!;
  // The runner decodes %0A / %0D in the data into line breaks of the *message*; it never parses
  // a command there. What must not happen is a raw newline, checked above.
  expect(data).not.toMatch(/[\x00-\x08\x0B-\x1F\x7F]/);
}

/** `text` with every backslash escape removed (what Markdown sees as literal characters). */
const unescaped = (text: string) => text.replace(/\\[\s\S]/g, '');

/**
 * The job summary keeps its structure: every finding is in a list item of its own line (the same
 * change on several tools is one entry, report/grouping.ts: an item per rule of an entry), or
 * counted in its rule's notice line, or in the cut note; no live HTML but toolgate's own balanced
 * tags, no links or mentions. `review` is the report's shape the summary was laid out from.
 */
function expectSafeSummary(md: string, findings: readonly Finding[], review: ReviewReport): void {
  const lines = md.split('\n');
  const items = lines.filter((l) => /^- (❌|⚠️|ℹ️) \*\*`[a-z-]+`\*\* /.test(l));
  const collapsed = lines.flatMap((l) => /^- ℹ️ `[a-z-]+`: (\d+) /.exec(l)?.slice(1, 2) ?? []).reduce((n, x) => n + Number(x), 0);
  const cut = Number(/Cut to fit GitHub's size limit: (\d+) more finding/.exec(md)?.[1] ?? 0);
  // The items are those of the first entries, in order (a cut takes the rest, and may fall between
  // the tools of an entry): the findings of the entries before the cut, the collapsed notices and
  // the cut ones are every finding, each once, up to the one entry the cut fell in.
  const before = new Set<Finding>();
  const upTo = new Set<Finding>();
  let left = items.length;
  for (const e of [...review.attention, ...review.rest]) {
    const n = e.own ? 1 : runsOf(e.parts).length;
    if (left === 0) break;
    for (const f of e.findings) upTo.add(f);
    if (n > left) break;
    left -= n;
    if (cut === 0 || left > 0) for (const f of e.findings) before.add(f);
  }
  expect(left === 0 || cut > 0).toBe(true);
  expect(before.size + collapsed + cut).toBeLessThanOrEqual(findings.length);
  expect(upTo.size + collapsed + cut).toBeGreaterThanOrEqual(findings.length);
  if (cut === 0) expect(before.size + collapsed).toBe(findings.length);
  expect(items.length).toBeGreaterThan(0);
  // Each finding's rule id is toolgate's, in the item's code span: server text cannot forge one.
  for (const item of items) expect(findings.map((f) => f.ruleId)).toContain(/`([a-z-]+)`/.exec(item)?.[1]);
  for (const tag of ['details', 'summary', 'ins', 'del'])
    expect((md.match(new RegExp(`<${tag}>`, 'g')) ?? []).length, tag).toBe((md.match(new RegExp(`</${tag}>`, 'g')) ?? []).length);
  const literal = unescaped(md).replace(/<\/?(details|summary|ins|del)>/g, '');
  expect(literal).not.toContain('<');
  expect(literal).not.toContain('](');
  expect(literal).not.toMatch(/\]\[|\]:/);
  // Every @ is followed by a zero-width space (written as an entity): no mention, no e-mail link.
  expect(md.match(/@(?!&#8203;)/g) ?? []).toEqual([]);
  expect(md).not.toMatch(/[\x00-\x08\x0B-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069\u200B-\u200F\uFEFF]/);
}

/**
 * Terminal text: no ESC or other control character besides newline (and tab), and no line that
 * the Actions runner would read as a workflow command (`::cmd`, legacy `##[cmd]`): in the
 * Action this text is the step's log.
 */
function expectSafeTerminal(text: string): void {
  const commandLike = text.split('\n').filter((l) => /^\s*::|##\[/.test(l));
  expect(commandLike).toEqual([]);
  expect(text).not.toContain('\x1b');
  expect(text).not.toMatch(/[\x00-\x08\x0B-\x1F\x7F-\x9F]/);
  expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F\uFEFF\u2028\u2029]/);
}

// ---------------------------------------------------------------------------------------------

describe('hostile tool text through every report', () => {
  it('the pipeline quotes the hostile names in its findings', () => {
    expect(result.exitCode).toBe(1);
    const rules = new Set(result.findings.map((f) => f.ruleId));
    for (const id of ['unlisted-tool', 'description-changed', 'contract-stale', 'tool-removed', 'invalid-tool-name']) expect(rules).toContain(id);
    const quoted = result.findings.filter((f) => f.tool !== undefined).map((f) => f.tool);
    for (const h of HOSTILE_STRINGS) expect(quoted, h.name).toContain(h.text);
  });

  it('annotations: exactly one line each, a workflow command, nothing starts another command', () => {
    const all = result.findings.map(annotationCommand);
    expect(all).toHaveLength(result.findings.length);
    for (const line of all) expectAnnotationLine(line);
    const shown = renderAnnotations(result.findings);
    for (const line of shown.slice(0, -1)) expectAnnotationLine(line);
    expect(shown.at(-1)).toMatch(/^toolgate: \d+ more findings are not shown as annotations/);
    // Long text is cut with a visible mark.
    expect(all.join('\n')).toMatch(/… \[truncated, \d+ chars\]/);
    expect(Math.max(...all.map((l) => l.length))).toBeLessThan(20_000);
  });

  it('Markdown summary and comment: every finding in an item, no raw HTML, links or mentions, long text truncated, bounded', () => {
    const md = renderSummary(result, { maxBytes: SUMMARY_MAX_BYTES, verbose: true });
    expectSafeSummary(md, result.findings, buildReview(result, { verbose: true }));
    expect(md).toMatch(/… \\\[truncated\\, 1048576 chars\\\]/);
    expect(Buffer.byteLength(md)).toBeLessThan(1024 * 1024);
    const comment = renderSummary(result);
    expectSafeSummary(comment, result.findings, buildReview(result));
    expect(comment.length).toBeLessThanOrEqual(65_536);
  });

  it('terminal: no ESC or other control characters, with and without colour', () => {
    expectSafeTerminal(renderTerminal(result, { color: false, listTools: true }));
    // With colour, the only ESC sequences are toolgate's own SGR codes.
    const colored = renderTerminal(result, { color: true, listTools: true });
    expectSafeTerminal(colored.replace(/\x1b\[[0-9;]*m/g, ''));
    expect(colored.match(/\x1b[^[]/g) ?? []).toEqual([]);
  });

  it('JSON report: parses, round-trips, keeps the raw text (JSON encoding is the escaping)', () => {
    const text = renderJson(result, '0.0.0-test');
    const parsed = JSON.parse(text) as { findings: { tool?: string }[]; sources: { tools: { name: string }[] }[] };
    expect(`${JSON.stringify(parsed, null, 2)}\n`).toBe(text);
    expect(parsed.findings).toHaveLength(result.findings.length);
    const names = new Set(parsed.sources[0]!.tools.map((t) => t.name));
    // Lone surrogates cannot survive UTF-8; everything else is kept byte for byte.
    for (const h of HOSTILE_STRINGS.filter((x) => x.name !== 'lone-surrogate')) expect(names.has(h.text), h.name).toBe(true);
    expect(text).not.toMatch(/[\x00-\x1F](?<!\n)/);
  });

  it('SARIF: parses, round-trips, one result per finding', () => {
    const log = buildSarifLog(result.findings, RULES, { version: '0.0.0-test', fallbackFile: 'toolgate.yml' });
    const text = JSON.stringify(log, null, 2);
    const parsed = JSON.parse(text);
    expect(parsed).toEqual(JSON.parse(JSON.stringify(log)));
    expect(parsed.runs[0].results).toHaveLength(result.findings.length);
    expect(text).not.toMatch(/[\x00-\x1F](?<!\n)/);
  });
});

describe('the built Action on a hostile recorded source', () => {
  it('prints only well-formed workflow commands, and writes a safe job summary', async () => {
    const summary = join(ws.dir, '..', `${ws.dir.split('/').at(-1)}.summary.md`);
    const output = join(ws.dir, '..', `${ws.dir.split('/').at(-1)}.output.txt`);
    writeFileSync(summary, '');
    writeFileSync(output, '');
    onTestFinished(() => [summary, output].forEach((f) => rmSync(f, { force: true })));
    mkdirSync(join(ws.dir, 'out'), { recursive: true });
    const r = await runNode(ACTION, [], {
      cwd: ws.dir,
      timeoutMs: 120_000,
      env: {
        GITHUB_ACTIONS: 'true',
        GITHUB_WORKSPACE: ws.dir,
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_OUTPUT: output,
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REF: 'refs/heads/main',
        GITHUB_REPOSITORY: 'acme/hostile',
        INPUT_CONFIG: 'toolgate.yml',
        INPUT_MODE: 'check',
        'INPUT_REPORT-PATH': 'out/report.json',
      },
    });
    try {
      expect(r.code, r.stderr).toBe(1);
      const lines = r.stdout.split('\n');
      const commands = lines.filter((l) => l.startsWith('::') || l.startsWith('##['));
      expect(commands.length).toBeGreaterThan(3);
      // Every line that the runner would read as a command is one of ours and well formed.
      for (const l of commands) {
        expectAnnotationLine(l, COMMAND);
        // ...and is toolgate's own: an annotation titled by toolgate, or toolgate's log/failure.
        expect(l, l.slice(0, 200)).toMatch(/^::(error|warning|notice) [^:]*title=toolgate |^::(debug|error)::toolgate/);
      }
      expect(commands.filter((l) => ANNOTATION.test(l)).length).toBeGreaterThan(3);
      // The rest of the log (the terminal audit) is inert text.
      expectSafeTerminal(lines.filter((l) => !l.startsWith('::')).join('\n'));
      expect(r.stdout).not.toContain('##[');
      const md = readFileSync(summary, 'utf8');
      const report = JSON.parse(readFileSync(join(ws.dir, 'out/report.json'), 'utf8')) as CheckResult;
      expect(report.findings.length).toBe(result.findings.length);
      expectSafeSummary(md, report.findings, buildReview(result));
    } finally {
      for (const f of [summary, output]) writeFileSync(f, '');
    }
  });
});
