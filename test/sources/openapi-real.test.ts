// Real input: published OpenAPI documents (Stripe, Twilio, Box, Asana, DigitalOcean's multi-file
// description; test/fixtures/openapi/README.md says where each came from) and GitHub's from
// @octokit/openapi. Each integration includes 12-18 operations, reads and writes, form-encoded and
// multipart bodies, `"METHOD /path"` entries; the tools and classes are asserted, timings are not.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dereference } from '@readme/openapi-parser';
import { snapshotOpenApi } from '../../src/sources/openapi/index.js';
import { loadOpenApiDocument } from '../../src/sources/openapi/document.js';
import { indexOperations } from '../../src/sources/openapi/operations.js';
import { pruneForValidation } from '../../src/sources/openapi/prune.js';
import { expandedSize } from '../../src/sources/openapi/expanded-size.js';
import { getByRef } from '../../src/sources/openapi/refs.js';
import { dereferencedSize, estimateDereferencedSize, reachingCycles } from '../../src/sources/openapi/deref-size.js';
import { cloneJson } from '../../src/util/json.js';
import type { RawTool } from '../../src/sources/types.js';

const REAL = resolve('test/fixtures/openapi/real');
const name = (t: RawTool) => (t.tool as { name: string }).name;
/** Each tool as [name, class, method, path]. */
const rows = (tools: RawTool[]) => tools.map((t) => [name(t), t.safetyClass, t.origin?.method, t.origin?.path]);
const schemaOf = (tools: RawTool[], n: string) => (tools.find((t) => name(t) === n)!.tool as { inputSchema: any }).inputSchema;
const CASE_TIMEOUT = 120_000;

let tmp: string | undefined;
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** DigitalOcean's description (2,900 files) unpacked into a fresh repository. */
function digitalOcean(): string {
  tmp = mkdtempSync(join(tmpdir(), 'toolgate-do-'));
  mkdirSync(join(tmp, '.git'));
  execFileSync('tar', ['-xzf', join(REAL, 'digitalocean/specification.tar.gz'), '-C', tmp]);
  copyFileSync(join(REAL, 'digitalocean/integration.json'), join(tmp, 'integration.json'));
  return join(tmp, 'integration.json');
}

