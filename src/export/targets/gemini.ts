/**
 * Gemini CLI: `mcpServers.<server>.includeTools` (the admitted tools) and `excludeTools` (the
 * pinned tools the runtime block refuses) in `.gemini/settings.json`, next to the entry's
 * `command` or `url`, which stay the user's.
 *
 * Facts (google-gemini/gemini-cli, `docs/tools/mcp-server.md`; `packages/core/src/tools/
 * mcp-client.ts` isEnabled): both lists hold the names the server serves, compared exactly;
 * `excludeTools` wins; without `includeTools` every tool is enabled. A server entry in a settings
 * file of higher precedence replaces the whole entry of a lower one, so the lists belong in the
 * file that defines the server.
 */
import type { Json } from '../../util/json.js';
import { NAME_ONLY, type ExportTarget } from '../model.js';
import { assertNames, type NameRule } from '../names.js';
import { quoted } from '../literals.js';
import { assertObjectsOn, at, jsonDocument, lacking, lacksText, parseSettings, setDifference, setInSettings, strings } from '../settings-json.js';

const pathOf = (server: string, key: 'includeTools' | 'excludeTools') => ['mcpServers', server, key];

/**
 * A name `includeTools` holds exactly: Gemini CLI also enables tool `t` for an entry that starts
 * with `t(` (mcp-client.ts isEnabled), and expands `$VAR`, `${VAR}` and `%VAR%` in settings
 * strings (docs/reference/configuration.md), so a name with `(`, `$` or `%` could enable another.
 */
const EXACT_IN_SETTINGS: NameRule = {
  test: (n) => !/[($%]/.test(n),
  rule: 'no "(" (an entry "t(…)" also enables tool "t"), "$" or "%" (environment variables are expanded in settings)',
  source: 'google-gemini/gemini-cli packages/core/src/tools/mcp-client.ts (isEnabled); docs/reference/configuration.md',
};

export const geminiTarget: ExportTarget = {
  id: 'gemini',
  product: 'Gemini CLI',
  artifact: '`mcpServers.<server>.includeTools` / `excludeTools` in `.gemini/settings.json`',
  docs: 'https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md',
  suggestedFile: () => '.gemini/settings.json',
  enforces: { names: 'yes', arguments: 'no', annotations: 'no', schemaPin: 'no' },
  verifiedBy: 'JSON Schema of `mcpServers` entries written from `schemas/settings.schema.json` of gemini-cli',
  cannot: [
    NAME_ONLY.arguments,
    NAME_ONLY.definitions,
    'Placement: a server entry in a settings file of higher precedence (system, then project, then user) replaces this one whole, lists included; keep the lists in the file that defines the server.',
    "Start: in a new file the entry runs the server as toolgate.yml does (command and args as written there, or its URL); in an existing entry only the two lists change, and the entry's own command is not compared with toolgate.yml.",
  ],
  render(input) {
    // A new file gets the server as toolgate.yml runs it, so the entry is whole; merged into an
    // existing entry only the two lists change.
    const t = input.transport;
    const start: Record<string, Json> = !t
      ? {}
      : 'url' in t
        ? { url: t.url, type: 'http' }
        : { command: t.command, ...(t.args.length ? { args: [...t.args] } : {}) };
    const include = input.admitted.map((x) => x.name);
    assertNames(
      'gemini',
      'tool name',
      include,
      EXACT_IN_SETTINGS,
      'Gemini CLI cannot allow such a tool alone: deny it in the runtime block (runtime.deny), or serve the server through toolgate proxy.',
    );
    // A refused name Gemini would rewrite is left out: includeTools already leaves it out.
    const exclude = input.refused.map((r) => r.tool.name).filter(EXACT_IN_SETTINGS.test);
    const entry: Record<string, Json> = { ...start, includeTools: include, ...(exclude.length ? { excludeTools: exclude } : {}) };
    return jsonDocument({ mcpServers: { [input.server]: entry } });
  },
  compare(committed, expected, input) {
    // includeTools must be exactly the export's (one more enables a tool nobody admitted);
    // excludeTools must include the export's, more of it only disables more.
    const c = parseSettings(committed, 'the committed settings');
    const e = parseSettings(expected, 'the export');
    const include = at(c, pathOf(input.server, 'includeTools'));
    if (!Array.isArray(include)) return { why: `mcpServers.${input.server}.includeTools is missing, so Gemini CLI enables every tool of the server` };
    const inc = setDifference(strings(include), strings(at(e, pathOf(input.server, 'includeTools'))));
    const exc = lacksText(strings(at(c, pathOf(input.server, 'excludeTools'))), strings(at(e, pathOf(input.server, 'excludeTools'))));
    const why = [inc && `includeTools ${inc}`, exc && `excludeTools ${exc}`].filter(Boolean);
    return why.length ? { why: why.join('; ') } : undefined;
  },
  merge(existing, expected, input) {
    const e = parseSettings(expected, 'the export');
    const doc = parseSettings(existing, 'the existing settings');
    assertObjectsOn(doc, ['mcpServers', input.server], 'the existing settings');
    const include = strings(at(e, pathOf(input.server, 'includeTools')));
    const had = at(doc, pathOf(input.server, 'includeTools'));
    const dropped = Array.isArray(had) ? lacking(include, strings(had)) : [];
    // The user's exclusions stay (they only disable more); the export's are added.
    const userExclude = strings(at(doc, pathOf(input.server, 'excludeTools')));
    const exclude = [...userExclude, ...lacking(userExclude, strings(at(e, pathOf(input.server, 'excludeTools'))))];
    const text = setInSettings(existing, [
      { path: pathOf(input.server, 'includeTools'), value: include },
      { path: pathOf(input.server, 'excludeTools'), value: exclude.length ? exclude : undefined },
    ]);
    const notes = [
      ...(dropped.length ? [`removed from includeTools, since the contract does not admit them: ${dropped.map(quoted).join(', ')}`] : []),
      ...userExclude
        .filter((n) => include.includes(n))
        .map((n) => `${quoted(n)} stays in excludeTools, though the contract now admits it: remove it by hand if it is not yours`),
    ];
    return { text, notes };
  },
};
