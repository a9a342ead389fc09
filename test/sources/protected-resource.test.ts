/**
 * RFC 9728 discovery as an MCP client does it, against a real MCP server on
 * 127.0.0.1: the order of the URLs tried, what is pinned in the contract, what the reports show,
 * and that discovery sends no credentials and fetches nothing on another origin.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { discoverProtectedResource, pinnedMetadata } from '../../src/sources/protected-resource.js';
import { renderSummary } from '../../src/report/summary.js';
import { renderJson } from '../../src/report/json.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { metadataFixture, protectedRepo, runOn, startProtectedServer, type ProtectedServer } from '../support/protected-server.js';

let server: ProtectedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

const wellKnown = (s: ProtectedServer) => s.requests.filter((r) => r.includes('oauth-protected-resource') || r.includes('custom-prm'));

describe('discoverProtectedResource', () => {
  it('tries the path-suffixed URL, then the root', async () => {
    server = await startProtectedServer();
    server.setup.atRoot = metadataFixture('discourse-before.json', server.origin);
    const d = await discoverProtectedResource(new URL(server.url), { timeoutMs: 5000 });
    expect(d).toEqual({
      state: 'found',
      url: `${server.origin}/.well-known/oauth-protected-resource`,
      metadata: { resource: `${server.origin}/mcp`, authorization_servers: [server.origin], scopes_supported: ['mcp:profile:read'] },
    });
    expect(wellKnown(server)).toEqual(['GET /.well-known/oauth-protected-resource/mcp', 'GET /.well-known/oauth-protected-resource']);
  });

  it('takes the challenge’s resource_metadata on the same origin first, and only it', async () => {
    server = await startProtectedServer();
    server.setup.atCustom = metadataFixture('github-mcp.json', server.origin);
    server.setup.atPath = { resource: `${server.origin}/mcp`, authorization_servers: ['https://wrong.example'] };
    const d = await discoverProtectedResource(new URL(server.url), {
      challenge: { resourceMetadataUrl: new URL(`${server.origin}/custom-prm`) },
      timeoutMs: 5000,
    });
    expect(d.state === 'found' && d.metadata.authorization_servers).toEqual(['https://github.com/login/oauth']);
    expect(wellKnown(server)).toEqual(['GET /custom-prm']);
  });

  it('absent when every URL answers 404; unusable when the server does not answer in time', async () => {
    server = await startProtectedServer();
    expect(await discoverProtectedResource(new URL(server.url), { timeoutMs: 5000 })).toEqual({ state: 'absent' });
    // A port nothing listens on (the server closed): a network error is unusable, with the URL.
    const gone = server.url;
    await server.close();
    server = undefined;
    const d = await discoverProtectedResource(new URL(gone), { timeoutMs: 5000 });
    expect(d.state).toBe('unusable');
    expect(d.state === 'unusable' && d.reason).toContain('/.well-known/oauth-protected-resource/mcp');
  });

  it('pins the four fields without repeats: authorization servers in their order (clients use the first), scopes sorted', () => {
    expect(pinnedMetadata({ resource: 'r', authorization_servers: ['b', 'a', 'b'], scopes_supported: ['y', 'x', 'y'], resource_name: 'n' })).toEqual({
      resource: 'r',
      authorization_servers: ['b', 'a'],
      scopes_supported: ['x', 'y'],
      resource_name: 'n',
    });
  });
});

describe('the contract and the reports', () => {
  it('update pins the metadata; the audit shows who authorizes; no credentials reach the well-known URLs', async () => {
    server = await startProtectedServer({ token: 'secret' });
    server.setup.atPath = metadataFixture('github-mcp.json', server.origin);
    const seen: (string | undefined)[] = [];
    vi.stubEnv('TOOLGATE_TEST_PRM_TOKEN', 'secret');
    const repo = protectedRepo(server.url, { token: true });
    try {
      const updated = await runOn(repo, 'update');
      expect(updated.exitCode).toBe(0);
      const contract = JSON.parse(readFileSync(join(repo.root, '.toolgate/remote.surface.json'), 'utf8')) as Record<string, unknown>;
      expect(contract.protectedResource).toEqual({
        resource: `${server.origin}/mcp`,
        authorization_servers: ['https://github.com/login/oauth'],
        scopes_supported: ['read:org', 'repo'],
        resource_name: 'GitHub MCP Server',
      });
      expect(Object.keys(contract).indexOf('protectedResource')).toBe(Object.keys(contract).indexOf('server') + 1);
      seen.push(...wellKnown(server));

      const checked = await runOn(repo, 'check');
      expect(checked.exitCode).toBe(0);
      expect(renderTerminal(checked, { color: false, listTools: false })).toContain(
        'who authorizes (RFC 9728): authorization servers: https://github.com/login/oauth; scopes: read:org, repo; resource: http://127.0.0.1:',
      );
      // Markdown-escaped, as every text from the server is.
      expect(renderSummary(checked)).toContain(
        '- Who authorizes (RFC 9728 metadata): authorization servers: https\\:\\/\\/github\\.com\\/login\\/oauth · scopes: read\\:org, repo · resource: ',
      );
      const json = JSON.parse(renderJson(checked, '0.0.0-test')) as { sources: { protectedResource?: unknown }[] };
      expect(json.sources[0]?.protectedResource).toEqual(contract.protectedResource);

      // The server moves to another authorization server: drift (contract-stale); outside a pull request the drift is the change list.
      server.setup.atPath = { ...(metadataFixture('github-mcp.json', server.origin) as object), authorization_servers: ['https://login.example.com'] };
      const drifted = await runOn(repo, 'check');
      expect(drifted.exitCode).toBe(1);
      expect(drifted.findings.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['contract-stale']));
      expect(drifted.sources[0]?.changes).toEqual(
        expect.arrayContaining([
          {
            kind: 'auth-metadata-changed',
            field: 'authorization_servers',
            added: ['https://login.example.com'],
            removed: ['https://github.com/login/oauth'],
            base: 'https://github.com/login/oauth',
            head: 'https://login.example.com',
          },
        ]),
      );
    } finally {
      repo.cleanup();
    }
    expect(seen).toEqual(['GET /.well-known/oauth-protected-resource/mcp']);
    // Each of the three runs asked once without credentials what a client without them is told
    // (the 401); the sessions themselves carried them.
    const posts = server.requests.filter((r) => r.startsWith('POST /mcp'));
    expect(posts.filter((r) => !r.endsWith('(with Authorization)')).length).toBe(3);
    expect(posts.filter((r) => r.endsWith('(with Authorization)')).length).toBeGreaterThan(2);
  });

  it('a source with credentials pins the metadata its 401 challenge names, which a client without them follows', async () => {
    server = await startProtectedServer({ token: 'secret' });
    server.setup.challenge = `Bearer resource_metadata="${server.origin}/custom-prm"`;
    server.setup.atCustom = { resource: `${server.origin}/mcp`, authorization_servers: ['https://login.example.com'], scopes_supported: ['admin'] };
    server.setup.atPath = metadataFixture('github-mcp.json', server.origin);
    vi.stubEnv('TOOLGATE_TEST_PRM_TOKEN', 'secret');
    const repo = protectedRepo(server.url, { token: true });
    try {
      const r = await runOn(repo, 'audit');
      expect(r.sources[0]?.surface?.protectedResource).toEqual({
        resource: `${server.origin}/mcp`,
        authorization_servers: ['https://login.example.com'],
        scopes_supported: ['admin'],
      });
      expect(wellKnown(server)).toEqual(['GET /custom-prm']);
    } finally {
      repo.cleanup();
    }
  });
});
