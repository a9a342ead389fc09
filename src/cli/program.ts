import { Command, CommanderError, Option } from 'commander';
import { ConfigError } from '../util/errors.js';
import { VERSION } from '../version.js';
import { mark } from '../util/timing.js';
import { EXIT, FORMAT_VALUES, type Format, type RulesFormat, type SourceFlags } from './types.js';
import { FAIL_ON_VALUES, type FailOn, type Mode } from '../judge/result.js';
import type { PreparedRun } from './prepare.js';

/** `--to` values (kept here so `--help` loads no export code; a test keeps it equal to the targets). */
export const EXPORT_TARGET_IDS = [
  'toolgate',
  'toolhive',
  'toolhive-cedar',
  'agentgateway',
  'agentgateway-k8s',
  'docker',
  'envoy',
  'claude-code',
  'gemini',
  'codex',
] as const;

/** The heavy part of the CLI, loaded when a command needs it (keeps `--help` fast). */
const commands = () => import('./commands.js');

const FORMAT = () => new Option('-f, --format <format>', 'output format (sarif: SARIF 2.1.0 for code scanning)').choices(FORMAT_VALUES).default('text');
const FAIL_ON = () =>
  new Option(
    '--fail-on <level>',
    'lowest finding level that fails (exit 1); never: report only (a failed source or a configuration error still fails)',
  ).choices(FAIL_ON_VALUES);
const RULES_FORMAT = new Option('-f, --format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text');

function addSourceFlags(cmd: Command): Command {
  return cmd
    .option('-c, --config <file>', 'policy file (default: ./toolgate.yml)')
    .option('-s, --source <id...>', 'only these source ids from the policy')
    .option('--tools-json <file>', 'use a saved tools/list result instead of the policy file')
    .option('--openapi <file>', 'use an OpenAPI integration config instead of the policy file')
    .option('--url <url>', 'use the MCP server at this Streamable HTTP (or legacy SSE) URL instead of the policy file')
    .option('-e, --env <name...>', 'environment variable names passed to the server started after --')
    .option('--capabilities <json>', 'client capabilities to declare in initialize, as JSON (default: {})')
    .option('--id <id>', 'source id for a server given on the command line', 'cli');
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

Servers run in a bubblewrap sandbox where it works (Linux; \`apt-get install bubblewrap\`):
loopback only, read-only but for their HOME, a private /tmp and \`writable\` paths. Reports say
how each server ran. docs/security.md.

Examples:
  toolgate init                             write a starter toolgate.yml and workflow for this repository
  toolgate audit -- node server.js          audit a stdio MCP server, no config needed
  toolgate audit --tools-json tools.json    audit a saved tools/list result
  toolgate audit --openapi integrations/app.json
  toolgate update                           pin every source of toolgate.yml into .toolgate/
  toolgate check                            compare live surfaces with the contracts
  toolgate export --to claude-code -o .claude/settings.json   the contract for a gateway or client`,
    );

  addInitCommand(program, setExit);
  addSourceCommands(program, setExit);
  addRuntimeCommands(program, setExit);
  addFileCommands(program, setExit);
  return program;
}

/** `toolgate init`. */
function addInitCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('init')
    .description('look at the repository in the current directory and write a starter toolgate.yml and .github/workflows/toolgate.yml')
    .option('--force', 'replace toolgate.yml, the workflow or a starter integration config that already exists')
    .option('--dry-run', 'print what would be written, write nothing')
    .addHelpText(
      'after',
      `
It looks for MCP servers (package.json or pyproject.toml/requirements.txt depending on an MCP
SDK; servers named in .mcp.json, .cursor/mcp.json, .vscode/mcp.json, claude_desktop_config.json;
package.json dependencies on published servers) and OpenAPI documents (each gets a starter
integration config with an empty \`include\`), one source each. A published server is pinned
to the version the lockfile installs (started from node_modules when its bin is known); a start
nothing pins (npx pkg, pkg@latest, uvx pkg, an image without tag or digest) gets a TODO. Nothing
is run; environment variables are copied by name, never their values. An existing file is never
replaced without --force (exit 2). docs/cli.md, "toolgate init".

Then: npx toolgate update (pin the sources in .toolgate/), review, commit; npx toolgate check.`,
    )
    .action(async function (this: Command) {
      const { init } = await import('./init.js');
      setExit(await init(this.opts<{ force?: boolean; dryRun?: boolean }>()));
    });
}

