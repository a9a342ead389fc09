#!/usr/bin/env node
// The floor of any stdio relay: what one more process between an MCP client and its server costs
// before any judging. Spawns the server and relays between this process's stdio and the server's:
//   --mode pipe     bytes piped through as they come (stream.pipe: one more pipe hop each way,
//                   nothing read)
//   --mode pipe-fd  bytes relayed as they come, each chunk written with fs.writeSync on the pipe's
//                   file descriptor (no stream between the read and the write)
//   --mode json     each line parsed with JSON.parse and written again with JSON.stringify, both
//                   ways (what a relay that looks at messages pays at least)
//   --mode json-fd  json, each line written with fs.writeSync on the file descriptor
//   node bench/proxy-floor.mjs --mode json -- <command> [args...]
// The -fd modes write where a stream's write would: a pipe whose reader is behind (EAGAIN: the
// descriptors are non-blocking) gets the rest, and everything after it, through the stream, in
// order. Ends when stdin ends (the server's stdin is closed, then this process exits with the
// server).
import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';

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

/** A write to `stream` made with writeSync on its descriptor while nothing waits in the stream. */
function fdWriter(stream) {
  const fd = stream._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) throw new Error('bench: no file descriptor to write to');
  return (data) => {
    if (stream.writableLength > 0) return void stream.write(data);
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    let at = 0;
    try {
      while (at < bytes.length) at += writeSync(fd, bytes, at);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
      stream.write(bytes.subarray(at));
    }
  };
}

if (mode === 'pipe') {
  process.stdin.pipe(child.stdin);
  child.stdout.pipe(process.stdout);
} else if (mode === 'pipe-fd') {
  const toServer = fdWriter(child.stdin);
  const toClient = fdWriter(process.stdout);
  process.stdin.on('data', toServer);
  child.stdout.on('data', toClient);
} else if (mode === 'json-fd') {
  const toServer = fdWriter(child.stdin);
  const toClient = fdWriter(process.stdout);
  lines(process.stdin, (line) => toServer(`${JSON.stringify(JSON.parse(line))}\n`));
  lines(child.stdout, (line) => toClient(`${JSON.stringify(JSON.parse(line))}\n`));
} else {
  lines(process.stdin, (line) => child.stdin.write(`${JSON.stringify(JSON.parse(line))}\n`));
  lines(child.stdout, (line) => process.stdout.write(`${JSON.stringify(JSON.parse(line))}\n`));
}
