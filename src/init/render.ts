/**
 * `toolgate init`, the writing half: the starter toolgate.yml, the workflow and any starter
 * OpenAPI integration config, from what {@link detect} found. Pure.
 *
 * YAML is produced by the `yaml` library, never by concatenation: every value from the
 * repository is a scalar node, double-quoted unless it is a plain word that no YAML reader can
 * take for anything else (`yes`, `on`, `null`, `1.0`, `#x`, `- x`...). Values reach here only
 * when `copyable` (no control, bidi or invisible characters); comment lines are made ASCII.
 */
import { Document, Scalar, isCollection, isMap, isScalar, isSeq, type Node } from 'yaml';
import { jsonDocument } from '../export/settings-json.js';
import type { Detection, FoundSource, SetupStep, SourceSpec } from './types.js';
import { copyable } from './values.js';

/** The schema line README shows at the top of toolgate.yml (editors complete the file from it). */
export const SCHEMA_COMMENT = ' yaml-language-server: $schema=https://raw.githubusercontent.com/toolgate/toolgate/main/schema/toolgate.schema.json';

/** Where init writes, relative to the repository root. */
export const POLICY_FILE = 'toolgate.yml';
export const WORKFLOW_FILE = '.github/workflows/toolgate.yml';

/** What {@link render} produces: file texts by repository-relative path. */
export interface Rendered {
  toolgateYml: string;
  workflowYml: string;
  /** Starter OpenAPI integration configs (path → JSON text). */
  integrations: { path: string; text: string }[];
}

const TO_STRING = { lineWidth: 0, nullStr: '', flowCollectionPadding: false } as const;

// Plain only when no YAML 1.1 or 1.2 reader takes it for a boolean, null, number or indicator:
// a letter, `_` or `/` first, no `:` or `#`, single inner spaces (`npm ci`).
const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./@+=-]*( [A-Za-z0-9_./@+=-]+)*$/;
const RESERVED = /^(y|yes|n|no|on|off|true|false|null|~)$/i;

/** A comment line as written: every character outside printable ASCII as `\uXXXX`, so none can end the line or hide. */
function ascii(line: string): string {
  return line.replace(/[^\x20-\x7e]/gu, (c) => `\\u{${(c.codePointAt(0) as number).toString(16)}}`);
}

/** A comment block (`# line` each), for `commentBefore` (the library adds the `#`). */
const comment = (lines: readonly string[]) => lines.map((l) => ` ${ascii(l)}`).join('\n');

/**
 * A string scalar: plain when it is plainly a word or path, else double-quoted (the library
 * escapes `"` and `\`).
 * @throws Error for a non-empty value {@link copyable} refuses (detect never passes one: a bug).
 */
function str(v: string): Scalar<string> {
  if (v !== '' && !copyable(v)) throw new Error(`internal: refusing to write ${JSON.stringify(v)}`);
  const s = new Scalar(v);
  s.type = PLAIN.test(v) && !RESERVED.test(v) ? Scalar.PLAIN : Scalar.QUOTE_DOUBLE;
  return s;
}

/** Turns every string in a node tree created by `createNode` into {@link str} scalars, and short sequences into flow style. */
function quoteStrings(node: unknown): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      // Keys are ours or checked names (header names); one that is not a plain word is quoted.
      if (isScalar(pair.key) && typeof pair.key.value === 'string' && !PLAIN.test(pair.key.value)) pair.key.type = Scalar.QUOTE_DOUBLE;
      if (isScalar(pair.value) && typeof pair.value.value === 'string') {
        const q = str(pair.value.value);
        q.comment = pair.value.comment;
        pair.value = q;
      } else quoteStrings(pair.value);
    }
  } else if (isCollection(node)) {
    node.items = node.items.map((item) => (isScalar(item) && typeof item.value === 'string' ? str(item.value) : (quoteStrings(item), item)));
    const total = node.items.reduce<number>((n, i) => n + (isScalar(i) ? String(i.value).length + 4 : 1000), 0);
    if (total <= 60) node.flow = true;
  }
}

