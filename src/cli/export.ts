/**
 * `toolgate export`: writes a contract's admitted set for a gateway or client (docs/design.md §12), to
 * stdout or a file; with no `--to`, every `exports:` entry of toolgate.yml.
 */
import type { ExportEntry, Policy } from '../config/policy-model.js';
import { loadPolicy } from '../config/policy-file.js';
import { displayPath } from '../util/display-path.js';
import { contractFor, exportInput, notePath, readExportFile, writablePath, writeExportFile } from '../export/files.js';
import { entryFrom } from '../export/entries.js';
import { headerLines, siblingNote } from '../export/header.js';
import { renderExport } from '../export/render.js';
import { targetById } from '../export/targets/index.js';
import { escapeTerminalInline } from '../report/escape.js';
import { EXIT } from './types.js';
import { ConfigError } from '../util/errors.js';

/** Flags of `toolgate export`. */
export interface ExportFlags {
  config?: string;
  to?: string;
  source?: string[];
  server?: string;
  gateway?: string;
  output?: string;
}

/** The document for one entry (merged into the file there, for a settings file), the file as it was, and the note for a format without comments. */
async function produce(policy: Policy, entry: ExportEntry): Promise<{ text: string; before?: string; notes: string[]; note?: string; count: string }> {
  const target = targetById(entry.to);
  if (!target) throw new ConfigError(`unknown export target "${entry.to}"`);
  const { surface, file } = await contractFor(policy, entry.source);
  const input = exportInput(policy, surface, entry, file);
  let text = renderExport(target, input);
  const shown = displayPath(policy.root, entry.file);
  let notes: string[] = [];
  const before = await readExportFile(policy, entry.file);
  if (target.merge && before !== undefined) ({ text, notes } = target.merge(before, text, input));
  // A merged file keeps no header of ours: what the target cannot enforce goes beside it.
  const note = siblingNote(target, input, shown, target.merge !== undefined && before !== undefined);
  return {
    text,
    ...(before !== undefined ? { before } : {}),
    notes,
    ...(note ? { note } : {}),
    count: `${input.admitted.length} of ${input.admitted.length + input.refused.length} pinned tools`,
  };
}

/**
 * Runs `toolgate export`. Exit 0 when everything was written (or printed), 2 for a usage or
 * configuration error (nothing is written then for that entry).
 */
export async function runExport(flags: ExportFlags): Promise<number> {
  const policy = await loadPolicy(flags.config ?? 'toolgate.yml');
  if ((flags.source?.length ?? 0) > 1)
    throw new ConfigError(
      'export writes one source at a time: give one --source',
      undefined,
      'Run it once per source, or list the exports in toolgate.yml (`exports:`) and run `toolgate export`.',
    );
  if (flags.to === undefined) {
    if (flags.output !== undefined || flags.server !== undefined || flags.gateway !== undefined)
      throw new ConfigError(
        '-o, --server and --gateway go with --to TARGET',
        undefined,
        'Add --to TARGET, or set them on the entry in toolgate.yml (`exports:`).',
      );
    const entries = policy.exports.filter((e) => !flags.source?.length || flags.source.includes(e.source));
    if (entries.length === 0) {
      throw new ConfigError(
        'toolgate.yml lists no exports (`exports:`)',
        policy.file ? { file: displayPath(policy.root, policy.file) } : undefined,
        'Print one with `toolgate export --to TARGET`, or add entries such as `exports: [{to: claude-code, file: .claude/settings.json}]` (docs/exports.md).',
      );
    }
    for (const e of entries) await writeOne(policy, e);
    return EXIT.clean;
  }
  const given = entryFrom(policy, process.cwd(), {
    to: flags.to,
    file: flags.output ?? '-',
    ...(flags.source?.[0] !== undefined ? { source: flags.source[0] } : {}),
    ...(flags.server !== undefined ? { server: flags.server } : {}),
    ...(flags.gateway !== undefined ? { gateway: flags.gateway } : {}),
  });
  // `-o` onto a file toolgate.yml lists: its entry's server and gateway, unless given here, so
  // the file written is the one `check` expects.
  const listed = policy.exports.find((e) => e.file === given.file && e.to === given.to && e.source === given.source);
  const entry =
    listed && flags.output !== undefined
      ? { ...listed, ...(flags.server !== undefined ? { server: flags.server } : {}), ...(flags.gateway !== undefined ? { gateway: flags.gateway } : {}) }
      : given;
  if (flags.output === undefined) {
    const target = targetById(entry.to);
    const { surface, file } = await contractFor(policy, entry.source);
    const input = exportInput(policy, surface, entry, file);
    process.stdout.write(renderExport(target!, input));
    // A format without comments: what the header would say goes to stderr.
    if (!target!.comment) for (const l of headerLines(target!, input)) process.stderr.write(`toolgate: ${escapeTerminalInline(l, 2000)}\n`);
    return EXIT.clean;
  }
  await writeOne(policy, entry);
  return EXIT.clean;
}

async function writeOne(policy: Policy, entry: ExportEntry): Promise<void> {
  const shown = displayPath(policy.root, entry.file);
  // Both places checked before either is written: nothing is left half-done.
  await writablePath(policy, entry.file);
  if (!targetById(entry.to)?.comment || targetById(entry.to)?.merge) await writablePath(policy, notePath(entry.file));
  const { text, before, notes, note, count } = await produce(policy, entry);
  if (before !== text) await writeExportFile(policy, entry.file, text);
  if (note !== undefined) {
    const nf = notePath(entry.file);
    if ((await readExportFile(policy, nf)) !== note) await writeExportFile(policy, nf, note);
  }
  process.stderr.write(
    `toolgate: ${before === text ? 'unchanged' : 'wrote'} ${shown} (${entry.to}, ${count})${note !== undefined ? `; what it cannot enforce: ${displayPath(policy.root, notePath(entry.file))}` : ''}\n`,
  );
  for (const n of notes) process.stderr.write(`toolgate:   ${shown}: ${escapeTerminalInline(n, 2000)}\n`);
}
