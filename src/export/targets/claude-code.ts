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
import { NAME_ONLY, type ExportInput, type ExportTarget } from '../model.js';
import { quoted } from '../literals.js';
import { assertObjectsOn, at, jsonDocument, lacking, lacksText, parseSettings, setDifference, setInSettings, strings } from '../settings-json.js';

const API_NAME: NameRule = {
  test: (n) => /^[a-zA-Z0-9_-]{1,64}$/.test(n),
  rule: '^[a-zA-Z0-9_-]{1,64}$ for the whole mcp__<server>__<tool> name',
  source: 'Claude platform docs, "Define tools" (tool name); code.claude.com/docs/en/mcp',
};
const SERVER_NAME: NameRule = {
  test: (n) => /^[a-zA-Z0-9-]([a-zA-Z0-9_-]*[a-zA-Z0-9-])?$/.test(n) && !n.includes('__'),
  rule: 'letters, digits, "-" and "_", without "__" and not starting or ending with "_" (Claude Code splits mcp__<server>__<tool> at the first "__" after the prefix)',
  source: 'code.claude.com/docs/en/mcp ("Server names … can contain only letters, numbers, hyphens, and underscores")',
};

const ruleOf = (server: string, tool: string) => `mcp__${server}__${tool}`;

/**
 * The name Claude Code shows for a served name: the listing is NFKC-normalized and stripped of
 * invisible format characters, then every character outside `[A-Za-z0-9_-]` becomes `_` (the
 * last step documented for plugin servers, code.claude.com/docs/en/mcp "Plugin MCP tool names";
 * the others seen in its client's handling of listings). Assumed for every server: it can only
 * make two names one, never one name two.
 */
export const claudeName = (name: string) =>
  name
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/[^a-zA-Z0-9_-]/g, '_');

/**
 * Whether a permission rule can be about this server: `mcp__<server>`, `mcp__<server>__…`, with
 * any `(…)` specifier (`mcp__s(*)` and `mcp__s()` are the whole server, as `Tool(*)` is `Tool`),
 * compared without case and around whitespace: every rule that could approve one of its tools
 * is the export's to write, so one added by hand is stale.
 */
const owned = (server: string) => {
  const s = server.toLowerCase();
  return (rule: string) => {
    const r = rule
      .trim()
      .toLowerCase()
      .replace(/\(.*\)\s*$/s, '')
      .trimEnd();
    // As Claude Code reads a rule: `mcp__`, then the server up to the next `__` (or the end).
    return r.startsWith('mcp__') && r.slice(5).split('__')[0] === s;
  };
};

/** The rules of an export: read tools allowed, write tools asked about, refused tools denied. */
interface Rules {
  allow: string[];
  ask: string[];
  deny: string[];
}

function rules(input: ExportInput): Rules {
  assertNames(
    'claude-code',
    'server name',
    [input.server],
    SERVER_NAME,
    'Set `server:` on the export entry (or --server) to the name the server has in Claude Code (.mcp.json).',
  );
  const named = input.admitted.map((t) => ({ t, rule: ruleOf(input.server, t.name) }));
  assertNames(
    'claude-code',
    'qualified tool name',
    named.map((n) => n.rule),
    API_NAME_OF_TOOL(input.server),
    'Claude Code cannot call such a tool by this name; deny it in the runtime block (runtime.deny) or serve it through toolgate proxy.',
  );
  // A refused tool is denied by the name Claude Code shows for it; when that is an admitted
  // tool's name, allowing one would allow the other: refused.
  const admitted = new Set(input.admitted.map((t) => t.name));
  const clash = input.refused.filter((r) => admitted.has(claudeName(r.tool.name)));
  assertNames(
    'claude-code',
    'refused tool name',
    clash.map((r) => r.tool.name),
    {
      test: () => false,
      rule: 'that Claude Code shows it under the name of an admitted tool (it replaces characters outside [A-Za-z0-9_-] with "_")',
      source: 'code.claude.com/docs/en/mcp ("Plugin MCP tool names")',
    },
    'Claude Code cannot tell these tools apart: deny the admitted one too (runtime.deny), or serve the server through toolgate proxy.',
  );
  const deny = [...new Set(input.refused.map((r) => ruleOf(input.server, claudeName(r.tool.name))))].filter((r) => API_NAME.test(r));
  // Claude Code can ask a person: a tool that may write is asked about at every call; only a
  // tool the contract classes read runs without asking.
  return {
    allow: named.filter((n) => n.t.safetyClass === 'read').map((n) => n.rule),
    ask: named.filter((n) => n.t.safetyClass !== 'read').map((n) => n.rule),
    deny,
  };
}

/** The whole-name rule, also refusing an empty tool name (`mcp__<server>__` would read as the server). */
const API_NAME_OF_TOOL = (server: string): NameRule => ({ ...API_NAME, test: (n) => API_NAME.test(n) && n.length > `mcp__${server}__`.length });

type RuleList = 'allow' | 'ask' | 'deny';

