/**
 * Claude Code: `permissions.allow` entries `mcp__<server>__<tool>` for the admitted tools and
 * `permissions.deny` for the tools the contract pins but the runtime block does not admit, in a
 * settings file (`.claude/settings.json`) the export shares with the user's other settings.
 *
 * Facts (code.claude.com/docs/en/permissions, "MCP" and "Manage permissions"): rules are checked
 * deny, then ask, then allow, and a deny in any settings file wins; `allow` approves without a
 * prompt but hides nothing; project allow rules apply once the workspace is trusted. A tool's name
 * is `mcp__<server>__<tool>` and the API takes tool names matching `^[a-zA-Z0-9_-]{1,64}$`
 * (platform docs, "Define tools"); Claude Code neither shortens longer names nor keeps other
 * characters, so such a name is refused here rather than rewritten.
 */
import { assertNames, type NameRule } from '../names.js';
import type { ExportInput, ExportTarget } from '../model.js';
import { at, jsonDocument, parseSettings, setDifference, setInSettings, strings } from '../settings-json.js';

const API_NAME: NameRule = {
  test: (n) => /^[a-zA-Z0-9_-]{1,64}$/.test(n),
  rule: '^[a-zA-Z0-9_-]{1,64}$ for the whole mcp__<server>__<tool> name',
  source: 'Claude platform docs, "Define tools" (tool name); code.claude.com/docs/en/mcp',
};
const SERVER_NAME: NameRule = {
  test: (n) => /^[a-zA-Z0-9_-]+$/.test(n) && !n.includes('__'),
  rule: 'letters, digits, "-" and "_", without "__" (which would split the qualified name)',
  source: 'code.claude.com/docs/en/mcp ("Server names … can contain only letters, numbers, hyphens, and underscores")',
};

const ruleOf = (server: string, tool: string) => `mcp__${server}__${tool}`;

/** Whether a permission rule is about this server (the part of the file the export owns). */
const owned = (server: string) => (rule: string) => rule === `mcp__${server}` || rule.startsWith(`mcp__${server}__`);

function rules(input: ExportInput): { allow: string[]; deny: string[] } {
  assertNames('claude-code', 'server name', [input.server], SERVER_NAME, 'Set `server:` on the export entry (or --server) to the name the server has in Claude Code (.mcp.json).');
  const allow = input.admitted.map((t) => ruleOf(input.server, t.name));
  assertNames('claude-code', 'qualified tool name', allow, API_NAME, 'Claude Code cannot call such a tool by this name; deny it in the runtime block (runtime.deny) or serve it through toolgate proxy.');
  // A refused tool Claude Code could not name cannot be called through it either.
  const deny = input.refused.map((r) => ruleOf(input.server, r.tool.name)).filter(API_NAME.test);
  return { allow, deny };
}

function ownedRules(text: string, server: string, what: string): { allow: string[]; deny: string[] } {
  const doc = parseSettings(text, what);
  const mine = owned(server);
  return { allow: strings(at(doc, ['permissions', 'allow'])).filter(mine), deny: strings(at(doc, ['permissions', 'deny'])).filter(mine) };
}

export const claudeCodeTarget: ExportTarget = {
  id: 'claude-code',
  product: 'Claude Code',
  artifact: '`permissions.allow` / `permissions.deny` in `.claude/settings.json` (entries `mcp__<server>__<tool>`)',
  docs: 'https://code.claude.com/docs/en/permissions',
  suggestedFile: () => '.claude/settings.json',
  enforces: { names: 'partial', arguments: 'no', annotations: 'no', schemaPin: 'no' },
  verifiedBy: "JSON Schema of the settings' `permissions` written from Claude Code's documentation and SchemaStore's schema",
  cannot: [
    'Tools the contract does not pin: `allow` approves without a prompt but hides nothing, so a tool the server adds later is offered, and Claude Code asks the user before calling it (with defaultMode "dontAsk" it is denied instead).',
    'Tools the contract pins but the runtime block refuses are denied (`permissions.deny`), which wins over any allow in any settings file.',
    'Arguments: any arguments reach the server.',
    'Definitions: a tool whose description, schema or hints changed after the review keeps its name and passes.',
    'Project allow rules apply only once the workspace is trusted; deny rules apply always.',
  ],
  render(input) {
    const { allow, deny } = rules(input);
    return jsonDocument({ permissions: { allow, ...(deny.length ? { deny } : {}) } });
  },
  compare(committed, expected, input) {
    // The server's rules are the part the export owns: other tools' and servers' rules are the user's.
    const e = ownedRules(expected, input.server, 'the export');
    const c = ownedRules(committed, input.server, 'the committed settings');
    const why = [setDifference(c.allow, e.allow), setDifference(c.deny, e.deny)];
    if (!why[0] && !why[1]) return undefined;
    return { why: [why[0] && `permissions.allow ${why[0]}`, why[1] && `permissions.deny ${why[1]}`].filter(Boolean).join('; ') };
  },
  merge(existing, expected, input) {
    const mine = owned(input.server);
    const doc = parseSettings(existing, 'the existing settings');
    const e = ownedRules(expected, input.server, 'the export');
    const keep = (path: string[]) => strings(at(doc, path)).filter((r) => !mine(r));
    const allow = [...keep(['permissions', 'allow']), ...e.allow];
    const deny = [...keep(['permissions', 'deny']), ...e.deny];
    return setInSettings(existing, [
      { path: ['permissions', 'allow'], value: allow },
      { path: ['permissions', 'deny'], value: deny.length ? deny : undefined },
    ]);
  },
};
