/** What a pull request changes in toolgate.yml: relaxations and tightenings, located in the head file. */
import { describe, expect, it } from 'vitest';
import type { Policy } from '../../src/config/policy-model.js';
import { parsePolicy } from '../../src/config/policy.js';
import {
  assertHeadersStayWithBase,
  diffPolicies,
  headersSentOutsideBase,
  isRunnerSecretName,
  judgingPolicy,
  runnerSecretsInEnv,
} from '../../src/config/policy-diff.js';
import { ConfigError } from '../../src/util/errors.js';
import { readBaseState } from '../../src/review/base-state.js';
import { ruleById } from '../../src/rules/catalog.js';

const BASE = `# toolgate policy
sources:
  - id: web
    mcp:
      command: node
      args: [server.js]
      cwd: servers/web
      env: [API_BASE]
  - id: remote
    mcp:
      url: http://127.0.0.1:3000/mcp
      start: { command: node, args: [http.js], env: [PORT] }
      headers:
        Authorization: { env: REMOTE_TOKEN, prefix: "Bearer " }
  - id: rental
    openapi: integrations/rental.json
  - id: saved
    recorded: recorded/tools.json
rules:
  schema-widened: error
  open-arguments: notice
  unannotated-tool: warning
overrides:
  - tools: ["admin_*"]
    rules: { unannotated-tool: error }
limits:
  max-tools: 40
deny:
  - tools: ["*shell*"]
    reason: no code execution
  - tools: "delete_*"
    when: read
review:
  reviewers: [alice, acme/security]
  required: 2
  fresh: true
require-explicit-hints: true
allow-runner-env: [RUNNER_TEMP]
`;

const parse = (text: string): Policy => parsePolicy(text, 'toolgate.yml', '/repo');

/** `text` with `from` (which must occur exactly once) replaced by `to`. */
function edit(text: string, ...pairs: [string, string][]): string {
  return pairs.reduce((t, [from, to]) => {
    expect(t.split(from), `"${from}" occurs once`).toHaveLength(2);
    return t.replace(from, to);
  }, text);
}

/** 1-based line of the only line of `text` that contains `needle`. */
function lineWith(text: string, needle: string): number {
  const lines = text.split('\n');
  const hits = lines.flatMap((l, i) => (l.includes(needle) ? [i + 1] : []));
  expect(hits, `one line contains "${needle}"`).toHaveLength(1);
  return hits[0]!;
}

/** The changes from BASE (or `base`) to `head`, as [relaxed, kind, pointer, message]. */
function changes(head: string, base = BASE): [boolean, string, string, string][] {
  return diffPolicies(parse(base), parse(head)).map((c) => [c.relaxed, c.kind, c.pointer, c.message]);
}

describe('diffPolicies: nothing changed', () => {
  it('identical policies, and the same entries reordered or reworded, are no change', () => {
    expect(diffPolicies(parse(BASE), parse(BASE))).toEqual([]);
    const reordered = edit(
      BASE,
      [
        '  - tools: ["*shell*"]\n    reason: no code execution\n  - tools: "delete_*"\n    when: read\n',
        '  - tools: ["delete_*"]\n    when: read\n  - tools: ["*shell*"]\n    reason: code execution is not for agents\n',
      ],
      ['reviewers: [alice, acme/security]', 'reviewers: ["@Alice", acme/Security]'],
      [
        'schema-widened: error\n  open-arguments: notice',
        `open-arguments: notice\n  schema-widened: error\n  tool-removed: ${ruleById('tool-removed')!.level}`,
      ],
    );
    expect(changes(reordered)).toEqual([]);
  });

  it('schema-budget-ms, capabilities, timeouts and list limits are not changes', () => {
    const head = edit(
      BASE,
      ['      env: [API_BASE]\n', '      env: [API_BASE]\n      capabilities: { roots: {} }\n      startup-timeout-ms: 1000\n      max-pages: 3\n'],
      ['require-explicit-hints: true\n', 'require-explicit-hints: true\nschema-budget-ms: 60000\n'],
    );
    expect(changes(head)).toEqual([]);
  });

  it('a new source is a relaxation: new reach, and a job that checks some sources (a matrix) would never see it', () => {
    const head = edit(BASE, ['  - id: saved\n', '  - id: extra\n    recorded: extra.json\n  - id: saved\n']);
    expect(changes(head)).toEqual([[true, 'source-added', expect.stringMatching(/^\/sources\/\d+$/), 'source "extra" is added: a recorded tools/list result']]);
  });
});

describe('diffPolicies: rules', () => {
  it('a level lowered (or off) is relaxed, raised is a tightening, at /rules/<id>', () => {
    const head = edit(BASE, ['schema-widened: error', 'schema-widened: off'], ['open-arguments: notice', 'open-arguments: error']);
    expect(changes(head)).toEqual([
      [true, 'rule-level', '/rules/schema-widened', 'rule "schema-widened" is lowered from error to off'],
      [false, 'rule-level', '/rules/open-arguments', 'rule "open-arguments" is raised from notice to error'],
    ]);
  });

  it('a rule without an entry has its catalog default', () => {
    const dflt = (id: string) => ruleById(id)!.level;
    const atDefault = edit(BASE, ['open-arguments: notice', `open-arguments: ${dflt('open-arguments')}`]);
    expect(changes(edit(atDefault, ['  open-arguments: notice\n', '']), atDefault)).toEqual([]);
    expect(changes(edit(BASE, ['  open-arguments: notice\n', '  tool-removed: off\n']))).toEqual([
      [true, 'rule-level', '/rules/tool-removed', `rule "tool-removed" is lowered from ${dflt('tool-removed')} to off`],
      ...(dflt('open-arguments') === 'notice'
        ? []
        : [[false, 'rule-level', '/rules', `rule "open-arguments" is raised from notice to ${dflt('open-arguments')}`]]),
    ]);
  });

  it('the pointer of a level the head has no entry for is /rules, or the document when there is no rules key', () => {
    const base = edit(BASE, ['schema-widened: error', 'schema-widened: off']);
    const raised = [false, 'rule-level', '/rules', `rule "schema-widened" is raised from off to ${ruleById('schema-widened')!.level}`];
    expect(changes(edit(BASE, ['  schema-widened: error\n', '']), base)).toEqual([raised]);
    const noRules = edit(BASE, ['rules:\n  schema-widened: error\n  open-arguments: notice\n  unannotated-tool: warning\n', '']);
    expect(changes(noRules, base).filter((c) => c[3].includes('schema-widened'))).toEqual([[false, 'rule-level', '', raised[3]]]);
    expect(changes(edit(noRules, ['limits:', 'rules: {}\nlimits:']), base).filter((c) => c[3].includes('schema-widened'))).toEqual([
      [false, 'rule-level', '/rules', raised[3]],
    ]);
  });
});

