/**
 * Broken policies, contracts, recordings and OpenAPI integrations, each run through the
 * built CLI (`node dist/cli.js check -c ...`) in a fresh copy of test/fixtures/bad: the exit code
 * is 2 (configuration) or 3 (source), the message names the file with the line (verified by
 * hand against each file) or JSON pointer and says how to fix it, and no file in the workspace,
 * contracts included, is created or changed. See test/fixtures/bad/README.md.
 */
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/mcp-fixtures.js';
import { runCli, tempWorkspace } from '../support/run-dist.js';

const BAD = join(ROOT, 'test/fixtures/bad');

interface Case {
  /** policy/<file>, contract/<file>, recorded/<file> or openapi/<dir>. */
  path: string;
  exit: 2 | 3;
  /** Every one must occur in the output (stderr for exit 2, stdout + stderr for exit 3). */
  says: (string | RegExp)[];
}

const POLICY_FIX = 'fix: Fix the policy file at that line; its schema is schema/toolgate.schema.json';
const CONTRACT_FIX = 'fix: Do not edit the contract by hand: restore it with `git checkout -- <file>` or run `toolgate update`';
const RECORDED_FIX = 'fix: save the result of a `tools/list` request';

const CASES: Case[] = [
  // ---- policy (toolgate.yml) ----
  { path: 'policy/syntax-unclosed.yml', exit: 2, says: ['policy/syntax-unclosed.yml:6:1: YAML syntax error: Flow sequence', POLICY_FIX] },
  { path: 'policy/tabs.yml', exit: 2, says: ['policy/tabs.yml:3:1: YAML syntax error: Tabs are not allowed as indentation', POLICY_FIX] },
  { path: 'policy/duplicate-key.yml', exit: 2, says: ['policy/duplicate-key.yml:6:1: YAML syntax error: Map keys must be unique', POLICY_FIX] },
  { path: 'policy/sources-string.yml', exit: 2, says: ['policy/sources-string.yml:1 (at /sources): must be array', POLICY_FIX] },
  { path: 'policy/timeout-string.yml', exit: 2, says: ['policy/timeout-string.yml:5 (at /sources/0/mcp/startup-timeout-ms): must be integer', POLICY_FIX] },
  { path: 'policy/negative-limit.yml', exit: 2, says: ['policy/negative-limit.yml:3 (at /limits/max-tools): must be >= 0', POLICY_FIX] },
  { path: 'policy/unknown-key.yml', exit: 2, says: ['policy/unknown-key.yml:4 (at /sorces): unknown key "sorces"', POLICY_FIX] },
  { path: 'policy/unknown-nested-key.yml', exit: 2, says: ['policy/unknown-nested-key.yml:4 (at /sources/0/mcp/comand): unknown key "comand"', POLICY_FIX] },
  {
    path: 'policy/unknown-rule.yml',
    exit: 2,
    says: ['policy/unknown-rule.yml:6 (at /rules/unlisted-tools): unknown rule id "unlisted-tools"', 'fix: Use an id listed by `toolgate rules`'],
  },
  {
    path: 'policy/override-unknown-rule.yml',
    exit: 2,
    says: [
      'policy/override-unknown-rule.yml:7 (at /overrides/0/rules/unanotated-tool): unknown rule id "unanotated-tool"',
      'fix: Use an id listed by `toolgate rules`',
    ],
  },
  {
    path: 'policy/bad-level.yml',
    exit: 2,
    says: ['policy/bad-level.yml:5 (at /rules/unlisted-tool): must be equal to one of the allowed values: "error", "warning", "notice", "off"', POLICY_FIX],
  },
  { path: 'policy/duplicate-id.yml', exit: 2, says: ['policy/duplicate-id.yml:4 (at /sources/1/id): duplicate source id "local"', POLICY_FIX] },
  { path: 'policy/bad-id.yml', exit: 2, says: ['policy/bad-id.yml:2 (at /sources/0/id): must match pattern', POLICY_FIX] },
  {
    path: 'policy/two-kinds.yml',
    exit: 2,
    says: ['policy/two-kinds.yml:2 (at /sources/0): source "local" must have exactly one of mcp, openapi, recorded (has openapi, recorded)', POLICY_FIX],
  },
  {
    path: 'policy/command-and-url.yml',
    exit: 2,
    says: ['policy/command-and-url.yml:3 (at /sources/0/mcp): mcp source "local" needs exactly one of command (stdio) or url (HTTP)', POLICY_FIX],
  },
  { path: 'policy/empty.yml', exit: 2, says: ['policy/empty.yml:1 (at /): missing required key "sources"', POLICY_FIX] },
  { path: 'policy/list-not-map.yml', exit: 2, says: ['policy/list-not-map.yml:1 (at /): must be object', POLICY_FIX] },
  // ---- contract (.toolgate/<id>.surface.json), against a valid recorded source ----
  { path: 'contract/truncated.surface.json', exit: 2, says: ['contract/truncated.surface.json:51:7: invalid JSON: unterminated string', CONTRACT_FIX] },
  { path: 'contract/empty.surface.json', exit: 2, says: ['contract/empty.surface.json:1:1: invalid JSON', CONTRACT_FIX] },
  {
    path: 'contract/effective-hints.surface.json',
    exit: 2,
    says: [
      'contract/effective-hints.surface.json:58 (at /tools/1/effectiveHints/readOnlyHint): contract is inconsistent: tool "get_note" has effective readOnlyHint false but its annotations give true',
      CONTRACT_FIX,
    ],
  },
  {
    path: 'contract/safety-class.surface.json',
    exit: 2,
    says: [
      'contract/safety-class.surface.json:22 (at /tools/0/safetyClass): contract is inconsistent: tool "delete_note" has safetyClass "read" but its annotations give "write"',
      CONTRACT_FIX,
    ],
  },
  {
    path: 'contract/digest.surface.json',
    exit: 2,
    says: [
      'contract/digest.surface.json:46 (at /tools/0/digest): contract is inconsistent: tool "delete_note" digest does not match its definition',
      CONTRACT_FIX,
    ],
  },
  {
    path: 'contract/description-edited.surface.json',
    exit: 2,
    says: [
      'contract/description-edited.surface.json:74 (at /tools/1/digest): contract is inconsistent: tool "get_note" digest does not match its definition',
      CONTRACT_FIX,
    ],
  },
  {
    path: 'contract/schema-edited.surface.json',
    exit: 2,
    says: [
      'contract/schema-edited.surface.json:50 (at /tools/0/inputSchemaDigest): contract is inconsistent: tool "delete_note" inputSchemaDigest does not match its inputSchema',
      CONTRACT_FIX,
    ],
  },
  {
    path: 'contract/newer-format.surface.json',
    exit: 2,
    says: ['contract/newer-format.surface.json:2 (at /formatVersion): contract format 99 is newer than this toolgate understands (2)', 'fix: Upgrade toolgate'],
  },
  {
    path: 'contract/missing-name.surface.json',
    exit: 2,
    says: ['contract/missing-name.surface.json:49 (at /tools/1): missing required key "name"', CONTRACT_FIX],
  },
  { path: 'contract/wrong-type.surface.json', exit: 2, says: ['contract/wrong-type.surface.json:8 (at /counts/toolCount): must be integer', CONTRACT_FIX] },
  { path: 'contract/tools-map.surface.json', exit: 2, says: ['contract/tools-map.surface.json:18 (at /tools): must be array', CONTRACT_FIX] },
  {
    path: 'contract/tools.json',
    exit: 2,
    says: [
      'contract/tools.json:1: not a toolgate contract: it looks like a saved `tools/list` result',
      'fix: Make a contract from it with `toolgate snapshot --tools-json contract/tools.json --output <contract.json>`',
    ],
  },
  // ---- recorded tools/list files ----
  {
    path: 'recorded/trailing-comma.json',
    exit: 2,
    says: [
      'recorded/trailing-comma.json:4:3: recorded tools/list file is not valid JSON: trailing comma before ]',
      'fix: fix the JSON syntax at that position',
    ],
  },
  {
    path: 'recorded/unterminated-string.json',
    exit: 2,
    says: ['recorded/unterminated-string.json:3:50: recorded tools/list file is not valid JSON: control character in a string', 'fix: fix the JSON syntax'],
  },
  { path: 'recorded/no-tools.json', exit: 2, says: ['recorded/no-tools.json:1: recorded tools/list file: "tools" is missing or not an array', RECORDED_FIX] },
  {
    path: 'recorded/result-not-object.json',
    exit: 2,
    says: ['recorded/result-not-object.json:4 (at /result): recorded tools/list file: "result" is not an object', RECORDED_FIX],
  },
  {
    path: 'recorded/jsonrpc-error.json',
    exit: 2,
    says: ['recorded/jsonrpc-error.json:4 (at /error): recorded tools/list file: the file holds a JSON-RPC error response', RECORDED_FIX],
  },
  {
    path: 'recorded/not-an-object.json',
    exit: 2,
    says: ['recorded/not-an-object.json:1: recorded tools/list file: expected an object or an array, found string', RECORDED_FIX],
  },
  // ---- OpenAPI integration configs and documents ----
  {
    path: 'openapi/invalid-config',
    exit: 2,
    says: [
      'openapi/invalid-config/integration.json:7:3: integration config is not valid JSON: trailing comma before ]',
      'fix: fix the JSON syntax at this position',
    ],
  },
  {
    path: 'openapi/unknown-config-key',
    exit: 2,
    says: [
      'openapi/unknown-config-key/integration.json:6 (at /polices): unknown key "polices" in integration config',
      'fix: remove it; allowed keys: $schema, id, type, spec, include, policies',
    ],
  },
  {
    path: 'openapi/several-mistakes',
    exit: 2,
    says: [
      'openapi/several-mistakes/integration.json:5 (at /include): `include` must be an array, found a string',
      'fix: list operationIds (or "METHOD /path") in an array',
      'also: openapi/several-mistakes/integration.json:6 (at /polices): unknown key "polices" in integration config; did you mean "policies"?',
    ],
  },
  {
    path: 'openapi/bad-policy-value',
    exit: 2,
    says: [
      'openapi/bad-policy-value/integration.json:7 (at /policies/createPet): invalid policy "write" for "createPet": the only policy is "read"',
      'fix: use "read"',
    ],
  },
  {
    path: 'openapi/unknown-operation',
    exit: 2,
    says: [
      'openapi/unknown-operation/integration.json:7 (at /include/1): `include` entry "deletePet" names no operation of ../ok.yaml',
      'fix: use an operationId from the document',
    ],
  },
  {
    path: 'openapi/missing-spec',
    exit: 3,
    says: [/openapi\/missing-spec\/integration\.json:4 \(spec\): OpenAPI document not found: \S*openapi\/missing-spec\/nowhere\.yaml/, 'server-failed'],
  },
  {
    path: 'openapi/spec-invalid-json',
    exit: 3,
    says: [/openapi\/spec-invalid-json\/integration\.json:4 \(spec\): cannot parse \S*openapi\/spec-invalid-json\/openapi\.json: .*\(5:51\)/, 'server-failed'],
  },
  {
    path: 'openapi/missing-ref',
    exit: 3,
    says: [
      /openapi\/missing-ref\/integration\.json:4 \(spec\): \$ref "\.\/schemas\/missing\.yaml#\/Pet" at \S*openapi\/missing-ref\/openapi\.yaml#\/paths\/~1pets\/get\/responses\/200\/content\/application~1json\/schema\/\$ref: file not found/,
      'server-failed',
    ],
  },
];

