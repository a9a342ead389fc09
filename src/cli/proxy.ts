/**
 * `toolgate proxy`: wires the relay (runtime/proxy.ts) between this process's stdio (the
 * client) and a server started as `check` starts it (sources/mcp.ts). stdout carries only the
 * protocol; everything else goes to stderr or the decision log.
 */
import { resolve } from 'node:path';
import { DEFAULT_LIST_LIMITS, DEFAULT_TIMEOUTS, type McpCommon, type McpHttpConfig, type McpStdioConfig } from '../config/source-config.js';
import type { Policy, RuntimePolicy } from '../config/policy-model.js';
import { DEFAULT_RUNTIME } from '../config/policy-resolve.js';
import { loadPolicy } from '../config/policy-file.js';
import { displayPath } from '../util/display-path.js';
import { typedContainment } from './prepare.js';
import { readContract } from '../contract/store.js';
import { ClientStdio } from '../runtime/client-stdio.js';
import { DecisionLog } from '../runtime/decision-log.js';
import { appendingFile } from '../runtime/log-file.js';
import { runRelay } from '../runtime/relay.js';
import { JUDGED_METHODS, judgedLookAlike } from '../runtime/methods.js';
import { openHttpServer, startStdioServer } from '../sources/mcp-open.js';
import { readySources } from '../sources/select.js';
import { SourceError } from '../sources/source-error.js';
import { escapeTerminalInline } from '../report/escape.js';
import { HintWatch } from '../sources/launch/hints.js';
import { Launcher } from '../sources/launch/index.js';
import { EXIT } from './types.js';
import type { SandboxUse } from '../sources/types.js';
import type { Transport } from '@modelcontextprotocol/client';
import type { Surface } from '../surface/model.js';
import { ConfigError } from '../util/errors.js';
import { runRoot } from './prepare.js';

/** Flags of `toolgate proxy`. */
export interface ProxyFlags {
  config?: string;
  source?: string[];
  contract?: string;
  env?: string[];
  log?: string;
}

interface Resolved {
  id: string;
  cfg: (McpStdioConfig | McpHttpConfig) & McpCommon;
  contract: Surface;
  runtime: RuntimePolicy;
  root: string;
}

/** The source, its contract and the runtime policy, from toolgate.yml or from `--contract FILE -- CMD`. */
async function resolveProxy(flags: ProxyFlags, command: string[], cwd: string, launcher: Launcher): Promise<Resolved> {
  if (command.length > 0) {
    if (flags.contract === undefined)
      throw new ConfigError(
        'a server after -- needs --contract FILE: the contract to enforce',
        undefined,
        'Pass the contract `toolgate update` wrote, e.g. toolgate proxy --contract .toolgate/my-server.surface.json -- node server.js.',
      );
    if (flags.config !== undefined || flags.source !== undefined)
      throw new ConfigError(
        '--config/--source select a source from toolgate.yml, but a server was also given after --',
        undefined,
        'Use either toolgate.yml (--config, --source) or --contract with a server after --.',
      );
    const contract = await loadContract(resolve(cwd, flags.contract), flags.contract);
    const cfg: McpStdioConfig & McpCommon = {
      transport: 'stdio',
      command: command[0] as string,
      args: command.slice(1),
      cwd,
      env: flags.env ?? [],
      capabilities: {},
      timeouts: DEFAULT_TIMEOUTS,
      limits: DEFAULT_LIST_LIMITS,
      containment: typedContainment(command, cwd),
    };
    return { id: contract.source.id, cfg, contract, runtime: DEFAULT_RUNTIME, root: cwd };
  }
  if (flags.contract !== undefined)
    throw new ConfigError(
      '--contract goes with a server after --',
      undefined,
      'Add the server command after -- (e.g. -- node server.js), or use --source ID to take both from toolgate.yml.',
    );
  const policy: Policy = await loadPolicy(flags.config ?? 'toolgate.yml');
  const ids = flags.source ?? [];
  const candidates = policy.sources.filter((s) => s.kind === 'mcp');
  const chosen = ids.length === 1 ? policy.sources.find((s) => s.id === ids[0]) : candidates.length === 1 && ids.length === 0 ? candidates[0] : undefined;
  if (!chosen) {
    throw new ConfigError(
      ids.length > 1
        ? 'proxy serves one source: give one --source'
        : ids.length === 1
          ? `unknown source id "${ids[0]}"`
          : 'toolgate.yml has more than one MCP source (or none): say which with --source ID',
      policy.file ? { file: displayPath(policy.root, policy.file), line: policy.lineOf('/sources') } : undefined,
      `Use one of: ${candidates.map((s) => s.id).join(', ') || '(no mcp source)'}.`,
    );
  }
  if (chosen.kind !== 'mcp') throw new ConfigError(`source "${chosen.id}" is ${chosen.kind}: the proxy serves MCP servers`, undefined, 'Pick an mcp source.');
  validatePassMethods(policy);
  // `sandbox: required` holds here as in check: no server of this policy runs unsandboxed.
  await readySources(policy, [chosen.id], launcher.sandbox);
  const contract = await loadContract(chosen.contract, displayPath(policy.root, chosen.contract));
  if (contract.source.id !== chosen.id)
    throw new ConfigError(
      `the contract ${displayPath(policy.root, chosen.contract)} is for source "${contract.source.id}", not "${chosen.id}"`,
      undefined,
      `Run \`toolgate update --source ${chosen.id}\`.`,
    );
  return { id: chosen.id, cfg: chosen.mcp, contract, runtime: policy.runtime, root: runRoot(policy, cwd) };
}