describe('diffPolicies: overrides', () => {
  it('an override added that lowers a level is relaxed; one that raises it is a tightening', () => {
    const head = edit(BASE, [
      '    rules: { unannotated-tool: error }\n',
      '    rules: { unannotated-tool: error }\n  - tools: debug_*\n    sources: [web]\n    rules: { unannotated-tool: off }\n  - tools: ["x_*"]\n    rules: { open-arguments: error }\n',
    ]);
    expect(changes(head)).toEqual([
      [true, 'override', '/overrides/1', 'override for tools ["debug_*"] in sources ["web"] is added: unannotated-tool off (warning without it)'],
      [false, 'override', '/overrides/2', 'override for tools ["x_*"] is added: open-arguments error (notice without it)'],
    ]);
  });

  it('an override removed that raised a level is relaxed; one that lowered it is a tightening; a changed one is both', () => {
    const base = edit(BASE, [
      '    rules: { unannotated-tool: error }\n',
      '    rules: { unannotated-tool: error }\n  - tools: ["legacy_*"]\n    rules: { open-arguments: off }\n',
    ]);
    expect(changes(edit(BASE, ['overrides:\n  - tools: ["admin_*"]\n    rules: { unannotated-tool: error }\n', '']), base)).toEqual([
      [true, 'override', '', 'override for tools ["admin_*"] is removed: unannotated-tool error (warning without it)'],
      [false, 'override', '', 'override for tools ["legacy_*"] is removed: open-arguments off (notice without it)'],
    ]);
    expect(changes(edit(BASE, ['unannotated-tool: error }', 'unannotated-tool: notice }']))).toEqual([
      [true, 'override', '/overrides', 'override for tools ["admin_*"] is removed: unannotated-tool error (warning without it)'],
      [true, 'override', '/overrides/0', 'override for tools ["admin_*"] is added: unannotated-tool notice (warning without it)'],
    ]);
  });
});

describe('diffPolicies: deny', () => {
  it('an entry removed is relaxed (at /deny); one added is a tightening (at its item)', () => {
    const head = edit(
      BASE,
      ['  - tools: ["*shell*"]\n    reason: no code execution\n', ''],
      ['    when: read\n', '    when: read\n  - tools: [exec_*, run_*]\n'],
    );
    expect(changes(head)).toEqual([
      [true, 'deny', '/deny', 'deny entry ["*shell*"] is removed'],
      [false, 'deny', '/deny/1', 'deny entry ["exec_*", "run_*"] is added'],
    ]);
    expect(changes(edit(BASE, ['deny:\n  - tools: ["*shell*"]\n    reason: no code execution\n  - tools: "delete_*"\n    when: read\n', '']))).toEqual([
      [true, 'deny', '', 'deny entry ["*shell*"] is removed'],
      [true, 'deny', '', 'deny entry ["delete_*"] (when: read) is removed'],
    ]);
  });

  it('when: reachable → read on the same patterns is a removal and an addition', () => {
    const head = edit(BASE, ['    reason: no code execution\n', '    reason: no code execution\n    when: read\n']);
    expect(changes(head)).toEqual([
      [true, 'deny', '/deny', 'deny entry ["*shell*"] is removed'],
      [false, 'deny', '/deny/0', 'deny entry ["*shell*"] (when: read) is added'],
    ]);
  });
});

describe('diffPolicies: review', () => {
  it('reviewers removed altogether, fresh off, required lowered: all relaxed', () => {
    const head = edit(BASE, ['  reviewers: [alice, acme/security]\n  required: 2\n  fresh: true\n', '  fresh: false\n']);
    expect(changes(head)).toEqual([
      [true, 'review', '/review', 'review.reviewers is removed: anyone with write access other than the author may approve'],
      [true, 'review', '/review', 'review.required is lowered from 2 to 1'],
      [true, 'review', '/review/fresh', 'review.fresh is turned off: an approval of an earlier commit counts'],
    ]);
  });

  it('a name added is relaxed at its item, a name removed is a tightening', () => {
    const head = edit(BASE, ['reviewers: [alice, acme/security]', 'reviewers:\n    - acme/security\n    - mallory\n']);
    expect(changes(head)).toEqual([
      [false, 'review', '/review/reviewers', 'reviewer "alice" is removed from review.reviewers'],
      [true, 'review', '/review/reviewers/1', 'reviewer "mallory" is added to review.reviewers'],
    ]);
  });

  it('reviewers added where anyone could approve, fresh on and required raised: tightenings', () => {
    const base = edit(BASE, ['  reviewers: [alice, acme/security]\n  required: 2\n  fresh: true\n', '  required: 1\n']);
    expect(changes(BASE, base)).toEqual([
      [false, 'review', '/review/reviewers', 'review.reviewers is added: only ["alice", "acme/security"] may approve'],
      [false, 'review', '/review/required', 'review.required is raised from 1 to 2'],
      [false, 'review', '/review/fresh', 'review.fresh is turned on: the approval must be on the head commit'],
    ]);
  });
});

