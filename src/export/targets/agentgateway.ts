/**
 * agentgateway: `mcpAuthorization` CEL rules, in the standalone configuration (the `mcp:` form)
 * and as an `AgentgatewayPolicy` resource for its Kubernetes control plane.
 *
 * Facts (agentgateway v1.4): a rule is a CEL string that allows; once an allow rule exists,
 * anything no rule allows is denied, and the rules filter tools/list as well as tools/call
 * (`crates/agentgateway/src/http/authorization.rs`, `mcp/handler.rs`). `mcp.tool.name` is the
 * name the server serves, `mcp.tool.target` the target's name; arguments are not in the context
 * at authorization time (`test_rbac_mcp_context_is_identity_only`). Target names follow the
 * Gateway API SectionName pattern (`types/agent.rs` validate_mcp_target_name). The
 * `AgentgatewayPolicy` (`agentgateway.dev/v1alpha1`) takes 1 to 256 `matchExpressions` of at
 * most 16,384 characters, each one an allow rule (`controller/api/v1alpha1/agentgateway/rbac.go`).
 */
import { DNS_SUBDOMAIN, assertResourceName } from '../kubernetes.js';
import { celString } from '../literals.js';
import { assertNames } from '../names.js';
import { NAME_ONLY, type ExportInput, type ExportTarget } from '../model.js';
import { toYaml } from '../yaml.js';
import { ConfigError } from '../../util/errors.js';

const CANNOT = [
  "Arguments: agentgateway evaluates authorization without the call's arguments (they are not in its CEL context), so any arguments reach the server.",
  NAME_ONLY.definitions,
  "Prompts and resources: once an allow rule exists agentgateway denies what no rule allows, so these rules also hide the server's prompts and resources; allow them with rules of your own (has(mcp.prompt), has(mcp.resource)) in another policy.",
];

/** Most names in one `in [...]` expression, and the longest expression (AgentgatewayPolicy limit). */
const MAX_EXPRESSION_CHARS = 16_384;
const MAX_EXPRESSIONS = 256;

function assertTarget(target: string, input: ExportInput): void {
  assertNames(
    target,
    'MCP target name (the server name)',
    [input.server],
    DNS_SUBDOMAIN,
    'Set `server:` on the export entry (or --server) to lower-case letters, digits, "-" and ".": agentgateway reserves "_" and "+" in target names.',
  );
}

/** One allow rule per admitted tool; `false` when none is admitted (an allowlist that allows nothing). */
export function celRules(input: ExportInput): string[] {
  const target = `mcp.tool.target == ${celString(input.server)}`;
  if (input.admitted.length === 0) return ['false'];
  return input.admitted.map((t) => `${target} && mcp.tool.name == ${celString(t.name)}`);
}

/**
 * The rules as at most 256 expressions of at most 16,384 characters: one per tool while that
 * fits, else `in [...]` lists packed up to the length limit.
 * @throws ConfigError when even packed they do not fit.
 */
export function packedExpressions(input: ExportInput): string[] {
  const rules = celRules(input);
  if (rules.length <= MAX_EXPRESSIONS && rules.every((r) => r.length <= MAX_EXPRESSION_CHARS)) return rules;
  const head = `mcp.tool.target == ${celString(input.server)} && mcp.tool.name in [`;
  const out: string[] = [];
  let names: string[] = [];
  // Length of `head` + the names joined by ", " + "]", kept as names are added (linear).
  let length = head.length + 1;
  const flush = () => {
    if (names.length) out.push(`${head}${names.join(', ')}]`);
    names = [];
    length = head.length + 1;
  };
  for (const t of input.admitted) {
    const lit = celString(t.name);
    if (head.length + lit.length + 1 > MAX_EXPRESSION_CHARS)
      throw new ConfigError(
        `cannot export to agentgateway-k8s: the name ${lit.slice(0, 80)}… alone makes an expression over ${MAX_EXPRESSION_CHARS} characters (AgentgatewayPolicy matchExpressions limit)`,
        undefined,
        'Deny this tool in the runtime block, or use the standalone agentgateway export.',
      );
    const added = lit.length + (names.length ? 2 : 0);
    if (length + added > MAX_EXPRESSION_CHARS) flush();
    length += lit.length + (names.length ? 2 : 0);
    names.push(lit);
  }
  flush();
  if (out.length > MAX_EXPRESSIONS)
    throw new ConfigError(
      `cannot export to agentgateway-k8s: ${input.admitted.length} tools need ${out.length} matchExpressions, over the limit of ${MAX_EXPRESSIONS}`,
      undefined,
      'Narrow the runtime block (runtime.allow-tools), or use the standalone agentgateway export.',
    );
  return out;
}