describe('real OpenAPI documents load and become the included tools', () => {
  it('Stripe (4 MB YAML, cyclic schemas, form-encoded bodies)', { timeout: CASE_TIMEOUT }, async () => {
    const s = await snapshotOpenApi(join(REAL, 'stripe/integration.json'));
    expect(s.server).toEqual({ name: 'Stripe API', version: '2023-08-16', protocolVersion: 'openapi-3.0.0' });
    expect(rows(s.tools)).toEqual([
      ['GetBalance', 'read', 'GET', '/v1/balance'],
      ['GetCharges', 'read', 'GET', '/v1/charges'],
      ['GetChargesCharge', 'read', 'GET', '/v1/charges/{charge}'],
      ['PostCharges', 'disabled', 'POST', '/v1/charges'],
      ['GetCustomers', 'read', 'GET', '/v1/customers'],
      ['GetCustomersSearch', 'read', 'GET', '/v1/customers/search'],
      ['GetCustomersCustomer', 'read', 'GET', '/v1/customers/{customer}'],
      ['PostCustomers', 'disabled', 'POST', '/v1/customers'],
      ['DeleteCustomersCustomer', 'disabled', 'DELETE', '/v1/customers/{customer}'],
      ['GetEvents', 'read', 'GET', '/v1/events'],
      ['PostFiles', 'disabled', 'POST', '/v1/files'],
      ['GetInvoices', 'read', 'GET', '/v1/invoices'],
      ['PostPaymentIntents', 'disabled', 'POST', '/v1/payment_intents'],
      ['GetPaymentIntentsIntent', 'read', 'GET', '/v1/payment_intents/{intent}'],
      ['PostPaymentIntentsIntentConfirm', 'disabled', 'POST', '/v1/payment_intents/{intent}/confirm'],
      ['GetProducts', 'read', 'GET', '/v1/products'],
      ['PostRefunds', 'disabled', 'POST', '/v1/refunds'],
      ['GetSubscriptions', 'read', 'GET', '/v1/subscriptions'],
    ]);
    const charge = s.tools.find((t) => name(t) === 'PostCharges')!;
    expect(charge.origin?.requestBody).toEqual(['application/x-www-form-urlencoded']);
    expect(charge.origin?.servers).toEqual([{ url: 'https://api.stripe.com/' }]);
    const body = schemaOf(s.tools, 'PostCharges').properties.body;
    expect(body.properties.amount).toMatchObject({ type: 'integer' });
    expect(body.properties.currency).toMatchObject({ type: 'string' });
    expect(s.tools.find((t) => name(t) === 'PostFiles')!.origin?.requestBody).toEqual(['multipart/form-data']);
    expect(schemaOf(s.tools, 'GetCustomersCustomer').required).toEqual(['customer']);
  });

  it('Twilio (Api v2010): form-encoded writes and "METHOD /path" entries', { timeout: CASE_TIMEOUT }, async () => {
    const s = await snapshotOpenApi(join(REAL, 'twilio/integration.json'));
    expect(s.server).toEqual({ name: 'Twilio - Api', version: '1.0.0', protocolVersion: 'openapi-3.0.1' });
    const A = '/2010-04-01/Accounts';
    expect(rows(s.tools)).toEqual([
      ['ListAccount', 'read', 'GET', `${A}.json`],
      ['FetchAccount', 'read', 'GET', `${A}/{Sid}.json`],
      ['FetchBalance', 'read', 'GET', `${A}/{AccountSid}/Balance.json`],
      ['ListCall', 'read', 'GET', `${A}/{AccountSid}/Calls.json`],
      ['FetchCall', 'read', 'GET', `${A}/{AccountSid}/Calls/{Sid}.json`],
      ['CreateCall', 'disabled', 'POST', `${A}/{AccountSid}/Calls.json`],
      ['UpdateCall', 'disabled', 'POST', `${A}/{AccountSid}/Calls/{Sid}.json`],
      ['ListCallRecording', 'read', 'GET', `${A}/{AccountSid}/Calls/{CallSid}/Recordings.json`],
      ['ListMessage', 'read', 'GET', `${A}/{AccountSid}/Messages.json`],
      ['CreateMessage', 'disabled', 'POST', `${A}/{AccountSid}/Messages.json`],
      ['ListMedia', 'read', 'GET', `${A}/{AccountSid}/Messages/{MessageSid}/Media.json`],
      ['DeleteMedia', 'disabled', 'DELETE', `${A}/{AccountSid}/Messages/{MessageSid}/Media/{Sid}.json`],
    ]);
    const create = s.tools.find((t) => name(t) === 'CreateMessage')!;
    expect(create.origin?.requestBody).toEqual(['application/x-www-form-urlencoded']);
    expect(schemaOf(s.tools, 'CreateMessage').properties.body.required).toEqual(['To']);
  });

  it('Box: JSON and multipart bodies, a path with `#` in it', { timeout: CASE_TIMEOUT }, async () => {
    const s = await snapshotOpenApi(join(REAL, 'box/integration.json'));
    expect(s.server).toEqual({ name: 'Box Platform API', version: '2024.0', protocolVersion: 'openapi-3.0.2' });
    expect(rows(s.tools)).toEqual([
      ['get_users_me', 'read', 'GET', '/users/me'],
      ['get_files_id', 'read', 'GET', '/files/{file_id}'],
      ['put_files_id', 'disabled', 'PUT', '/files/{file_id}'],
      ['delete_files_id', 'disabled', 'DELETE', '/files/{file_id}'],
      ['post_files_content', 'disabled', 'POST', '/files/content'],
      ['get_folders_id', 'read', 'GET', '/folders/{folder_id}'],
      ['get_folders_id_items', 'read', 'GET', '/folders/{folder_id}/items'],
      ['post_folders', 'disabled', 'POST', '/folders'],
      ['get_search', 'read', 'GET', '/search'],
      ['get_collaborations', 'read', 'GET', '/collaborations'],
      ['post_comments', 'disabled', 'POST', '/comments'],
      ['get_shared_items_folders', 'read', 'GET', '/shared_items#folders'],
      ['get_web_links_id', 'read', 'GET', '/web_links/{web_link_id}'],
    ]);
    expect(s.tools.find((t) => name(t) === 'post_files_content')!.origin?.requestBody).toEqual(['multipart/form-data']);
  });

  it('Asana: JSON and multipart bodies, a "METHOD /path" entry', { timeout: CASE_TIMEOUT }, async () => {
    const s = await snapshotOpenApi(join(REAL, 'asana/integration.json'));
    expect(s.server).toEqual({ name: 'Asana', version: '1.0', protocolVersion: 'openapi-3.0.0' });
    expect(rows(s.tools)).toEqual([
      ['getWorkspaces', 'read', 'GET', '/workspaces'],
      ['getUser', 'read', 'GET', '/users/{user_gid}'],
      ['getProjects', 'read', 'GET', '/projects'],
      ['getProject', 'read', 'GET', '/projects/{project_gid}'],
      ['getTasks', 'read', 'GET', '/tasks'],
      ['getTask', 'read', 'GET', '/tasks/{task_gid}'],
      ['createTask', 'disabled', 'POST', '/tasks'],
      ['updateTask', 'disabled', 'PUT', '/tasks/{task_gid}'],
      ['deleteTask', 'disabled', 'DELETE', '/tasks/{task_gid}'],
      ['getStoriesForTask', 'read', 'GET', '/tasks/{task_gid}/stories'],
      ['searchTasksForWorkspace', 'read', 'GET', '/workspaces/{workspace_gid}/tasks/search'],
      ['typeaheadForWorkspace', 'read', 'GET', '/workspaces/{workspace_gid}/typeahead'],
      ['createAttachmentForObject', 'disabled', 'POST', '/attachments'],
      ['addFollowersForTask', 'disabled', 'POST', '/tasks/{task_gid}/addFollowers'],
    ]);
    expect(s.tools.find((t) => name(t) === 'createTask')!.origin?.requestBody).toEqual(['application/json']);
  });

  it('DigitalOcean: a description of 2,900 files joined by relative $refs', { timeout: CASE_TIMEOUT }, async () => {
    const s = await snapshotOpenApi(digitalOcean());
    expect(s.server).toEqual({ name: 'DigitalOcean API', version: '2.0', protocolVersion: 'openapi-3.0.0' });
    expect(s.source.files?.length).toBeGreaterThan(100);
    expect(s.source.files?.[0]).toBe('specification/DigitalOcean-public.v2.yaml');
    expect(rows(s.tools)).toEqual([
      ['account_get', 'read', 'GET', '/v2/account'],
      ['droplets_list', 'read', 'GET', '/v2/droplets'],
      ['droplets_get', 'read', 'GET', '/v2/droplets/{droplet_id}'],
      ['droplets_create', 'disabled', 'POST', '/v2/droplets'],
      ['droplets_destroy', 'disabled', 'DELETE', '/v2/droplets/{droplet_id}'],
      ['regions_list', 'read', 'GET', '/v2/regions'],
      ['images_list', 'read', 'GET', '/v2/images'],
      ['sshKeys_list', 'read', 'GET', '/v2/account/keys'],
      ['volumes_list', 'read', 'GET', '/v2/volumes'],
      ['domains_list', 'read', 'GET', '/v2/domains'],
      ['kubernetes_list_clusters', 'read', 'GET', '/v2/kubernetes/clusters'],
      ['databases_list_clusters', 'read', 'GET', '/v2/databases'],
      ['apps_list', 'read', 'GET', '/v2/apps'],
      ['projects_list', 'read', 'GET', '/v2/projects'],
      ['tags_create', 'disabled', 'POST', '/v2/tags'],
      ['sshKeys_get', 'read', 'GET', '/v2/account/keys/{ssh_key_identifier}'],
    ]);
    expect(schemaOf(s.tools, 'droplets_get').required).toEqual(['droplet_id']);
  });
});