/**
 * The commands that run sources: `audit`, `check` and `update` (which read the policy and start the
 * first server before the pipeline loads, cli/prepare.ts) and `snapshot`.
 */
function addSourceCommands(program: Command, setExit: (code: number) => void): void {
  const action = (mode: Mode) =>
    async function (this: Command) {
      const opts = this.opts<
        SourceFlags & {
          format: Format;
          list?: boolean;
          exact?: boolean;
          failOn?: FailOn;
          verbose?: boolean;
          export?: string[];
          to?: string[];
          server?: string;
          gateway?: string;
        }
      >();
      requireDashDash(this);
      const { prepareRun } = await import('./prepare.js');
      let prepared: PreparedRun | undefined;
      try {
        prepared = await prepareRun(opts, this.args, process.cwd());
        const pipeline = await commands();
        mark('pipeline loaded');
        setExit(await pipeline.run(mode, opts, prepared.policy, prepared.launcher));
      } finally {
        // A server started early that no snapshot took (the run stopped first) is ended here.
        await prepared?.launcher.discardEarly();
      }
    };

  addSourceFlags(program.command('audit').description("print a source's tool surface, counts and hygiene findings (no contract needed)"))
    .argument('[command...]', 'server command and arguments, after --')
    .addOption(FORMAT())
    .addOption(FAIL_ON())
    .option('--no-list', 'do not list every tool')
    .option('-v, --verbose', 'list every notice (not one line per rule) and, in text, every change')
    .action(action('audit'));

  addSourceFlags(program.command('check').description('snapshot every source and compare it with its committed contract (what the Action does)'))
    .argument('[command...]', 'server command and arguments, after --')
    .addOption(FORMAT())
    .option('--exact', 'release gating: warnings fail too (the same as --fail-on warning)')
    .addOption(FAIL_ON())
    .option('--list', 'list every tool')
    .option('-v, --verbose', 'list every notice (not one line per rule) and, in text, every change')
    .option(
      '--base <ref>',
      "also review the change against a git ref, as on a pull request: that ref's toolgate.yml judges, its contracts are the base (e.g. --base origin/main)",
    )
    .option('--export <file...>', 'also check that this committed export matches the contract (export-stale), besides the exports listed in toolgate.yml')
    .option('--to <target...>', 'the export target of each --export file (one for all, or one each)')
    .option('--server <name>', "with --export: the server's name in the target's configuration (default: the source id)")
    .option('--gateway <name>', 'with --export to envoy: the Gateway the MCPRoute attaches to')
    .action(action('check'));

  addSourceFlags(program.command('update').description('snapshot every source and write its contract atomically (.toolgate/<id>.surface.json)'))
    .argument('[command...]', 'server command and arguments, after --')
    .addOption(FORMAT())
    .option('-v, --verbose', 'list every notice (not one line per rule) and, in text, every change')
    .action(action('update'));

  addSourceFlags(program.command('snapshot').description('write the normalized surface JSON of one source to stdout or a file'))
    .argument('[command...]', 'server command and arguments, after --')
    .option('-o, --output <file>', 'write to this file (atomically) instead of stdout')
    .action(async function (this: Command) {
      requireDashDash(this);
      setExit(await (await commands()).snapshot(this.opts<SourceFlags & { output?: string }>(), this.args));
    });
}

