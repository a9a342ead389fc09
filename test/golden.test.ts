/**
 * Golden reports: real upgrades of published MCP servers (test/fixtures/upgrades, the
 * `tools/list` of two versions of each package) and one hostile surface, through `runCheck` as a
 * pull request that bumps the server and commits `toolgate update` (base contract = the old
 * version), then through every renderer: terminal, Markdown comment, JSON, SARIF, annotations.
 *
 * The outputs are committed under test/golden/<case>/; any change of output is a reviewed diff.
 * Regenerate with `npm run golden` (UPDATE_GOLDEN=1) and read the diff before committing.
 *
 * Besides equality, each real upgrade must name every new tool that can write, destroy or reach
 * the open world, every read → write flip and every read promotion in "Needs your attention" of
 * every human format, with its class and hints (computed from the recordings, not by toolgate);
 * that section must fit in 100 terminal lines; the comment must fit GitHub's 65,536 characters;
 * findings per real change must stay ≤ 1.2.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePolicy } from '../src/config/policy.js';
import { readContract } from '../src/contract/store.js';
import type { CheckResult } from '../src/judge/result.js';
import { renderAnnotations } from '../src/report/annotations.js';
import { renderJson } from '../src/report/json.js';
import { buildSarifLog } from '../src/report/sarif.js';
import { renderSummary } from '../src/report/summary.js';
import { renderTerminal } from '../src/report/terminal.js';
import { DEFAULT_WIDTH, terminalLines } from '../src/report/terminal-entries.js';
import { RULES } from '../src/rules/catalog.js';
import { runCheck } from '../src/run-check.js';
import { silentLogger } from '../src/util/logger.js';
import { HOSTILE_STRINGS } from './fixtures/hostile-strings.js';
import { REPO, tempWorkspace } from './support/run-dist.js';

const UPDATE = process.env.UPDATE_GOLDEN === '1';
const GOLDEN = join(REPO, 'test/golden');
const UPGRADES = join(REPO, 'test/fixtures/upgrades');
const COMMENT_LIMIT = 65_536;
/** Rules that judge a change (the rest are hygiene of the live surface, not about the upgrade). */
const CHANGE_RULES = new Set([
  'tool-added',
  'unlisted-tool',
  'tool-removed',
  'description-changed',
  'schema-widened',
  'schema-narrowed',
  'schema-unclassified',
  'output-schema-changed',
  'risk-claim-lowered',
  'annotation-dropped',
  'annotation-now-implicit',
  'read-promotion-unreviewed',
  'read-tool-became-write',
  'promoted-operation-moved',
  'count-mismatch',
  'contract-stale',
]);

interface Upgrade {
  package: string;
  base: string;
  head: string;
  added: { name: string; readOnly: boolean }[];
  removed: string[];
  annotationsChanged: string[];
  descriptionChanged: string[];
  inputSchemaChangedBeyondDollarSchema: string[];
  otherKeysChanged: { name: string; keys: string[] }[];
  readOnlyChanged: { name: string; base: boolean; head: boolean }[];
}
const EXPECTED = JSON.parse(readFileSync(join(UPGRADES, 'expected.json'), 'utf8')) as Record<string, Upgrade>;

const workspaces: { cleanup: () => void }[] = [];
afterAll(() => workspaces.forEach((w) => w.cleanup()));

/** base → head as a pull request: the base contract pins `baseFile`, the head contract `headFile`. */
async function pullRequest(id: string, baseFile: string, headFile: string): Promise<CheckResult> {
  const ws = tempWorkspace('tg-golden-');
  workspaces.push(ws);
  // A generous schema budget: json-schema-diff on some real schemas (notion's) takes ~1 s on a loaded
  // machine, and a verdict that depends on the machine's load cannot be a golden file.
  const yml = `schema-budget-ms: 60000\nsources:\n  - id: ${id}\n    recorded: tools.json\n`;
  writeFileSync(join(ws.dir, 'toolgate.yml'), yml);
  const policy = parsePolicy(yml, join(ws.dir, 'toolgate.yml'), ws.dir);
  const contract = join(ws.dir, `.toolgate/${id}.surface.json`);
  copyFileSync(baseFile, join(ws.dir, 'tools.json'));
  await runCheck({ policy, mode: 'update', root: ws.dir, logger: silentLogger });
  const base = (await readContract(contract, `.toolgate/${id}.surface.json`))!.surface;
  copyFileSync(headFile, join(ws.dir, 'tools.json'));
  await runCheck({ policy, mode: 'update', root: ws.dir, logger: silentLogger });
  return runCheck({ policy, mode: 'check', root: ws.dir, logger: silentLogger, baseContracts: new Map([[id, base]]) });
}