/** This server's rules in a settings file, by list. */
function ownedRules(text: string, server: string, what: string): Rules {
  const doc = parseSettings(text, what, { strict: true });
  const mine = owned(server);
  const of = (k: RuleList) => strings(at(doc, ['permissions', k])).filter(mine);
  return { allow: of('allow'), ask: of('ask'), deny: of('deny') };
}

export const claudeCodeTarget: ExportTarget = {
  id: 'claude-code',
  product: 'Claude Code',
  artifact:
    '`permissions.allow` (read tools), `permissions.ask` (write tools) and `permissions.deny` (refused tools) in `.claude/settings.json`, entries `mcp__<server>__<tool>`',
  docs: 'https://code.claude.com/docs/en/permissions',
  suggestedFile: () => '.claude/settings.json',
  enforces: { names: 'partial', arguments: 'no', annotations: 'no', schemaPin: 'no' },
  verifiedBy: "JSON Schema of the settings' `permissions` written from Claude Code's documentation and SchemaStore's schema",
  cannot: [
    'Tools the contract does not pin: `allow` approves without a prompt but hides nothing, so a tool the server adds later is offered, and Claude Code asks the user before calling it (with defaultMode "dontAsk" it is denied instead).',
    'A tool the server adds later whose name Claude Code shows as an allowed one (it replaces characters outside [A-Za-z0-9_-] with "_": `read file` shows as `read_file`) is approved with it.',
    'Tools the contract pins but the runtime block refuses are denied (`permissions.deny`, by the name Claude Code shows), which wins over any allow in any settings file; admitted tools that may write are in `permissions.ask`, asked about at every call; only read tools run without asking.',
    NAME_ONLY.arguments,
    NAME_ONLY.definitions,
    'Project allow rules apply only once the workspace is trusted; deny rules apply always.',
    'Claude Code reads settings.json as strict JSON and ignores a file it cannot read whole (comments, trailing commas, a value its schema refuses): `toolgate check` refuses what is not strict JSON; `claude doctor` lists the rest.',
    'Hooks (PreToolUse deciding "allow") and a defaultMode of "bypassPermissions" approve without rules; the export checks defaultMode in this file, not hooks or other settings files.',
    'A refused tool whose qualified name is over 64 characters is not denied: Claude Code cannot call it.',
  ],
  render(input) {
    const { allow, ask, deny } = rules(input);
    return jsonDocument({ permissions: { allow, ...(ask.length ? { ask } : {}), ...(deny.length ? { deny } : {}) } });
  },
  compare(committed, expected, input) {
    // This server's allow rules must be exactly the export's: one more approves a tool nobody
    // reviewed as read. Its ask and deny rules must include the export's; more of them only ask
    // or refuse more, and are the user's.
    const e = ownedRules(expected, input.server, 'the export');
    const c = ownedRules(committed, input.server, 'the committed settings');
    // A mode that asks about nothing makes every ask rule, and every unpinned tool, run unasked.
    const mode = at(parseSettings(committed, 'the committed settings', { strict: true }), ['permissions', 'defaultMode']);
    const why = [
      mode === 'bypassPermissions'
        ? 'permissions.defaultMode is "bypassPermissions", which asks about nothing: the tools the export puts in permissions.ask, and every tool the contract does not pin, would run unasked'
        : '',
      setDifference(c.allow, e.allow) && `permissions.allow ${setDifference(c.allow, e.allow)}`,
      lacksText(c.ask, e.ask) && `permissions.ask ${lacksText(c.ask, e.ask)}`,
      lacksText(c.deny, e.deny) && `permissions.deny ${lacksText(c.deny, e.deny)}`,
    ].filter(Boolean);
    return why.length ? { why: why.join('; ') } : undefined;
  },
  merge(existing, expected, input) {
    const mine = owned(input.server);
    const doc = parseSettings(existing, 'the existing settings', { strict: true });
    assertObjectsOn(doc, ['permissions'], 'the existing settings');
    const e = ownedRules(expected, input.server, 'the export');
    const has = (k: RuleList) => strings(at(doc, ['permissions', k]));
    const dropped = has('allow').filter((r) => mine(r) && !e.allow.includes(r));
    const allow = [...has('allow').filter((r) => !mine(r)), ...e.allow];
    // The user's ask and deny rules stay (they only ask or refuse more), this export's are added.
    const ask = [...has('ask'), ...lacking(has('ask'), e.ask)];
    const deny = [...has('deny'), ...lacking(has('deny'), e.deny)];
    const notes = [
      ...(dropped.length ? [`removed from permissions.allow, since the contract does not admit them as read tools: ${dropped.map(quoted).join(', ')}`] : []),
      ...[...has('deny'), ...has('ask')]
        .filter((r) => mine(r) && e.allow.includes(r))
        .map(
          (r) =>
            `${quoted(r)} stays in permissions.${has('deny').includes(r) ? 'deny' : 'ask'}, though the contract now admits it: remove it by hand if it is not yours`,
        ),
    ];
    const text = setInSettings(existing, [
      { path: ['permissions', 'allow'], value: allow },
      { path: ['permissions', 'ask'], value: ask.length ? ask : undefined },
      { path: ['permissions', 'deny'], value: deny.length ? deny : undefined },
    ]);
    return { text, notes };
  },
};
