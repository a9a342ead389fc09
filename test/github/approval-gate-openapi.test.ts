/**
 * The review gate on where OpenAPI calls go and what they carry (docs/design.md §7), as a table:
 * real documents (the Swagger Petstore, USPTO's Data Set API, the classic Petstore in Swagger 2.0;
 * test/fixtures/openapi/README.md) snapshotted through the real `openapi` source before and after
 * a pull request edits one pinned field, judged in-process as the Action judges them, with the
 * approval `readApproval` reads from a loopback GitHub API: an error without an eligible approval
 * (what the CLI reports too), a notice naming the approver with one.
 * test/e2e/openapi-pin.test.ts runs the built CLI and Action once per path.
 */
import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/config/policy.js';
import type { PullRequestContext } from '../../src/github/event.js';
import { readApproval } from '../../src/github/pr-context.js';
import { buildContext, judgeNow } from '../../src/judge/judge.js';
import type { Approval } from '../../src/rules/context.js';
import type { Finding } from '../../src/rules/types.js';
import type { Surface } from '../../src/surface/model.js';
import { TEST_REPO, useFakeGitHub } from '../support/fake-github.js';
import { documentSurface, edit, fixtureText } from '../support/openapi-docs.js';
import { contractLocate } from '../support/surface-builders.js';

const fake = useFakeGitHub();
const PR: PullRequestContext = { number: 7, author: 'alice', baseSha: 'b'.repeat(40), headSha: 'h'.repeat(40), baseRef: 'main', baseRepo: 'o/r', fork: false };
const POLICY = parsePolicy('sources:\n  - id: src\n    openapi: integration.json\n', 'toolgate.yml', '/r');
const approval = () => readApproval(fake.octokit(), TEST_REPO, PR, POLICY);

const PETSTORE = fixtureText('petstore3/openapi.yaml');
const USPTO = fixtureText('uspto/openapi.yaml');
const SWAGGER = fixtureText('petstore2/petstore.yaml');

/** The document, the operations its integration includes and the policies that promote them. */
type Doc = { spec: string; text: string; include: string[]; policies?: Record<string, 'read'> };
const PETSTORE_DOC: Doc = {
  spec: 'openapi.yaml',
  text: PETSTORE,
  include: ['getPetById', 'findPetsByStatus', 'getInventory', 'addPet'],
  policies: { addPet: 'read' },
};