/** The toolgate.yml keys of one source. */
function sourceValue(f: FoundSource): Record<string, unknown> {
  const s: SourceSpec = f.source;
  if ('openapi' in s) return { id: f.id, openapi: s.openapi };
  const m = s.mcp;
  if ('url' in m) return { id: f.id, mcp: { url: m.url, ...(Object.keys(m.headers).length ? { headers: m.headers } : {}) } };
  return { id: f.id, mcp: { command: m.command, args: m.args, ...(m.cwd !== undefined ? { cwd: m.cwd } : {}), ...(m.env.length ? { env: m.env } : {}) } };
}

/** The placeholder source of a repository where nothing was found (valid, so `toolgate.yml` loads). */
const PLACEHOLDER = { id: 'my-server', mcp: { command: 'node', args: ['server.js'] } };

const OTHER_KINDS = [
  'Other kinds of sources (docs/policy.md):',
  '  - id: remote',
  '    mcp:',
  '      url: http://127.0.0.1:3000/mcp        # Streamable HTTP (legacy SSE fallback)',
  '  - id: rental-app',
  '    openapi: integrations/rental-app.json   # an OpenAPI integration config',
  '  - id: saas',
  '    recorded: recordings/saas-tools.json    # a saved tools/list result',
];

/** The starter toolgate.yml: the schema comment on line 1, one source per finding. */
export function renderPolicy(d: Detection): string {
  const sources = d.findings.length ? d.findings.map(sourceValue) : [PLACEHOLDER];
  const doc = new Document({ sources });
  doc.commentBefore = [
    SCHEMA_COMMENT,
    ' Written by `toolgate init`. Review each source (the TODO lines above all), then run',
    ' `npx toolgate update` and commit this file and .toolgate/ (README, "Use it on your server").',
  ].join('\n');
  const seq = doc.get('sources', true);
  if (!isSeq(seq)) throw new Error('internal: sources is not a sequence');
  seq.items.forEach((item, i) => {
    if (!isMap(item)) return;
    quoteStrings(item);
    const f = d.findings[i];
    // Each header on one line: `Authorization: {env: TOKEN, prefix: "Bearer "}`.
    const headers = doc.getIn(['sources', i, 'mcp', 'headers'], true);
    if (isMap(headers)) for (const h of headers.items) if (isMap(h.value)) h.value.flow = true;
    item.commentBefore = comment(
      f
        ? f.comments
        : [
            'TODO: toolgate init found nothing to check. Replace this placeholder with the command that',
            'starts your MCP server over stdio (or another kind of source, below).',
          ],
    );
    if (i > 0) item.spaceBefore = true;
  });
  if (!d.findings.length) doc.comment = comment(OTHER_KINDS);
  return doc.toString(TO_STRING);
}

