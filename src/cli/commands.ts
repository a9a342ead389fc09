import { dirname, isAbsolute, resolve } from 'node:path';
import type { Policy } from '../config/policy-model.js';
import { policyInputs } from '../config/policy.js';
import { FILE_LIMITS, readBounded, resolveInside } from '../util/safe-path.js';
import { parseContract, writeFileAtomic } from '../contract/store.js';
import { serializeContractInSlices } from '../contract/serialize.js';
import type { Surface } from '../surface/model.js';
import type { Launcher } from '../sources/launch/index.js';
import { checkRunOptions, runCheck, unpinnableMessage } from '../run-check.js';
import type { CheckResult, FailOn, Mode } from '../judge/result.js';
import { selectSources } from '../sources/select.js';
import { policyFrom, runRoot } from './prepare.js';
import { escapeTerminalInline, guardLogOutput } from '../report/escape.js';
import { runDiff } from '../run-diff.js';
import { renderJson } from '../report/json.js';
import { renderSummary } from '../report/summary.js';
import { renderTerminal } from '../report/terminal.js';
import { ConfigError } from '../util/errors.js';
import { stderrLogger } from '../util/logger.js';
import { VERSION } from '../version.js';
import { mark } from '../util/timing.js';
import { EXIT, type Format, type SourceFlags } from './types.js';
import { resolveRef } from '../github/base-contract.js';
import { gitBaseReader } from '../github/base-files.js';
import { readBaseState, type BaseState } from '../review/base-state.js';
import { entryFrom, pairExports } from '../export/entries.js';

// The CLI's commands that touch sources, contracts and reports. `cli.ts` loads this module only
// when such a command runs, so `--help`, `--version` and `rules` start without the MCP SDK,
// YAML, Ajv and the OpenAPI parser; and `audit`/`check`/`update` load it after prepare.ts
// has read the policy and started the first server, so that it loads while the server boots.

const isJson = (f: Format): 'json' | 'text' => (f === 'json' || f === 'sarif' ? 'json' : 'text');

async function render(result: CheckResult, format: Format, listTools: boolean, verbose = false, changes = false): Promise<string> {
  if (format === 'json') return renderJson(result, VERSION);
  if (format === 'sarif') {
    const [{ buildSarifLog }, { RULES }] = await Promise.all([import('../report/sarif.js'), import('../rules/catalog.js')]);
    return JSON.stringify(buildSarifLog(result.findings, RULES, { version: VERSION }), null, 2) + '\n';
  }
  // What the PR comment holds, so it fits GitHub's 65,536 characters too.
  if (format === 'markdown') return renderSummary(result, { verbose });
  const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  // A terminal's own width; a pipe or a file gets the default (the same report everywhere).
  const width = process.stdout.isTTY && process.stdout.columns >= 40 ? process.stdout.columns : undefined;
  return renderTerminal(result, { color, listTools, verbose, changes, ...(width ? { width } : {}) });
}

/**
 * audit | check | update: runs the pipeline on the policy `prepareRun` (prepare.ts) read (which may have
 * started the first server already) and prints the report; returns the exit code.
 */
export async function run(
  mode: Mode,
  flags: SourceFlags & {
    format: Format;
    list?: boolean;
    exact?: boolean;
    failOn?: FailOn;
    base?: string;
    verbose?: boolean;
    export?: string[];
    to?: string[];
    server?: string;
    gateway?: string;
  },
  policy: Policy,
  launcher: Launcher,
): Promise<number> {
  const cwd = process.cwd();
  if ((flags.server !== undefined || flags.gateway !== undefined) && !flags.export?.length)
    throw new ConfigError(
      '--server and --gateway go with --export FILE',
      undefined,
      'Add --export FILE --to TARGET, or set them on the entry in toolgate.yml (`exports:`).',
    );
  const extra = pairExports(flags.export ?? [], flags.to ?? []).map((p) =>
    entryFrom(policy, cwd, {
      ...p,
      ...(flags.source?.length === 1 ? { source: flags.source[0] } : {}),
      ...(flags.server !== undefined ? { server: flags.server } : {}),
      ...(flags.gateway !== undefined ? { gateway: flags.gateway } : {}),
    }),
  );
  const root = runRoot(policy, cwd);
  const base = flags.base !== undefined ? await readBaseAt(policy, root, flags.base) : undefined;
  const result = await runCheck(
    checkRunOptions({
      ...(launcher ? { launcher } : {}),
      policy,
      mode,
      root,
      logger: stderrLogger(flags.format !== 'text'),
      ...(flags.source ? { sourceIds: flags.source } : {}),
      exact: flags.exact === true,
      ...(flags.failOn ? { failOn: flags.failOn } : {}),
      ...(base ? { base } : {}),
      extraExports: extra,
    }),
  );
  process.stdout.write(guardLogOutput(await render(result, flags.format, flags.list ?? mode === 'audit', flags.verbose === true), isJson(flags.format)));
  mark('report written');
  if (mode === 'update') {
    for (const r of result.sources) {
      if (r.failure)
        process.stderr.write(
          `toolgate: source "${r.id}" failed: ${escapeTerminalInline(r.failure.message, 1000)}; its contract ${r.contractFile} was not touched\n`,
        );
      else {
        process.stderr.write(
          `toolgate: ${r.wrote ? 'wrote' : 'unchanged'} ${r.contractFile} (${r.surface?.counts.toolCount ?? 0} tools, sha256:${r.surface?.digest.slice(0, 12)}${r.tokens ? `, ${r.tokens.perTurn.toLocaleString('en-US')} tokens per turn` : ''})\n`,
        );
        if (r.malformed.length) process.stderr.write(`toolgate: ${malformedNote(r.malformed.length, r.surface?.tools.length ?? 0)}\n`);
      }
    }
    // The exports are made from the contracts just written: say so, `check` would fail on them.
    if (policy.exports.length && result.sources.some((r) => r.wrote))
      process.stderr.write(
        `toolgate: toolgate.yml lists ${policy.exports.length} export${policy.exports.length === 1 ? '' : 's'}: run \`toolgate export\` to write them from the new contract\n`,
      );
    return result.exitCode === 3 ? EXIT.sourceFailed : EXIT.clean;
  }
  return result.exitCode;
}

