/**
 * Docker MCP Gateway: a `tools.yaml` with the server's admitted tools
 * (`docker mcp gateway run --tools-config FILE`).
 *
 * Facts (docker/mcp-gateway, `pkg/config/tools.go`, `pkg/gateway/capabilitites.go`): the file
 * maps a server name to a list of tool names; a listed server gets only those (exact,
 * case-sensitive; `[]` gives none), an unlisted one every tool; a later `--tools-config` file
 * replaces an earlier one's entry for the same server, so one file per server composes. The
 * `--tools` flag is matched case-insensitively and split as CSV, so it is only shown as a form
 * where that cannot widen the set.
 */
import { NAME_ONLY, type ExportTarget } from '../model.js';
import { toYaml } from '../yaml.js';
import { shellWord } from '../literals.js';

/** `--tools server:tool` flags, or undefined when the flag would match more than the set. */
function toolsFlags(server: string, names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  const folded = new Set(names.map((n) => n.toLowerCase()));
  // Case-insensitive matching: two names that differ in case only are fine (both admitted), but
  // the flag also admits every other casing of a name, which the contract did not review.
  const safe = names.every((n) => /^[A-Za-z0-9_./@+-]+$/.test(n) && n === n.toLowerCase()) && folded.size === names.length && /^[A-Za-z0-9_.-]+$/.test(server);
  if (!safe) return undefined;
  const flags = names.map((n) => `--tools ${shellWord(`${server}:${n}`)}`).join(' ');
  return flags.length <= 2000 ? flags : undefined;
}

export const dockerTarget: ExportTarget = {
  id: 'docker',
  product: 'Docker MCP Gateway',
  artifact: '`tools.yaml` (server → tool names), read with `docker mcp gateway run --tools-config`',
  docs: 'https://docs.docker.com/ai/mcp-catalog-and-toolkit/mcp-gateway/',
  comment: '#',
  suggestedFile: (server) => `deploy/docker-mcp/${server}.tools.yaml`,
  enforces: { names: 'yes', arguments: 'no', annotations: 'no', schemaPin: 'no' },
  verifiedBy: 'JSON Schema of `tools.yaml` written from `pkg/config/tools.go`',
  cannot: [
    NAME_ONLY.arguments,
    NAME_ONLY.definitions,
    '`--tools`: given on the command line it replaces every tools.yaml, and matches names case-insensitively.',
  ],
  render(input) {
    const names = input.admitted.map((t) => t.name);
    const flags = toolsFlags(input.server, names);
    const usage = `# docker mcp gateway run --servers ${input.server} --tools-config <this file>${flags ? `\n# or, the same set on the command line: ${flags}` : ''}\n`;
    return usage + toYaml({ [input.server]: names });
  },
};