/** Every output, free of times and machine paths. */
function outputs(result: CheckResult): Record<string, string> {
  for (const s of result.sources) if (s.diagnostics) s.diagnostics.durationMs = 0;
  return {
    'terminal.txt': renderTerminal(result, { color: false, listTools: false }),
    'comment.md': renderSummary(result),
    'report.json': renderJson(result, '0.0.0-golden'),
    'results.sarif': `${JSON.stringify(buildSarifLog(result.findings, RULES, { version: '0.0.0-golden' }), null, 2)}\n`,
    'annotations.txt': `${renderAnnotations(result.findings).join('\n')}\n`,
  };
}

function expectGolden(name: string, files: Record<string, string>): void {
  const dir = join(GOLDEN, name);
  if (UPDATE) mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    const path = join(dir, file);
    if (UPDATE) writeFileSync(path, text);
    expect(existsSync(path), `${name}/${file} is missing: run \`npm run golden\``).toBe(true);
    expect(text, `${name}/${file} differs: run \`npm run golden\` and review the diff`).toBe(readFileSync(path, 'utf8'));
  }
}

/** The "Needs your attention" part of a terminal report or a Markdown comment. */
function attentionOf(text: string, format: 'terminal' | 'markdown'): string {
  const [start, end] = format === 'terminal' ? ['Needs your attention', '\n\n'] : ['### Needs your attention', '<details>'];
  const at = text.indexOf(start);
  if (at < 0) return '';
  const stop = text.indexOf(end, at + start.length);
  return text.slice(at, stop < 0 ? undefined : stop);
}

/** A tool as recorded (test/fixtures/upgrades). */
interface RecordedTool {
  name: string;
  annotations?: Record<string, unknown>;
}

/** The entries of an attention section: a terminal entry starts at `  [source] `, a Markdown one at `#### `. */
function entriesOf(section: string, format: 'terminal' | 'markdown'): string[] {
  const start = format === 'terminal' ? /^ {2}\[/ : /^#### /;
  const out: string[] = [];
  for (const line of section.split('\n')) {
    if (start.test(line)) out.push(line);
    else if (out.length) out[out.length - 1] += `\n${line}`;
  }
  return out;
}

/**
 * The tools an entry names: in its title (`[server] a, b: …`, `#### a · …`), in its tools list, or
 * as the name of a line of its own (`name: description`, `- **name**: …`). Markdown escapes are
 * removed; the recorded names here are plain.
 */
function namesIn(entry: string, format: 'terminal' | 'markdown'): string[] {
  const text = format === 'markdown' ? entry.replace(/\\/g, '') : entry;
  const [title = '', ...rest] = text.split('\n');
  const names: string[] = [];
  const list = (s: string) =>
    s
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
  if (format === 'terminal') {
    const m = /^ {2}\[[^\]]*\] (.*?)(?: \([a-z]+\))?: /.exec(title);
    if (m && !/^\d+ tools$/.test(m[1]!)) names.push(...list(m[1]!));
    const tools = rest.join('\n').match(/^ {4}tools: [^]*?(?=\n {4}\S|(?![^]))/m)?.[0];
    if (tools) names.push(...list(tools.replace(/^ {4}tools: /, '').replace(/\n/g, ' ')));
    for (const l of rest) {
      const own = /^ {12}([A-Za-z0-9_.-]+)(?: \([a-z]+\))?(?: :\d+)?(?::| {2})/.exec(l);
      if (own) names.push(own[1]!);
    }
  } else {
    const m = /^#### (.*?) · /.exec(title);
    if (m && !/^\d+ tools$/.test(m[1]!)) names.push(m[1]!);
    for (const l of rest) {
      if (l.startsWith('Tools: ')) names.push(...list(l.slice('Tools: '.length)));
      const own = /^ {2}- \*\*([^*]+)\*\*/.exec(l);
      if (own) names.push(own[1]!);
    }
    const more = /<details><summary>and \d+ more<\/summary>\n\n(.*)\n/.exec(text);
    if (more) names.push(...list(more[1]!));
  }
  return names;
}

const reportSchema = new Ajv({ strict: false, allErrors: true }).compile(JSON.parse(readFileSync(join(REPO, 'schema/report.schema.json'), 'utf8')) as object);

