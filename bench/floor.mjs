#!/usr/bin/env node
// The floor: what any MCP client pays to spawn a stdio server, initialize, list every tool and
// close. Nothing else: no policy, no contract, no report.
//
//   node bench/floor.mjs [--sdk v2|v1] [--timing] -- <command> [args...]
//
// --sdk v2 (default): @modelcontextprotocol/client 2.x (the line toolgate uses), Client +
//   StdioClientTransport, plain `initialize` (no version probe), client.listTools() following
//   nextCursor (the SDK validates every page with Zod), client.close() (the SDK's graceful
//   close: end stdin, wait for the child to exit).
// --sdk v1: @modelcontextprotocol/sdk 1.x, the same steps, for reference.
// --timing: phase marks (ms since process start) as one JSON line on stderr:
//   floor-timing {"modules loaded":..,"spawned+initialized":..,"tools listed":..,"closed":..}
// Prints the tool count on stdout.
const t = {};
const mark = (name) => (t[name] = Math.round(performance.now() * 10) / 10);

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const opts = dash >= 0 ? argv.slice(0, dash) : argv;
const command = dash >= 0 ? argv.slice(dash + 1) : [];
const sdkAt = opts.indexOf('--sdk');
const sdk = sdkAt >= 0 ? opts[sdkAt + 1] : 'v2';
const timing = opts.includes('--timing');
if (command.length === 0) {
  process.stderr.write('usage: node bench/floor.mjs [--sdk v2|v1] [--timing] -- <command> [args...]\n');
  process.exit(2);
}

let Client, StdioClientTransport;
if (sdk === 'v1') {
  ({ Client } = await import('@modelcontextprotocol/sdk/client/index.js'));
  ({ StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js'));
} else {
  ({ Client } = await import('@modelcontextprotocol/client'));
  ({ StdioClientTransport } = await import('@modelcontextprotocol/client/stdio'));
}
mark('modules loaded');

const client = new Client({ name: 'floor', version: '0.0.0' }, { capabilities: {} });
const transport = new StdioClientTransport({ command: command[0], args: command.slice(1), stderr: 'ignore' });
await client.connect(transport);
mark('spawned+initialized');

let count = 0;
let cursor;
do {
  const page = await client.listTools(cursor === undefined ? {} : { cursor });
  count += page.tools.length;
  cursor = page.nextCursor;
} while (cursor !== undefined);
mark('tools listed');

await client.close();
mark('closed');
process.stdout.write(`${count}\n`);
if (timing)
  process.on('exit', () => {
    mark('exit');
    process.stderr.write(`floor-timing ${JSON.stringify(t)}\n`);
  });