/** `runtime.pass-methods` names no method the proxy judges itself, in any spelling (runtime/methods.ts). */
function validatePassMethods(policy: Policy): void {
  policy.runtime.passMethods.forEach((m, i) => {
    const judged = JUDGED_METHODS.includes(m) ? m : judgedLookAlike(m);
    if (judged === undefined) return;
    throw new ConfigError(
      `runtime.pass-methods names ${JSON.stringify(m)}, which reads as ${judged}: the proxy judges that method itself and never passes it, in any spelling`,
      policy.file
        ? { file: displayPath(policy.root, policy.file), line: policy.lineOf(`/runtime/pass-methods/${i}`), pointer: `/runtime/pass-methods/${i}` }
        : undefined,
      'Remove the entry: tools/call and tools/list always go through the contract and the runtime policy.',
    );
  });
}

/** The server side of the relay, whichever transport it speaks. */
interface Upstream {
  transport: Transport;
  /** How the command the proxy started runs: in the sandbox, or not and why (none for a plain URL). */
  sandbox?: SandboxUse;
  /** The started command's scratch HOME and error output, for {@link watchContainment}. */
  home?: string;
  stderr?: NodeJS.ReadableStream | null;
  setProtocolVersion?: (v: string) => void;
  /** Why the server side ended, for the log. */
  endReason(): string;
  /** Non-JSON lines the server wrote on stdout (stdio only). */
  noiseLines(): number;
  close(): Promise<void>;
}

/** Starts a stdio server, or opens an HTTP one (running its `start` command), as `check` would. */
async function openUpstream(r: Resolved, launcher: Launcher): Promise<Upstream> {
  if (r.cfg.transport === 'stdio') {
    const s = await startStdioServer(r.cfg, r.root, r.runtime.maxMessageBytes, launcher);
    // The server's stderr is its log: passed on, never parsed.
    s.proc.child.stderr?.on('data', (c: Buffer) => process.stderr.write(c));
    return {
      transport: s.transport,
      ...(s.sandbox ? { sandbox: s.sandbox } : {}),
      home: s.home,
      stderr: s.proc.child.stderr,
      endReason: () => s.transport.failure?.message ?? `the server exited (${JSON.stringify(s.proc.exitInfo ?? {})})`,
      noiseLines: () => s.transport.noiseLines,
      close: () => s.close(),
    };
  }
  const h = await openHttpServer(r.id, r.cfg, r.root, launcher);
  return {
    transport: h.transport,
    ...(h.sandbox ? { sandbox: h.sandbox } : {}),
    ...(h.home ? { home: h.home } : {}),
    stderr: h.proc?.child.stderr ?? null,
    setProtocolVersion: (v) => h.transport.setProtocolVersion(v),
    endReason: () => `the ${h.transport.kind === 'sse' ? 'HTTP+SSE' : 'HTTP'} connection closed`,
    noiseLines: () => 0,
    close: () => h.close(),
  };
}

/**
 * Logs, once per kind, what the server's sandbox kept from it (launch/hints.ts: a write to a
 * read-only place, a file not shown, a blocked registry), as its error output and the errors of
 * its tool calls show it: the server's own `EROFS` then comes with the policy key that allows it.
 * The calls are read beside the relay (its `onmessage` is wrapped, nothing is changed).
 */
