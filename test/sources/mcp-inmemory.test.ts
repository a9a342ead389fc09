/**
 * The MCP snapshot over the SDK's in-memory transport (no process): `snapshotOverTransport`, the
 * run `snapshotMcp` makes over stdio and HTTP, against real SDK 1.x servers (`McpServer`, or the
 * low-level `Server` where a test needs its own `tools/list` pages). The process-based suites
 * (mcp-stdio, mcp-http, mcp-long-lines) keep covering what needs a process: spawning, stdout
 * lines, exit codes, process groups, HTTP.
 */
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { McpCommon } from '../../src/config/source-config.js';
import { snapshotOverTransport, type OverTransportOptions } from '../../src/sources/mcp.js';
import type { RawSnapshot } from '../../src/sources/types.js';
import { SourceError } from '../../src/sources/source-error.js';

type Json = Record<string, unknown>;

const CFG: McpCommon = {
  capabilities: {},
  timeouts: { startupMs: 5000, requestMs: 2000, totalMs: 10_000 },
  limits: { maxPages: 100, maxBytes: 1 << 20 },
};
const cfg = (
  over: { limits?: Partial<McpCommon['limits']>; timeouts?: Partial<McpCommon['timeouts']>; capabilities?: McpCommon['capabilities'] } = {},
): McpCommon => ({
  capabilities: over.capabilities ?? CFG.capabilities,
  timeouts: { ...CFG.timeouts, ...over.timeouts },
  limits: { ...CFG.limits, ...over.limits },
});

/** What reached the server: its messages' methods in order ("answer" for an answer), and whether its transport closed. */
interface Wire {
  methods: string[];
  closed: boolean;
}

/**
 * Connects `server` to one half of an in-memory pair and snapshots over the other half. The
 * server's half is tapped to record what reached the server.
 */
async function snapshot(server: McpServer | Server, c: McpCommon = CFG, opts: OverTransportOptions = {}): Promise<{ snap: RawSnapshot; wire: Wire }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const wire: Wire = { methods: [], closed: false };
  await server.connect(serverSide);
  const handler = serverSide.onmessage!;
  serverSide.onmessage = (m, extra) => {
    wire.methods.push('method' in m ? m.method : 'answer');
    handler(m, extra);
  };
  const onclose = serverSide.onclose;
  serverSide.onclose = () => {
    wire.closed = true;
    onclose?.();
  };
  const snap = await snapshotOverTransport('mem', c, clientSide, opts);
  return { snap, wire };
}

async function failure(server: McpServer | Server, c: McpCommon = CFG): Promise<SourceError> {
  const err = await snapshot(server, c).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SourceError);
  return err as SourceError;
}

const names = (s: RawSnapshot) => s.tools.map((t) => (t.tool as { name?: string }).name);
const tool = (name: string, extra: Json = {}) => ({ name, description: `Tool ${name}.`, inputSchema: { type: 'object', properties: {} }, ...extra });

/** An SDK `McpServer` with a read tool and a write tool. */
function mcpServer(): McpServer {
  const server = new McpServer({ name: 'mem-server', version: '1.2.3' });
  server.registerTool(
    'read_doc',
    { title: 'Read a document', description: 'Reads a document.', inputSchema: { id: z.string() }, annotations: { readOnlyHint: true } },
    async ({ id }) => ({ content: [{ type: 'text', text: `doc ${id}` }] }),
  );
  server.registerTool(
    'delete_doc',
    { description: 'Deletes a document.', inputSchema: { id: z.string() }, annotations: { destructiveHint: true } },
    async () => ({ content: [{ type: 'text', text: 'gone' }] }),
  );
  return server;
}

