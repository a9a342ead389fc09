import { RAISED, RULES, SCANNING, type RuleId } from '../rules/catalog.js';
import type { RuleMeta } from '../rules/types.js';
import { SUSPICIOUS_PATTERNS } from '../rules/suspicious-patterns.js';
import { CONTEXT_ARGUMENT, CONTEXT_ARGUMENT_NAMES, EXFILTRATION_ARGUMENT } from '../rules/suspicious-vocabulary.js';
import { designAnchor, linkDesignCitations } from './design-links.js';

/** The catalog as text (a table), JSON, or Markdown (the body of docs/rules.md). Pure. */
export function renderRules(format: 'text' | 'json' | 'markdown'): string {
  if (format === 'json')
    return (
      JSON.stringify(
        RULES.map((r) => ({ ...r, raised: RAISED[r.id] })),
        null,
        2,
      ) + '\n'
    );
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
    "The stage says which facts a rule reads: `source` (starting or loading the source), `surface` (its listing, or the listings of all sources), `change` (the surface against the contract and the base), `policy` (a pull request's edits to toolgate.yml), `export` (a committed export against its contract).",
    '',
    '| id | default level | stage | fires when |',
    '|---|---|---|---|',
    ...RULES.map(
      (r) =>
        `| [\`${r.id}\`](#${r.id}) | ${r.level}${'reviewable' in r && r.reviewable ? ' unless reviewed' : ''}${'configError' in r && r.configError ? ' (configuration error)' : ''} | ${RAISED[r.id].stage} | ${r.title} |`,
    ),
    '',
  ];
  for (const r of RULES) {
    out.push(
      `## ${r.id}`,
      '',
      `- **Level:** ${r.level}${'reviewable' in r && r.reviewable ? ' (becomes a notice when the pull request has the required approving review)' : ''}${'configError' in r && r.configError ? ' (a configuration error, exit 2: the run stops while loading the source, so `rules:` cannot change it)' : ''}`,
      `- **Title:** ${r.title}`,
      `- **Why:** ${r.rationale}`,
      `- **Source:** ${linkDesignCitations(r.source, (n) => `design.md#${designAnchor(n)}`)}`,
      `- **How to fix:** ${r.fix}`,
      `- **Raised:** in the \`${RAISED[r.id].stage}\` stage, by [\`${RAISED[r.id].module}\`](../${RAISED[r.id].module})`,
      `- **Code scanning (SARIF):** ${scanningLine(r.id)}`,
      '',
    );
  }
  out.push(
    '## Patterns of suspicious-text',
    '',
    '<!-- Generated from src/rules/suspicious-patterns.ts. -->',
    '',
    "Each hit names its pattern and quotes the sentence it fired in (160 characters at most, around the words the pattern matched, which the JSON report keeps as `match`); a hit about another server's tool names that tool (`otherTool`). Rows of scope `text` (tags, override phrases, characters, markup, images, links, commands) quote what they matched.",
    '',
    '| pattern | what | why | source |',
    '|---|---|---|---|',
    ...SUSPICIOUS_PATTERNS.map((p) => `| \`${p.id}\` | ${cell(p.title)} | ${cell(p.rationale)} | ${cell(p.source)} |`),
    `| \`context-argument\` | an argument, on any new tool, whose name asks for what the model knows: wrapped in underscores (\`${cell(CONTEXT_ARGUMENT.source)}\`, any case), or, with \`_\` and \`-\` removed and in lower case, one of ${[...CONTEXT_ARGUMENT_NAMES].map((n) => `\`${n}\``).join(', ')} | A name wrapped in underscores (\`_system_prompt_\`) or naming the conversation or its history is a slot the model fills from its context, with no user-visible step; raised in an audit too. | ${cell(FULL_SCHEMA_SOURCE)} |`,
    `| \`exfiltration-argument\` | an argument added to an existing tool whose name invites the model to pass along what it knows (\`${cell(EXFILTRATION_ARGUMENT.source)}\`, any case) | An argument such as \`notes\`, \`context\` or \`sidenote\` that appears in a reviewed tool is where poisoned instructions tell the model to put secrets or the conversation. | Invariant Labs, "MCP tool poisoning" (2025) |`,
    '',
  );
  return out.join('\n');
}

const FULL_SCHEMA_SOURCE = 'CyberArk, "Poison everywhere: No output from your MCP server is safe" (2025); getmcpm/mcp-guardbench, case exfil-param-in-schema';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ').replace(/</g, '&lt;');

/** "security alert, severity 8.0 (high); precision very-high" or "quality; precision high". */
function scanningLine(id: RuleId): string {
  const s = SCANNING[id];
  if (s.security === undefined) return `a quality finding; precision ${s.precision}`;
  const band = s.security >= 9 ? 'critical' : s.security >= 7 ? 'high' : s.security >= 4 ? 'medium' : 'low';
  return `a security alert, \`security-severity\` ${s.security.toFixed(1)} (${band}); precision ${s.precision}`;
}
