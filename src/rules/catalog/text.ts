/**
 * The rows of the rules about text a model or a user reads: descriptions, instructions, suspicious
 * wording, names that shadow or cannot be used. catalog.ts assembles the families into one table,
 * sorted by id.
 *
 * @module
 */
import type { RuleMeta } from '../types.js';

/** What a `suspicious-text` hit asks of the reader: the same test wherever it is. */
const POISON_TEST = "If it tells the model to call another server's tool, send data out, read secrets or hide something from the user";

/**
 * What to do about a `suspicious-text` hit, by where it is (a tool's text, the server's
 * instructions) and what the run is (an audit: a server not yet adopted, nothing to approve; a
 * check: a change to approve). The check picks one (checks/suspicious.ts); docs/rules.md shows all.
 */
export const SUSPICIOUS_TEXT_FIXES = {
  auditTool: `Read the quoted sentence. ${POISON_TEST}, do not adopt the server, or deny the tool (\`deny:\` in toolgate.yml). If it only documents the tool, nothing is needed (\`overrides:\` can turn the rule off for the tool, \`rules:\` make it an error).`,
  checkTool: `Read the quoted sentence this change brings. ${POISON_TEST}, do not approve: have it removed, or deny the tool (\`deny:\` in toolgate.yml). If it only documents the tool, the review the change needs covers it.`,
  auditInstructions: `Read the quoted sentence of the server's instructions (the model reads them on every turn; denying tools does not remove them). ${POISON_TEST}, do not adopt the server. If it only documents the server, nothing is needed.`,
  checkInstructions: `Read the quoted sentence this change brings to the server's instructions (the model reads them on every turn; denying tools does not remove them). ${POISON_TEST}, do not approve: keep the server at its reviewed version. If it only documents the server, approving \`instructions-changed\` covers it.`,
} as const;

/** The rows of this family, in id order. */
export const TEXT_RULES = [
  {
    id: 'description-changed',
    level: 'error',
    title:
      'Text a model or user reads changed: a description or title, annotations.title, text inside inputSchema or outputSchema (description, title, default, examples, $comment, x- keys), vendor annotation keys, icons, _meta',
    rationale:
      'Descriptions are text the model reads and follows, the tool\'s own and those of its arguments alike, and clients show titles, icons and `_meta` to people. Changing one after review is the classic tool-poisoning "rug pull"; a schema comparison alone would not notice the arguments\' text, which changes nothing that validates.',
    source: 'Invariant Labs, "MCP tool poisoning" (2025); MCP spec, Security considerations',
    fix: 'Read the old and the new text for instructions aimed at the model; the change passes once a reviewer with write access who is not the author approves the pull request.',
    reviewable: true,
  },
  {
    id: 'instructions-changed',
    level: 'error',
    title: "The server's instructions changed (the text clients put into the model's context, from initialize)",
    rationale:
      "A server's `instructions` reach the model on every turn, as its tools' descriptions do, and can steer how it uses every tool of every server; a change after review is a rug pull like a changed description.",
    source: 'MCP spec 2025-11-25, Lifecycle › Initialization (InitializeResult.instructions); Invariant Labs, "MCP tool poisoning" (2025)',
    fix: 'Read the old and the new instructions for directions aimed at the model; the change passes once a reviewer with write access who is not the author approves the pull request.',
    reviewable: true,
  },
  {
    id: 'invalid-tool-name',
    level: 'warning',
    title: 'A tool name is outside [A-Za-z0-9_.-]{1,128} or has invisible or confusable characters',
    rationale:
      'The spec recommends 1–128 characters of ASCII letters, digits, underscore, hyphen and dot. Invisible or look-alike characters let one tool impersonate another.',
    source: 'MCP spec 2025-11-25, Tools › Tool names',
    fix: 'Rename the tool in the server using only [A-Za-z0-9_.-].',
  },
  {
    id: 'suspicious-text',
    level: 'warning',
    title:
      "Text a model reads tries something: an instruction aimed at the model about other servers' tools (call X first, use this instead of X), about data leaving (send to a URL, put it in a URL or an argument), secrecy, rewritten arguments, secrets and their files, shell commands, hidden text; or an argument shaped to carry what the model knows",
    rationale:
      'Tool-poisoning payloads live in text the model reads and a reviewer skims. The patterns look for structure more than words: a verb aimed at the model and its object (read ~/.ssh/id_rsa, send … to https://…, pass the conversation), an ordering or redirecting word with a tool this server does not serve, an argument named _system_prompt_. Each hit quotes the sentence it fired in, names the pattern (docs/rules.md, "Patterns of suspicious-text") and the tool of another server the sentence is about, so a person can judge it in seconds. Only new text is judged: all of it in an audit, in a check what a change adds to a text (quoted first), so a reviewed text is not raised on every run and a changed one rides on the approval description-changed already needs. Measured in bench/poison/RESULTS.md.',
    source:
      'Invariant Labs, "MCP tool poisoning" (2025) and "WhatsApp MCP exploited" (2025); Trail of Bits, "Jumping the line" (2025); CyberArk, full-schema poisoning (2025); OWASP LLM01; Unicode TR36; the pattern table in src/rules/suspicious-patterns.ts',
    fix: `In an audit, on a tool: ${SUSPICIOUS_TEXT_FIXES.auditTool} On the server's instructions: ${SUSPICIOUS_TEXT_FIXES.auditInstructions} In a check, on a tool: ${SUSPICIOUS_TEXT_FIXES.checkTool} On the instructions: ${SUSPICIOUS_TEXT_FIXES.checkInstructions}`,
  },
  {
    id: 'tool-shadowed',
    level: 'warning',
    title: "Two sources of one toolgate.yml serve the same tool name, or a tool's text names another source's tool",
    rationale:
      'An agent connected to several servers sees them in one tool list: two tools of one name collide (clients keep one, or rename them), and a description that names another server\'s tool ("use this instead of send_email") is how a malicious server shadows a trusted one. Names are looked for as whole words and only when they read as identifiers (with "_", "-", "." or camelCase), so ordinary words do not match.',
    source: 'Invariant Labs, "MCP tool poisoning: cross-server shadowing" (2025); MCP spec, Tools › Tool names',
    fix: "Rename one of the tools in its server (or deny it in one source), or remove the other server's tool names from the description; when the reference is intended, turn the rule off for this tool with an `overrides:` entry.",
  },
] as const satisfies readonly RuleMeta[];