/** One pull request per pinned field: the rule, the tool, what the message says, the base document, the edited text. */
const CHANGES: [what: string, rule: string, tool: string, says: string, doc: Doc, head: string][] = [
  [
    "the document's `servers` URL moves to another host",
    'operation-server-changed',
    'getPetById',
    'server https://petstore3.swagger.io/api/v3 → https://petstore3.attacker.example/api/v3',
    PETSTORE_DOC,
    edit(PETSTORE, 'url: https://petstore3.swagger.io/api/v3', 'url: https://petstore3.attacker.example/api/v3'),
  ],
  [
    'a path-level `servers` entry is added',
    'operation-server-changed',
    'getPetById',
    'server https://petstore3.swagger.io/api/v3 → https://mirror.attacker.example/v3',
    PETSTORE_DOC,
    edit(PETSTORE, '  /pet/{petId}:\n', '  /pet/{petId}:\n    servers:\n      - url: https://mirror.attacker.example/v3\n'),
  ],
  [
    'an operation-level `servers` entry is added',
    'operation-server-changed',
    'findPetsByStatus',
    'server https://petstore3.swagger.io/api/v3 → https://evil.example/v3',
    PETSTORE_DOC,
    edit(PETSTORE, '      operationId: findPetsByStatus\n', '      operationId: findPetsByStatus\n      servers:\n        - url: https://evil.example/v3\n'),
  ],
  [
    "a server variable's enum gains a value (USPTO)",
    'operation-server-changed',
    'list-data-sets',
    'variable scheme accepts "ws"',
    { spec: 'openapi.yaml', text: USPTO, include: ['list-data-sets'] },
    edit(USPTO, "          - 'http'\n", "          - 'http'\n          - 'ws'\n"),
  ],
  [
    'Swagger 2.0: `host` changes',
    'operation-server-changed',
    'getPetById',
    'server http://petstore.swagger.io/v2 → http://petstore.attacker.example/v2',
    { spec: 'petstore.yaml', text: SWAGGER, include: ['getPetById'] },
    edit(SWAGGER, 'host: petstore.swagger.io', 'host: petstore.attacker.example'),
  ],
  [
    'the operation drops its security requirement (`security: []`)',
    'operation-security-changed',
    'getInventory',
    'security api_key → none',
    PETSTORE_DOC,
    edit(PETSTORE, /( {6}operationId: getInventory\n[\s\S]*?)security:\n {8}- api_key: \[\]\n/, '$1security: []\n'),
  ],
  [
    'a scope is added to a requirement',
    'operation-security-changed',
    'findPetsByStatus',
    'petstore_auth scopes added: admin:pets',
    PETSTORE_DOC,
    edit(PETSTORE, /(operationId: findPetsByStatus\n[\s\S]*?- read:pets\n)/, '$1            - admin:pets\n'),
  ],
  [
    "the OAuth 2.0 flow's authorizationUrl changes",
    'operation-security-changed',
    'findPetsByStatus',
    'authorizationUrl "https://petstore3.swagger.io/oauth/authorize" → "https://login.attacker.example/authorize"',
    PETSTORE_DOC,
    edit(PETSTORE, 'authorizationUrl: https://petstore3.swagger.io/oauth/authorize', 'authorizationUrl: https://login.attacker.example/authorize'),
  ],
  [
    'a parameter moves from the query to a header',
    'operation-request-changed',
    'findPetsByStatus',
    'parameter status moved: query → header',
    PETSTORE_DOC,
    edit(PETSTORE, /(operationId: findPetsByStatus\n[\s\S]*?- name: status\n {10})in: query/, '$1in: header'),
  ],
  [
    'a query parameter gains `allowReserved: true` (an argument "x&admin=true" adds a query parameter)',
    'operation-request-changed',
    'findPetsByStatus',
    'query parameter status: allowReserved turned on',
    PETSTORE_DOC,
    edit(PETSTORE, /(operationId: findPetsByStatus\n[\s\S]*?- name: status\n {10}in: query\n)/, '$1          allowReserved: true\n'),
  ],
  [
    'a query parameter is serialized `spaceDelimited`, not exploded',
    'operation-request-changed',
    'findPetsByStatus',
    // explode: false is spaceDelimited's default: the style is what changed.
    'query parameter status: style the default → "spaceDelimited"; it needs',
    PETSTORE_DOC,
    edit(PETSTORE, /(operationId: findPetsByStatus\n[\s\S]*?- name: status\n[\s\S]*?)explode: true\n/, '$1style: spaceDelimited\n          explode: false\n'),
  ],
  [
    "a parameter's `schema` is replaced by `content: text/plain`",
    'operation-request-changed',
    'getPetById',
    'path parameter petId: described by schema → content text/plain',
    PETSTORE_DOC,
    edit(
      PETSTORE,
      /(operationId: getPetById\n[\s\S]*?- name: petId\n[\s\S]*?)schema:\n {12}type: integer\n {12}format: int64\n/,
      '$1content:\n            text/plain:\n              schema:\n                type: integer\n                format: int64\n',
    ),
  ],
  [
    'a request media type is added to a promoted operation',
    'operation-request-changed',
    'addPet',
    'request media type added: text/plain',
    PETSTORE_DOC,
    edit(
      PETSTORE,
      /(operationId: addPet\n[\s\S]*?requestBody:\n[\s\S]*?content:\n)/,
      "$1          text/plain:\n            schema:\n              $ref: '#/components/schemas/Pet'\n",
    ),
  ],
];

/** The surfaces `toolgate update` pins for `doc` and for the pull request's `headText`. */
async function pullRequestSurfaces(doc: Doc, headText: string): Promise<{ base: Surface; head: Surface }> {
  const base = await documentSurface({ [doc.spec]: doc.text }, doc.spec, doc.include, doc.policies);
  const head = await documentSurface({ [doc.spec]: headText }, doc.spec, doc.include, doc.policies);
  return { base, head };
}

/** Every finding of the pull request, judged as the Action judges it (schema verdicts from the real classifier, restatements folded). */
async function judgePullRequest({ base, head }: { base: Surface; head: Surface }, a: Approval): Promise<Finding[]> {
  const ctx = await buildContext({ sourceId: head.source.id, head, contract: head, base, policy: POLICY, approval: a });
  return judgeNow(ctx, { locate: contractLocate(ctx) }).findings;
}

describe('each change to where calls go or what they carry fails until someone with write access approves', () => {
  it.each(CHANGES)(
    '%s: %s',
    async (_what, rule, tool, says, doc, headText) => {
      const surfaces = await pullRequestSurfaces(doc, headText);
      const missing = await approval();
      expect(missing.approved).toBe(false);
      const before = await judgePullRequest(surfaces, missing);
      const found = before.filter((f) => f.ruleId === rule && f.tool === tool);
      expect(
        found.map((f) => f.level),
        JSON.stringify(before),
      ).toEqual(['error']);
      expect(found[0]?.message).toContain(says);
      expect(found[0]?.message).toMatch(/someone other than @alice with write access/);

      fake.gh.grant('bob', 'write');
      fake.gh.addReview(7, { user: 'bob', state: 'APPROVED', commit_id: PR.headSha });
      const ok = await approval();
      expect(ok).toEqual({ approved: true, approvers: ['bob'], missing: '' });
      const after = await judgePullRequest(surfaces, ok);
      // No error left: the gate passes (the Action's exit 0).
      expect(after.filter((f) => f.level === 'error')).toEqual([]);
      expect(after.find((f) => f.ruleId === rule && f.tool === tool)).toMatchObject({ level: 'notice', message: expect.stringMatching(/approved by @bob$/) });
    },
    60_000,
  );
});