describe('diffPolicies: limits and flags', () => {
  it('a limit raised or removed is relaxed; lowered or added is a tightening', () => {
    expect(changes(edit(BASE, ['max-tools: 40', 'max-tools: 400']))).toEqual([
      [true, 'limit', '/limits/max-tools', 'limits.max-tools is raised from 40 to 400'],
    ]);
    expect(changes(edit(BASE, ['max-tools: 40', 'max-payload-bytes: 1000']))).toEqual([
      [true, 'limit', '/limits', 'limits.max-tools is removed (was 40): no limit'],
      [false, 'limit', '/limits/max-payload-bytes', 'limits.max-payload-bytes is added: 1000'],
    ]);
    expect(changes(edit(BASE, ['max-tools: 40', 'max-tools: 4']))).toEqual([[false, 'limit', '/limits/max-tools', 'limits.max-tools is lowered from 40 to 4']]);
  });

  it('require-explicit-hints off is relaxed, on is a tightening', () => {
    const off = edit(BASE, ['require-explicit-hints: true', 'require-explicit-hints: false']);
    expect(changes(off)).toEqual([[true, 'require-explicit-hints', '/require-explicit-hints', 'require-explicit-hints is turned off']]);
    expect(changes(BASE, off)).toEqual([[false, 'require-explicit-hints', '/require-explicit-hints', 'require-explicit-hints is turned on']]);
    // Removed (false by default): the pointer falls back to the document.
    expect(changes(edit(BASE, ['require-explicit-hints: true\n', '']))[0]).toEqual([
      true,
      'require-explicit-hints',
      '',
      'require-explicit-hints is turned off',
    ]);
  });

  it('allow-pull-request-target and allow-remote-refs on are relaxed, off are tightenings', () => {
    const on = edit(BASE, ['require-explicit-hints: true\n', 'require-explicit-hints: true\nallow-pull-request-target: true\nallow-remote-refs: true\n']);
    expect(changes(on)).toEqual([
      [true, 'allow', '/allow-pull-request-target', 'allow-pull-request-target is turned on'],
      [true, 'allow', '/allow-remote-refs', 'allow-remote-refs is turned on'],
    ]);
    expect(changes(BASE, on)).toEqual([
      [false, 'allow', '', 'allow-pull-request-target is turned off'],
      [false, 'allow', '', 'allow-remote-refs is turned off'],
    ]);
  });

  it('allow-runner-env: a name added is relaxed at its item, a name removed is a tightening', () => {
    expect(changes(edit(BASE, ['allow-runner-env: [RUNNER_TEMP]', 'allow-runner-env: [GITHUB_TOKEN]']))).toEqual([
      [true, 'allow', '/allow-runner-env/0', 'allow-runner-env now lets sources pass GITHUB_TOKEN to their servers'],
      [false, 'allow', '/allow-runner-env', 'allow-runner-env no longer lets sources pass RUNNER_TEMP to their servers'],
    ]);
    expect(changes(edit(BASE, ['allow-runner-env: [RUNNER_TEMP]\n', '']))).toEqual([
      [false, 'allow', '', 'allow-runner-env no longer lets sources pass RUNNER_TEMP to their servers'],
    ]);
  });
});

describe('diffPolicies: sources', () => {
  it('a source removed is relaxed: its tools are no longer checked', () => {
    expect(changes(edit(BASE, ['  - id: rental\n    openapi: integrations/rental.json\n', '']))).toEqual([
      [true, 'source-removed', '/sources', 'source "rental" is removed: its tools are no longer checked'],
    ]);
  });

  it('a contract moved, a kind changed, a file moved: relaxed, paths relative to the root', () => {
    const head = edit(
      BASE,
      ['    openapi: integrations/rental.json\n', '    openapi: integrations/other.json\n    contract: elsewhere/rental.json\n'],
      ['    recorded: recorded/tools.json\n', '    openapi: integrations/saved.json\n'],
    );
    expect(changes(head)).toEqual([
      [
        true,
        'source-file',
        '/sources/2/openapi',
        'source "rental" now reads its integration config from "integrations/other.json" instead of "integrations/rental.json"',
      ],
      [
        true,
        'source-contract',
        '/sources/2/contract',
        'source "rental" now keeps its contract in "elsewhere/rental.json" instead of ".toolgate/rental.surface.json"',
      ],
      [true, 'source-kind', '/sources/3/openapi', 'source "saved" is now an OpenAPI integration instead of a recorded tools/list result'],
    ]);
    expect(changes(edit(BASE, ['recorded/tools.json', 'recorded/other.json']))).toEqual([
      [
        true,
        'source-file',
        '/sources/3/recorded',
        'source "saved" now reads its recorded tools/list result from "recorded/other.json" instead of "recorded/tools.json"',
      ],
    ]);
  });

  it('stdio: command, args and cwd changed are relaxed; env names added are relaxed, removed a tightening', () => {
    const head = edit(BASE, [
      '      command: node\n      args: [server.js]\n      cwd: servers/web\n      env: [API_BASE]\n',
      '      command: bash\n      args: [-c, "curl x | sh"]\n      env: [API_KEY, SECRET]\n',
    ]);
    expect(changes(head)).toEqual([
      // cwd is gone from the head: its change is on `mcp:`, the line before.
      [true, 'source-command', '/sources/0/mcp', 'source "web" now runs its server in "." instead of "servers/web"'],
      [true, 'source-command', '/sources/0/mcp/command', 'source "web" now runs "bash" instead of "node"'],
      [true, 'source-command', '/sources/0/mcp/args', 'source "web" now passes the arguments ["-c", "curl x | sh"] to its server instead of ["server.js"]'],
      [true, 'source-env', '/sources/0/mcp/env/0', 'source "web" passes 2 more environment variables to its server: API_KEY, SECRET'],
      [false, 'source-env', '/sources/0/mcp/env', 'source "web" no longer passes 1 environment variable to its server: API_BASE'],
    ]);
    expect(changes(edit(BASE, ['env: [API_BASE]', 'env: [API_BASE, API_KEY]']))).toEqual([
      [true, 'source-env', '/sources/0/mcp/env/1', 'source "web" passes 1 more environment variable to its server: API_KEY'],
    ]);
  });

  it('http: url, start command and env, headers added or changed are relaxed; a header removed is a tightening', () => {
    const head = edit(
      BASE,
      ['http://127.0.0.1:3000/mcp', 'http://evil.example/mcp'],
      ['start: { command: node, args: [http.js], env: [PORT] }', 'start: { command: node, args: [http.js, --debug], env: [PORT, TOKEN] }'],
      ['Authorization: { env: REMOTE_TOKEN, prefix: "Bearer " }', 'Authorization: { env: OTHER_TOKEN, prefix: "Bearer " }\n        X-Extra: { env: EXTRA }'],
    );
    expect(changes(head)).toEqual([
      [true, 'source-url', '/sources/1/mcp/url', 'source "remote" now connects to "http://evil.example/mcp" instead of "http://127.0.0.1:3000/mcp"'],
      [
        true,
        'source-command',
        '/sources/1/mcp/start/args',
        'source "remote" now passes the arguments ["http.js", "--debug"] to its start command instead of ["http.js"]',
      ],
      [true, 'source-env', '/sources/1/mcp/start/env/1', 'source "remote" passes 1 more environment variable to its start command: TOKEN'],
      [
        true,
        'source-headers',
        '/sources/1/mcp/headers/Authorization',
        'source "remote" now sends header "Authorization" with the value of "OTHER_TOKEN" after "Bearer " instead of the value of "REMOTE_TOKEN" after "Bearer "',
      ],
      [true, 'source-headers', '/sources/1/mcp/headers/X-Extra', 'source "remote" now sends header "X-Extra" with the value of "EXTRA"'],
    ]);
    const noHeaders = edit(BASE, ['      headers:\n        Authorization: { env: REMOTE_TOKEN, prefix: "Bearer " }\n', '']);
    expect(changes(noHeaders)).toEqual([[false, 'source-headers', '/sources/1/mcp', 'source "remote" no longer sends header "Authorization"']]);
  });

  it('http: a start command added is relaxed (with its env), removed is a tightening', () => {
    const noStart = edit(BASE, ['      start: { command: node, args: [http.js], env: [PORT] }\n', '']);
    expect(changes(BASE, noStart)).toEqual([
      [true, 'source-command', '/sources/1/mcp/start', 'source "remote" now runs "node" before connecting'],
      [true, 'source-env', '/sources/1/mcp/start/env/0', 'source "remote" passes 1 more environment variable to its start command: PORT'],
    ]);
    expect(changes(noStart)).toEqual([[false, 'source-command', '/sources/1/mcp', 'source "remote" no longer runs "node" before connecting']]);
    expect(changes(edit(BASE, ['start: { command: node, args: [http.js], env: [PORT] }', 'start: { command: python, args: [http.js], cwd: tools }']))).toEqual([
      [true, 'source-command', '/sources/1/mcp/start/command', 'source "remote" now runs "python" before connecting instead of "node"'],
      [true, 'source-command', '/sources/1/mcp/start/cwd', 'source "remote" now runs its start command in "tools" instead of "."'],
      [false, 'source-env', '/sources/1/mcp/start', 'source "remote" no longer passes 1 environment variable to its start command: PORT'],
    ]);
  });

  it('stdio → http is a kind change', () => {
    const head = edit(BASE, [
      '      command: node\n      args: [server.js]\n      cwd: servers/web\n      env: [API_BASE]\n',
      '      url: http://127.0.0.1:9/mcp\n',
    ]);
    expect(changes(head)).toEqual([[true, 'source-kind', '/sources/0/mcp', 'source "web" is now an MCP server over HTTP instead of an MCP server over stdio']]);
  });
});

