import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { adHocPolicy, defaultContractPath, loadPolicy, type Policy } from './config/policy.js';
import { DEFAULT_LIST_LIMITS, DEFAULT_TIMEOUTS, type SourceConfig } from './config/source-config.js';
import { parseContract } from './contract/store.js';
import { serializeContract } from './contract/serialize.js';
import { runCheck, type CheckResult, type Mode } from './run-check.js';
import { runDiff } from './run-diff.js';
import { renderJson } from './report/json.js';
import { renderSummary } from './report/summary.js';
import { renderTerminal } from './report/terminal.js';
import { renderRules } from './report/rules.js';
import { writeFileAtomic } from './contract/store.js';
import { ConfigError } from './util/errors.js';
import { stderrLogger } from './util/logger.js';
import { VERSION } from './version.js';
import { mark } from './util/timing.js';
import type { JsonObject } from './surface/model.js';

/** Exit codes (DESIGN §7). */
export const EXIT = { clean: 0, findings: 1, usage: 2, sourceFailed: 3 } as const;

type Format = 'text' | 'json' | 'markdown';

interface SourceFlags {
  config?: string;
  source?: string[];
  toolsJson?: string;
  openapi?: string;
  url?: string;
  env?: string[];
  capabilities?: string;
  id?: string;
}

const FORMAT = new Option('-f, --format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text');

function addSourceFlags(cmd: Command): Command {
  return cmd
    .option('-c, --config <file>', 'policy file (default: ./toolgate.yml)')
    .option('-s, --source <id...>', 'only these source ids from the policy')
    .option('--tools-json <file>', 'audit a saved tools/list result instead of a policy source')
    .option('--openapi <file>', 'audit an OpenAPI integration config instead of a policy source')
    .option('--url <url>', 'audit an MCP server over Streamable HTTP (or legacy SSE) at this URL')
    .option('-e, --env <name...>', 'environment variable names passed to the server started after --')
    .option('--capabilities <json>', 'client capabilities to declare in initialize, as JSON (default: {})')
    .option('--id <id>', 'source id for a server given on the command line', 'cli');
}

function parseCapabilities(text: string | undefined): JsonObject {
  if (text === undefined) return {};
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as JsonObject;
  } catch {
    /* reported below */
  }
  throw new ConfigError('--capabilities is not a JSON object', undefined, `Pass e.g. --capabilities '{"roots":{},"sampling":{}}'.`);
}

/** Builds the policy from flags: an ad-hoc source (after `--`, --tools-json, --openapi, --url) or toolgate.yml. */
async function policyFrom(flags: SourceFlags, command: string[], cwd: string): Promise<Policy> {
  const id = flags.id ?? 'cli';
  const contract = resolve(cwd, defaultContractPath(id));
  const adhoc: SourceConfig[] = [];
  const common = { capabilities: parseCapabilities(flags.capabilities), timeouts: DEFAULT_TIMEOUTS, limits: DEFAULT_LIST_LIMITS };
  if (command.length > 0) {
    adhoc.push({ id, kind: 'mcp', contract, mcp: { transport: 'stdio', command: command[0] as string, args: command.slice(1), cwd, env: flags.env ?? [], ...common } });
  }
  if (flags.url) adhoc.push({ id, kind: 'mcp', contract, mcp: { transport: 'http', url: flags.url, headers: [], ...common } });
  if (flags.toolsJson) adhoc.push({ id, kind: 'recorded', file: resolve(cwd, flags.toolsJson), contract });
  if (flags.openapi) adhoc.push({ id: flags.id === 'cli' || !flags.id ? openApiId(flags.openapi) : flags.id, kind: 'openapi', integration: resolve(cwd, flags.openapi), contract });
  if (adhoc.length > 1) throw new ConfigError('give one source: a command after --, --url, --tools-json or --openapi', undefined, 'Pick one of them, or list several sources in toolgate.yml.');
  if (adhoc[0]) return adHocPolicy(adhoc[0], cwd);
  const file = flags.config ?? (existsSync(resolve(cwd, 'toolgate.yaml')) && !existsSync(resolve(cwd, 'toolgate.yml')) ? 'toolgate.yaml' : 'toolgate.yml');
  return loadPolicy(file);
}

function openApiId(file: string): string {
  // The integration config's own `id` wins inside the loader; this is only the fallback.
  return basename(file).replace(/\.[^.]+$/, '').toLowerCase().replace(/[^a-z0-9._-]/g, '-') || 'openapi';
}

function render(result: CheckResult, format: Format, listTools: boolean): string {
  if (format === 'json') return renderJson(result, VERSION);
  if (format === 'markdown') return renderSummary(result) + '\n';
  const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  return renderTerminal(result, { color, listTools });
}

async function run(mode: Mode, flags: SourceFlags & { format: Format; list?: boolean; exact?: boolean }, command: string[]): Promise<number> {
  const cwd = process.cwd();
  const policy = await policyFrom(flags, command, cwd);
  mark('policy loaded');
  const result = await runCheck({ policy, mode, root: cwd, logger: stderrLogger(flags.format !== 'text'), ...(flags.source ? { sourceIds: flags.source } : {}), ...(flags.exact ? { exact: true } : {}) });
  process.stdout.write(render(result, flags.format, flags.list ?? mode === 'audit'));
  mark('report written');
  if (mode === 'update') {
    for (const r of result.sources) {
      if (r.failure) process.stderr.write(`toolgate: source "${r.id}" failed; its contract ${r.contractFile} was not touched\n`);
      else process.stderr.write(`toolgate: ${r.wrote ? 'wrote' : 'unchanged'} ${r.contractFile} (${r.surface?.counts.toolCount ?? 0} tools, sha256:${r.surface?.digest.slice(0, 12)})\n`);
    }
    return result.exitCode === 3 ? EXIT.sourceFailed : EXIT.clean;
  }
  return result.exitCode;
}