/** The workflow steps that install (and build) what the servers need, one directory at a time. */
function setupSteps(steps: readonly SetupStep[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const wd = (dir: string) => (dir === '.' ? {} : { 'working-directory': dir });
  if (steps.some((s) => s.kind === 'python')) out.push({ uses: 'actions/setup-python@v5', with: { 'python-version': '3.12' } });
  for (const s of steps) {
    if (s.kind === 'python') {
      out.push({ run: s.install === 'project' ? 'pip install .' : 'pip install -r requirements.txt', ...wd(s.dir) });
      continue;
    }
    const install = {
      npm: s.lockfile ? 'npm ci' : 'npm install',
      pnpm: 'corepack enable && pnpm install --frozen-lockfile',
      yarn: 'corepack enable && yarn install --immutable',
    }[s.manager];
    out.push({ run: install, ...wd(s.dir) });
    if (s.build) out.push({ run: `${s.manager === 'npm' ? 'npm' : s.manager} run build`, ...wd(s.dir) });
  }
  return out;
}

/**
 * The workflow: README's "GitHub Action" example (pull requests, approvals re-run it) plus pushes
 * to the default branch, with the permissions it documents: `contents: read` (the base is read
 * from the API), `checks: write` (one check run), `pull-requests: write` (reviews; the sticky
 * comment). No SARIF upload, so no `security-events`.
 */
export function renderWorkflow(d: Detection): string {
  const installSteps = setupSteps(d.setup);
  const env = [
    ...new Set(
      d.findings.flatMap((f) => ('mcp' in f.source ? ('env' in f.source.mcp ? f.source.mcp.env : Object.values(f.source.mcp.headers).map((h) => h.env)) : [])),
    ),
  ];
  const doc = new Document({
    name: 'toolgate',
    on: { pull_request: null, pull_request_review: { types: ['submitted', 'dismissed'] }, push: { branches: [d.defaultBranch] }, merge_group: null },
    permissions: { contents: 'read', checks: 'write', 'pull-requests': 'write' },
    jobs: {
      toolgate: {
        'runs-on': 'ubuntu-latest',
        steps: [
          { uses: 'actions/checkout@v4', with: { 'fetch-depth': 0 } },
          { uses: 'actions/setup-node@v4', with: { 'node-version': 22 } },
          ...installSteps,
          { uses: 'toolgate/toolgate/setup-sandbox@v0' },
          { uses: 'toolgate/toolgate@v0', id: 'toolgate', with: { comment: true } },
        ],
      },
    },
  });
  doc.commentBefore = comment([
    'Written by `toolgate init`: checks the tool surface of the sources in toolgate.yml against the',
    'contracts in .toolgate/ on every pull request (README, "GitHub Action"). Make the check run',
    '`toolgate review` required in branch protection, and put toolgate.yml, .toolgate/ and this file',
    'under CODEOWNERS.',
  ]);
  const at = (path: (string | number)[]) => doc.getIn(path, true) as Node;
  const flow = (path: (string | number)[]) => {
    const node = at(path);
    if (isCollection(node)) node.flow = true;
  };
  quoteStrings(doc.contents);
  flow(['on', 'pull_request_review', 'types']);
  flow(['on', 'push', 'branches']);
  at(['on', 'pull_request_review']).commentBefore = ' an approval re-runs the check';
  at(['on', 'merge_group']).commentBefore = ' a merge queue: the queued commit is checked too, or the queue waits';
  at(['permissions', 'contents']).comment = " the base commit's policy and contracts are read from the API";
  at(['permissions', 'checks']).comment = ' one check run with every finding as an annotation';
  at(['permissions', 'pull-requests']).comment = ' read: reviews (approvals); write: the sticky comment';
  const steps = ['jobs', 'toolgate', 'steps'];
  const n = 2 + installSteps.length;
  flow([...steps, 0, 'with']);
  at([...steps, 0, 'with']).comment = ' approvals are compared with git';
  flow([...steps, 1, 'with']);
  at([...steps, n, 'uses']).comment = ' bubblewrap, and on ubuntu-latest AppArmor\'s profile for it (README, "GitHub Action")';
  const stdio = d.findings.length === 0 || d.findings.some((f) => 'mcp' in f.source && 'command' in f.source.mcp);
  if (!installSteps.length && stdio) at([...steps, n]).commentBefore = ' TODO: install what your servers need to start here, e.g. `- run: npm ci`';
  flow([...steps, n + 1, 'with']);
  if (env.length) {
    at([...steps, n + 1]).commentBefore = comment([
      `The servers read ${env.join(', ')}: pass them to this step, e.g.`,
      `env: { ${env.map((e) => `${e}: \${{ secrets.${e} }}`).join(', ')} }`,
    ]);
  }
  return doc.toString(TO_STRING);
}

/** A starter OpenAPI integration config: the document, and an empty allowlist to fill in. */
export function renderIntegration(spec: string): string {
  return jsonDocument({ type: 'openapi', spec, include: [] });
}

/**
 * Everything `toolgate init` writes, from what {@link detect} found.
 * @returns toolgate.yml, the workflow, and one starter integration config per OpenAPI document
 *   that has none.
 */
export function render(d: Detection): Rendered {
  return {
    toolgateYml: renderPolicy(d),
    workflowYml: renderWorkflow(d),
    integrations: d.findings.flatMap((f) => (f.integration ? [{ path: f.integration.path, text: renderIntegration(f.integration.spec) }] : [])),
  };
}