/** Every file under `dir` with a hash of its bytes. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

/** A fresh copy of test/fixtures/bad with the policy the case needs; returns the -c argument. */
function workspace(c: Case, dir: string, port: number): string {
  cpSync(BAD, dir, { recursive: true });
  writeFileSync(
    join(dir, 'openapi/remote-ref/openapi.yaml'),
    readFileSync(join(BAD, 'openapi/remote-ref/openapi.yaml.template'), 'utf8').replace('{{PORT}}', String(port)),
  );
  const [kind, name] = c.path.split('/') as [string, string];
  if (kind === 'policy') return c.path;
  const policy = join(kind, 'toolgate.yml');
  const source =
    kind === 'contract'
      ? `  - id: notes\n    recorded: tools.json\n    contract: ${name}\n`
      : kind === 'recorded'
        ? `  - id: rec\n    recorded: ${name}\n`
        : `  - id: pets\n    openapi: ${name}/integration.json\n`;
  writeFileSync(join(dir, policy), `sources:\n${source}`);
  return policy;
}

/** A 127.0.0.1 server counting connections: the target of the remote `$ref`. */
let server: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ Pet: { type: 'object', properties: { name: { type: 'string' } } } }));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const dirs: { cleanup: () => void }[] = [];
afterAll(() => dirs.splice(0).forEach((d) => d.cleanup()));

