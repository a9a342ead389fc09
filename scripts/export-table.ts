/** The table of export targets in docs/exports.md, generated from the targets (`npm run docs`). Pure. */
import type { Coverage } from '../src/export/model.js';
import { EXPORT_TARGETS } from '../src/export/targets/index.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const mark: Record<Coverage, string> = { yes: 'yes', partial: 'partly', no: 'no' };

/** Markdown: one row per target, what it enforces and how the tests check it. */
export function exportTargetsMarkdown(): string {
  const rows = EXPORT_TARGETS.map(
    (t) =>
      `| \`${t.id}\` | ${cell(t.product)}: ${cell(t.artifact)} | ${mark[t.enforces.names]} | ${mark[t.enforces.arguments]} | ${mark[t.enforces.annotations]} | ${mark[t.enforces.schemaPin]} | ${cell(t.verifiedBy)} |`,
  );
  return [
    '| `--to` | what is written | names | arguments | annotations | pinned definitions | checked in the tests by |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