/** Builds the commander program; `argv` parsing and exit codes live in {@link main}. */
export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('toolgate')
    .description('Pin the tool surface LLM agents can reach (MCP servers, OpenAPI integrations) and fail CI on unreviewed changes.')
    .version(VERSION, '-V, --version')
    // Before any subcommand is added: commands copy these settings when they are created.
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s), writeOut: (s) => process.stdout.write(s) })
    .showHelpAfterError()
    .addHelpText(
      'after',
      `
Exit codes: 0 clean, 1 error-level findings, 2 usage or config error, 3 a source failed.

Examples:
  toolgate audit -- node server.js          audit a stdio MCP server, no config needed
  toolgate audit --tools-json tools.json    audit a saved tools/list result
  toolgate audit --openapi integrations/app.json
  toolgate update                           pin every source of toolgate.yml into .toolgate/
  toolgate check                            compare live surfaces with the contracts`,
    );

  const action = (mode: Mode) =>
    async function (this: Command) {
      const opts = this.opts<SourceFlags & { format: Format; list?: boolean; exact?: boolean }>();
      setExit(await run(mode, opts, this.args));
    };

  addSourceFlags(program.command('audit').description("print a source's tool surface, counts and hygiene findings (no contract needed)"))
    .argument('[command...]', 'server command and arguments, after --')
    .addOption(FORMAT)
    .option('--no-list', 'do not list every tool')
    .action(action('audit'));

  addSourceFlags(program.command('check').description('snapshot every source and compare it with its committed contract (what the Action does)'))
    .argument('[command...]', 'server command and arguments, after --')
    .addOption(FORMAT)
    .option('--exact', 'release gating: warnings fail too')
    .option('--list', 'list every tool')
    .action(action('check'));

  addSourceFlags(program.command('update').description('snapshot every source and write its contract atomically (.toolgate/<id>.surface.json)'))
    .argument('[command...]', 'server command and arguments, after --')
    .addOption(FORMAT)
    .action(action('update'));

  addSourceFlags(program.command('snapshot').description('write the normalized surface JSON of one source to stdout or a file'))
    .argument('[command...]', 'server command and arguments, after --')
    .option('-o, --output <file>', 'write to this file (atomically) instead of stdout')
    .action(async function (this: Command) {
      const flags = this.opts<SourceFlags & { output?: string }>();
      const cwd = process.cwd();
      const policy = await policyFrom(flags, this.args, cwd);
      const result = await runCheck({ policy, mode: 'audit', root: cwd, logger: stderrLogger(true), ...(flags.source ? { sourceIds: flags.source } : {}) });
      const ok = result.sources.filter((r) => r.surface);
      for (const r of result.sources) if (r.failure) process.stderr.write(`toolgate: source "${r.id}" failed: ${r.failure.message}\n`);
      if (ok.length !== 1) {
        if (result.exitCode === 3) return setExit(EXIT.sourceFailed);
        throw new ConfigError(`snapshot writes one source; ${ok.length} were selected`, undefined, 'Select one with --source ID.');
      }
      const text = serializeContract(ok[0]!.surface!).text;
      if (flags.output) await writeFileAtomic(resolve(cwd, flags.output), text);
      else process.stdout.write(text);
      setExit(EXIT.clean);
    });

  program
    .command('diff')
    .description('compare two saved surfaces or contracts (base, head): changes and findings')
    .argument('<base>', 'base surface file')
    .argument('<head>', 'head surface file')
    .addOption(FORMAT)
    .action(async function (this: Command, baseFile: string, headFile: string) {
      const { format } = this.opts<{ format: Format }>();
      const cwd = process.cwd();
      const read = async (f: string) => parseContract(await readFile(resolve(cwd, f), 'utf8').catch(() => {
        throw new ConfigError('file not found', { file: f }, 'Pass two files written by `toolgate snapshot -o` or `toolgate update`.');
      }), f);
      const result = await runDiff(await read(baseFile), await read(headFile), cwd);
      process.stdout.write(render(result, format, false));
      setExit(result.exitCode);
    });

  program
    .command('rules')
    .description('print the rule catalog')
    .addOption(FORMAT)
    .action(function (this: Command) {
      process.stdout.write(renderRules(this.opts<{ format: Format }>().format));
      setExit(EXIT.clean);
    });

  return program;
}

/** CLI entry: parses argv, runs, maps errors to exit codes. Never throws. */
export async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.clean;
  const program = buildProgram((c) => (code = c));
  try {
    await program.parseAsync(argv);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version exit 0; every parse error is a usage error.
      return e.exitCode === 0 ? EXIT.clean : EXIT.usage;
    }
    if (e instanceof ConfigError) {
      process.stderr.write(`toolgate: error: ${e.describe()}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`toolgate: internal error: ${(e as Error)?.stack ?? String(e)}\nPlease report this with the command you ran.\n`);
    return EXIT.usage;
  }
}
