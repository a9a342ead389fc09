/**
 * ToolHive: the `MCPToolConfig` resource (`spec.toolsFilter`) that an `MCPServer` references by
 * `spec.toolConfigRef.name`, with the `thv run --tools` form in the header.
 *
 * Facts (stacklok/toolhive v0.44): apiVersion `toolhive.stacklok.dev/v1beta1` (since v0.23;
 * `cmd/thv-operator/api/v1beta1/toolconfig_types.go`); `toolsFilter` is a set of exact names and
 * "if empty, all tools are exposed"; the operator refuses an entry that is empty or holds `,`,
 * `\n` or `\r` (`controllers/mcpserver_runconfig.go` validateToolsFilter); `--tools` takes one
 * name per flag (a StringArray: `--tools a,b` is the one name "a,b"; toolhive#1239).
 */
import { toYaml } from '../yaml.js';
import { assertResourceName } from '../kubernetes.js';
import { assertNames, assertSomeAdmitted, type NameRule } from '../names.js';
import { shellWord } from '../literals.js';
import { NAME_ONLY, type ExportTarget } from '../model.js';

const FILTER_ENTRY: NameRule = {
  test: (n) => n.length > 0 && !/[,\n\r]/.test(n),
  rule: 'a non-empty name without ",", line feed or carriage return',
  source: 'stacklok/toolhive cmd/thv-operator/controllers/mcpserver_runconfig.go (validateToolsFilter)',
};

export const toolhiveTarget: ExportTarget = {
  id: 'toolhive',
  product: 'ToolHive',
  artifact: '`MCPToolConfig` resource (`spec.toolsFilter`); the `thv run --tools` form in the header',
  docs: 'https://docs.stacklok.com/toolhive/guides-k8s/customize-tools',
  comment: '#',
  suggestedFile: (server) => `deploy/toolhive/${server}.mcptoolconfig.yaml`,
  enforces: { names: 'yes', arguments: 'no', annotations: 'no', schemaPin: 'no' },
  verifiedBy: "JSON Schema of `MCPToolConfig` v1beta1 written from the CRD and the operator's filter rules (test/fixtures/exports/README.md)",
  cannot: [
    'Arguments: any arguments reach the server (use the toolhive-cedar export for enums and types).',
    NAME_ONLY.definitions,
    'toolsOverride: the filter matches the name after a rename, so renaming a tool in the MCPServer changes what this list admits.',
    'Versions: MCPToolConfig v1beta1 needs ToolHive v0.23 or later (earlier operators serve only v1alpha1, with the same fields).',
  ],
  render(input) {
    assertResourceName('toolhive', input.server);
    const names = input.admitted.map((t) => t.name);
    assertNames(
      'toolhive',
      'tool name',
      names,
      FILTER_ENTRY,
      'Such a tool cannot be allowed by name in ToolHive: deny it in the runtime block (runtime.deny) or serve it through toolgate proxy.',
    );
    assertSomeAdmitted('toolhive', input, 'ToolHive reads an empty toolsFilter as "every tool"');
    const cli = `thv run ${names.map((n) => `--tools ${shellWord(n)}`).join(' ')} <server>`;
    const resource = {
      apiVersion: 'toolhive.stacklok.dev/v1beta1',
      kind: 'MCPToolConfig',
      metadata: { name: input.server },
      spec: { toolsFilter: names },
    };
    return `# Reference it from the MCPServer: spec.toolConfigRef.name: ${input.server} (same namespace).\n# Without Kubernetes: ${cli.length > 2000 ? 'thv run --tools NAME (once per name above) <server>' : cli.replace(/\n/g, ' ')}\n${toYaml(resource)}`;
  },
};
