/**
 * Whether each committed export still matches what `toolgate export` writes from the contract and
 * the runtime block (docs/design.md §12), for `toolgate check`: every `exports:` entry of
 * toolgate.yml and every `--export FILE --to TARGET`. The `export-stale` finding itself is raised
 * by the registry (rules/checks/export.ts).
 */
import type { ExportEntry, Policy } from '../config/policy-model.js';
import { displayPath } from '../util/display-path.js';
import type { Approval } from '../rules/context.js';
import { checkExport } from '../rules/index.js';
import { finalize } from '../rules/evaluate.js';
import type { Finding } from '../rules/types.js';
import type { Surface } from '../surface/model.js';
import { ConfigError } from '../util/errors.js';
import { exportInput, readExportFile } from './files.js';
import { quoted } from './literals.js';
import { exportInvocation } from './header.js';
import { firstDifference, renderExport } from './render.js';
import { targetById } from './targets/index.js';

const lineAt = (text: string, line: number) => text.split('\n')[line - 1] ?? '';
const excerpt = (s: string) => quoted(s.length > 80 ? `${s.slice(0, 80)}…` : s);

/** Why an export differs, and where in it; undefined when it matches. Pure. */
export function staleness(
  entry: ExportEntry,
  committed: string | undefined,
  contract: Surface,
  policy: Pick<Policy, 'runtime' | 'sources'>,
  contractFile: string,
): { line?: number; why: string } | undefined {
  const target = targetById(entry.to);
  if (!target) return { why: `unknown export target "${entry.to}"` };
  let expected: string;
  const input = exportInput(policy, contract, entry, contractFile);
  try {
    expected = renderExport(target, input);
  } catch (e) {
    if (e instanceof ConfigError) return { why: `the contract can no longer be exported to ${entry.to}: ${e.message}` };
    throw e;
  }
  if (committed === undefined) return { why: 'the file does not exist' };

  if (target.compare) {
    try {
      return target.compare(committed, expected, input);
    } catch (e) {
      if (e instanceof ConfigError) return { why: e.message };
      throw e;
    }
  }
  const at = firstDifference(committed, expected, target.comment);
  if (at === undefined) return undefined;
  return { line: at.line, why: `line ${at.line} is ${excerpt(lineAt(committed, at.line))}, the export writes ${excerpt(lineAt(expected, at.expectedLine))}` };
}

/**
 * One `export-stale` finding (raised through the rule registry) per export that does not match its source's committed contract.
 * Exports of a source with no committed contract are skipped (the contract's own finding says so).
 * @param contracts committed contracts by source id (those `check` read).
 */
export async function exportFindings(
  policy: Policy,
  entries: readonly ExportEntry[],
  contracts: ReadonlyMap<string, Surface>,
  approval?: Approval,
): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const entry of entries) {
    const contract = contracts.get(entry.source);
    const cfg = policy.sources.find((s) => s.id === entry.source);
    if (!contract || !cfg) continue;
    const contractFile = displayPath(policy.root, cfg.contract);
    const shown = displayPath(policy.root, entry.file);
    const committed = await readExportFile(policy, entry.file);
    const stale = staleness(entry, committed, contract, policy, contractFile);
    if (!stale) continue;
    const invocation = exportInvocation(entry.to, {
      sourceId: entry.source,
      server: entry.server,
      ...(entry.gateway !== undefined ? { gateway: entry.gateway } : {}),
    });
    const raw = checkExport({ entry, shown, contractFile, invocation, stale });
    out.push(
      ...finalize(raw, { sourceId: entry.source, policy, ...(approval ? { approval } : {}) }, () => ({
        location: { file: shown, ...(stale.line !== undefined ? { line: stale.line } : {}) },
        pointer: '',
      })),
    );
  }
  return out;
}
