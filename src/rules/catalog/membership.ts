/**
 * The rows of the rules about which tools a source lists and how much of them: membership against
 * the contract, counts, deny patterns and the limits of `limits:`. catalog.ts assembles the
 * families into one table, sorted by id.
 *
 * @module
 */
import type { RuleMeta } from '../types.js';
import { UPDATE } from './common.js';

/** The rows of this family, in id order. */
export const MEMBERSHIP_RULES = [
  {
    id: 'contract-stale',
    level: 'error',
    title: 'The live surface differs from the committed contract',
    rationale:
      'The contract is the reviewed allowlist. When the server changes without a contract update, the change never shows up as a reviewable diff. When every tool that differs has a finding of its own at least as severe, this one is folded into them and the verdict says the contract is stale (one change, one finding).',
    source: 'docs/design.md §3 (drift), §6 (folding)',
    fix: UPDATE,
  },
  {
    id: 'count-mismatch',
    level: 'error',
    title: 'A pinned count differs from the live surface',
    rationale:
      "toolCount, readOnlyToolCount, destructiveToolCount and openWorldToolCount summarise what an agent can reach; a change in any of them is a change in exposure. A count that the contract's own tools give is explained by the per-tool findings and folded into contract-stale; one they do not give (a hand edit) stays.",
    source: 'docs/design.md §4 (pinned counts), §6 (folding)',
    fix: UPDATE,
  },
  {
    id: 'denied-tool',
    level: 'error',
    title: 'A tool matching a deny pattern is reachable (or classed read where the pattern forbids it)',
    rationale: 'The policy lists tools that must never be reachable by the agent, or never run unattended.',
    source: 'toolgate policy `deny`',
    fix: 'Remove or disable the tool in the server or integration, or change the `deny` entry in toolgate.yml with a reviewed commit.',
  },
  {
    id: 'duplicate-tool-name',
    level: 'error',
    title: 'Two tools share a name',
    rationale: 'Tool names are unique keys; a client calls one of them at random or rejects the list.',
    source: 'MCP spec 2025-11-25, Tools › Tool names',
    fix: 'Rename one of the tools in the server.',
  },
  {
    id: 'payload-too-large',
    level: 'error',
    title: 'The advertised tool list exceeds the configured size',
    rationale: 'Every tool definition is sent to the model on each turn; a large list costs context and money and crowds out the task.',
    source: 'toolgate policy `limits`',
    fix: 'Shorten descriptions or schemas, remove tools, or raise `limits.max-payload-bytes` in toolgate.yml.',
  },
  {
    id: 'token-budget-exceeded',
    level: 'error',
    title: 'The advertised tools cost the model more tokens per turn than the policy allows (limits.max-tokens, limits.max-tokens-per-tool)',
    rationale:
      "Every advertised tool is sent to the model on every turn: a surface that grows costs money, context and accuracy on every call. Counted with OpenAI's o200k_base encoding over what a client sends for each tool (name, title, description, inputSchema as JSON); other models' tokenizers differ by roughly 10-20 %.",
    source: "toolgate.yml `limits`; published figures: GitHub's MCP server about 26K tokens for 35 tools",
    fix: 'Trim descriptions and schemas, split the server, deny tools the agent does not need, or raise the limit in toolgate.yml with a reviewed commit.',
  },
  {
    id: 'too-many-tools',
    level: 'error',
    title: 'More tools are reachable than the configured limit',
    rationale:
      'Each reachable tool is one more thing the model can be steered into calling, and tool choice degrades as lists grow; a cap makes every addition past it a deliberate decision.',
    source: 'toolgate policy `limits.max-tools`',
    fix: 'Remove or disable tools, split the server, or raise `limits.max-tools` in toolgate.yml.',
  },
  {
    id: 'tool-added',
    level: 'error',
    title: 'A tool becomes reachable that the base contract lacks',
    rationale:
      'The contract is an allowlist only because a second person reviewed it: an author who runs `toolgate update` and commits has reviewed nothing. A new tool of any class, write or read, is new reach for the agent; the message names its class and effective hints.',
    source: 'docs/design.md §7 (widening); MCP spec 2025-11-25, Tool annotations (defaults)',
    fix: 'Get an approving review on the pull request from someone with write access who is not its author, or remove the tool.',
    reviewable: true,
  },
  {
    id: 'tool-removed',
    level: 'warning',
    title: 'A contract tool is no longer served',
    rationale: 'Agents and prompts that rely on it break.',
    source: 'docs/design.md §7 (narrowing)',
    fix: UPDATE,
  },
  {
    id: 'unlisted-tool',
    level: 'error',
    title: 'A reachable tool has no entry in the contract',
    rationale: 'The contract is the allowlist: a tool is reachable only if a person reviewed and committed it.',
    source: 'docs/design.md §4 (the allowlist); MCP spec, annotations are hints, not authorization',
    fix: UPDATE,
  },
] as const satisfies readonly RuleMeta[];
