/**
 * `export-stale` (docs/design.md §12): a committed export that no longer matches what `toolgate
 * export` writes from the contract and the runtime block (export/verify.ts finds out why). Pure.
 */
import type { ExportCheck } from '../context.js';

export const exportStale: ExportCheck = ({ entry, shown, contractFile, invocation, stale }) => [
  {
    ruleId: 'export-stale',
    // Keyed on the file: two stale exports of one source are two findings, each with its own id.
    target: { key: `export:${shown}` },
    message: `the ${entry.to} export ${shown} is not what \`${invocation} -o ${shown}\` writes from ${contractFile} and the runtime block: ${stale.why}`,
    data: { file: shown, to: entry.to, ...(stale.line !== undefined ? { line: stale.line } : {}) },
  },
];