function watchContainment(server: Upstream, root: string, log: DecisionLog): void {
  const watch = new HintWatch({ root, ...(server.home ? { home: server.home } : {}) });
  const say = (text: string) => {
    if (!text) return;
    for (const h of watch.feed(text)) log.write({ event: 'upstream', decision: 'hint', reason: `sandbox-${h.key}`, detail: h.text });
  };
  server.stderr?.on('data', (c: Buffer) => say(c.toString('utf8')));
  let handler: Transport['onmessage'];
  Object.defineProperty(server.transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (h: Transport['onmessage']) => {
      handler = h && ((m, extra) => (say(failedCallText(m)), h(m, extra)));
    },
  });
}

/** The text of a tool call's error result (`isError: true`), or ''. */
function failedCallText(m: unknown): string {
  const result = (m as { result?: { isError?: unknown; content?: unknown } }).result;
  if (!result || result.isError !== true || !Array.isArray(result.content)) return '';
  return result.content.map((c: { text?: unknown }) => (typeof c?.text === 'string' ? c.text.slice(0, 4096) : '')).join('\n');
}

async function loadContract(abs: string, shown: string): Promise<Surface> {
  const loaded = await readContract(abs, shown);
  if (!loaded)
    throw new ConfigError(
      `no contract at ${shown}: the proxy admits only what a reviewed contract pins`,
      undefined,
      'Run `toolgate update` and have the contract reviewed and committed first.',
    );
  return loaded.surface;
}

/**
 * The longest a decision-log line waits before it is written (ms): the lines a process killed
 * outright (SIGKILL) can lose; any other exit writes them.
 */
const LOG_BATCH_MS = 100;

/**
 * Runs the proxy until the client closes stdin (exit 0) or the server ends (exit 3).
 * @throws ConfigError (exit 2) before anything starts: no contract, unknown source, HTTP source.
 */
export async function proxy(flags: ProxyFlags, command: string[]): Promise<number> {
  const cwd = process.cwd();
  // The sandbox state of this run: the proxy starts one server.
  const launcher = new Launcher();
  const r = await resolveProxy(flags, command, cwd, launcher);
  let server: Upstream;
  try {
    server = await openUpstream(r, launcher);
  } catch (e) {
    // The server could not be started (not found, refused by the sandbox, exited at once): a
    // source failure, as in check, not an internal error.
    if (!(e instanceof SourceError)) throw e;
    process.stderr.write(`toolgate: proxy: ${escapeTerminalInline(e.message, 2000)}\n`);
    return EXIT.sourceFailed;
  }
  // stderr carries the server's log and ours; a reader that went away (EPIPE) must not end the relay.
  process.stderr.on('error', () => undefined);
  const logOut = flags.log !== undefined ? appendingFile(resolve(cwd, flags.log)) : process.stderr;
  // Deferred and batched: the relay's messages never wait for the log's formatting or its write,
  // and calls made one at a time share a write. What waits is written at any exit.
  const log = new DecisionLog(logOut, r.id, r.runtime.logArguments, { deferred: true, batchMs: LOG_BATCH_MS });
  const flushAtExit = () => log.flush();
  process.on('exit', flushAtExit);
  // As every report of check says it (server-unsandboxed): the decision log says so once.
  if (server.sandbox && !server.sandbox.sandboxed)
    log.write({ event: 'upstream', decision: 'unsandboxed', reason: 'server-unsandboxed', detail: `the server runs unsandboxed: ${server.sandbox.reason}` });
  if (server.sandbox?.sandboxed) watchContainment(server, r.root, log);
  const client = new ClientStdio(process.stdin, process.stdout, {
    maxMessageBytes: r.runtime.maxMessageBytes,
    onRefused: (reason, detail) => log.write({ event: 'request', decision: 'refused', reason, detail }),
  });
  const ended = await runRelay(client, server.transport, {
    contract: r.contract,
    runtime: r.runtime,
    log,
    requestTimeoutMs: r.cfg.timeouts.requestMs,
    listLimits: r.cfg.limits,
    onProtocolVersion: (v) => server.setProtocolVersion?.(v),
  });
  if (ended === 'server') log.write({ event: 'upstream', decision: 'ended', detail: server.endReason() });
  const noise = server.noiseLines();
  if (noise > 0) log.write({ event: 'upstream', decision: 'dropped', reason: 'stdout-noise', detail: `${noise} non-JSON lines on the server's stdout` });
  await server.close();
  log.summary();
  process.off('exit', flushAtExit);
  const lost = log.problem();
  if (lost !== undefined && logOut !== process.stderr) process.stderr.write(`toolgate: proxy: ${escapeTerminalInline(lost, 500)}\n`);
  if (logOut !== process.stderr) await new Promise<void>((res) => (logOut as NodeJS.WritableStream).end(() => res()));
  return ended === 'client' ? 0 : 3;
}
