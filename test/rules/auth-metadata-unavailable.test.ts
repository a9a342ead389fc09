/**
 * auth-metadata-unavailable: an HTTP server that wants credentials but publishes no usable RFC 9728
 * metadata, or metadata clients refuse. Every case runs toolgate against a real MCP server on
 * 127.0.0.1 (test/support/protected-server.ts), shaped on published servers (see
 * test/fixtures/protected-resource/README.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, vi } from 'vitest';
import type { ProtectedSetup } from '../support/protected-server.js';
import { metadataFixture, protectedRepo, runOn, startProtectedServer } from '../support/protected-server.js';
import { ROOT } from '../support/mcp-fixtures.js';
import { ruleTests } from '../support/surface-builders.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** `toolgate audit` against a server set up by `setup` (given the server's origin). */
const auditOf =
  (setup: (origin: string, port: number) => ProtectedSetup, opts: { token?: string; path?: string } = {}) =>
  async () => {
    const server = await startProtectedServer();
    Object.assign(server.setup, setup(server.origin, Number(new URL(server.origin).port)));
    if (opts.token !== undefined) vi.stubEnv('TOOLGATE_TEST_PRM_TOKEN', opts.token);
    const repo = protectedRepo(`${server.origin}${opts.path ?? '/mcp'}`, { token: opts.token !== undefined });
    try {
      return (await runOn(repo, 'audit')).findings;
    } finally {
      repo.cleanup();
      await server.close();
    }
  };

const enterprise = (port: number) =>
  readFileSync(join(ROOT, 'test/fixtures/protected-resource/enterprise-challenge.txt'), 'utf8').trim().replace('{port}', String(port));

ruleTests('auth-metadata-unavailable', {
  fires: [
    {
      name: 'a 401 and no metadata anywhere (mcp.cloudflare.com answered 404 at the well-known URL): a warning beside server-failed',
      run: auditOf(() => ({ token: 'secret' })),
      expect: [
        {
          ruleId: 'auth-metadata-unavailable',
          level: 'warning',
          message: /^the server answered HTTP 401 \(it wants credentials\) but publishes no protected resource metadata/,
          location: { file: 'toolgate.yml', line: 3 },
        },
      ],
    },
    {
      name: "a 401 whose challenge names metadata on another origin (Copilot Enterprise's host): not fetched, and said",
      run: auditOf((_origin, port) => ({ token: 'secret', challenge: enterprise(port) })),
      expect: [
        {
          ruleId: 'auth-metadata-unavailable',
          message:
            /no metadata at the well-known URLs; the 401's resource_metadata "http:\/\/localhost:\d+\/\.well-known\/oauth-protected-resource\/mcp\/readonly" is on another origin and was not fetched/,
        },
      ],
    },
    {
      name: 'metadata whose resource is another server: clients refuse it',
      run: auditOf(() => ({ atPath: { resource: 'https://other.example/mcp', authorization_servers: ['https://auth.example'] } })),
      expect: [
        {
          ruleId: 'auth-metadata-unavailable',
          message: /names resource "https:\/\/other\.example\/mcp", which does not cover http:\/\/127\.0\.0\.1:\d+\/mcp, so clients refuse it/,
        },
      ],
    },
    {
      name: 'the well-known URL answers 500',
      run: auditOf(() => ({ metadataStatus: 500 })),
      expect: [{ ruleId: 'auth-metadata-unavailable', message: /oauth-protected-resource.*HTTP 500/ }],
    },
    {
      name: 'a document that is not RFC 9728 metadata (no resource)',
      run: auditOf(() => ({ atRoot: { authorization_servers: ['https://auth.example'] } })),
      expect: [{ ruleId: 'auth-metadata-unavailable', message: /is not RFC 9728 metadata \(\/resource: / }],
    },
    {
      name: 'a document that is not JSON',
      run: auditOf(() => ({ atPath: '<html>login</html>' })),
      expect: [{ ruleId: 'auth-metadata-unavailable', message: /cannot be used: http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp: / }],
    },
    {
      name: 'a document larger than 64 KiB',
      run: auditOf((origin) => ({ atPath: { resource: `${origin}/mcp`, resource_name: 'x'.repeat(70_000) } })),
      expect: [{ ruleId: 'auth-metadata-unavailable', message: /is larger than 65536 bytes/ }],
    },
  ],
  silent: [
    {
      name: 'no credentials asked, no metadata published (a local server)',
      run: auditOf(() => ({})),
      expect: [],
    },
    {
      name: "GitHub's shape: at the path-suffixed URL, a resource without the trailing slash the client dials",
      run: auditOf((origin) => ({ atPath: metadataFixture('github-mcp.json', origin) }), { path: '/mcp/' }),
      expect: [],
    },
    {
      name: 'credentials given, metadata at the root only',
      run: auditOf((origin) => ({ token: 'secret', atRoot: metadataFixture('discourse-before.json', origin) }), { token: 'secret' }),
      expect: [],
    },
  ],
});
