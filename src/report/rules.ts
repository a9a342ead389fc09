import { RULES } from '../rules/catalog.js';
import type { RuleMeta } from '../rules/types.js';

/** The catalog as text (a table), JSON, or Markdown (the body of docs/rules.md). Pure. */
export function renderRules(format: 'text' | 'json' | 'markdown'): string {
  if (format === 'json') return JSON.stringify(RULES, null, 2) + '\n';
  if (format === 'markdown') return rulesMarkdown();
  const width = Math.max(...RULES.map((r) => r.id.length));
  const mark = (r: RuleMeta) => ('reviewable' in r && r.reviewable ? '*' : 'configError' in r && r.configError ? '†' : '');
  return (
    RULES.map((r) => `${r.id.padEnd(width)}  ${(r.level + mark(r)).padEnd(8)}  ${r.title}`).join('\n') +
    '\n\n* error unless an approving review is on the pull request\n† a configuration error (exit 2) raised while loading the source; its level cannot be changed\n'
  );
}

/** docs/rules.md, generated from the catalog (a test fails when the committed file is stale). */
export function rulesMarkdown(): string {
  const out = [
    '# toolgate rules',
    '',
    '<!-- Generated from src/rules/catalog.ts by `npm run docs`. Do not edit by hand. -->',
    '',
    'Levels are defaults; `toolgate.yml` can change them per rule id (`rules:`) and per tool-name pattern (`overrides:`), or turn a rule `off`, except for the rules marked as configuration errors: they stop the run while the source loads (exit 2).',
    '',
    '| id | default level | fires when |',
    '|---|---|---|',
    ...RULES.map((r) => `| [\`${r.id}\`](#${r.id}) | ${r.level}${'reviewable' in r && r.reviewable ? ' unless reviewed' : ''}${'configError' in r && r.configError ? ' (configuration error)' : ''} | ${r.title} |`),
    '',
  ];
  for (const r of RULES) {
    out.push(
      `## ${r.id}`,
      '',
      `- **Level:** ${r.level}${'reviewable' in r && r.reviewable ? ' (becomes a notice when the pull request has the required approving review)' : ''}${'configError' in r && r.configError ? ' (a configuration error, exit 2: the run stops while loading the source, so `rules:` cannot change it)' : ''}`,
      `- **Title:** ${r.title}`,
      `- **Why:** ${r.rationale}`,
      `- **Source:** ${r.source}`,
      `- **How to fix:** ${r.fix}`,
      '',
    );
  }
  return out.join('\n');
}