/** The commands that carry the contract to where agents run: `proxy` and `export`. */
function addRuntimeCommands(program: Command, setExit: (code: number) => void): void {
  program
    .command('proxy')
    .description('serve a pinned MCP server to a client: only admitted tools are listed, calls are checked against the contract (stdio)')
    .argument('[command...]', 'server command and arguments, after -- (with --contract)')
    .option('-c, --config <file>', 'policy file (default: ./toolgate.yml)')
    .option('-s, --source <id...>', 'the MCP source of toolgate.yml to serve (needed when it has several)')
    .option('--contract <file>', 'the contract to enforce, for a server given after --')
    .option('-e, --env <name...>', 'environment variable names passed to the server started after --')
    .option('--log <file>', 'append the decision log (JSON lines) to this file instead of stderr')
    .addHelpText(
      'after',
      `
Client configuration (Claude Desktop, Claude Code, VS Code, Cursor: any MCP client that starts a
stdio server):
  { "command": "npx", "args": ["toolgate", "proxy", "--config", "/repo/toolgate.yml", "--source", "github"] }
The client sees only tools the contract pins whose live definition still equals the pinned one and
whose class \`runtime.allow\` admits; calls to anything else, or with arguments the pinned
inputSchema rejects or does not declare, are refused without reaching the server. A method no MCP
version has is refused unless runtime.pass-methods names it. MCP Inspector CLI: pass the policy file
as -c (the Inspector takes --config for itself). docs/proxy.md.`,
    )
    .action(async function (this: Command) {
      requireDashDash(this);
      const { proxy } = await import('./proxy.js');
      setExit(await proxy(this.opts<{ config?: string; source?: string[]; contract?: string; env?: string[]; log?: string }>(), this.args));
    });

  program
    .command('export')
    .description(
      "write a contract's admitted tools for a gateway or client (ToolHive, agentgateway, Docker MCP Gateway, Envoy AI Gateway, Claude Code, Gemini CLI, Codex, toolgate proxy)",
    )
    .option('-c, --config <file>', 'policy file (default: ./toolgate.yml)')
    .option('--to <target>', `target format: ${EXPORT_TARGET_IDS.join(', ')} (without it: every entry of \`exports:\` in toolgate.yml)`)
    .option('-s, --source <id...>', 'the source whose contract to export (needed when toolgate.yml has several)')
    .option('-o, --output <file>', 'write to this file inside the repository (a settings file is edited in place), not to stdout')
    .option('--server <name>', "the server's name in the target's configuration (default: the source id)")
    .option('--gateway <name>', 'envoy: the Gateway the MCPRoute attaches to (default envoy-ai-gateway)')
    .addHelpText(
      'after',
      `
Examples:
  toolgate export --to toolhive-cedar -o deploy/toolhive/fs.authz.yaml
  toolgate export --to claude-code -o .claude/settings.json      edits only this server's rules
  toolgate export                                                writes every \`exports:\` entry
Each export says, in its header (or a sibling .toolgate.md note), what the target cannot enforce.
\`toolgate check\` fails (export-stale) while a listed export no longer matches its contract.
docs/exports.md.`,
    )
    .action(async function (this: Command) {
      const { runExport } = await import('./export.js');
      setExit(await runExport(this.opts()));
    });
}

/** The commands on files alone: `diff` of two surfaces, `rules` (the catalog). */
function addFileCommands(program: Command, setExit: (code: number) => void): void {
  program
    .command('diff')
    .description('compare two saved surfaces or contracts (base, head): changes and findings')
    .argument('<base>', 'base surface file')
    .argument('<head>', 'head surface file')
    .addOption(FORMAT())
    .option('-v, --verbose', 'list every notice (not one line per rule) and, in text, every change')
    .action(async function (this: Command, baseFile: string, headFile: string) {
      const o = this.opts<{ format: Format; verbose?: boolean }>();
      setExit(await (await commands()).diff(baseFile, headFile, o.format, o.verbose === true));
    });

  program
    .command('rules')
    .description('print the rule catalog')
    .addOption(RULES_FORMAT)
    .action(async function (this: Command) {
      const { renderRules } = await import('../report/rules.js');
      process.stdout.write(renderRules(this.opts<{ format: RulesFormat }>().format));
      setExit(EXIT.clean);
    });
}

/**
 * A server command is only taken after `--`: `toolgate check a` (a forgotten `-s`) must not start
 * a program named `a`.
 */
function requireDashDash(cmd: Command): void {
  // rawArgs is public in commander but missing from its typings.
  const raw = (cmd.parent as unknown as { rawArgs?: string[] } | null)?.rawArgs ?? [];
  if (cmd.args.length > 0 && !raw.includes('--')) {
    throw new ConfigError(
      `unexpected argument ${JSON.stringify(cmd.args[0])}`,
      undefined,
      `Put a server command after -- (e.g. toolgate ${cmd.name()} -- node server.js); to select a source from toolgate.yml, use --source ID.`,
    );
  }
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
      (await import('./config-error-output.js')).writeConfigError(e);
      return EXIT.usage;
    }
    process.stderr.write(`toolgate: internal error: ${(e as Error)?.stack ?? String(e)}\nPlease report this with the command you ran.\n`);
    return EXIT.usage;
  }
}
