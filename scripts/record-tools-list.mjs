#!/usr/bin/env node
/**
 * Records what a published MCP server lists, for test/fixtures/upgrades (its README says how and
 * why): starts the server over stdio without network (`unshare -n`), speaks raw line-delimited
 * JSON-RPC (no MCP SDK, so no key the SDK does not know is dropped), and returns the `tools` of
 * every `tools/list` page exactly as served, with what the session showed.
 *
 *   node scripts/record-tools-list.mjs --cwd DIR [--env K=V]... -- COMMAND [ARGS]...
 *
 * prints `{"tools": [...], "meta": {...}}`; scripts/upgrade-fixtures.mjs calls {@link recordToolsList}.
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** What the recorder says to the server (the README quotes it). */
export const INITIALIZE = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'toolgate-recorder', version: '1' } };
const SECONDS = 120;
const MAX_PAGES = 100;

/**
 * Starts `command` in `cwd` as `timeout 120 unshare -n env VARS COMMAND`, lists its tools and ends it.
 *
 * @param {{ cwd: string, command: string[], env?: Record<string, string> }} run
 * @returns {Promise<{ tools: unknown[], meta: { protocolVersion: unknown, serverInfo: unknown, pages: number,
 *   notifications: string[], requests: string[], sameBytes: boolean } }>}
 * @throws Error when the server exits, answers an error or does not answer within 120 s.
 */
export function recordToolsList({ cwd, command, env = {} }) {
  const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const child = spawn('timeout', [String(SECONDS), 'unshare', '-n', 'env', ...vars, ...command], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const pending = new Map();
  const meta = { protocolVersion: undefined, serverInfo: undefined, pages: 0, notifications: [], requests: [], sameBytes: true };
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl).replace(/\r$/, '');
      buffered = buffered.slice(nl + 1);
      if (line.trim() === '') continue;
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        continue; // a log line on stdout: not a message
      }
      // Re-serialized compactly, a message must give back the server's bytes: then writing the
      // tools with JSON.stringify changed no key order and no number.
      if (JSON.stringify(msg) !== line) meta.sameBytes = false;
      if (msg.method !== undefined && msg.id === undefined) meta.notifications.push(msg.method);
      else if (msg.method !== undefined) {
        meta.requests.push(msg.method);
        send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'the recorder answers no request' } });
      } else pending.get(msg.id)?.(msg);
    }
  });
  const send = (msg) => child.stdin.write(`${JSON.stringify(msg)}\n`);
  const exited = new Promise((_, reject) =>
    child.on('exit', (code, signal) => reject(new Error(`the server exited (${signal ?? code}) before answering; stderr:\n${stderr}`))),
  );
  exited.catch(() => {}); // ending the server after the last answer is no failure
  let nextId = 1;
  const call = (method, params) => {
    const id = nextId++;
    const answer = new Promise((resolve, reject) =>
      pending.set(id, (msg) => (msg.error ? reject(new Error(`${method}: ${JSON.stringify(msg.error)}`)) : resolve(msg.result))),
    );
    send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    return Promise.race([answer, exited]);
  };
  return (async () => {
    try {
      const init = await call('initialize', INITIALIZE);
      meta.protocolVersion = init.protocolVersion;
      meta.serverInfo = init.serverInfo;
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const tools = [];
      let cursor;
      do {
        const page = await call('tools/list', cursor === undefined ? undefined : { cursor });
        meta.pages++;
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined && meta.pages < MAX_PAGES);
      if (cursor !== undefined) throw new Error(`more than ${MAX_PAGES} pages`);
      return { tools, meta };
    } finally {
      child.stdin.end();
      child.kill('SIGTERM');
    }
  })();
}

async function main(argv) {
  const dash = argv.indexOf('--');
  if (dash < 0) throw new Error('usage: record-tools-list.mjs --cwd DIR [--env K=V]... -- COMMAND [ARGS]...');
  const opts = argv.slice(0, dash);
  const env = {};
  let cwd = process.cwd();
  for (let i = 0; i < opts.length; i += 2) {
    if (opts[i] === '--cwd') cwd = opts[i + 1];
    else if (opts[i] === '--env') {
      const [k, ...v] = opts[i + 1].split('=');
      env[k] = v.join('=');
    } else throw new Error(`unknown option ${opts[i]}`);
  }
  const result = await recordToolsList({ cwd, command: argv.slice(dash + 1), env });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main(process.argv.slice(2));