describe.each(Object.entries(EXPECTED))('golden reports: %s', (slug, u) => {
  let result: CheckResult;
  let files: Record<string, string>;

  it(`${u.base} → ${u.head}: outputs equal the committed ones`, async () => {
    result = await pullRequest('server', join(UPGRADES, slug, `${u.base}.json`), join(UPGRADES, slug, `${u.head}.json`));
    files = outputs(result);
    expectGolden(slug, files);
  }, 60_000);

  it('every new write or open-world tool, read → write flip and read promotion is named in "Needs your attention" of every human format, with its class and hints', () => {
    // From the recordings (expected.json and the head file), not from toolgate: the hints as declared, the spec's defaults otherwise.
    const head = (JSON.parse(readFileSync(join(UPGRADES, slug, `${u.head}.json`), 'utf8')) as { tools: RecordedTool[] }).tools;
    const hint = (name: string, h: 'readOnlyHint' | 'openWorldHint') => {
      const v = head.find((t) => t.name === name)?.annotations?.[h];
      return typeof v === 'boolean' ? v : h === 'openWorldHint';
    };
    const risky = u.added.filter((a) => !a.readOnly || hint(a.name, 'openWorldHint')).map((a) => a.name);
    const flips = u.readOnlyChanged.filter((c) => c.base && !c.head).map((c) => c.name);
    const promotions = u.readOnlyChanged.filter((c) => !c.base && c.head).map((c) => c.name);
    expect(risky.length + flips.length + promotions.length).toBeGreaterThan(0);
    const terminal = entriesOf(attentionOf(files['terminal.txt']!, 'terminal'), 'terminal');
    const markdown = entriesOf(attentionOf(files['comment.md']!, 'markdown'), 'markdown');
    // Some entry that names the tool says what it is, with its class and hints (a tool may also be
    // named by the entries of its other changes).
    const expectNamed = (name: string, title: RegExp) => {
      const readOnly = hint(name, 'readOnlyHint');
      const hints = new RegExp(`^ *(read|write) · readOnlyHint ${readOnly}\\b.*openWorldHint ${hint(name, 'openWorldHint')}\\b`, 'm');
      const says = (entry: string) => title.test(entry.split('\n')[0]!) && hints.test(entry);
      expect(terminal.filter((e) => namesIn(e, 'terminal').includes(name)).filter(says), `terminal: ${name}`).toHaveLength(1);
      const plain = markdown.map((e) => e.replace(/\\/g, ''));
      expect(plain.filter((e) => namesIn(e, 'markdown').includes(name)).filter(says), `markdown: ${name}`).toHaveLength(1);
    };
    for (const name of risky) expectNamed(name, hint(name, 'readOnlyHint') ? /new read-only, open-world tool/ : /new .*write tool/);
    for (const name of flips) expectNamed(name, /read tools? that became (an? )?.*write tools?/);
    for (const name of promotions) expectNamed(name, /newly classed read/);
  });

  it('"Needs your attention" fits in 100 terminal lines at the width the terminal report is laid out for', () => {
    const section = attentionOf(files['terminal.txt']!, 'terminal');
    expect(section.length).toBeGreaterThan(0);
    expect(terminalLines(section, DEFAULT_WIDTH), section).toBeLessThanOrEqual(100);
  });

  it('the comment fits GitHub, the JSON report matches its schema, findings per real change ≤ 1.2', () => {
    expect(files['comment.md']!.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    const report = JSON.parse(files['report.json']!) as { findings: { ruleId: string }[] };
    expect(reportSchema(report), JSON.stringify(reportSchema.errors?.slice(0, 3))).toBe(true);
    // Real changes, counted from the recordings by the script that wrote expected.json (not by
    // toolgate): per tool, added, removed, annotations, description, inputSchema (beyond $schema),
    // and each other key (title, outputSchema, _meta…).
    const real =
      u.added.length +
      u.removed.length +
      u.annotationsChanged.length +
      u.descriptionChanged.length +
      u.inputSchemaChangedBeyondDollarSchema.length +
      u.otherKeysChanged.reduce((n, o) => n + o.keys.length, 0);
    const judged = report.findings.filter((f) => CHANGE_RULES.has(f.ruleId)).length;
    expect(judged / real, `${judged} findings for ${real} changes`).toBeLessThanOrEqual(1.2);
  });
});

describe('golden reports: hostile surface', () => {
  it('names and texts from HOSTILE_STRINGS (cut to 2,000 characters) through every renderer', async () => {
    const ws = tempWorkspace('tg-golden-hostile-');
    workspaces.push(ws);
    const cut = (s: string) => s.slice(0, 2000);
    const base = HOSTILE_STRINGS.filter((_, i) => i % 2 === 0).map((h) => ({
      name: cut(h.text),
      description: 'plain',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    }));
    const head = HOSTILE_STRINGS.map((h) => ({
      name: cut(h.text),
      title: cut(h.text),
      description: `${cut(h.text)} (${h.name})`,
      inputSchema: { type: 'object', properties: { [h.text.slice(0, 200)]: { type: 'string', description: cut(h.text) } } },
      annotations: { title: cut(h.text), readOnlyHint: h.name.length % 2 === 0 },
    }));
    writeFileSync(join(ws.dir, 'base.json'), JSON.stringify({ tools: base }));
    writeFileSync(join(ws.dir, 'head.json'), JSON.stringify({ tools: head }));
    const result = await pullRequest('hostile', join(ws.dir, 'base.json'), join(ws.dir, 'head.json'));
    const files = outputs(result);
    expectGolden('hostile', files);
    expect(files['comment.md']!.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(reportSchema(JSON.parse(files['report.json']!))).toBe(true);
  }, 60_000);
});