/**
 * `check --base REF`: the change review a pull request into REF would get (docs/design.md §7), read with
 * git: REF's policy judges, REF's contracts are the base. There is no review to find, so every
 * widening change is an error that says it needs an approval.
 */
async function readBaseAt(policy: Policy, root: string, ref: string): Promise<BaseState> {
  if (!policy.file)
    throw new ConfigError(
      '--base compares with the policy and contracts at a git ref, so it needs toolgate.yml',
      undefined,
      'Run it in a repository with toolgate.yml, without a source on the command line.',
    );
  const sha = await resolveRef(root, ref);
  return readBaseState(policy, root, gitBaseReader(root, sha), ref);
}

/** The line `snapshot` and `update` print when a listing holds malformed tools (all pinned as served). */
function malformedNote(malformed: number, pinned: number): string {
  return `${malformed} of the ${pinned} tools pinned ${malformed === 1 ? 'is' : 'are'} malformed (not the shape of an MCP tool): pinned as served and judged; strict clients drop ${malformed === 1 ? 'it' : 'them'}, lenient ones still offer ${malformed === 1 ? 'it' : 'them'} (rule malformed-tool)`;
}

/** `toolgate snapshot`: the normalized surface of one source to stdout or a file. */
export async function snapshot(flags: SourceFlags & { output?: string }, command: string[]): Promise<number> {
  const cwd = process.cwd();
  const policy = await policyFrom(flags, command, cwd);
  // One source, decided before any server starts: a partial result must never look like success.
  const selected = selectSources(policy, flags.source);
  if (selected.length !== 1) {
    throw new ConfigError(
      `snapshot writes one source; ${selected.length} were selected (${selected.map((s) => s.id).join(', ')})`,
      undefined,
      'Select one with --source ID.',
    );
  }
  const result = await runCheck({ policy, mode: 'audit', root: runRoot(policy, cwd), logger: stderrLogger(true), sourceIds: [selected[0]!.id] });
  const only = result.sources[0]?.surface;
  const malformed = result.sources[0]?.malformed ?? [];
  const unpinnable = malformed.filter((m) => !m.pinned);
  const failure =
    result.sources[0]?.failure ?? (unpinnable.length && only ? { message: unpinnableMessage(unpinnable, only.tools.length + unpinnable.length) } : undefined);
  if (failure || !only) {
    process.stderr.write(`toolgate: source "${selected[0]!.id}" failed: ${escapeTerminalInline(failure?.message ?? 'no surface', 2000)}\n`);
    return EXIT.sourceFailed;
  }
  if (malformed.length) process.stderr.write(`toolgate: ${malformedNote(malformed.length, only.tools.length)}\n`);
  const text = (await serializeContractInSlices(only)).text;
  if (flags.output) {
    const out = flags.output;
    // A relative path stays inside the working directory; an absolute one goes where it was asked.
    // Never through a link, onto a special file, or over an input of the run.
    const target = await resolveInside(cwd, out, {
      what: '--output',
      notOnto: policyInputs(policy),
      display: out,
      allowedRoots: isAbsolute(out) ? [dirname(out)] : [],
    });
    await writeFileAtomic(target, text, { what: '--output' }).catch((e: Error) => {
      if (e instanceof ConfigError) throw e;
      throw new ConfigError(`cannot write ${out}: ${e.message}`, { file: out }, 'Choose a path in a writable directory.');
    });
  } else process.stdout.write(guardLogOutput(text, 'json'));
  return EXIT.clean;
}

/**
 * Why two surfaces may not be two versions of one server: a different source id or server name
 * (a diff of unrelated servers compares tools by name across them and means little).
 */
export function unrelatedSides(base: Surface, head: Surface): string[] {
  const out: string[] = [];
  if (base.source.id !== head.source.id)
    out.push(`the two surfaces are of different sources ("${base.source.id}" and "${head.source.id}"); tools are compared by name across them`);
  const [b, h] = [base.server?.name, head.server?.name];
  if (b !== undefined && h !== undefined && b !== h)
    out.push(`the two surfaces are of different servers ("${b}" and "${h}"); tools are compared by name across them`);
  return out;
}

/** `toolgate diff BASE HEAD`. */
export async function diff(baseFile: string, headFile: string, format: Format, verbose = false): Promise<number> {
  const cwd = process.cwd();
  const read = async (f: string) => {
    const bytes = await readBounded(resolve(cwd, f), FILE_LIMITS.contract, 'a surface', { display: f }).catch((e: unknown) => {
      if (e instanceof ConfigError) throw e;
      throw new ConfigError('file not found', { file: f }, 'Pass two files written by `toolgate snapshot -o` or `toolgate update`.');
    });
    return parseContract(bytes.toString('utf8'), f);
  };
  const [base, head] = [await read(baseFile), await read(headFile)];
  for (const w of unrelatedSides(base.surface, head.surface)) process.stderr.write(`toolgate: warning: ${escapeTerminalInline(w, 400)}\n`);
  const result = await runDiff(base, head, cwd);
  process.stdout.write(guardLogOutput(await render(result, format, false, verbose, true), isJson(format)));
  return result.exitCode;
}