/** A low-level SDK `Server` whose `tools/list` answers `pages[cursor ?? 'first']`. */
function pagedServer(pages: (cursor: string | undefined) => Json): Server {
  const server = new Server({ name: 'mem-paged', version: '0.0.1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (req) => pages(req.params?.cursor) as never);
  return server;
}

/** Three pages: "" (an empty cursor, to be followed), then "p3", then the end; unknown keys on t3. */
const THREE_PAGES: Record<string, Json> = {
  first: { tools: [tool('t1'), tool('t2')], nextCursor: '' },
  '': { tools: [tool('t3', { 'x-vendor': { tier: 'gold' }, annotations: { readOnlyHint: true, 'x-risk': 'low' } })], nextCursor: 'p3' },
  p3: { tools: [tool('t4'), tool('t5')] },
};
const threePages = () =>
  pagedServer((cursor) => {
    const page = THREE_PAGES[cursor ?? 'first'];
    if (!page) throw new Error(`unknown cursor ${cursor}`);
    return page;
  });

/**
 * A low-level SDK `Server` that speaks the 2026-07-28 era: it answers `server/discover` (its own
 * request handler; SDK 1.x has none) and lists tools with the era's cache hints.
 */
function modernServer(tools: Json[]): Server {
  const server = new Server({ name: 'mem-modern', version: '3.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(z.object({ method: z.literal('server/discover'), params: z.looseObject({}).optional() }), async () => ({
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: {} },
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mem-modern', version: '3.0.0' } },
  }));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools }) as never);
  return server;
}

