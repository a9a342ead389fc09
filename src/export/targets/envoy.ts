/**
 * Envoy AI Gateway: an `MCPRoute` whose backend's `toolSelector` admits exactly the admitted set.
 *
 * Facts (envoyproxy/ai-gateway v1.1, `api/v1beta1/mcp_route.go` and the CRD): apiVersion
 * `aigateway.envoyproxy.io/v1beta1` (since v0.6); `include` and `includeRegex` hold at most 32
 * items each and exclude each other; `include` is exact set membership on the name the server
 * serves (before the `<backend>__` prefix clients see); regexes are Go RE2, unanchored
 * (`internal/mcpproxy/config.go`). `parentRefs` must be Gateways.
 *
 * Past 32 names the route uses one `includeRegex` that is an anchored alternation of the names,
 * each escaped, so it matches those names and nothing else.
 */
import { assertResourceName } from '../kubernetes.js';
import { NAME_ONLY, type ExportTarget } from '../model.js';
import { toYaml } from '../yaml.js';
import { assertSomeAdmitted } from '../names.js';

/** `include` holds at most this many names (CRD MaxItems). */
export const ENVOY_INCLUDE_MAX = 32;

/** RE2 syntax for exactly `s`: metacharacters escaped, everything outside printable ASCII as `\x{…}`. */
export function re2Literal(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (/[\\.+*?()|[\]{}^$]/.test(ch)) out += `\\${ch}`;
    else if (cp >= 0x20 && cp <= 0x7e) out += ch;
    else out += `\\x{${cp.toString(16).toUpperCase()}}`;
  }
  return out;
}

export const envoyTarget: ExportTarget = {
  id: 'envoy',
  product: 'Envoy AI Gateway',
  artifact: '`MCPRoute` resource (`backendRefs[].toolSelector.include`, or one anchored `includeRegex` past 32 names)',
  docs: 'https://aigateway.envoyproxy.io/docs/capabilities/mcp/',
  comment: '#',
  suggestedFile: (server) => `deploy/envoy-ai-gateway/${server}.mcproute.yaml`,
  enforces: { names: 'yes', arguments: 'no', annotations: 'no', schemaPin: 'no' },
  verifiedBy: 'JSON Schema and the CEL validations of the `MCPRoute` CRD (v1beta1), written from the CRD; `includeRegex` by RE2 (`re2js`)',
  cannot: [
    NAME_ONLY.arguments,
    NAME_ONLY.definitions,
    "It assumes an Envoy Gateway `Backend` named after the server, and a Gateway named by the export entry's `gateway` (default envoy-ai-gateway).",
    'Versions: MCPRoute v1beta1 needs Envoy AI Gateway v0.6 or later.',
  ],
  render(input) {
    assertResourceName('envoy', input.server);
    // An empty selector is refused by the CRD, and no selector admits every tool.
    assertSomeAdmitted('envoy', input, 'an MCPRoute toolSelector needs at least one entry (without one every tool passes)');
    const names = input.admitted.map((t) => t.name);
    const toolSelector = names.length <= ENVOY_INCLUDE_MAX ? { include: names } : { includeRegex: [`^(?:${names.map(re2Literal).join('|')})$`] };
    return toYaml({
      apiVersion: 'aigateway.envoyproxy.io/v1beta1',
      kind: 'MCPRoute',
      metadata: { name: input.server },
      spec: {
        parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: input.gateway ?? 'envoy-ai-gateway' }],
        backendRefs: [{ group: 'gateway.envoyproxy.io', kind: 'Backend', name: input.server, path: '/mcp', toolSelector }],
      },
    });
  },
};