/** Every operation of a document, as `pruneForValidation` takes them; each document loaded once (no case changes it). */
const loadedOnce = new Map<string, ReturnType<typeof loadOperations>>();
const allOperations = (spec: string) => loadedOnce.get(spec) ?? loadedOnce.set(spec, loadOperations(spec)).get(spec)!;
async function loadOperations(spec: string) {
  const loaded = await loadOpenApiDocument(spec, { root: resolve('.') });
  return { doc: loaded.doc, ops: indexOperations(loaded.doc).all };
}

describe("the reference-bomb guard on real documents measures what the parser's validation builds", () => {
  const DOCS: [string, string][] = [
    ['Stripe', join(REAL, 'stripe/spec3.yaml')],
    ['GitHub', resolve('node_modules/@octokit/openapi/generated/api.github.com.json')],
    ['Twilio', join(REAL, 'twilio/twilio_api_v2010.json')],
    ['Box', join(REAL, 'box/openapi.json')],
    ['Asana', join(REAL, 'asana/asana_oas.yaml')],
  ];

  it.each(DOCS)('%s, every operation: the estimate bounds what the parser builds, within a factor of two', { timeout: CASE_TIMEOUT }, async (_, spec) => {
    const { doc, ops } = await allOperations(spec);
    const pruned = pruneForValidation(doc, ops).doc;
    const estimate = estimateDereferencedSize(pruned, 64 * 1024 * 1024);
    const inlinedBy = new Map<object, string>();
    const onDereference = (ref: string, value: unknown) => void (value !== null && typeof value === 'object' && inlinedBy.set(value, ref));
    const built = (await dereference(cloneJson(pruned) as never, { dereference: { circular: 'ignore', onDereference } })) as object;
    const exact = dereferencedSize(built, 64 * 1024 * 1024, inlinedBy);
    expect('size' in estimate && 'size' in exact).toBe(true);
    const [e, x] = [(estimate as { size: number }).size, (exact as { size: number }).size];
    expect(e).toBeGreaterThanOrEqual(x);
    expect(e).toBeLessThan(2 * x);
    console.log(`[openapi] ${_}: ${ops.length} operations build ${x} units (estimate ${e})`);
  });

  it('Stripe: a tree that expanded every $ref would pass 256 MiB; refs into its cycles stay refs', { timeout: CASE_TIMEOUT }, async () => {
    const { doc, ops } = await allOperations(join(REAL, 'stripe/spec3.yaml'));
    const include = ops.filter((op) => ['PostCharges', 'GetCustomersCustomer', 'PostPaymentIntents'].includes(op.operationId!));
    expect(include).toHaveLength(3);
    const pruned = pruneForValidation(doc, include).doc;
    // What the guard used to count: every $ref followed, a ref back into the current path as 1.
    const follow = (node: object) => {
      const ref = (node as { $ref?: unknown }).$ref;
      const t = typeof ref === 'string' ? getByRef(pruned, ref) : undefined;
      return t !== null && typeof t === 'object' ? t : undefined;
    };
    expect(expandedSize(pruned, { limit: 256 * 1024 * 1024, maxDepth: Number.POSITIVE_INFINITY, follow })).toMatchObject({ kind: 'too-large' });
    // The customer schema reaches itself (customer → sources → ... → customer): its refs stay refs.
    const customer = getByRef(pruned, '#/components/schemas/customer') as object;
    expect(reachingCycles(pruned, follow).has(customer)).toBe(true);
    const estimate = estimateDereferencedSize(pruned, 64 * 1024 * 1024);
    expect((estimate as { size: number }).size).toBeLessThan(4 * JSON.stringify(pruned).length);
  });
});