describe('diffPolicies: located in the head file, hostile values quoted as data', () => {
  it('each pointer resolves to the head line that makes the change, and changes come in line order', () => {
    const head = edit(
      BASE,
      ['max-tools: 40', 'max-tools: 400'],
      ['schema-widened: error', 'schema-widened: off'],
      ['reviewers: [alice, acme/security]', 'reviewers: [alice, acme/security, mallory]'],
      ['env: [API_BASE]', 'env: [API_BASE, API_KEY]'],
      ['  - tools: ["*shell*"]\n    reason: no code execution\n', ''],
    );
    const h = parse(head);
    const found = diffPolicies(parse(BASE), h);
    const at = (kind: string) => h.lineOf(found.find((c) => c.kind === kind)!.pointer);
    expect(at('limit')).toBe(lineWith(head, 'max-tools: 400'));
    expect(at('rule-level')).toBe(lineWith(head, 'schema-widened: off'));
    expect(at('review')).toBe(lineWith(head, 'mallory'));
    expect(at('source-env')).toBe(lineWith(head, 'API_KEY'));
    expect(at('deny')).toBe(lineWith(head, 'deny:'));
    const lines = found.map((c) => h.lineOf(c.pointer));
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(found.map((c) => c.kind)).toEqual(['source-env', 'rule-level', 'limit', 'deny', 'review']);
  });

  it('quotes, newlines, markup, bidi and invisible characters stay inside one JSON-quoted line; long values are cut', () => {
    const hostile = 'x"\\n<img src=x onerror=alert(1)>\u202Egnp.exe\u200B\u2028@everyone';
    const head = edit(BASE, ['      args: [server.js]', `      args: [${JSON.stringify(hostile)}, ${JSON.stringify('a'.repeat(500))}]`]);
    const [c] = diffPolicies(parse(BASE), parse(head));
    expect(c!.kind).toBe('source-command');
    expect(c!.message).not.toMatch(/[\n\r\u2028\u2029\u202E\u200B]/);
    expect(c!.message).toContain(String.raw`"x\"\\n<img src=x onerror=alert(1)>\u202egnp.exe\u200b\u2028@everyone"`);
    const quoted = /"(a+)…"/.exec(c!.message);
    expect(quoted?.[1]).toHaveLength(79);
    // Each quoted value parses back to (the start of) what the policy says.
    expect(JSON.parse(String.raw`"x\"\\n<img src=x onerror=alert(1)>\u202egnp.exe\u200b\u2028@everyone"`)).toBe(hostile);
  });

  it('a hostile header name and deny pattern are quoted too', () => {
    const head = edit(
      BASE,
      [
        '        Authorization: { env: REMOTE_TOKEN, prefix: "Bearer " }',
        '        Authorization: { env: REMOTE_TOKEN, prefix: "Bearer " }\n        "a/b~c\\n": { env: "T\\u0007" }',
      ],
      ['    when: read\n', '    when: read\n  - tools: ["*\\u001b[31m*"]\n'],
    );
    const found = diffPolicies(parse(BASE), parse(head));
    expect(found.map((c) => [c.pointer, c.message])).toEqual([
      ['/sources/1/mcp/headers/a~1b~0c\n', String.raw`source "remote" now sends header "a/b~c\n" with the value of "T\u0007"`],
      ['/deny/2', String.raw`deny entry ["*\u001b[31m*"] is added`],
    ]);
  });
});

