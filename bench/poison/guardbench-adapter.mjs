#!/usr/bin/env node
// toolgate's adapter for getmcpm/mcp-guardbench (its stdio contract, adapters/README.md there):
// one case a line on stdin, {"id", "message"}; one verdict a line on stdout, {"id", "action"}.
//
//   node runner/run.mjs --adapter "node <toolgate>/bench/poison/guardbench-adapter.mjs" --name toolgate@0.1.0
//   (in a guardbench checkout), or node bench/poison/guardbench.mjs here, which scores the same way.
//
// It drives the built CLI, the artifact users run: for a tools/list or initialize result it writes
// a recorded surface ({"tools": [...], "instructions": "..."}) and runs
// `node dist/cli.js audit --tools-json FILE --format json`. Any `suspicious-text` finding is a
// verdict: `warn` at its default level (warning), `block` if a policy raised it to error. Every
// other carrier (tool responses, tools/call arguments, prompts, resources, sampling) is outside
// what toolgate reads (the tools and instructions a server offers): `unsupported`, never `pass`.
// A run that fails, or a report that does not cover every tool sent, is `error`, never `pass`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CLI = process.env.TOOLGATE_CLI ?? join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'dist', 'cli.js');
const emit = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);

/** The recorded surface a frame is, or undefined when toolgate reads no such carrier. */
export function recordingOf(message) {
  const r = message?.result;
  if (r === null || typeof r !== 'object') return undefined;
  if (Array.isArray(r.tools)) return { tools: r.tools };
  // An initialize result (protocolVersion is its discriminator): its instructions, no tools.
  if (typeof r.protocolVersion === 'string') return { tools: [], ...(typeof r.instructions === 'string' ? { instructions: r.instructions } : {}) };
  return undefined;
}

/** The verdict of one audit report for a recording of `tools` tools. */
export function verdictOf(report, tools) {
  const source = report?.sources?.[0];
  if (!source || source.failure) return { action: 'error', error: `audit failed: ${source?.failure?.message ?? 'no source in the report'}` };
  if (source.toolCount !== tools) return { action: 'error', error: `audited ${source.toolCount} tools, sent ${tools}` };
  const hits = (report.findings ?? []).filter((f) => f.ruleId === 'suspicious-text');
  if (hits.some((f) => f.level === 'error')) return { action: 'block', signature_id: 'suspicious-text' };
  return hits.length ? { action: 'warn', signature_id: 'suspicious-text' } : { action: 'pass' };
}

function audit(recording) {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-guardbench-'));
  try {
    const file = join(dir, 'recording.json');
    writeFileSync(file, JSON.stringify(recording));
    const run = spawnSync(process.execPath, [CLI, 'audit', '--tools-json', file, '--format', 'json', '--fail-on', 'never', '--no-list'], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      env: { ...process.env, NO_COLOR: '1' },
    });
    if (run.status !== 0) return { action: 'error', error: `toolgate audit exited ${run.status}: ${(run.stderr ?? '').trim().split('\n').slice(-1)[0]}` };
    try {
      return verdictOf(JSON.parse(run.stdout), recording.tools.length);
    } catch (e) {
      return { action: 'error', error: `unreadable report: ${e.message}` };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    let kase;
    try {
      kase = JSON.parse(line);
    } catch {
      continue;
    }
    const recording = recordingOf(kase.message);
    if (!recording) {
      emit({
        id: kase.id,
        action: 'unsupported',
        error: 'toolgate reads the tools and instructions a server offers (tools/list, initialize), not this carrier',
      });
      continue;
    }
    emit({ id: kase.id, ...audit(recording) });
  }
}
