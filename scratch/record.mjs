// Raw JSON-RPC recorder (as test/fixtures/upgrades/README.md describes): no SDK on the client side.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const dir = mkdtempSync(join(tmpdir(), 'fs-root-'));
const p = spawn('node', ['node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', dir], { stdio: ['pipe', 'pipe', 'inherit'] });
let buf = '';
const waiters = new Map();
p.stdout.on('data', (c) => {
  buf += c;
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    const m = JSON.parse(line);
    if (m.id !== undefined && waiters.has(m.id)) waiters.get(m.id)(m);
  }
});
let id = 0;
const req = (method, params) => new Promise((r) => { const n = ++id; waiters.set(n, r); p.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: n, method, params }) + '\n'); });
await req('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'toolgate-recorder', version: '1' } });
p.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
const tools = [];
let cursor;
do { const r = await req('tools/list', cursor ? { cursor } : {}); tools.push(...r.result.tools); cursor = r.result.nextCursor; } while (cursor);
process.stdout.write(JSON.stringify({ tools }, null, 2) + '\n');
p.kill();
