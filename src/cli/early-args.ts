/**
 * Reads `audit`, `check` and `update` command lines without commander, so the CLI can read the
 * policy and start the first server before commander builds the program and parses (docs/design.md §13),
 * and show a configuration error found then without it.
 *
 * It only recognizes plain command lines and answers undefined for anything else (help, version,
 * an unknown or abbreviated option, `--opt=value`, bundled short flags, an argument before `--`,
 * a value commander would refuse), which then runs exactly as before: a command line it
 * recognizes is one commander accepts. It decides nothing: commander still parses every command
 * line, and what it started early is only used when commander's reading gives the same
 * {@link runKey} (cli/prepare.ts); otherwise it is ended. A test keeps {@link OPTIONS} equal to
 * the options program.ts declares.
 * @module
 */
import { FAIL_ON_VALUES } from '../judge/result.js';
import { FORMAT_VALUES, type SourceFlags } from './types.js';

/** How an option takes its value, as commander reads it. */
type Arity = 'none' | 'one' | 'many';

/** One option of a source command: its flags and arity, the `opts()` key commander gives it, and the values it allows (all when absent). */
interface OptionShape {
  flags: readonly string[];
  key: string;
  arity: Arity;
  choices?: readonly string[];
}

const opt = (key: string, arity: Arity, ...flags: string[]): OptionShape => ({ key, arity, flags });

/** The options every source command takes (program.ts `addSourceFlags`). */
const SOURCE_OPTIONS: readonly OptionShape[] = [
  opt('config', 'one', '-c', '--config'),
  opt('source', 'many', '-s', '--source'),
  opt('toolsJson', 'one', '--tools-json'),
  opt('openapi', 'one', '--openapi'),
  opt('url', 'one', '--url'),
  opt('env', 'many', '-e', '--env'),
  opt('capabilities', 'one', '--capabilities'),
  opt('id', 'one', '--id'),
];
const FORMAT: OptionShape = { ...opt('format', 'one', '-f', '--format'), choices: FORMAT_VALUES };
const FAIL_ON: OptionShape = { ...opt('failOn', 'one', '--fail-on'), choices: FAIL_ON_VALUES };
const VERBOSE = opt('verbose', 'none', '-v', '--verbose');

/** Each command's options as program.ts declares them (a test compares the two). */
export const OPTIONS: Readonly<Record<'audit' | 'check' | 'update', readonly OptionShape[]>> = {
  audit: [...SOURCE_OPTIONS, FORMAT, FAIL_ON, opt('list', 'none', '--no-list'), VERBOSE],
  check: [
    ...SOURCE_OPTIONS,
    FORMAT,
    opt('exact', 'none', '--exact'),
    FAIL_ON,
    opt('list', 'none', '--list'),
    VERBOSE,
    opt('base', 'one', '--base'),
    opt('export', 'many', '--export'),
    opt('to', 'many', '--to'),
    opt('server', 'one', '--server'),
    opt('gateway', 'one', '--gateway'),
  ],
  update: [...SOURCE_OPTIONS, FORMAT, VERBOSE],
};

/** What cli/prepare.ts needs of a source command: the flags that choose and contain sources, and the server command after `--`. */
export interface EarlyRun {
  flags: SourceFlags & { base?: string };
  command: string[];
}

/**
 * The source command `args` (argv without node and the script) plainly is, or undefined.
 * Values are taken as commander takes them: one token for a single value, every following token
 * that does not start with `-` for a variadic one, repeats appended; `--id` defaults to `cli`.
 */
export function earlyRun(args: readonly string[]): EarlyRun | undefined {
  const name = args[0];
  if (name !== 'audit' && name !== 'check' && name !== 'update') return undefined;
  const options = OPTIONS[name];
  const values: Record<string, string | string[] | true> = {};
  for (let i = 1; i < args.length; i++) {
    const token = args[i]!;
    if (token === '--') return { flags: flagsOf(values), command: args.slice(i + 1) };
    const shape = options.find((o) => o.flags.includes(token));
    if (!shape) return undefined;
    if (shape.arity === 'none') {
      values[shape.key] = true;
      continue;
    }
    const taken: string[] = [];
    while (args[i + 1] !== undefined && !args[i + 1]!.startsWith('-') && (shape.arity === 'many' || taken.length === 0)) taken.push(args[++i]!);
    // Commander refuses a missing value or one it does not allow (a usage error): left to it.
    if (taken.length === 0 || (shape.choices && !taken.every((v) => shape.choices!.includes(v)))) return undefined;
    const before = values[shape.key];
    values[shape.key] = shape.arity === 'one' ? taken[0]! : [...(Array.isArray(before) ? before : []), ...taken];
  }
  return { flags: flagsOf(values), command: [] };
}

function flagsOf(values: Record<string, string | string[] | true>): EarlyRun['flags'] {
  const one = (k: string) => (typeof values[k] === 'string' ? values[k] : undefined);
  const many = (k: string) => (Array.isArray(values[k]) ? values[k] : undefined);
  return {
    config: one('config'),
    source: many('source'),
    toolsJson: one('toolsJson'),
    openapi: one('openapi'),
    url: one('url'),
    env: many('env'),
    capabilities: one('capabilities'),
    id: one('id') ?? 'cli',
    base: one('base'),
  };
}

/**
 * What identifies a prepared run: every flag {@link EarlyRun} carries, the server command and
 * the working directory. Two readings of a command line with the same key prepare the same run.
 */
export function runKey(flags: EarlyRun['flags'], command: readonly string[], cwd: string): string {
  const f = flags;
  return JSON.stringify([f.config, f.source, f.toolsJson, f.openapi, f.url, f.env, f.capabilities, f.id, f.base, command, cwd]);
}
