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
import type { Json } from '../../surface/model.js';
import type { ExportTarget } from '../model.js';
import { at, jsonDocument, parseSettings, setDifference, setInSettings, strings } from '../settings-json.js';

const pathOf = (server: string, key: 'includeTools' | 'excludeTools') => ['mcpServers', server, key];

export const geminiTarget: ExportTarget = {
  id: 'gemini',
  product: 'Gemini CLI',
  artifact: '`mcpServers.<server>.includeTools` / `excludeTools` in `.gemini/settings.json`',
  docs: 'https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md',
  suggestedFile: () => '.gemini/settings.json',
  enforces: { names: 'yes', arguments: 'no', annotations: 'no', schemaPin: 'no' },
  verifiedBy: 'JSON Schema of `mcpServers` entries written from `schemas/settings.schema.json` of gemini-cli',
  cannot: [
    'Arguments: any arguments reach the server.',
    'Definitions: a tool whose description, schema or hints changed after the review keeps its name and passes.',
    'Placement: a server entry in a settings file of higher precedence (system, then project, then user) replaces this one whole, lists included; keep the lists in the file that defines the server.',
  ],
  render(input) {
    // A new file gets the server as toolgate.yml runs it, so the entry is whole; merged into an
    // existing entry only the two lists change.
    const t = input.transport;
    const start: Record<string, Json> = !t ? {} : 'url' in t ? { url: t.url, type: 'http' } : { command: t.command, ...(t.args.length ? { args: [...t.args] } : {}) };
    const entry: Record<string, Json> = { ...start, includeTools: input.admitted.map((x) => x.name), ...(input.refused.length ? { excludeTools: input.refused.map((r) => r.tool.name) } : {}) };
    return jsonDocument({ mcpServers: { [input.server]: entry } });
  },
  compare(committed, expected, input) {
    const c = parseSettings(committed, 'the committed settings');
    const e = parseSettings(expected, 'the export');
    const include = at(c, pathOf(input.server, 'includeTools'));
    if (!Array.isArray(include)) return { why: `mcpServers.${input.server}.includeTools is missing, so Gemini CLI enables every tool of the server` };
    const why = [setDifference(strings(include), strings(at(e, pathOf(input.server, 'includeTools')))), setDifference(strings(at(c, pathOf(input.server, 'excludeTools'))), strings(at(e, pathOf(input.server, 'excludeTools'))))];
    if (!why[0] && !why[1]) return undefined;
    return { why: [why[0] && `includeTools ${why[0]}`, why[1] && `excludeTools ${why[1]}`].filter(Boolean).join('; ') };
  },
  merge(existing, expected, input) {
    const e = parseSettings(expected, 'the export');
    parseSettings(existing, 'the existing settings');
    const exclude = at(e, pathOf(input.server, 'excludeTools'));
    return setInSettings(existing, [
      { path: pathOf(input.server, 'includeTools'), value: at(e, pathOf(input.server, 'includeTools')) },
      { path: pathOf(input.server, 'excludeTools'), value: exclude },
    ]);
  },
};
