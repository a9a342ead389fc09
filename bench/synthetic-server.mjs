#!/usr/bin/env node
// A synthetic MCP stdio server for the scale benchmark: raw newline-delimited JSON-RPC, no SDK,
// so its own cost stays small next to what is measured.
//
//   node bench/synthetic-server.mjs --tools N [--seed S] [--change-seed C] [--change-every K] [--page-size P]
//
// Serves N generated tools of realistic size: descriptions of a few hundred characters, input
// schemas of 5-20 properties (strings with formats/patterns, enums, numbers with bounds, arrays,
// nested objects) and, in every 4th tool, `$defs` with a `$ref`; most tools declare some hints.
// The same --seed always gives the same tools. --change-seed C changes every K-th tool
// (default K = 100, i.e. 1%): rotating through a changed description, a dropped hint and an added
// optional property, driven by C. tools/list is paginated (P per page, default 100) with opaque
// cursors that this server follows itself. Pages are generated at start-up, before the server
// answers `initialize`, so listing costs the same in every run. Exits when stdin ends.
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const N = opt('tools', 100);
const seed = opt('seed', 1);
const changeSeed = opt('change-seed', 0);
const changeEvery = opt('change-every', 100);
const pageSize = opt('page-size', 100);

/** mulberry32: small deterministic PRNG. */
function rng(s) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'account address amount archive attach branch budget cache calendar channel comment commit config contact cursor dashboard ' +
  'dataset deploy device document domain draft email event export feature field file filter folder invoice issue job label ' +
  'ledger limit message metric milestone note order owner page payment pipeline policy project queue record release report ' +
  'repository request resource review role rule schedule secret segment session snapshot status subscription tag task team ' +
  'template ticket token topic user version webhook workflow workspace'
).split(' ');
const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'archive', 'export', 'sync', 'approve'];

function generateTool(i, r) {
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const verb = VERBS[i % VERBS.length];
  const noun = pick(WORDS);
  const name = `${verb}_${noun}_${i.toString().padStart(5, '0')}`;
  const sentence = () => {
    const n = 8 + Math.floor(r() * 10);
    const w = Array.from({ length: n }, () => pick(WORDS)).join(' ');
    return w[0].toUpperCase() + w.slice(1) + '.';
  };
  let description = `${verb[0].toUpperCase()}${verb.slice(1)}s a ${noun} in the workspace. `;
  while (description.length < 200 + r() * 300) description += sentence() + ' ';
  description = description.trim();

  const nProps = 5 + Math.floor(r() * 16);
  const properties = {};
  const required = [];
  for (let p = 0; p < nProps; p++) {
    const key = `${pick(WORDS)}_${p}`;
    const kind = Math.floor(r() * 6);
    const desc = sentence();
    if (kind === 0) properties[key] = { type: 'string', description: desc, minLength: 1, maxLength: 256 };
    else if (kind === 1) properties[key] = { type: 'string', enum: [pick(WORDS), pick(WORDS), pick(WORDS) + '_x'], description: desc };
    else if (kind === 2) properties[key] = { type: 'integer', minimum: 0, maximum: 1000, default: 10, description: desc };
    else if (kind === 3) properties[key] = { type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: 50, description: desc };
    else if (kind === 4) properties[key] = { type: 'boolean', default: false, description: desc };
    else
      properties[key] = {
        type: 'object',
        properties: { id: { type: 'string' }, note: { type: 'string', maxLength: 500 } },
        required: ['id'],
        additionalProperties: false,
        description: desc,
      };
    if (r() < 0.4) required.push(key);
  }
  const inputSchema = { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
  if (i % 4 === 0) {
    inputSchema.$defs = {
      filter: {
        type: 'object',
        properties: {
          field: { type: 'string' },
          op: { type: 'string', enum: ['eq', 'ne', 'lt', 'gt', 'in'] },
          value: { type: ['string', 'number', 'boolean'] },
        },
        required: ['field', 'op'],
        additionalProperties: false,
      },
    };
    inputSchema.properties.filters = { type: 'array', items: { $ref: '#/$defs/filter' }, description: 'Filters, combined with AND.' };
  }
  const readOnly = verb === 'get' || verb === 'list' || verb === 'search' || verb === 'export';
  const tool = { name, title: `${verb} ${noun} ${i}`, description, inputSchema };
  const style = i % 5;
  if (style !== 4) {
    tool.annotations = readOnly
      ? { readOnlyHint: true, openWorldHint: false }
      : { readOnlyHint: false, destructiveHint: verb === 'delete', idempotentHint: verb === 'update', openWorldHint: false };
  }
  return tool;
}

function applyChange(tool, i, c) {
  const which = Math.floor(i / changeEvery) % 3;
  if (which === 0) tool.description = `${tool.description} Changed in revision ${c}.`;
  else if (which === 1 && tool.annotations) {
    const { readOnlyHint, openWorldHint, ...rest } = tool.annotations;
    tool.annotations = readOnlyHint === true ? { openWorldHint, ...rest } : { readOnlyHint, ...rest };
  } else {
    tool.inputSchema.properties[`added_${c}`] = { type: 'string', description: `Optional field added in revision ${c}.` };
  }
}

const tools = [];
for (let i = 0; i < N; i++) {
  const tool = generateTool(i, rng(seed * 1_000_003 + i));
  if (changeSeed && (i % changeEvery === changeEvery - 1 || (N < changeEvery && i === N - 1))) applyChange(tool, i, changeSeed);
  tools.push(tool);
}
// Pre-serialized page results; the cursor of page k is an opaque token naming k.
const pages = [];
for (let k = 0; k * pageSize < Math.max(N, 1); k++) {
  const slice = tools.slice(k * pageSize, (k + 1) * pageSize);
  const last = (k + 1) * pageSize >= N;
  pages.push(JSON.stringify({ tools: slice, ...(last ? {} : { nextCursor: Buffer.from(`page:${k + 1}`).toString('base64url') }) }));
}

const SUPPORTED = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const write = (s) => process.stdout.write(s + '\n');
const reply = (id, resultJson) => write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}`);
const fail = (id, code, message) => write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));

function handle(msg) {
  if (msg.id === undefined) return; // notification
  switch (msg.method) {
    case 'initialize': {
      const asked = msg.params?.protocolVersion;
      return reply(
        msg.id,
        JSON.stringify({
          protocolVersion: SUPPORTED.includes(asked) ? asked : SUPPORTED[0],
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: 'toolgate-bench-synthetic', version: `${N}.${seed}.${changeSeed}` },
        }),
      );
    }
    case 'ping':
      return reply(msg.id, '{}');
    case 'tools/list': {
      const cursor = msg.params?.cursor;
      let k = 0;
      if (cursor !== undefined) {
        const m = /^page:(\d+)$/.exec(Buffer.from(String(cursor), 'base64url').toString());
        if (!m || Number(m[1]) >= pages.length) return fail(msg.id, -32602, 'Invalid cursor');
        k = Number(m[1]);
      }
      return reply(msg.id, pages[k]);
    }
    default:
      return fail(msg.id, -32601, 'Method not found');
  }
}

let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buf += chunk;
  for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
    const line = buf.slice(0, nl).trim();
    buf = buf.slice(nl + 1);
    if (!line) continue;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      fail(null, -32700, 'Parse error');
      continue;
    }
    handle(msg);
  }
});
// When stdin ends nothing is left to do and Node exits once stdout has drained.
process.stdin.on('end', () => process.stdin.pause());
