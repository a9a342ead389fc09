/** MCP over HTTP: Streamable HTTP, legacy SSE fallback, headers from the environment. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { snapshotMcp } from '../../src/sources/mcp.js';
import { ConfigError } from '../../src/util/errors.js';
import { SourceError } from '../../src/sources/source-error.js';
import { COMMON, NODE, ROOT, fixture, freePort, type HttpCfg } from '../support/mcp-fixtures.js';

async function httpFixture(name: string, path: string, over: Partial<HttpCfg> = {}): Promise<HttpCfg> {
  const port = await freePort();
  return {
    transport: 'http',
    url: `http://127.0.0.1:${port}${path}`,
    headers: [],
    start: { command: NODE, args: [fixture(name), String(port)], cwd: ROOT, env: [] },
    ...COMMON,
    ...over,
  };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('snapshotMcp over HTTP', () => {
  it('starts the server, waits for the port and lists over Streamable HTTP', async () => {
    const snap = await snapshotMcp('http', await httpFixture('http.mjs', '/mcp'));
    expect(snap.source.transport).toBe('streamable-http');
    expect(snap.server).toEqual({ name: 'fixture-http', version: '2.0.0', protocolVersion: '2025-11-25' });
    expect(snap.tools.map((t) => (t.tool as { name: string }).name)).toEqual(['http_read', 'http_write']);
    expect(snap.diagnostics.pages).toBe(1);
  });

  it('falls back to legacy SSE when Streamable HTTP answers 404', async () => {
    const snap = await snapshotMcp('sse', await httpFixture('sse.mjs', '/sse'));
    expect(snap.source.transport).toBe('sse');
    expect(snap.server?.name).toBe('fixture-sse');
    expect(snap.tools.map((t) => (t.tool as { name: string }).name)).toEqual(['sse_tool']);
    expect(snap.diagnostics.notes?.join('\n')).toContain('HTTP 404');
  });

  it('sends headers built from environment variables', async () => {
    vi.stubEnv('TOOLGATE_TEST_TOKEN', 's3cret');
    vi.stubEnv('FIXTURE_REQUIRE_AUTH', 's3cret');
    const cfg = await httpFixture('http.mjs', '/mcp', {
      headers: [{ name: 'Authorization', env: 'TOOLGATE_TEST_TOKEN', prefix: 'Bearer ' }],
    });
    cfg.start!.env = ['FIXTURE_REQUIRE_AUTH'];
    const snap = await snapshotMcp('auth', cfg);
    expect(snap.tools).toHaveLength(2);

    // Same server without the header: HTTP 401 is an http-error, not an SSE fallback.
    const noAuth = await httpFixture('http.mjs', '/mcp');
    noAuth.start!.env = ['FIXTURE_REQUIRE_AUTH'];
    const err = await snapshotMcp('auth', noAuth).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).reason).toBe('http-error');
    expect((err as SourceError).message).toContain('401');
  });

  it('throws ConfigError naming the header and the missing variable', async () => {
    const cfg = await httpFixture('http.mjs', '/mcp', { headers: [{ name: 'X-Api-Key', env: 'TOOLGATE_TEST_MISSING' }] });
    const err = await snapshotMcp('cfg', cfg).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toContain('X-Api-Key');
    expect((err as ConfigError).message).toContain('TOOLGATE_TEST_MISSING');
  });

  it('fails with http-error when nothing listens and there is no start command', async () => {
    const port = await freePort();
    const err = await snapshotMcp('down', { transport: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: [], ...COMMON }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).reason).toBe('http-error');
    expect((err as SourceError).message).toContain(`127.0.0.1:${port}`);
  });

  it('fails with exited when the start command dies before the port opens', async () => {
    const cfg = await httpFixture('exit-at-once.mjs', '/mcp');
    const err = await snapshotMcp('dies', cfg).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).reason).toBe('exited');
    expect((err as SourceError).message).toContain('FIXTURE_API_KEY');
  });
});
