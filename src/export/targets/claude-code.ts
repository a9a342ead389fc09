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

/**
 * The name Claude Code shows for a served name: every character outside `[A-Za-z0-9_-]` becomes
 * `_` (documented for plugin servers, code.claude.com/docs/en/mcp "Plugin MCP tool names"; the
 * same function names every server's tools). Assumed for every server: it can only make two
 * names one, never one name two.
 */
export const claudeName = (name: string) => name.replace(/[^a-zA-Z0-9_-]/g, '_');

/**
 * Whether a permission rule can be about this server: `mcp__<server>`, `mcp__<server>__…`, with
 * any `(…)` specifier (`mcp__s(*)` and `mcp__s()` are the whole server, as `Tool(*)` is `Tool`),
 * compared without case and around whitespace: every rule that could approve one of its tools
 * is the export's to write, so one added by hand is stale.
 */
const owned = (server: string) => {
  const s = `mcp__${server.toLowerCase()}`;
  return (rule: string) => {
    const r = rule.trim().toLowerCase().replace(/\(.*\)\s*$/s, '').trimEnd();
    return r === s || r.startsWith(`${s}__`);
  };
};

function rules(input: ExportInput): { allow: string[]; deny: string[] } {
  assertNames('claude-code', 'server name', [input.server], SERVER_NAME, 'Set `server:` on the export entry (or --server) to the name the server has in Claude Code (.mcp.json).');
  const allow = input.admitted.map((t) => ruleOf(input.server, t.name));
  assertNames('claude-code', 'qualified tool name', allow, API_NAME_OF_TOOL(input.server), 'Claude Code cannot call such a tool by this name; deny it in the runtime block (runtime.deny) or serve it through toolgate proxy.');
  // A refused tool is denied by the name Claude Code shows for it; when that is an admitted
  // tool's name, allowing one would allow the other: refused.
  const admitted = new Set(input.admitted.map((t) => t.name));
  const clash = input.refused.filter((r) => admitted.has(claudeName(r.tool.name)));
  assertNames('claude-code', 'refused tool name', clash.map((r) => r.tool.name), {
    test: () => false,
    rule: 'that Claude Code shows it under the name of an admitted tool (it replaces characters outside [A-Za-z0-9_-] with "_")',
    source: 'code.claude.com/docs/en/mcp ("Plugin MCP tool names")',
  }, 'Claude Code cannot tell these tools apart: deny the admitted one too (runtime.deny), or serve the server through toolgate proxy.');
  const deny = [...new Set(input.refused.map((r) => ruleOf(input.server, claudeName(r.tool.name))))].filter((r) => API_NAME.test(r));
  return { allow, deny };
}

/** The whole-name rule, also refusing an empty tool name (`mcp__<server>__` would read as the server). */
const API_NAME_OF_TOOL = (server: string): NameRule => ({ ...API_NAME, test: (n) => API_NAME.test(n) && n.length > `mcp__${server}__`.length });

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
    'A tool the server adds later whose name Claude Code shows as an allowed one (it replaces characters outside [A-Za-z0-9_-] with "_": `read file` shows as `read_file`) is approved with it.',
    'Tools the contract pins but the runtime block refuses are denied (`permissions.deny`, by the name Claude Code shows), which wins over any allow in any settings file.',
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
