/**
 * The I/O edge of exports: reading the contract an export is made from, writing an export inside
 * the repository, reading a committed one back. Everything else under `export/` is pure.
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { ExportEntry, Policy } from '../config/policy-model.js';
import { policyInputs } from '../config/policy.js';
import { displayPath } from '../util/display-path.js';
import { readContract, writeFileAtomic } from '../contract/store.js';
import type { Surface } from '../surface/model.js';
import { ConfigError } from '../util/errors.js';
import { readBounded, resolveInside } from '../util/safe-path.js';
import { exportSet } from './export-set.js';
import type { ExportInput } from './model.js';

/** Largest committed export toolgate reads back (an export of 100,000 tools is a few MB). */
export const EXPORT_MAX_BYTES = 64 * 1024 * 1024;

/** What an export of `contract` contains, under the policy's runtime block. Pure. */
export function exportInput(
  policy: Pick<Policy, 'runtime' | 'sources'>,
  contract: Surface,
  entry: Pick<ExportEntry, 'source' | 'server' | 'gateway'>,
  contractFile: string,
): ExportInput {
  const { admitted, refused } = exportSet(contract, policy.runtime);
  const cfg = policy.sources.find((s) => s.id === entry.source);
  const transport = cfg?.kind !== 'mcp' ? undefined : cfg.mcp.transport === 'stdio' ? { command: cfg.mcp.command, args: cfg.mcp.args } : { url: cfg.mcp.url };
  return {
    sourceId: entry.source,
    server: entry.server,
    contractFile,
    admitted,
    refused,
    runtime: policy.runtime,
    ...(transport ? { transport } : {}),
    ...(entry.gateway !== undefined ? { gateway: entry.gateway } : {}),
  };
}

/**
 * Reads the committed contract of a source, for an export.
 * @throws ConfigError (exit 2) when there is none (an export writes only what a reviewed contract
 *   pins), when it is for another source, or for any error of reading it.
 */
export async function contractFor(policy: Policy, sourceId: string): Promise<{ surface: Surface; file: string }> {
  const cfg = policy.sources.find((s) => s.id === sourceId);
  if (!cfg) throw new ConfigError(`unknown source id "${sourceId}"`, undefined, `Use one of: ${policy.sources.map((s) => s.id).join(', ')}.`);
  const file = displayPath(policy.root, cfg.contract);
  const loaded = await readContract(cfg.contract, file);
  if (!loaded)
    throw new ConfigError(
      `no contract at ${file}: an export writes only what a reviewed contract pins`,
      { file },
      `Run \`toolgate update --source ${sourceId}\`, have the contract reviewed and committed, then export.`,
    );
  if (loaded.surface.source.id !== sourceId) {
    throw new ConfigError(
      `the contract ${file} is for source "${loaded.surface.source.id}", not "${sourceId}"`,
      { file, line: loaded.lineOf('/source/id') },
      `Run \`toolgate update --source ${sourceId}\`.`,
    );
  }
  return { surface: loaded.surface, file };
}

/** The sibling note of `file` (for formats without comments): `<name>.toolgate.md` beside it. */
export function notePath(file: string): string {
  return join(dirname(file), `${basename(file)}.toolgate.md`);
}

/**
 * Where a write of the export lands, checked before anything is read or rendered: inside the
 * repository, not an input of the run, not through a link that leads out.
 * @throws ConfigError naming the file and the fix.
 */
export async function writablePath(policy: Policy, file: string): Promise<string> {
  // Inside the repository, but git's own files are no place for an export (a hostile `exports:`
  // entry could otherwise overwrite .git/config or a hook for whoever runs `toolgate export`):
  // checked on the path as written and on where its links lead.
  const inGit = (root: string, p: string) =>
    relative(root, p)
      .split(sep)
      .some((seg) => seg.toLowerCase() === '.git');
  const refuse = () =>
    new ConfigError(
      "cannot write the export: it is inside .git, which is git's, not the repository's content",
      { file: displayPath(policy.root, file) },
      'Write exports to a tracked path, e.g. deploy/toolhive/tools.yaml.',
    );
  if (inGit(policy.root, resolve(policy.root, file))) throw refuse();
  const real = await resolveInside(policy.root, file, {
    what: 'the export',
    display: displayPath(policy.root, file),
    notOnto: policyInputs(policy),
    fix: 'Write exports inside the repository (the directory of toolgate.yml), e.g. -o deploy/toolhive/tools.yaml.',
  });
  if (inGit(await realpath(policy.root).catch(() => policy.root), real)) throw refuse();
  return real;
}

/**
 * Writes an export atomically inside the repository, never over an input of the run (the policy,
 * a contract, a recording, an integration config) or through a link that leads out.
 * @throws ConfigError naming the file for any of these, or when it cannot be written.
 */
export async function writeExportFile(policy: Policy, file: string, text: string): Promise<void> {
  const shown = displayPath(policy.root, file);
  const target = await writablePath(policy, file);
  await writeFileAtomic(target, text, { what: 'the export', display: shown }).catch((e: Error) => {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`cannot write the export: ${e.message}`, { file: shown }, 'Choose a path in a writable directory of the repository.');
  });
}

/**
 * A committed export's text, or undefined when the file does not exist. Read only inside the
 * repository, never through a link that leads out, never a FIFO or device, at most
 * {@link EXPORT_MAX_BYTES}.
 */
export async function readExportFile(policy: Policy, file: string): Promise<string | undefined> {
  const shown = displayPath(policy.root, file);
  const real = await resolveInside(policy.root, file, {
    what: 'the export',
    lead: 'cannot read the export',
    display: shown,
    fix: 'Keep exports inside the repository (the directory of toolgate.yml), as regular files.',
  });
  try {
    return (await readBounded(real, EXPORT_MAX_BYTES, 'the export', { display: shown })).toString('utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
