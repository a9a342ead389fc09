#!/usr/bin/env node
// The raw floor: the least any program pays to spawn a stdio MCP server, initialize it, list
// every tool page and end it, with no client library in between. Every ratio in bench/ is taken
// against this; the SDK floors (floor.mjs) are kept beside it for context.
//
//   node bench/raw-floor.mjs [--timing] -- <command> [args...]
//
// Steps: spawn the command in its own process group (stdin/stdout piped, stderr ignored);
// write `initialize` at once (the pipe holds it while the server boots); on its result write
// `notifications/initialized` and `tools/list`, following `nextCursor` until it is absent; then
// SIGKILL the process group and exit. Newline-delimited JSON-RPC, as the stdio transport is.
// --timing: phase marks (ms since process start) as one JSON line on stderr:
//   floor-timing {"spawned":..,"initialized":..,"tools listed":..,"ended":..}
// Prints the tool count on stdout.
import { spawn } from 'node:child_process';

const t = {};
const mark = (name) => (t[name] = Math.round(performance.now() * 10) / 10);

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const timing = argv.slice(0, Math.max(dash, 0)).includes('--timing');
const command = dash >= 0 ? argv.slice(dash + 1) : [];
if (command.length === 0) {
  process.stderr.write('usage: node bench/raw-floor.mjs [--timing] -- <command> [args...]\n');
  process.exit(2);
}

const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
mark('spawned');
const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

let nextId = 1;
const pending = new Map();
const request = (method, params) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ id, method, params });
  });

let buffered = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  buffered += chunk;
  for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    if (!line.trim()) continue;
    const message = JSON.parse(line);
    const waiter = message.id !== undefined && pending.get(message.id);
    if (!waiter) continue; // a notification or a request from the server: nothing to do here
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(`${message.error.code}: ${message.error.message}`));
    else waiter.resolve(message.result);
  }
});
child.on('exit', (code, signal) => {
  for (const { reject } of pending.values()) reject(new Error(`server exited (${code ?? signal})`));
});

await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-floor', version: '0.0.0' } });
send({ method: 'notifications/initialized' });
mark('initialized');

let count = 0;
let cursor;
do {
  const page = await request('tools/list', cursor === undefined ? {} : { cursor });
  count += page.tools.length;
  cursor = page.nextCursor ?? undefined;
} while (cursor !== undefined);
mark('tools listed');

process.kill(-child.pid, 'SIGKILL');
mark('ended');
process.stdout.write(`${count}\n`);
if (timing) {
  process.on('exit', () => {
    mark('exit');
    process.stderr.write(`floor-timing ${JSON.stringify(t)}\n`);
  });
}
process.exit(0);
