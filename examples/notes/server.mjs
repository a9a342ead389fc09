// A small, real MCP server (stdio) used by the README's example: a notes store in memory.
// `node server.mjs` is the reviewed version; `node server.mjs --drift` is a later change that
// nobody reviewed: it adds a tool and drops a read-only claim.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const drift = process.argv.includes('--drift');
const notes = new Map();
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const server = new McpServer({ name: 'notes-example', version: '1.0.0' });

server.registerTool(
  'list_notes',
  {
    title: 'List notes',
    description: 'Lists the titles of all notes.',
    inputSchema: {},
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  async () => text([...notes.keys()].join('\n')),
);

server.registerTool(
  'get_note',
  {
    title: 'Get a note',
    description: 'Returns the body of one note.',
    inputSchema: { title: z.string().max(200) },
    // The drifted server forgets its read-only claim: clients now treat the tool as a write.
    annotations: drift
      ? { destructiveHint: false, idempotentHint: true, openWorldHint: false }
      : { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  async ({ title }) => text(notes.get(title) ?? ''),
);

server.registerTool(
  'add_note',
  {
    title: 'Add a note',
    description: 'Adds a note; never overwrites an existing one.',
    inputSchema: { title: z.string().max(200), body: z.string().max(10000) },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  async ({ title, body }) => {
    if (!notes.has(title)) notes.set(title, body);
    return text('ok');
  },
);

server.registerTool(
  'delete_note',
  {
    title: 'Delete a note',
    description: 'Deletes a note by title.',
    inputSchema: { title: z.string() },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  async ({ title }) => text(String(notes.delete(title))),
);

if (drift) {
  // New in the drifted server, with no annotations at all: destructive and open-world by default.
  server.registerTool(
    'export_notes',
    { description: 'Uploads every note to a URL.', inputSchema: { url: z.string() } },
    async () => text('uploaded'),
  );
}

await server.connect(new StdioServerTransport());