async function check(c: Case, extraPolicy = ''): Promise<{ code: number | null; out: string; before: Record<string, string>; after: Record<string, string> }> {
  const ws = tempWorkspace('tg-bad-');
  dirs.push(ws);
  const config = workspace(c, ws.dir, port);
  if (extraPolicy) writeFileSync(join(ws.dir, config), readFileSync(join(ws.dir, config), 'utf8') + extraPolicy);
  const before = tree(ws.dir);
  const r = await runCli(['check', '-c', config], { cwd: ws.dir, timeoutMs: 60_000 });
  return { code: r.code, out: `${r.stderr}\n${r.stdout}`, before, after: tree(ws.dir) };
}

describe.concurrent('broken files through the built CLI', () => {
  it('has at least 30 cases, one per file', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
    expect(new Set(CASES.map((c) => c.path)).size).toBe(CASES.length);
  });

  for (const c of CASES) {
    it(`${c.path}: exit ${c.exit}, names file, line and fix; writes nothing`, async ({ expect }) => {
      const r = await check(c);
      expect(r.code, r.out).toBe(c.exit);
      for (const s of c.says) {
        if (typeof s === 'string') expect(r.out).toContain(s);
        else expect(r.out).toMatch(s);
      }
      expect(r.out).not.toContain('internal error');
      // Nothing created or changed: no contract written, the broken contract left as it was.
      expect(r.after).toEqual(r.before);
    });
  }
});

describe('remote $ref', () => {
  const remote: Case = { path: 'openapi/remote-ref', exit: 3, says: [] };

  it('is refused without a network connection unless allow-remote-refs is set', async () => {
    const before = connections;
    const r = await check(remote);
    expect(r.code, r.out).toBe(3);
    expect(r.out).toContain(`remote $ref "http://127.0.0.1:${port}/pet.json#/Pet"`);
    expect(r.out).toContain(
      'refused: toolgate does not fetch documents over the network unless remote refs are allowed (`allow-remote-refs: true` in toolgate.yml)',
    );
    expect(r.out).toMatch(/openapi\/remote-ref\/integration\.json:4 \(spec\)/);
    expect(connections - before).toBe(0);
    expect(r.after).toEqual(r.before);
  });

  it('the counter counts (sanity check of the assertion above)', async () => {
    const before = connections;
    const res = await fetch(`http://127.0.0.1:${port}/pet.json`);
    expect(res.status).toBe(200);
    await res.text();
    expect(connections - before).toBe(1);
  });
});
