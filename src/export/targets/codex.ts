/**
 * Codex: `enabled_tools` (the admitted tools) and `disabled_tools` (the pinned tools the runtime
 * block refuses) in the server's `[mcp_servers.<server>]` table of `config.toml`, whose `command`
 * or `url` stay the user's.
 *
 * Facts (openai/codex, docs/config.md "MCP integration"; `codex-rs/core/src/
 * mcp_connection_manager.rs` ToolFilter): both lists hold the names the server serves, compared
 * exactly; the server is first restricted to `enabled_tools`, then `disabled_tools` is removed;
 * server names must match `^[a-zA-Z0-9_-]+$` (validate_mcp_server_name). A project's
 * `.codex/config.toml` is read only in a trusted project.
 */
import { parse as parseToml } from 'smol-toml';
import type { Json } from '../../util/json.js';
import { ConfigError } from '../../util/errors.js';
import { quoted, tomlKey, tomlString } from '../literals.js';
import { assertNames, type NameRule } from '../names.js';
import { NAME_ONLY, type ExportInput, type ExportTarget } from '../model.js';
import { at, lacking, lacksText, setDifference, strings } from '../settings-json.js';

const SERVER_NAME: NameRule = {
  test: (n) => /^[a-zA-Z0-9_-]+$/.test(n),
  rule: '^[a-zA-Z0-9_-]+$',
  source: 'openai/codex codex-rs/core/src/mcp_connection_manager.rs (validate_mcp_server_name)',
};
const KEYS = ['enabled_tools', 'disabled_tools'] as const;

function parse(text: string, what: string): Json {
  try {
    return parseToml(text) as unknown as Json;
  } catch (e) {
    throw new ConfigError(
      `cannot read ${what}: it is not valid TOML (${(e as Error).message.split('\n')[0]})`,
      undefined,
      'Fix the file, or remove it and export again.',
    );
  }
}

const array = (names: readonly string[]) => (names.length ? `[\n${names.map((n) => `  ${tomlString(n)},\n`).join('')}]` : '[]');

/** The two keys' lines, as the export writes them (`keep`: the user's own disabled tools, kept first). */
function keyLines(input: ExportInput, keep: readonly string[] = []): string {
  const disabled = [
    ...keep,
    ...lacking(
      keep,
      input.refused.map((r) => r.tool.name),
    ),
  ];
  return `enabled_tools = ${array(input.admitted.map((t) => t.name))}\n${disabled.length ? `disabled_tools = ${array(disabled)}\n` : ''}`;
}

/**
 * The line range `[start, end]` of each `enabled_tools` / `disabled_tools` assignment in a table
 * section (an array may span lines; strings and comments are skipped while counting brackets).
 */