describe('judgingPolicy', () => {
  it("takes base's levels, overrides, deny, review, limits and allow-* keys, the head's sources, file and lines", () => {
    const headText = edit(
      BASE,
      ['schema-widened: error', 'schema-widened: off'],
      ['max-tools: 40', 'max-tools: 400'],
      ['reviewers: [alice, acme/security]', 'reviewers: [mallory, eve]'],
      ['require-explicit-hints: true\n', 'require-explicit-hints: false\nallow-pull-request-target: true\nallow-remote-refs: true\nschema-budget-ms: 600000\n'],
      ['allow-runner-env: [RUNNER_TEMP]', 'allow-runner-env: [GITHUB_TOKEN]'],
      ['env: [API_BASE]', 'env: [API_BASE, API_KEY]'],
      ['  - id: saved\n', '  - id: extra\n    recorded: extra.json\n  - id: saved\n'],
      ['unannotated-tool: error }', 'unannotated-tool: off }'],
    );
    const base = parse(BASE);
    const head = parsePolicy(headText, 'pr/toolgate.yml', '/repo');
    const j = judgingPolicy(base, head);
    expect(j).toMatchObject({
      file: 'pr/toolgate.yml',
      root: '/repo',
      rules: base.rules,
      overrides: base.overrides,
      limits: { maxTools: 40 },
      review: { reviewers: ['alice', 'acme/security'], required: 2, fresh: true },
      requireExplicitHints: true,
      allowPullRequestTarget: false,
      allowRemoteRefs: false,
      allowRunnerEnv: ['RUNNER_TEMP'],
      schemaBudgetMs: 2000,
    });
    // The head's sources, each contained as the base says (no sandbox keys on either side: the
    // defaults; the HTTP start command the base runs keeps the host network).
    const bare = (xs: typeof j.sources) => xs.map((x) => (x.kind === 'mcp' ? { ...x, mcp: { ...x.mcp, containment: undefined } } : x));
    expect(bare(j.sources)).toEqual(bare(head.sources));
    expect(j.sources.flatMap((x) => (x.kind === 'mcp' ? [[x.id, x.mcp.containment?.startNetwork]] : []))).toEqual([
      ['web', false],
      ['remote', true],
    ]);
    expect(j.sources.map((s) => s.id)).toEqual(['web', 'remote', 'rental', 'extra', 'saved']);
    expect(j.lineOf('/sources/3')).toBe(lineWith(headText, 'id: extra'));
    expect(j.lineOf('/rules')).toBe(lineWith(headText, 'schema-widened: off') - 1);
    expect(j.lineOf('/rules')).toBe(base.lineOf('/rules') + 2);
    expect(j.has('/sources/4')).toBe(true);
    expect(base.has('/sources/4')).toBe(false);
  });

  it('deny entries point at the same entry in the head file, or at its deny key when the PR removed them', () => {
    const headText = edit(BASE, ['deny:\n', 'deny:\n  - tools: [new_*]\n'], ['  - tools: ["*shell*"]\n    reason: no code execution\n', '']);
    const head = parse(headText);
    const j = judgingPolicy(parse(BASE), head);
    expect(j.deny.map((d) => [d.tools, d.pointer])).toEqual([
      [['*shell*'], '/deny'],
      [['delete_*'], '/deny/1'],
    ]);
    expect(head.lineOf(j.deny[1]!.pointer)).toBe(lineWith(headText, 'delete_*'));
    const noDeny = parse(edit(BASE, ['deny:\n  - tools: ["*shell*"]\n    reason: no code execution\n  - tools: "delete_*"\n    when: read\n', '']));
    expect(judgingPolicy(parse(BASE), noDeny).deny.map((d) => d.pointer)).toEqual(['', '']);
  });
});

describe('runner secrets in a source env', () => {
  it('isRunnerSecretName: GITHUB_TOKEN and ACTIONS_/INPUT_/RUNNER_ names, any case', () => {
    for (const n of [
      'GITHUB_TOKEN',
      'github_token',
      'ACTIONS_RUNTIME_TOKEN',
      'actions_id_token_request_url',
      'INPUT_GITHUB-TOKEN',
      'input_token',
      'RUNNER_TEMP',
      'Runner_Temp',
    ]) {
      expect(isRunnerSecretName(n), n).toBe(true);
    }
    for (const n of ['GITHUB_TOKENS', 'MY_GITHUB_TOKEN', 'GITHUB_SHA', 'API_KEY', 'INPUT', 'RUNNERS', 'XACTIONS_X', '']) {
      expect(isRunnerSecretName(n), n).toBe(false);
    }
  });

  const withSecrets = edit(
    BASE,
    ['env: [API_BASE]', 'env: [API_BASE, ACTIONS_RUNTIME_TOKEN, github_token, INPUT_GITHUB_TOKEN]'],
    ['env: [PORT]', 'env: [PORT, RUNNER_TEMP, runner_temp]'],
    ['Authorization: { env: REMOTE_TOKEN, prefix: "Bearer " }', 'Authorization: { env: GITHUB_TOKEN, prefix: "Bearer " }'],
  );

  it('lists each entry not allowed by name (exactly), with its pointer and line', () => {
    const head = parse(withSecrets);
    const found = runnerSecretsInEnv(head, ['RUNNER_TEMP']);
    expect(found).toEqual([
      { sourceId: 'web', name: 'ACTIONS_RUNTIME_TOKEN', pointer: '/sources/0/mcp/env/1' },
      { sourceId: 'web', name: 'github_token', pointer: '/sources/0/mcp/env/2' },
      { sourceId: 'web', name: 'INPUT_GITHUB_TOKEN', pointer: '/sources/0/mcp/env/3' },
      { sourceId: 'remote', name: 'runner_temp', pointer: '/sources/1/mcp/start/env/2' },
      { sourceId: 'remote', name: 'GITHUB_TOKEN', pointer: '/sources/1/mcp/headers/Authorization/env' },
    ]);
    expect(head.lineOf(found[4]!.pointer)).toBe(lineWith(withSecrets, 'Authorization:'));
    expect(head.lineOf(found[3]!.pointer)).toBe(lineWith(withSecrets, 'runner_temp'));
  });

  it("judged by the base's allow-runner-env: the PR cannot allow its own", () => {
    const head = parse(
      edit(withSecrets, [
        'allow-runner-env: [RUNNER_TEMP]',
        'allow-runner-env: [RUNNER_TEMP, runner_temp, ACTIONS_RUNTIME_TOKEN, github_token, INPUT_GITHUB_TOKEN, GITHUB_TOKEN]',
      ]),
    );
    expect(runnerSecretsInEnv(head, head.allowRunnerEnv)).toEqual([]);
    expect(runnerSecretsInEnv(head, judgingPolicy(parse(BASE), head).allowRunnerEnv).map((s) => s.name)).toEqual([
      'ACTIONS_RUNTIME_TOKEN',
      'github_token',
      'INPUT_GITHUB_TOKEN',
      'runner_temp',
      'GITHUB_TOKEN',
    ]);
    expect(runnerSecretsInEnv(parse(BASE), [])).toEqual([]);
  });
});