describe('snapshotOverTransport (in-memory, SDK servers)', () => {
  it('lists an McpServer: server info, initialize after the server/discover probe, tools as sent, result shape', async () => {
    const { snap, wire } = await snapshot(mcpServer());
    expect(snap.source).toEqual({ id: 'mem', kind: 'mcp', transport: 'stdio', clientCapabilities: {} });
    // An SDK 1.x server answers the server/discover probe with "method not found": initialize.
    expect(snap.server).toEqual({ name: 'mem-server', version: '1.2.3', protocolVersion: '2025-11-25' });
    expect(wire.methods).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
    expect(snap.live).toBe(true);
    expect(names(snap)).toEqual(['read_doc', 'delete_doc']);
    expect(snap.tools[0]!.tool).toMatchObject({
      title: 'Read a document',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      execution: { taskSupport: 'forbidden' },
    });
    expect(snap.diagnostics).toMatchObject({ pages: 1, notes: [] });
    expect(snap.diagnostics.rawBytes).toBe(Buffer.byteLength(JSON.stringify({ tools: snap.tools.map((t) => t.tool) })));
    // Nothing of a process: no stdout or stderr diagnostics.
    expect(snap.diagnostics).not.toHaveProperty('stdoutNoiseLines');
    expect(snap.diagnostics).not.toHaveProperty('stderrTail');
    // The client closed the connection at the end.
    expect(wire.closed).toBe(true);
  });

  it('negotiate: false goes straight to initialize, as over legacy HTTP+SSE', async () => {
    const { snap, wire } = await snapshot(mcpServer(), CFG, { negotiate: false, transport: 'sse' });
    expect(wire.methods).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
    expect(snap.source.transport).toBe('sse');
    expect(snap.server?.protocolVersion).toBe('2025-11-25');
  });

  it('negotiates the 2026-07-28 era with a server that answers server/discover: no initialize', async () => {
    const { snap, wire } = await snapshot(
      modernServer([{ name: 'modern_tool', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, 'x-new': true }]),
    );
    expect(wire.methods).toEqual(['server/discover', 'tools/list']);
    expect(snap.server).toEqual({ name: 'mem-modern', version: '3.0.0', protocolVersion: '2026-07-28' });
    expect(snap.tools.map((t) => t.tool)).toEqual([
      { name: 'modern_tool', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, 'x-new': true },
    ]);
  });

  it('2026-07-28: a page the SDK rejects for one malformed tool is kept as sent (raw capture), with a note', async () => {
    const { snap } = await snapshot(
      modernServer([
        { name: 'good_before', inputSchema: { type: 'object' } },
        { name: 'bad_schema', inputSchema: 'not a schema' },
        { name: 'good_after', inputSchema: { type: 'object' } },
      ]),
    );
    expect(names(snap)).toEqual(['good_before', 'bad_schema', 'good_after']);
    expect(snap.tools[1]!.tool).toEqual({ name: 'bad_schema', inputSchema: 'not a schema' });
    expect(snap.diagnostics.notes?.join('\n')).toMatch(/the MCP SDK rejected a tools\/list page \(.*\); toolgate kept the page as the server sent it/);
  });

  it('2025 era: malformed tools (no name, a string schema, unknown keys) are kept exactly as sent', async () => {
    const odd = [{ description: 'no name at all' }, { name: 'bad_schema', inputSchema: 'not a schema', 'x-extra': [1, { a: null }] }];
    const { snap } = await snapshot(pagedServer(() => ({ tools: odd })));
    expect(snap.tools.map((t) => t.tool)).toEqual(odd);
    expect(snap.diagnostics.notes).toEqual([]);
  });

  it('follows every nextCursor, including an empty string, and keeps unknown keys', async () => {
    const { snap, wire } = await snapshot(threePages());
    expect(names(snap)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(snap.diagnostics.pages).toBe(3);
    expect(wire.methods.filter((m) => m === 'tools/list')).toHaveLength(3);
    expect(snap.tools[2]!.tool).toMatchObject({ 'x-vendor': { tier: 'gold' }, annotations: { readOnlyHint: true, 'x-risk': 'low' } });
  });

  it('"nextCursor": null ends the listing, with a note', async () => {
    const { snap } = await snapshot(pagedServer(() => ({ tools: [tool('only')], nextCursor: null })));
    expect(names(snap)).toEqual(['only']);
    expect(snap.diagnostics.notes).toEqual(['server sent "nextCursor": null (treated as the last page; the spec wants the key omitted)']);
  });

  it('fails with cursor-loop when a cursor repeats, after asking for it once', async () => {
    let n = 0;
    const server = pagedServer(() => ({ tools: [tool(`loop_${n++}`)], nextCursor: 'again' }));
    const err = await failure(server);
    expect(err.reason).toBe('cursor-loop');
    expect(err.message).toContain('MCP server "mem" returned nextCursor "again" a second time (page 2)');
    expect(n).toBe(2);
  });

  it('fails with page-cap when pages exceed limits.maxPages, without asking for one more', async () => {
    let asked = 0;
    const err = await failure(
      pagedServer((cursor) => (asked++, THREE_PAGES[cursor ?? 'first']!)),
      cfg({ limits: { maxPages: 2 } }),
    );
    expect(err.reason).toBe('page-cap');
    expect(err.message).toContain('still returned a nextCursor after 2 tools/list pages');
    expect(asked).toBe(2);
    // Exactly enough pages passes.
    expect((await snapshot(threePages(), cfg({ limits: { maxPages: 3 } }))).snap.diagnostics.pages).toBe(3);
  });

  it("fails with byte-cap when the pages' results exceed limits.maxBytes; exactly the bytes listed passes", async () => {
    const { snap } = await snapshot(threePages());
    const bytes = snap.diagnostics.rawBytes!;
    expect((await snapshot(threePages(), cfg({ limits: { maxBytes: bytes } }))).snap.tools).toHaveLength(5);
    const err = await failure(threePages(), cfg({ limits: { maxBytes: bytes - 1 } }));
    expect(err.reason).toBe('byte-cap');
    expect(err.message).toBe(`MCP server "mem" sent ${bytes} bytes of tools/list results by page 3, more than limits.maxBytes (${bytes - 1})`);
  });

  it('asks for the next page as soon as a page names it, before measuring the page in hand (issue 18)', async () => {
    // Page 1 alone is over maxBytes: the listing fails on it, and the request for page 2 was
    // already on its way (a listing that measured each page first would never have sent it).
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = threePages();
    await server.connect(serverSide);
    const handler = serverSide.onmessage!;
    const lists: unknown[] = [];
    serverSide.onmessage = (m, extra) => {
      if ('method' in m && m.method === 'tools/list') lists.push((m.params as { cursor?: string } | undefined)?.cursor ?? 'first');
      handler(m, extra);
    };
    const err = await snapshotOverTransport('mem', cfg({ limits: { maxBytes: 100 } }), clientSide).then(
      () => undefined,
      (e: unknown) => e as SourceError,
    );
    expect(err?.reason).toBe('byte-cap');
    expect(err?.message).toContain('by page 1');
    expect(lists).toEqual(['first', '']);
  });

  it('a page both over limits.maxBytes and over limits.maxPages fails with byte-cap, as when each page was measured before the next was asked for', async () => {
    const err = await failure(
      pagedServer(() => ({ tools: [tool('big', { description: 'x'.repeat(2000) })], nextCursor: 'more' })),
      cfg({ limits: { maxPages: 1, maxBytes: 1024 } }),
    );
    expect(err.reason).toBe('byte-cap');
    // Within the byte cap, the same page fails on the page cap.
    const capped = await failure(
      pagedServer(() => ({ tools: [tool('big', { description: 'x'.repeat(2000) })], nextCursor: 'more' })),
      cfg({ limits: { maxPages: 1, maxBytes: 1 << 20 } }),
    );
    expect(capped.reason).toBe('page-cap');
  });

  it('fails with list-error when tools/list answers a JSON-RPC error', async () => {
    const err = await failure(
      pagedServer(() => {
        throw new Error('backend unavailable');
      }),
    );
    expect(err.reason).toBe('list-error');
    expect(err.message).toMatch(/^MCP server "mem" answered tools\/list with JSON-RPC error -32603: .*backend unavailable/);
  });

  it('notes notifications/tools/list_changed sent while connected, once', async () => {
    const server = mcpServer();
    // Two changes of the tool list after initialization: two notifications, one note.
    server.server.oninitialized = () => {
      server.registerTool('late_1', { description: 'Registered late.' }, async () => ({ content: [] }));
      server.registerTool('late_2', { description: 'Registered late.' }, async () => ({ content: [] }));
    };
    const { snap } = await snapshot(server);
    expect(snap.diagnostics.notes).toEqual(['server sent notifications/tools/list_changed while toolgate was connected; the list may not be stable']);
  });

  it('declares the configured client capabilities and answers roots/list with no roots', async () => {
    const server = mcpServer();
    let roots: unknown;
    server.server.oninitialized = () => {
      server.server.listRoots().then(
        (r) => (roots = r.roots),
        (e: unknown) => (roots = e),
      );
    };
    const { snap } = await snapshot(server, cfg({ capabilities: { roots: {} } }));
    expect(server.server.getClientCapabilities()).toEqual({ roots: {} });
    expect(snap.source.clientCapabilities).toEqual({ roots: {} });
    expect(roots).toEqual([]);
  });

  it('fails with startup-timeout when nothing answers, at the start-up deadline (startupMs, or totalMs when smaller)', async () => {
    // Nothing is connected to the other half: every message waits there. The SDK's own timeouts
    // (probe: requestMs, initialize: startupMs) are far off; the snapshot's deadline ends it.
    const [clientSide] = InMemoryTransport.createLinkedPair();
    const started = Date.now();
    const err = await snapshotOverTransport('mem', cfg({ timeouts: { startupMs: 5000, requestMs: 5000, totalMs: 300 } }), clientSide).then(
      () => undefined,
      (e: unknown) => e as SourceError,
    );
    expect(err).toBeInstanceOf(SourceError);
    expect(err!.reason).toBe('startup-timeout');
    expect(err!.message).toMatch(/^MCP server "mem" did not complete initialization within 300 ms; /);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
