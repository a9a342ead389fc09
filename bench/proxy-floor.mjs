#!/usr/bin/env node
// The floor of any stdio relay: what one more process between an MCP client and its server costs
// before any judging. Spawns the server and relays between this process's stdio and the server's:
//   --mode pipe  bytes piped through as they come (one more pipe hop each way, nothing read)
//   --mode json  each line parsed with JSON.parse and written again with JSON.stringify, both ways
//                (what a relay that looks at messages pays at least)
//   node bench/proxy-floor.mjs --mode json -- <command> [args...]
// Ends when stdin ends (the server's stdin is closed, then this process exits with the server).
import { spawn } from 'node:child_process';

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const mode = argv[argv.indexOf('--mode') + 1] ?? 'json';
const command = argv.slice(dash + 1);
const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
child.on('exit', (code) => process.exit(code ?? 0));
process.stdin.on('end', () => child.stdin.end());

/** Calls `onLine` with every complete line of `input` (without its newline). */
function lines(input, onLine) {
  let rest = '';
  input.setEncoding('utf8');
  input.on('data', (chunk) => {
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', from)) {
      onLine(rest + chunk.slice(from, nl));
      rest = '';
      from = nl + 1;
    }
    rest += chunk.slice(from);
  });
}

if (mode === 'pipe') {
  process.stdin.pipe(child.stdin);
  child.stdout.pipe(process.stdout);
} else {
  lines(process.stdin, (line) => child.stdin.write(`${JSON.stringify(JSON.parse(line))}\n`));
  lines(child.stdout, (line) => process.stdout.write(`${JSON.stringify(JSON.parse(line))}\n`));
}
