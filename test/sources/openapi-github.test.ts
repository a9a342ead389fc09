// Real input: GitHub's REST description from @octokit/openapi (13 MB, OpenAPI 3.0.3).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { integrationLines, snapshotOpenApi } from '../../src/sources/openapi/index.js';
import { indexOperations } from '../../src/sources/openapi/operations.js';
import { pruneForValidation } from '../../src/sources/openapi/prune.js';
import { getByRef } from '../../src/sources/openapi/refs.js';
import type { RawTool } from '../../src/sources/types.js';

const SPEC = resolve('node_modules/@octokit/openapi/generated/api.github.com.json');
const INTEGRATION = resolve('test/fixtures/openapi/github/integration.json');
const name = (t: RawTool) => (t.tool as { name: string }).name;

describe('GitHub REST description', () => {
  it('derives a 12-operation integration', async () => {
    const s = await snapshotOpenApi(INTEGRATION);
    expect(s.source).toEqual({ id: 'github', kind: 'openapi', files: ['node_modules/@octokit/openapi/generated/api.github.com.json'] });
    expect(s.server).toEqual({ name: "GitHub's official OpenAPI spec + Octokit extension", version: '23.0.2', protocolVersion: 'openapi-3.0.3' });
    expect(s.tools.map((t) => [name(t), t.safetyClass, t.origin?.method, t.origin?.path, t.origin?.operationId, t.location?.line])).toEqual([
      ['repos_get', 'read', 'GET', '/repos/{owner}/{repo}', 'repos/get', 6],
      ['issues_list-for-repo', 'read', 'GET', '/repos/{owner}/{repo}/issues', 'issues/list-for-repo', 7],
      ['issues_get', 'read', 'GET', '/repos/{owner}/{repo}/issues/{issue_number}', 'issues/get', 8],
      ['pulls_list', 'read', 'GET', '/repos/{owner}/{repo}/pulls', 'pulls/list', 9],
      ['search_code', 'read', 'GET', '/search/code', 'search/code', 10],
      ['meta_root', 'read', 'GET', '/', 'meta/root', 11],
      ['markdown_render', 'read', 'POST', '/markdown', 'markdown/render', 20],
      ['repos_delete', 'disabled', 'DELETE', '/repos/{owner}/{repo}', 'repos/delete', 13],
      ['issues_create', 'disabled', 'POST', '/repos/{owner}/{repo}/issues', 'issues/create', 14],
      ['repos_create-or-update-file-contents', 'disabled', 'PUT', '/repos/{owner}/{repo}/contents/{path}', 'repos/create-or-update-file-contents', 15],
      [
        expect.stringMatching(/^actions_list-selected-repositories-enabled-github-actio_[0-9a-f]{8}$/),
        'read',
        'GET',
        '/orgs/{org}/actions/permissions/repositories',
        'actions/list-selected-repositories-enabled-github-actions-organization',
        16,
      ],
      // named by "GET /repos/{owner}/{repo}/commits/{ref}"; the name still comes from its operationId
      ['repos_get-commit', 'read', 'GET', '/repos/{owner}/{repo}/commits/{ref}', 'repos/get-commit', 17],
    ]);
    const promoted = s.tools.filter((t) => t.origin?.promoted);
    expect(promoted.map(name)).toEqual(['markdown_render']);

    const render = s.tools.find((t) => name(t) === 'markdown_render')!.tool as any;
    expect(render.title).toBe('Render a Markdown document');
    expect(render.inputSchema.required).toEqual(['body']);
    expect(render.inputSchema.properties.body.required).toEqual(['text']);
    expect(render.inputSchema.properties.body.properties.mode.enum).toEqual(['markdown', 'gfm']);

    // $ref'd components/parameters are resolved: owner/repo required, per_page optional
    const issues = s.tools.find((t) => name(t) === 'issues_list-for-repo')!.tool as any;
    expect(issues.inputSchema.required).toEqual(['owner', 'repo']);
    expect(issues.inputSchema.properties.per_page).toMatchObject({ type: 'integer', default: 30 });
    expect(issues.inputSchema.properties.state.enum).toEqual(['open', 'closed', 'all']);

    // policies line for promoted-operation-moved findings
    const lines = integrationLines(readFileSync(INTEGRATION, 'utf8'));
    expect(lines.get('/policies/markdown~1render')).toBe(20);
  });

  it('derives every operation of the document', async () => {
    const doc = JSON.parse(readFileSync(SPEC, 'utf8')) as { paths: Record<string, Record<string, { operationId: string }>> };
    const ids: string[] = [];
    for (const item of Object.values(doc.paths)) {
      for (const m of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']) {
        if (item[m]) ids.push(item[m]!.operationId);
      }
    }
    expect(ids).toHaveLength(1223);

    const dir = mkdtempSync(join(tmpdir(), 'toolgate-gh-all-'));
    try {
      const file = join(dir, 'integration.json');
      writeFileSync(file, JSON.stringify({ id: 'github-all', type: 'openapi', spec: SPEC, include: ids }, null, 2));
      const started = performance.now();
      const s = await snapshotOpenApi(file);
      const ms = Math.round(performance.now() - started);
      expect(s.tools).toHaveLength(1223);
      const names = s.tools.map(name);
      expect(new Set(names).size).toBe(1223);
      expect(names.every((n) => /^[A-Za-z0-9_.-]{1,64}$/.test(n))).toBe(true);
      expect(names.filter((n) => /_[0-9a-f]{8}$/.test(n) && n.length === 64)).toHaveLength(25);
      expect(s.tools.every((t) => t.origin?.operationId && ids.includes(t.origin.operationId))).toBe(true);
      const reads = s.tools.filter((t) => t.safetyClass === 'read').length;
      expect(reads).toBe(s.tools.filter((t) => t.origin?.method === 'GET' || t.origin?.method === 'HEAD').length);
      expect(s.tools.filter((t) => t.origin?.promoted)).toHaveLength(0);
      // Every operation goes to the document's server but one, whose own `servers` overrides it.
      const elsewhere = s.tools.filter((t) => JSON.stringify(t.origin?.servers) !== JSON.stringify([{ url: 'https://api.github.com' }]));
      expect(elsewhere.map((t) => [t.origin?.operationId, t.origin?.servers])).toEqual([
        ['repos/upload-release-asset', [{ url: 'https://uploads.github.com' }]],
      ]);
      // The description declares no security: every call carries no credentials the document names.
      expect(s.tools.every((t) => Array.isArray(t.origin?.security) && t.origin.security.length === 0)).toBe(true);
      const bytes = Buffer.byteLength(JSON.stringify(s.tools.map((t) => t.tool)));
      // Reported, not asserted: timing depends on the machine.
      console.log(
        `[openapi] GitHub all ops: ${s.tools.length} tools (${reads} read), ${bytes} bytes of tools, ${ms} ms, maxRSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('validates a closed part of the document: every $ref of the pruned copy resolves inside it', () => {
    const doc = JSON.parse(readFileSync(SPEC, 'utf8')) as Record<string, any>;
    const all = indexOperations(doc).all;
    const refsOf = (root: unknown): string[] => {
      const out: string[] = [];
      const stack = [root];
      while (stack.length > 0) {
        const node = stack.pop();
        if (node === null || typeof node !== 'object') continue;
        for (const [k, v] of Object.entries(node)) {
          if (k === '$ref' && typeof v === 'string') out.push(v);
          else stack.push(v);
        }
      }
      return out;
    };
    const include = JSON.parse(readFileSync(INTEGRATION, 'utf8')).include as string[];
    const some = all.filter((op) => include.includes(op.operationId!) || include.includes(`${op.method} ${op.path}`));
    expect(some).toHaveLength(12);
    for (const ops of [some, all]) {
      const { doc: pruned, whole } = pruneForValidation(doc, ops);
      expect(whole).toBe(false);
      expect(pruned['x-webhooks']).toBeUndefined(); // payload schemas of webhooks: no tool uses them
      const refs = refsOf(pruned);
      expect(refs.length).toBeGreaterThan(0);
      expect(refs.filter((r) => getByRef(pruned, r) === undefined)).toEqual([]);
    }
    const small = pruneForValidation(doc, some).doc as Record<string, any>;
    expect(Object.keys(small.paths)).toHaveLength(10); // repos/get + repos/delete, issues/list-for-repo + issues/create share one
    expect(Object.keys(small.paths['/repos/{owner}/{repo}'])).toEqual(['get', 'delete']); // not patch
    expect(Object.keys(small.components.schemas).length).toBeLessThan(Object.keys(doc.components.schemas).length / 10);
    expect(Object.keys(pruneForValidation(doc, all).doc.paths as object)).toHaveLength(Object.keys(doc.paths).length);
  });
});