export const agentgatewayTarget: ExportTarget = {
  id: 'agentgateway',
  product: 'agentgateway',
  artifact: 'standalone configuration (`mcp:` with `policies.mcpAuthorization.rules` and the server as its target)',
  docs: 'https://agentgateway.dev/docs/standalone/latest/configuration/security/mcp-authz/',
  comment: '#',
  suggestedFile: (server) => `deploy/agentgateway/${server}.yaml`,
  enforces: { names: 'yes', arguments: 'no', annotations: 'no', schemaPin: 'no' },
  verifiedBy:
    'CEL (`@marcbachmann/cel-js`): the rules allow the admitted tools of this target and nothing else; JSON Schema of the `mcp:` configuration written from `schema/config.json`',
  cannot: [
    ...CANNOT,
    'The server runs as toolgate.yml starts it (command and args, or its URL); its environment variables and working directory are not carried over.',
  ],
  render(input) {
    assertTarget('agentgateway', input);
    const t = input.transport;
    if (!t)
      throw new ConfigError(
        `cannot export source "${input.sourceId}" to agentgateway: the standalone configuration starts or connects to the server, and a recorded or OpenAPI source says neither how`,
        undefined,
        'Use --to agentgateway-k8s (an AgentgatewayPolicy for a backend you define), or an MCP source.',
      );
    const spec = 'url' in t ? { mcp: { host: t.url } } : { stdio: { cmd: t.command, ...(t.args.length ? { args: t.args } : {}) } };
    return `# yaml-language-server: $schema=https://agentgateway.dev/schema/config\n${toYaml({
      mcp: {
        policies: { mcpAuthorization: { rules: celRules(input) } },
        targets: [{ name: input.server, ...spec }],
      },
    })}`;
  },
};

export const agentgatewayK8sTarget: ExportTarget = {
  id: 'agentgateway-k8s',
  product: 'agentgateway (Kubernetes)',
  artifact: '`AgentgatewayPolicy` resource (`spec.backend.mcp.authorization`) for the `AgentgatewayBackend` named after the server',
  docs: 'https://agentgateway.dev/docs/kubernetes/latest/mcp/tool-access/',
  comment: '#',
  suggestedFile: (server) => `deploy/agentgateway/${server}.policy.yaml`,
  enforces: { names: 'yes', arguments: 'no', annotations: 'no', schemaPin: 'no' },
  verifiedBy: 'CEL (`@marcbachmann/cel-js`), up to 3,000 tools packed into 256 expressions; JSON Schema of `AgentgatewayPolicy` written from the CRD',
  cannot: [...CANNOT, 'It assumes the AgentgatewayBackend and its MCP target are both named after the server (the `server` of the export entry).'],
  render(input) {
    assertTarget('agentgateway-k8s', input);
    assertResourceName('agentgateway-k8s', input.server);
    return toYaml({
      apiVersion: 'agentgateway.dev/v1alpha1',
      kind: 'AgentgatewayPolicy',
      metadata: { name: `${input.server}-toolgate` },
      spec: {
        targetRefs: [{ group: 'agentgateway.dev', kind: 'AgentgatewayBackend', name: input.server }],
        backend: { mcp: { authorization: { action: 'Allow', policy: { matchExpressions: packedExpressions(input) } } } },
      },
    });
  },
};