/** The ConfigError assertHeadersStayWithBase throws for `head` against `base` (fails the test when none). */
function refusal(head: Policy, base: Policy | null): ConfigError {
  try {
    assertHeadersStayWithBase(head, base);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('assertHeadersStayWithBase threw nothing');
}

describe("a header's secret goes only where the base sends it", () => {
  const base = parse(BASE);
  const url = 'url: http://127.0.0.1:3000/mcp';
  const header = 'Authorization: { env: REMOTE_TOKEN, prefix: "Bearer " }';

  it('the same origin: another path, another start command, another prefix or header name, a renamed source', () => {
    for (const head of [
      edit(BASE, [url, 'url: http://127.0.0.1:3000/v2/mcp']),
      edit(BASE, ['start: { command: node, args: [http.js], env: [PORT] }', 'start: { command: node, args: [other.js] }']),
      edit(BASE, [header, 'X-Api-Key: { env: REMOTE_TOKEN }']),
      edit(BASE, ['  - id: remote\n', '  - id: remote-v2\n']),
      edit(BASE, [header, `${header}\n        X-Trace: { env: REMOTE_TOKEN }`]),
    ]) {
      expect(headersSentOutsideBase(parse(head), base), head).toEqual([]);
      expect(() => assertHeadersStayWithBase(parse(head), base)).not.toThrow();
    }
  });

  it('another host, port or scheme: refused on the url line, before anything connects', () => {
    for (const [to, origin] of [
      ['url: https://collector.example/mcp', 'https://collector.example'],
      ['url: http://127.0.0.1:3001/mcp', 'http://127.0.0.1:3001'],
      ['url: https://127.0.0.1:3000/mcp', 'https://127.0.0.1:3000'],
      ['url: http://127.0.0.1.nip.io:3000/mcp', 'http://127.0.0.1.nip.io:3000'],
    ] as const) {
      const text = edit(BASE, [url, to]);
      const head = parse(text);
      expect(headersSentOutsideBase(head, base)).toEqual([
        { sourceId: 'remote', env: 'REMOTE_TOKEN', header: 'Authorization', origin, pointer: '/sources/1/mcp/url' },
      ]);
      const e = refusal(head, base);
      expect(e.message).toBe(`source "remote" sends "REMOTE_TOKEN" (header "Authorization") to ${origin}, where the base branch's policy does not send it`);
      expect(e.location).toMatchObject({ file: 'toolgate.yml', line: lineWith(text, to), pointer: '/sources/1/mcp/url' });
      expect(e.fix).toMatch(/base branch/);
    }
  });

  it('another variable to the same origin, and a new source with headers, are refused too', () => {
    const other = edit(BASE, [header, 'Authorization: { env: DEPLOY_KEY, prefix: "Bearer " }']);
    expect(headersSentOutsideBase(parse(other), base).map((h) => h.env)).toEqual(['DEPLOY_KEY']);
    const added = edit(BASE, [
      '  - id: rental\n',
      '  - id: leak\n    mcp:\n      url: https://collector.example/mcp\n      headers:\n        A: { env: REMOTE_TOKEN }\n        B: { env: API_BASE }\n  - id: rental\n',
    ]);
    expect(headersSentOutsideBase(parse(added), base).map((h) => [h.sourceId, h.env, h.origin])).toEqual([
      ['leak', 'REMOTE_TOKEN', 'https://collector.example'],
      ['leak', 'API_BASE', 'https://collector.example'],
    ]);
    expect(() => assertHeadersStayWithBase(parse(added), base)).toThrow(/and 1 more such header/);
  });

  it('on first adoption (no policy at the base) every header is refused: the base sends nothing anywhere', async () => {
    const head = parse(BASE);
    expect(headersSentOutsideBase(head, null)).toEqual([
      { sourceId: 'remote', env: 'REMOTE_TOKEN', header: 'Authorization', origin: 'http://127.0.0.1:3000', pointer: '/sources/1/mcp/url' },
    ]);
    const e = refusal(head, null);
    expect(e.message).toBe(
      'source "remote" sends "REMOTE_TOKEN" (header "Authorization") to http://127.0.0.1:3000, and the base branch has no toolgate.yml (first adoption) to send it anywhere',
    );
    expect(e.location).toMatchObject({ file: 'toolgate.yml', line: lineWith(BASE, url), pointer: '/sources/1/mcp/url' });
    expect(e.fix).toMatch(/without the header/);
    // The pull request's base state is read so: a base without toolgate.yml is a first adoption.
    await expect(readBaseState(head, '/repo', () => Promise.resolve(undefined), 'main')).rejects.toThrow(/first adoption/);
    // A policy without headers adopts as before.
    const noHeaders = parse(edit(BASE, ['      headers:\n        Authorization: { env: REMOTE_TOKEN, prefix: "Bearer " }\n', '']));
    expect(() => assertHeadersStayWithBase(noHeaders, null)).not.toThrow();
  });
});

describe('the sandbox', () => {
  it('sandbox off, an open network and a new writable or readable path are relaxations; the reverse tightenings', () => {
    const head = edit(BASE, [
      '      env: [API_BASE]\n',
      '      env: [API_BASE]\n      sandbox: "off"\n      network: open\n      writable: [data, cache]\n      readable: [~/.cache/ms-playwright]\n',
    ]);
    expect(changes(head)).toEqual([
      [true, 'sandbox', '/sources/0/mcp/sandbox', 'source "web" now runs its server outside the sandbox'],
      [true, 'sandbox', '/sources/0/mcp/network', 'source "web" now gives its server the host\'s network'],
      [true, 'sandbox', '/sources/0/mcp/writable/0', 'source "web" now lets its server write "data"'],
      [true, 'sandbox', '/sources/0/mcp/writable/1', 'source "web" now lets its server write "cache"'],
      [true, 'sandbox', '/sources/0/mcp/readable/0', 'source "web" now lets its server read "~/.cache/ms-playwright"'],
    ]);
    expect(changes(BASE, head).map((c) => [c[0], c[3]])).toEqual([
      [false, 'source "web" runs its server in the sandbox again'],
      [false, 'source "web" no longer gives its server the host\'s network'],
      [false, 'source "web" no longer lets its server write "data"'],
      [false, 'source "web" no longer lets its server write "cache"'],
      [false, 'source "web" no longer lets its server read "~/.cache/ms-playwright"'],
    ]);
    // The same path written another way is the same path; another one is one more.
    const same = edit(BASE, ['      env: [API_BASE]\n', '      env: [API_BASE]\n      readable: [./vendor/sdk]\n']);
    expect(changes(same, edit(BASE, ['      env: [API_BASE]\n', '      env: [API_BASE]\n      readable: [vendor/sdk/]\n']))).toEqual([]);
    expect(changes(edit(BASE, ['      env: [API_BASE]\n', '      env: [API_BASE]\n      readable: [vendor/sdk, /opt/sdk]\n']), same)).toEqual([
      [true, 'sandbox', '/sources/0/mcp/readable/1', 'source "web" now lets its server read "/opt/sdk"'],
    ]);
  });

  it('`sandbox: required` dropped is a relaxation; added, a tightening', () => {
    const required = edit(BASE, ['require-explicit-hints: true\n', 'require-explicit-hints: true\nsandbox: required\n']);
    expect(changes(BASE, required)).toEqual([
      [true, 'sandbox', '', 'sandbox is no longer required: servers may run unsandboxed where the machine has no sandbox'],
    ]);
    expect(changes(required)).toEqual([[false, 'sandbox', '/sandbox', 'sandbox is now required: no server runs unsandboxed']]);
  });

  it("the pull request's servers run contained as the base says, a new source as strictly as possible", () => {
    const head = edit(
      BASE,
      ['      env: [API_BASE]\n', '      env: [API_BASE]\n      network: open\n      writable: [data]\n      readable: [vendor/sdk]\n'],
      ['  - id: saved\n', '  - id: extra\n    mcp: { command: node, args: [x.js], sandbox: "off" }\n  - id: saved\n'],
    );
    const judging = judgingPolicy(parse(BASE), parse(head));
    const containment = (id: string) => (judging.sources.find((s) => s.id === id) as { mcp: { containment: unknown } }).mcp.containment;
    // What the head asks for beyond that is noted, for a failure to name (run-check.ts `pendingContainment`).
    expect(containment('web')).toEqual({
      sandbox: 'on',
      network: 'loopback',
      writable: [],
      startNetwork: false,
      pending: ['`network: open`', '`writable: data`', '`readable: vendor/sdk`'],
    });
    expect(containment('extra')).toEqual({ sandbox: 'on', network: 'loopback', writable: [], startNetwork: false, pending: ['`sandbox: off`'] });
    // An HTTP start command the base already runs keeps the host network; a new or changed one does not.
    expect(containment('remote')).toMatchObject({ startNetwork: true });
    const changedStart = judgingPolicy(parse(BASE), parse(edit(BASE, ['args: [http.js]', 'args: [other.js]'])));
    expect((changedStart.sources.find((s) => s.id === 'remote') as { mcp: { containment: { startNetwork: boolean } } }).mcp.containment.startNetwork).toBe(
      false,
    );
    // The head's own policy still says what it asks for (it applies after the merge).
    expect((parse(head).sources[0] as { mcp: { containment: unknown } }).mcp.containment).toEqual({
      sandbox: 'on',
      network: 'open',
      writable: ['/repo/data'],
      readable: ['/repo/vendor/sdk'],
    });
  });

  it('`sandbox: required` with a source that turns it off is refused at that source', () => {
    expect(() =>
      parse(
        edit(
          BASE,
          ['require-explicit-hints: true\n', 'require-explicit-hints: true\nsandbox: required\n'],
          ['      env: [API_BASE]\n', '      env: [API_BASE]\n      sandbox: "off"\n'],
        ),
      ),
    ).toThrow(/turns the sandbox off, but `sandbox: required`/);
  });
});

describe('diffPolicies: exports', () => {
  const withExports = `${BASE}exports:\n  - to: claude-code\n    source: web\n    file: .claude/settings.json\n  - to: envoy\n    source: remote\n    file: deploy/route.yaml\n`;
  it('a dropped or retargeted exports entry is relaxed (that file would no longer be checked); an added one is a tightening', () => {
    expect(changes(withExports)).toEqual([
      [false, 'exports', '/exports/0', 'exports entry (to claude-code, file ".claude/settings.json") is added'],
      [false, 'exports', '/exports/1', 'exports entry (to envoy, file "deploy/route.yaml") is added'],
    ]);
    const dropped = edit(withExports, ['  - to: envoy\n    source: remote\n    file: deploy/route.yaml\n', '']);
    expect(changes(dropped, withExports)).toEqual([
      [
        true,
        'exports',
        '/exports',
        'exports entry (to envoy, file "deploy/route.yaml") is removed or changed: that export is no longer checked against the contract',
      ],
    ]);
    const moved = edit(withExports, ['file: .claude/settings.json', 'file: .claude/other.json']);
    expect(changes(moved, withExports).map(([relaxed, kind]) => [relaxed, kind])).toEqual([
      [true, 'exports'],
      [false, 'exports'],
    ]);
    const none = edit(withExports, [
      'exports:\n  - to: claude-code\n    source: web\n    file: .claude/settings.json\n  - to: envoy\n    source: remote\n    file: deploy/route.yaml\n',
      '',
    ]);
    expect(changes(none, withExports).every(([relaxed, , pointer]) => relaxed && pointer === '')).toBe(true);
  });
});

describe('diffPolicies: safety fields', () => {
  const FIELDS = `${BASE}safety-fields:\n  - name: paid\n    pointer: /_meta/com.example~1paid\n    safer: false\n`;
  const SELECTED = `${FIELDS}runtime:\n  require-safer: [paid]\n`;

  it('a field added is a tightening; removed or redefined (another safer value) is relaxed', () => {
    expect(changes(FIELDS)).toEqual([[false, 'safety-fields', '/safety-fields/0', 'safety field "paid" (/_meta/com.example~1paid, safer: false) is added']]);
    expect(changes(BASE, FIELDS)).toEqual([
      [true, 'safety-fields', '', 'safety field "paid" (/_meta/com.example~1paid, safer: false) is removed or redefined'],
    ]);
    expect(changes(edit(FIELDS, ['safer: false', 'safer: true']), FIELDS)).toEqual([
      [true, 'safety-fields', '/safety-fields', 'safety field "paid" (/_meta/com.example~1paid, safer: false) is removed or redefined'],
      [false, 'safety-fields', '/safety-fields/0', 'safety field "paid" (/_meta/com.example~1paid, safer: true) is added'],
    ]);
    // A new name for the same field is no change.
    expect(changes(edit(FIELDS, ['name: paid', 'name: paid-generation']), FIELDS)).toEqual([]);
  });

  it('runtime.require-safer: a field dropped is relaxed, one added a tightening; deny less-safe added narrows the entry (relaxed)', () => {
    expect(changes(FIELDS, SELECTED)).toEqual([[true, 'runtime', '', 'runtime.require-safer no longer requires the safer side of "paid"']]);
    expect(changes(SELECTED, FIELDS)).toEqual([[false, 'runtime', '/runtime/require-safer/0', 'runtime.require-safer requires the safer side of "paid"']]);
    const narrowed = edit(FIELDS, ['    reason: no code execution\n', '    reason: no code execution\n    less-safe: [paid]\n']);
    expect(changes(narrowed, FIELDS)).toEqual([
      [true, 'deny', '/deny', 'deny entry ["*shell*"] is removed'],
      [false, 'deny', '/deny/0', 'deny entry ["*shell*"] (less-safe: ["paid"]) is added'],
    ]);
  });
});

describe('diffPolicies: runtime.pass-methods', () => {
  const PASSING = `${BASE}runtime:\n  pass-methods: [vendor/run, vendor/status]\n`;

  it('a method added reaches the server unjudged: relaxed, at its entry; one removed is a tightening', () => {
    expect(changes(PASSING)).toEqual([
      [true, 'runtime', '/runtime/pass-methods/0', 'runtime.pass-methods passes "vendor/run" to the server unjudged'],
      [true, 'runtime', '/runtime/pass-methods/1', 'runtime.pass-methods passes "vendor/status" to the server unjudged'],
    ]);
    expect(changes(edit(PASSING, ['[vendor/run, vendor/status]', '[vendor/status]']), PASSING)).toEqual([
      [false, 'runtime', '/runtime/pass-methods', 'runtime.pass-methods no longer passes "vendor/run"'],
    ]);
    expect(changes(edit(PASSING, ['[vendor/run, vendor/status]', '[vendor/status, vendor/run]']), PASSING)).toEqual([]);
  });
});

describe('diffPolicies: overrides, where the last matching entry decides a level', () => {
  const ORDERED = edit(BASE, ['  - tools: ["admin_*"]\n', '  - tools: ["*"]\n    rules: { unannotated-tool: off }\n  - tools: ["admin_*"]\n']);

  it('two entries swapped: the one now last wins where both match (relaxed when its level is lower)', () => {
    const swapped = edit(BASE, [
      '  - tools: ["admin_*"]\n    rules: { unannotated-tool: error }\n',
      '  - tools: ["admin_*"]\n    rules: { unannotated-tool: error }\n  - tools: ["*"]\n    rules: { unannotated-tool: off }\n',
    ]);
    const [c] = changes(swapped, ORDERED);
    expect(changes(swapped, ORDERED)).toEqual([
      [
        true,
        'override',
        '/overrides/1',
        'override for tools ["*"] now comes after the override for tools ["admin_*"]: where both match, unannotated-tool off instead of error',
      ],
    ]);
    expect(parse(swapped).lineOf(c![2])).toBe(lineWith(swapped, 'tools: ["*"]'));
    expect(changes(ORDERED, swapped).map(([relaxed, kind]) => [relaxed, kind])).toEqual([[false, 'override']]);
  });

  it('entries that set no common rule, or the same level, can swap freely', () => {
    const two = edit(BASE, [
      '    rules: { unannotated-tool: error }\n',
      '    rules: { unannotated-tool: error }\n  - tools: ["x_*"]\n    rules: { open-arguments: off, unannotated-tool: error }\n',
    ]);
    const swapped = edit(BASE, [
      '  - tools: ["admin_*"]\n',
      '  - tools: ["x_*"]\n    rules: { open-arguments: off, unannotated-tool: error }\n  - tools: ["admin_*"]\n',
    ]);
    expect(changes(swapped, two)).toEqual([]);
  });

  it('an entry added after one it overrules is relaxed where it sets a lower level, though not below `rules`', () => {
    // admin_* tools had error (the override); after the new entry they have warning.
    const head = edit(BASE, [
      '    rules: { unannotated-tool: error }\n',
      '    rules: { unannotated-tool: error }\n  - tools: ["*"]\n    rules: { unannotated-tool: warning }\n',
    ]);
    expect(changes(head)).toEqual([[true, 'override', '/overrides/1', 'override for tools ["*"] is added: unannotated-tool warning (warning without it)']]);
    // Added before it, the existing entry still wins for admin_* tools: no lower level anywhere.
    const before = edit(BASE, ['  - tools: ["admin_*"]\n', '  - tools: ["*"]\n    rules: { unannotated-tool: warning }\n  - tools: ["admin_*"]\n']);
    expect(changes(before).map(([relaxed, kind]) => [relaxed, kind])).toEqual([[false, 'override']]);
  });

  it('many entries reordered: one change per rule whose level can move, not one per pair', () => {
    const entry = (i: number) =>
      `  - tools: ["t${i}_*"]\n    rules: { tool-added: ${i % 2 ? 'off' : 'error'}, open-arguments: ${i % 3 ? 'error' : 'warning'} }\n`;
    const ids = [...Array(1000).keys()];
    const base = `sources:\n  - id: web\n    recorded: t.json\noverrides:\n${ids.map(entry).join('')}`;
    const head = `sources:\n  - id: web\n    recorded: t.json\noverrides:\n${[...ids].reverse().map(entry).join('')}`;
    const found = changes(head, base);
    expect(found.map(([relaxed, kind]) => [relaxed, kind])).toEqual([
      [true, 'override'],
      [true, 'override'],
    ]);
    expect(found.map((c) => c[3].replace(/.*where both match, /, '')).sort()).toEqual([
      'open-arguments warning instead of error',
      'tool-added off instead of error',
    ]);
  });

  it('an entry removed that hid a lower level of an earlier entry is relaxed', () => {
    // admin_* tools: notice (last match); without it they fall back to the first entry's off.
    const base = edit(BASE, [
      '  - tools: ["admin_*"]\n    rules: { unannotated-tool: error }\n',
      '  - tools: ["*"]\n    rules: { unannotated-tool: off }\n  - tools: ["admin_*"]\n    rules: { unannotated-tool: notice }\n',
    ]);
    const head = edit(base, ['  - tools: ["admin_*"]\n    rules: { unannotated-tool: notice }\n', '']);
    expect(changes(head, base)).toEqual([
      [true, 'override', '/overrides', 'override for tools ["admin_*"] is removed: unannotated-tool notice (warning without it)'],
    ]);
  });
});

describe('diffPolicies: require-explicit-hints and the level of annotation-now-implicit', () => {
  // BASE sets require-explicit-hints: annotation-now-implicit is an error there.
  it('a rules entry that lowers annotation-now-implicit below the error require-explicit-hints gives it is relaxed', () => {
    const head = edit(BASE, ['  unannotated-tool: warning\n', '  unannotated-tool: warning\n  annotation-now-implicit: notice\n']);
    expect(changes(head)).toEqual([[true, 'rule-level', '/rules/annotation-now-implicit', 'rule "annotation-now-implicit" is lowered from error to notice']]);
  });

  it('an override that does the same is relaxed', () => {
    const head = edit(BASE, [
      '    rules: { unannotated-tool: error }\n',
      '    rules: { unannotated-tool: error }\n  - tools: ["*"]\n    rules: { annotation-now-implicit: notice }\n',
    ]);
    expect(changes(head)).toEqual([[true, 'override', '/overrides/1', 'override for tools ["*"] is added: annotation-now-implicit notice (error without it)']]);
  });

  it('turning require-explicit-hints off is one change, not a second one for the level it raised', () => {
    expect(changes(edit(BASE, ['require-explicit-hints: true', 'require-explicit-hints: false'])).map(([, kind]) => kind)).toEqual(['require-explicit-hints']);
  });
});
