/**
 * auth-metadata-changed: who authorizes an HTTP server changed in its RFC 9728 protected resource
 * metadata. Unit cases on surfaces, and the real path: a loopback MCP server whose metadata is
 * upgraded the way Discourse's was (every scope listed where one was), pinned by `update` and
 * judged in a pull request against the base's contract.
 */
import { readContract } from '../../src/contract/store.js';
import type { ProtectedResource } from '../../src/surface/model.js';
import { metadataFixture, protectedRepo, runOn, startProtectedServer } from '../support/protected-server.js';
import { mcpSurface, readTool, ruleTests } from '../support/surface-builders.js';

const withAuth = (protectedResource?: ProtectedResource) => ({ ...mcpSurface([readTool('get')]), ...(protectedResource ? { protectedResource } : {}) });
const AS = 'https://auth.example.com';
const doc = (over: Partial<ProtectedResource> = {}): ProtectedResource => ({
  resource: 'https://mcp.example.com/mcp',
  authorization_servers: [AS],
  scopes_supported: ['read'],
  ...over,
});

/** update with the "before" document, then the "after" one; check as a pull request whose base holds the first contract. */
async function upgrade(before: string, after: string) {
  const server = await startProtectedServer();
  const repo = protectedRepo(server.url);
  try {
    server.setup.atPath = metadataFixture(before, server.origin);
    await runOn(repo, 'update');
    const base = (await readContract(`${repo.root}/.toolgate/remote.surface.json`))!.surface;
    server.setup.atPath = metadataFixture(after, server.origin);
    await runOn(repo, 'update');
    return (await runOn(repo, 'check', new Map([['remote', base]]))).findings;
  } finally {
    repo.cleanup();
    await server.close();
  }
}

ruleTests('auth-metadata-changed', {
  fires: [
    {
      name: 'scopes added by an upgrade (Discourse listed every scope where it listed one), on a real loopback server in a pull request',
      run: () => upgrade('discourse-before.json', 'discourse-after.json'),
      expect: [
        {
          ruleId: 'auth-metadata-changed',
          level: 'error',
          message:
            /^who authorizes the server changed \(RFC 9728 metadata\): scopes_supported \+ mcp:posts:write \+ mcp:topics:read \+ mcp:topics:write; it needs an approving review/,
          location: { file: '.toolgate/remote.surface.json' },
        },
      ],
    },
    {
      name: 'a new authorization server, and one replaced',
      base: withAuth(doc()),
      head: withAuth(doc({ authorization_servers: ['https://evil.example', AS] })),
      expect: [
        {
          ruleId: 'auth-metadata-changed',
          level: 'error',
          message: /authorization_servers \+ https:\/\/evil\.example \(first, which clients use: https:\/\/auth\.example\.com → https:\/\/evil\.example\);/,
          data: { changes: [{ field: 'authorization_servers', added: ['https://evil.example'] }] },
        },
      ],
    },
    {
      name: 'metadata where there was none: its authorization server and scopes are all new',
      base: withAuth(),
      head: withAuth(doc()),
      expect: [
        {
          ruleId: 'auth-metadata-changed',
          message:
            /resource none → https:\/\/mcp\.example\.com\/mcp; authorization_servers \+ https:\/\/auth\.example\.com - \(none listed: clients use the MCP server's own origin\) .*; scopes_supported \+ read - \(none listed: clients ask the authorization server for its default scopes\)/,
        },
      ],
    },
    {
      name: 'another resource (another token audience), approved: a notice naming the approver',
      base: withAuth(doc()),
      head: withAuth(doc({ resource: 'https://mcp.example.com/' })),
      approval: { approved: true, approvers: ['bob'], missing: '' },
      expect: [
        {
          ruleId: 'auth-metadata-changed',
          level: 'notice',
          message: /resource https:\/\/mcp\.example\.com\/mcp → https:\/\/mcp\.example\.com\/; approved by @bob$/,
        },
      ],
    },
    {
      name: 'the metadata dropped altogether (or unusable): clients fall back to the MCP server’s own origin and to default scopes',
      base: withAuth(doc()),
      head: withAuth(),
      expect: [
        {
          ruleId: 'auth-metadata-changed',
          message: /authorization_servers \+ \(none listed: clients use the MCP server's own origin\) - https:\/\/auth\.example\.com/,
        },
      ],
    },
    {
      name: 'authorization_servers emptied: the same fallback',
      base: withAuth(doc()),
      head: withAuth(doc({ authorization_servers: [] })),
      expect: [{ ruleId: 'auth-metadata-changed', message: /authorization_servers \+ \(none listed/ }],
    },
    {
      name: 'two approved authorization servers swapped: clients use the first',
      base: withAuth(doc({ authorization_servers: [AS, 'https://backup.example'] })),
      head: withAuth(doc({ authorization_servers: ['https://backup.example', AS] })),
      expect: [
        {
          ruleId: 'auth-metadata-changed',
          message: /authorization_servers \(first, which clients use: https:\/\/auth\.example\.com → https:\/\/backup\.example\)/,
        },
      ],
    },
    {
      name: 'a pull request whose metadata the head cannot read (HTTP 500) while the base pinned it: fails closed',
      run: async () => {
        const server = await startProtectedServer();
        const repo = protectedRepo(server.url);
        try {
          server.setup.atPath = metadataFixture('discourse-before.json', server.origin);
          await runOn(repo, 'update');
          const base = (await readContract(`${repo.root}/.toolgate/remote.surface.json`))!.surface;
          server.setup.metadataStatus = 500;
          return (await runOn(repo, 'check', new Map([['remote', base]]))).findings;
        } finally {
          repo.cleanup();
          await server.close();
        }
      },
      expect: [
        { ruleId: 'auth-metadata-changed', level: 'error', message: /authorization_servers \+ \(none listed: clients use the MCP server's own origin\)/ },
      ],
    },
    {
      name: 'a new resource name (shown on consent screens)',
      base: withAuth(doc({ resource_name: 'Docs' })),
      head: withAuth(doc({ resource_name: 'Docs (official)' })),
      expect: [{ ruleId: 'auth-metadata-changed', message: /resource_name Docs → Docs \(official\)/ }],
    },
  ],
  silent: [
    {
      name: 'scopes and an authorization server removed: narrower, listed as changes only',
      base: withAuth(doc({ authorization_servers: [AS, 'https://old.example'], scopes_supported: ['read', 'write'] })),
      head: withAuth(doc()),
      expect: [],
    },

    {
      name: 'the same metadata, a real server checked twice',
      run: () => upgrade('github-mcp.json', 'github-mcp.json'),
      expect: [],
    },
  ],
});
