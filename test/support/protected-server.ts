/**
 * A real MCP server over Streamable HTTP on 127.0.0.1 that publishes RFC 9728 protected resource
 * metadata the test can change between runs. In-process: the SDK's McpServer behind
 * node:http, with the discovery URLs an MCP client tries.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Policy } from '../../src/config/policy-model.js';
import { parsePolicy } from '../../src/config/policy.js';
import type { CheckResult, Mode } from '../../src/judge/result.js';
import { runCheck } from '../../src/run-check.js';
import type { Surface } from '../../src/surface/model.js';
import { silentLogger } from '../../src/util/logger.js';
import { ROOT, tempDir } from './mcp-fixtures.js';

/** What the server answers; change it between runs. */
export interface ProtectedSetup {
  /** Served at `/.well-known/oauth-protected-resource/mcp` (the path-suffixed form). */
  atPath?: unknown;
  /** Served at `/.well-known/oauth-protected-resource` (the root). */
  atRoot?: unknown;
  /** Served at `/custom-prm`. */
  atCustom?: unknown;
  /** HTTP status of every metadata URL instead of the document (e.g. 500). */
  metadataStatus?: number;
  /** `/mcp` answers 401 unless `Authorization: Bearer <token>`. */
  token?: string;
  /** The 401's `WWW-Authenticate` (default: none). */
  challenge?: string;
}

export interface ProtectedServer {
  url: string;
  origin: string;
  setup: ProtectedSetup;
  /** `METHOD path` requested, in order, with " (with Authorization)" when the request carried credentials. */
  requests: string[];
  close: () => Promise<void>;
}

/** Starts the server on a free port of 127.0.0.1. */
export async function startProtectedServer(setup: ProtectedSetup = {}): Promise<ProtectedServer> {
  const state: ProtectedServer = { url: '', origin: '', setup, requests: [], close: async () => undefined };
  const http: Server = createServer((req, res) => {
    handle(state, req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const { port } = http.address() as { port: number };
  state.origin = `http://127.0.0.1:${port}`;
  state.url = `${state.origin}/mcp`;
  // Connections kept alive by the client would hold `close` for the keep-alive timeout (5 s).
  state.close = () =>
    new Promise((r) => {
      http.close(() => r());
      http.closeAllConnections();
    });
  return state;
}

async function handle(state: ProtectedServer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0]!;
  state.requests.push(`${req.method} ${path}${req.headers.authorization ? ' (with Authorization)' : ''}`);
  const { setup } = state;
  const docs: Record<string, unknown> = {
    '/.well-known/oauth-protected-resource/mcp': setup.atPath,
    '/.well-known/oauth-protected-resource': setup.atRoot,
    '/custom-prm': setup.atCustom,
  };
  if (path in docs) {
    const doc = docs[path];
    if (setup.metadataStatus) res.writeHead(setup.metadataStatus).end('error');
    else if (doc === undefined) res.writeHead(404).end('not found');
    else res.writeHead(200, { 'content-type': 'application/json' }).end(typeof doc === 'string' ? doc : JSON.stringify(doc));
    return;
  }
  if (path !== '/mcp' && path !== '/mcp/') {
    res.writeHead(404).end('not found');
    return;
  }
  if (setup.token !== undefined && req.headers.authorization !== `Bearer ${setup.token}`) {
    res.writeHead(401, setup.challenge ? { 'www-authenticate': setup.challenge } : {}).end('unauthorized');
    return;
  }
  const server = new McpServer({ name: 'fixture-protected', version: '1.0.0' });
  server.registerTool('read_doc', { description: 'Reads a document.', annotations: { readOnlyHint: true, openWorldHint: false } }, () => ({ content: [] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

/** A document of test/fixtures/protected-resource with `{origin}` replaced. */
export function metadataFixture(name: string, origin: string): unknown {
  const text = readFileSync(join(ROOT, 'test/fixtures/protected-resource', name), 'utf8');
  return JSON.parse(text.replaceAll('{origin}', origin)) as unknown;
}

/** A repository whose one source is the server at `url` (optionally with a bearer token from TOOLGATE_TEST_PRM_TOKEN). */
export function protectedRepo(url: string, opts: { token?: boolean } = {}): { root: string; policy: Policy; cleanup: () => void } {
  const dir = tempDir('tg-prm-');
  const headers = opts.token ? '      headers:\n        Authorization: { env: TOOLGATE_TEST_PRM_TOKEN, prefix: "Bearer " }\n' : '';
  const yaml = `sources:\n  - id: remote\n    mcp:\n      url: ${url}\n${headers}`;
  writeFileSync(join(dir.path, 'toolgate.yml'), yaml);
  return { root: dir.path, policy: parsePolicy(yaml, join(dir.path, 'toolgate.yml'), dir.path), cleanup: dir.cleanup };
}

/** Runs toolgate on such a repository. */
export function runOn(repo: { root: string; policy: Policy }, mode: Mode, baseContracts?: ReadonlyMap<string, Surface | null>): Promise<CheckResult> {
  return runCheck({ policy: repo.policy, mode, root: repo.root, logger: silentLogger, ...(baseContracts ? { baseContracts } : {}) });
}