function assignments(lines: readonly string[], from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = from; i < to; i++) {
    if (!/^\s*("?)(enabled_tools|disabled_tools)\1\s*=/.test(lines[i] as string)) continue;
    let depth = 0;
    let seen = false;
    let end = i;
    scan: for (let j = i; j < to; j++) {
      const line = lines[j] as string;
      let k = j === i ? line.indexOf('=') + 1 : 0;
      for (; k < line.length; k++) {
        const ch = line[k];
        if (ch === '#') break;
        if (ch === '"' || ch === "'") {
          const close = ch;
          for (k++; k < line.length && line[k] !== close; k++) if (close === '"' && line[k] === '\\') k++;
        } else if (ch === '[') {
          depth++;
          seen = true;
        } else if (ch === ']') depth--;
      }
      end = j;
      if (!seen || depth <= 0) break scan;
    }
    out.push([i, end]);
    i = end;
  }
  return out;
}

export const codexTarget: ExportTarget = {
  id: 'codex',
  product: 'Codex',
  artifact: '`enabled_tools` / `disabled_tools` of `[mcp_servers.<server>]` in `.codex/config.toml`',
  docs: 'https://developers.openai.com/codex/mcp',
  comment: '#',
  suggestedFile: () => '.codex/config.toml',
  enforces: { names: 'yes', arguments: 'no', annotations: 'no', schemaPin: 'no' },
  verifiedBy: 'TOML parsed by `smol-toml`, checked against the `[mcp_servers.<name>]` keys of codex-rs `config/types.rs`',
  cannot: [
    NAME_ONLY.arguments,
    NAME_ONLY.definitions,
    "Placement: a project's .codex/config.toml is read only in a trusted project, and a list there replaces the user's list.",
    "Start: in a new table the server runs as toolgate.yml runs it (command and args as written there, or its URL); in an existing table only the two lists change, and the table's own command is not compared with toolgate.yml.",
  ],
  render(input) {
    assertNames(
      'codex',
      'server name',
      [input.server],
      SERVER_NAME,
      'Set `server:` on the export entry (or --server) to the name of the server in Codex (its [mcp_servers.<name>] table).',
    );
    // A new file gets the server as toolgate.yml runs it, so the table is whole; merged into an
    // existing table only the two keys change.
    const t = input.transport;
    const start = !t
      ? ''
      : 'url' in t
        ? `url = ${tomlString(t.url)}\n`
        : `command = ${tomlString(t.command)}\n${t.args.length ? `args = [${t.args.map(tomlString).join(', ')}]\n` : ''}`;
    return `[mcp_servers.${tomlKey(input.server)}]\n${start}${keyLines(input)}`;
  },
  compare(committed, expected, input) {
    const c = at(parse(committed, 'the committed config'), ['mcp_servers', input.server]);
    const e = at(parse(expected, 'the export'), ['mcp_servers', input.server]);
    if (!c || !Array.isArray(at(c, ['enabled_tools'])))
      return { why: `[mcp_servers.${input.server}] has no enabled_tools, so Codex enables every tool of the server` };
    // enabled_tools must be exactly the export's; disabled_tools must include it (more only disables more).
    const enabled = setDifference(strings(at(c, ['enabled_tools'])), strings(at(e, ['enabled_tools'])));
    const disabled = lacksText(strings(at(c, ['disabled_tools'])), strings(at(e, ['disabled_tools'])));
    const why = [enabled && `enabled_tools ${enabled}`, disabled && `disabled_tools ${disabled}`].filter(Boolean);
    return why.length ? { why: why.join('; ') } : undefined;
  },
  merge(existing, expected, input) {
    const before = parse(existing, 'the existing config') as Record<string, Json>;
    const userDisabled = strings(at(before, ['mcp_servers', input.server, 'disabled_tools']));
    const hadEnabled = at(before, ['mcp_servers', input.server, 'enabled_tools']);
    const enabled = input.admitted.map((t) => t.name);
    const lines = existing.replace(/\n$/, '').split('\n');
    const header = lines.findIndex((l) => /^\s*\[\s*mcp_servers\s*\.\s*("?)([^"\]]+)\1\s*\]\s*(#.*)?$/.exec(l)?.[2] === input.server);
    let merged: string;
    if (header < 0) {
      if (at(before, ['mcp_servers', input.server]) !== undefined)
        throw new ConfigError(
          `cannot merge into the existing config: [mcp_servers.${input.server}] is not written as a table header`,
          undefined,
          `Write it as a [mcp_servers.${input.server}] table, or add the export's keys by hand.`,
        );
      merged = `${existing.replace(/\n*$/, '\n\n')}${expected.replace(/^(#.*\n)+/, '')}`;
    } else {
      const next = lines.findIndex((l, i) => i > header && /^\s*\[/.test(l));
      const end = next < 0 ? lines.length : next;
      const drop = new Set(assignments(lines, header + 1, end).flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, k) => a + k)));
      const kept = lines.filter((_, i) => !drop.has(i));
      kept.splice(header + 1, 0, keyLines(input, userDisabled).replace(/\n$/, ''));
      merged = `${kept.join('\n')}\n`;
    }
    // Never a half-merged file: everything but the two keys must read as before.
    const after = parse(merged, 'the merged config') as Record<string, Json>;
    const strip = (doc: Record<string, Json>) => {
      const copy = structuredClone(doc) as Record<string, Record<string, Record<string, Json>>>;
      const table = copy.mcp_servers?.[input.server];
      if (table) for (const k of KEYS) delete table[k];
      if (table && Object.keys(table).length === 0 && header < 0) delete copy.mcp_servers?.[input.server];
      if (copy.mcp_servers && Object.keys(copy.mcp_servers).length === 0 && before.mcp_servers === undefined) delete copy.mcp_servers;
      return JSON.stringify(copy);
    };
    if (strip(after) !== strip(before) || this.compare?.(merged, expected, input)) {
      throw new ConfigError(
        'cannot merge the export into the existing config without changing other settings',
        undefined,
        `Set enabled_tools and disabled_tools of [mcp_servers.${input.server}] by hand, as \`toolgate export --to codex\` prints them.`,
      );
    }
    const notes = [
      ...(Array.isArray(hadEnabled) && lacking(enabled, strings(hadEnabled)).length
        ? [`removed from enabled_tools, since the contract does not admit them: ${lacking(enabled, strings(hadEnabled)).map(quoted).join(', ')}`]
        : []),
      ...userDisabled
        .filter((n) => enabled.includes(n))
        .map((n) => `${quoted(n)} stays in disabled_tools, though the contract now admits it: remove it by hand if it is not yours`),
    ];
    return { text: merged, notes };
  },
};
