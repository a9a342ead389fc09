/**
 * The formats `toolgate export` writes, as JSON Schemas (draft 2020-12, Ajv `ajv/dist/2020.js`):
 * one per target, written for toolgate from the documented facts (field names, required keys,
 * enums, types, limits) and never copied from an upstream file. An object is closed
 * (`additionalProperties: false`) where the upstream rejects unknown keys, or where its own
 * published schema does; it is left open where the upstream ignores them or where the facts do
 * not list every key. Each schema's `$comment` names its source (repository@commit:path or URL).
 *
 * What a schema cannot say is a rule next to it: the Kubernetes CRD `x-kubernetes-validations`
 * (CEL) and the checks a product runs after parsing, as plain TypeScript predicates applied where
 * the CEL rule's `self` is (a path with `*` for every element). The sources are listed in
 * test/fixtures/exports/README.md, "Target formats the tests validate against".
 */
import { readFileSync } from 'node:fs';
import type { ErrorObject, SchemaObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { RE2JS } from 're2js';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';

export type TargetId =
  'toolgate' | 'toolhive' | 'toolhive-cedar' | 'agentgateway' | 'agentgateway-k8s' | 'docker' | 'envoy' | 'claude-code' | 'gemini' | 'codex';
export type Syntax = 'yaml' | 'json' | 'toml';

/** A check the schema cannot express: `holds` is evaluated on every node `at` selects. */
export interface Rule {
  /** Path from the document root, `/`-separated; `*` is every element of an array or value of a map; '' is the root. */
  at: string;
  /** Whether the node satisfies the rule (CEL's `self` is the node). Missing optional fields are absent, as CEL's `has()` sees them. */
  holds: (node: any) => boolean;
  /** The product's message where it has one, else what the rule requires. */
  message: string;
  /** Where the rule is written down. */
  source: string;
}

export interface TargetFormat {
  id: TargetId;
  /** The golden file name: test/golden/exports/<case>/<file>. */
  file: string;
  syntax: Syntax;
  schema: SchemaObject;
  rules: readonly Rule[];
}

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

// ---------------------------------------------------------------------------------------------
// Sources (the research notes' snapshots; README has the table).
const TH = 'github.com/stacklok/toolhive@e25de16cf9720b13cf0b400c861a2f6840e2763c (v0.44.0-33)';
const EG = 'github.com/envoyproxy/ai-gateway@c217da8a539570ba3f6014a60c2687c29a945f1f (v1.1.0)';
const AGW = 'github.com/agentgateway/agentgateway@75b4e6ce6e0e1ac7959d5548ebe8dbeaede4f180 (v1.4.1-206)';
const DOCKER = 'github.com/docker/mcp-gateway@2bd20fe83dd04870e8d87dc1ed059d4d19fc7c68';
const GEMINI = 'github.com/google-gemini/gemini-cli@5411f113cafae26161b4969b0237b8e1e024e2c2';
const CODEX = 'github.com/openai/codex';
const K8S_NAMES = 'https://kubernetes.io/docs/concepts/overview/working-with-objects/names/';

// ---------------------------------------------------------------------------------------------
// Helpers for the rules.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** CEL's `has(self.<key>)` on a decoded object: the field is present (null counts as absent, as Kubernetes drops it). */
const has = (o: unknown, key: string): boolean => isObject(o) && Object.hasOwn(o, key) && o[key] !== undefined && o[key] !== null;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const pointerToken = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** The nodes at `path` (see Rule.at), each with its JSON pointer. */
export function select(doc: unknown, path: string): Array<[string, unknown]> {
  let nodes: Array<[string, unknown]> = [['', doc]];
  for (const seg of path.split('/').filter(Boolean)) {
    const next: Array<[string, unknown]> = [];
    for (const [p, n] of nodes) {
      if (seg === '*') {
        if (Array.isArray(n)) n.forEach((v, i) => next.push([`${p}/${i}`, v]));
        else if (isObject(n)) for (const [k, v] of Object.entries(n)) next.push([`${p}/${pointerToken(k)}`, v]);
      } else if (has(n, seg)) {
        next.push([`${p}/${pointerToken(seg)}`, (n as Record<string, unknown>)[seg]]);
      }
    }
    nodes = next;
  }
  return nodes;
}

// ---------------------------------------------------------------------------------------------
// Shared Kubernetes fragments.

/** RFC 1123 subdomain (Kubernetes object names, Gateway API SectionName). */
const DNS1123_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
/** RFC 1123 label (namespaces). */
const DNS1123_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
/** Gateway API Group and Kind, as the CRDs of both gateways spell them out. */
const API_GROUP = '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const API_KIND = '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$';

const k8sMetadata: SchemaObject = {
  $comment: `Kubernetes ObjectMeta, only the parts an export sets: name is an RFC 1123 subdomain of at most 253 characters, namespace an RFC 1123 label of at most 63 (${K8S_NAMES}). Open: ObjectMeta has many more fields.`,
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 253, pattern: DNS1123_SUBDOMAIN },
    namespace: { type: 'string', minLength: 1, maxLength: 63, pattern: DNS1123_LABEL },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

/** A Kubernetes object of `apiVersion`/`kind` with `spec`; closed at the top (a manifest sets no status). */
function k8sObject(apiVersion: string, kind: string, spec: SchemaObject, comment: string, id: string): SchemaObject {
  return {
    $schema: DRAFT,
    $id: `urn:toolgate:export-target:${id}`,
    $comment: comment,
    type: 'object',
    additionalProperties: false,
    required: ['apiVersion', 'kind', 'metadata', 'spec'],
    properties: { apiVersion: { const: apiVersion }, kind: { const: kind }, metadata: k8sMetadata, spec },
  };
}

const port = { type: 'integer', minimum: 1, maximum: 65535 };
const strings = { type: 'array', items: { type: 'string' } };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };

// ---------------------------------------------------------------------------------------------
// toolgate: the `runtime` block of toolgate.yml, checked by the repository's own schema file.

const TOOLGATE_SCHEMA_PATH = new URL('../../schema/toolgate.schema.json', import.meta.url);
/** schema/toolgate.schema.json as committed (draft-07). */
export const toolgateSchemaFile = JSON.parse(readFileSync(TOOLGATE_SCHEMA_PATH, 'utf8')) as SchemaObject & { $id: string };

const toolgate: TargetFormat = {
  id: 'toolgate',
  file: 'toolgate.yml',
  syntax: 'yaml',
  schema: {
    $schema: DRAFT,
    $id: 'urn:toolgate:export-target:toolgate',
    $comment:
      'The `runtime` block `toolgate export --to toolgate` writes for toolgate.yml. The block is checked by schema/toolgate.schema.json (this repository) `properties.runtime`, loaded from that file and referenced, not rewritten.',
    type: 'object',
    additionalProperties: false,
    required: ['runtime'],
    properties: { runtime: { $ref: `${toolgateSchemaFile.$id}#/properties/runtime` } },
  },
  rules: [],
};

// ---------------------------------------------------------------------------------------------
// ToolHive MCPToolConfig.

const toolhive: TargetFormat = {
  id: 'toolhive',
  file: 'toolhive.yaml',
  syntax: 'yaml',
  schema: k8sObject(
    'toolhive.stacklok.dev/v1beta1',
    'MCPToolConfig',
    {
      type: 'object',
      additionalProperties: false,
      properties: {
        toolsFilter: {
          $comment:
            'Optional []string with +listType=set (x-kubernetes-list-type: set: the API server rejects duplicates). No MaxItems, Pattern, MinLength or MaxLength in the CRD; the operator checks the entries (rules).',
          type: 'array',
          uniqueItems: true,
          items: { type: 'string' },
        },
        toolsOverride: {
          $comment: 'map[string]ToolOverride keyed by the upstream tool name; annotations since v0.12.5.',
          type: 'object',
          additionalProperties: {
            type: 'object',
            additionalProperties: false,
            properties: {
              name: { type: 'string' },
              description: { type: 'string' },
              annotations: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  title: { type: 'string' },
                  readOnlyHint: { type: 'boolean' },
                  destructiveHint: { type: 'boolean' },
                  idempotentHint: { type: 'boolean' },
                  openWorldHint: { type: 'boolean' },
                },
              },
            },
          },
        },
      },
    },
    `ToolHive MCPToolConfig, apiVersion toolhive.stacklok.dev/v1beta1 (storage version; ToolHive >= v0.23.0, v1alpha1 deprecated). ${TH}: cmd/thv-operator/api/v1beta1/toolconfig_types.go; deploy/charts/operator-crds/files/crds/toolhive.stacklok.dev_mcptoolconfigs.yaml. Closed objects: the CRD is a structural schema and kubectl's strict field validation rejects unknown fields.`,
    'toolhive',
  ),
  rules: [
    {
      at: 'spec/toolsFilter/*',
      holds: (s) => typeof s !== 'string' || (s.length > 0 && !/[,\n\r]/.test(s)),
      message: 'tool filter entries must be non-empty and contain no "," "\\n" or "\\r" (the operator: "tool filter cannot contain empty values")',
      source: `${TH}: cmd/thv-operator/controllers/mcpserver_runconfig.go validateToolsFilter`,
    },
    {
      at: 'spec/toolsOverride/*',
      holds: (o) => !isObject(o) || Boolean(o.name) || Boolean(o.description),
      message: 'override name and description cannot both be empty',
      source: `${TH}: pkg/mcp/tool_filter.go WithToolsOverride`,
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// ToolHive Cedar authorization config (thv run --authz-config <file>.yaml).

const toolhiveCedar: TargetFormat = {
  id: 'toolhive-cedar',
  file: 'toolhive-cedar.yaml',
  syntax: 'yaml',
  schema: {
    $schema: DRAFT,
    $id: 'urn:toolgate:export-target:toolhive-cedar',
    $comment: `ToolHive authorization config of type cedarv1 (JSON, or YAML by the .yaml/.yml extension, converted with YAMLToJSON). ${TH}: pkg/authz/authorizers/config.go LoadConfig/Validate; pkg/authz/authorizers/cedar/core.go Config/ConfigOptions/ValidateConfig; docs/authz.md. Open objects: Go's encoding/json ignores unknown keys.`,
    type: 'object',
    required: ['version', 'type', 'cedar'],
    properties: {
      version: {
        $comment: 'Required ("version is required"); docs/authz.md: currently "1.0". A string: an unquoted 1.0 would be a number.',
        type: 'string',
        minLength: 1,
      },
      type: { const: 'cedarv1' },
      cedar: {
        type: 'object',
        required: ['policies'],
        properties: {
          policies: { $comment: '"at least one policy is required for Cedar authorization"', type: 'array', minItems: 1, items: { type: 'string' } },
          entities_json: { $comment: 'A string holding JSON, e.g. "[]".', type: 'string' },
          group_claim_name: { type: 'string' },
          role_claim_name: { type: 'string' },
          group_entity_type: { type: 'string' },
          multi_valued_claims: strings,
          primary_upstream_provider: { type: 'string' },
        },
      },
    },
  },
  rules: [
    {
      at: 'cedar/entities_json',
      holds: (s) => {
        if (typeof s !== 'string') return true;
        try {
          return Array.isArray(JSON.parse(s));
        } catch {
          return false;
        }
      },
      message: 'entities_json must hold a JSON array of Cedar entities',
      source: `${TH}: pkg/authz/authorizers/cedar/core.go ConfigOptions.EntitiesJSON; https://docs.cedarpolicy.com/auth/entities-syntax.html (entities are a JSON list)`,
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// Envoy AI Gateway MCPRoute.

const gatewayApiName = { type: 'string', minLength: 1, maxLength: 253 };
const gatewayApiNamespace = { type: 'string', minLength: 1, maxLength: 63, pattern: DNS1123_LABEL };
const gatewayApiGroup = { type: 'string', maxLength: 253, pattern: API_GROUP };
const gatewayApiKind = { type: 'string', minLength: 1, maxLength: 63, pattern: API_KIND };
const toolList = { type: 'array', maxItems: 32, items: { type: 'string' } };

const envoy: TargetFormat = {
  id: 'envoy',
  file: 'envoy.yaml',
  syntax: 'yaml',
  schema: k8sObject(
    'aigateway.envoyproxy.io/v1beta1',
    'MCPRoute',
    {
      type: 'object',
      additionalProperties: false,
      required: ['parentRefs', 'backendRefs'],
      properties: {
        parentRefs: {
          $comment: 'Gateway API ParentReference; Required, MinItems 1, MaxItems 16.',
          type: 'array',
          minItems: 1,
          maxItems: 16,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name'],
            properties: {
              group: gatewayApiGroup,
              kind: gatewayApiKind,
              name: gatewayApiName,
              namespace: gatewayApiNamespace,
              sectionName: { type: 'string', minLength: 1, maxLength: 253, pattern: DNS1123_SUBDOMAIN },
              port,
            },
          },
        },
        path: { type: 'string', maxLength: 1024 },
        hostnames: { type: 'array', maxItems: 16, items: { type: 'string' } },
        headers: { type: 'array', maxItems: 16, items: { type: 'object' } },
        securityPolicy: {
          type: 'object',
          properties: {
            authorization: {
              type: 'object',
              properties: {
                defaultAction: { enum: ['Allow', 'Deny'] },
                rules: {
                  type: 'array',
                  maxItems: 32,
                  items: {
                    type: 'object',
                    properties: {
                      target: {
                        type: 'object',
                        properties: {
                          tools: {
                            type: 'array',
                            minItems: 1,
                            maxItems: 16,
                            items: { type: 'object', required: ['backend', 'tool'], properties: { backend: { type: 'string' }, tool: { type: 'string' } } },
                          },
                        },
                      },
                      cel: { type: 'string', maxLength: 4096 },
                    },
                  },
                },
              },
            },
          },
        },
        backendSelector: { type: 'object' },
        backendRefs: {
          $comment:
            'Required, MinItems 1, MaxItems 256; each an inlined Gateway API BackendObjectReference plus path, toolSelector, securityPolicy, forwardHeaders.',
          type: 'array',
          minItems: 1,
          maxItems: 256,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name'],
            properties: {
              group: gatewayApiGroup,
              kind: gatewayApiKind,
              name: gatewayApiName,
              namespace: gatewayApiNamespace,
              port,
              path: { type: 'string', maxLength: 1024 },
              toolSelector: {
                $comment:
                  'MCPToolFilter: four optional lists of at most 32 strings each, with no pattern or length limit on the items; matched against the upstream (unprefixed) tool name.',
                type: 'object',
                additionalProperties: false,
                properties: { include: toolList, includeRegex: toolList, exclude: toolList, excludeRegex: toolList },
              },
              securityPolicy: { type: 'object', properties: { apiKey: { type: 'object' } } },
              forwardHeaders: {
                type: 'array',
                maxItems: 32,
                items: {
                  type: 'object',
                  required: ['name'],
                  properties: { name: { type: 'string', minLength: 1 }, backendHeader: { type: 'string', minLength: 1 } },
                },
              },
            },
          },
        },
      },
    },
    `Envoy AI Gateway MCPRoute, apiVersion aigateway.envoyproxy.io/v1beta1 (storage version since v0.6.0; v1alpha1 deprecated). ${EG}: api/v1beta1/mcp_route.go; manifests/charts/ai-gateway-crds-helm/templates/aigateway.envoyproxy.io_mcproutes.yaml (Gateway API group/kind/name/namespace/port limits as that CRD spells them). Closed objects: structural CRD schema, kubectl strict field validation.`,
    'envoy',
  ),
  rules: [
    {
      at: 'spec/parentRefs',
      // ParentReference.kind defaults to Gateway before CEL runs.
      holds: (refs) => list(refs).every((r) => !isObject(r) || (r.kind ?? 'Gateway') === 'Gateway'),
      message: 'only Gateway is supported',
      source: `${EG}: api/v1beta1/mcp_route.go MCPRouteSpec.ParentRefs, CEL self.all(match, match.kind == 'Gateway')`,
    },
    {
      at: 'spec/backendRefs',
      holds: (refs) => {
        const names = list(refs).map((r) => (isObject(r) ? r.name : undefined));
        return names.every((n) => names.filter((m) => m === n).length === 1);
      },
      message: 'all backendRefs names must be unique',
      source: `${EG}: api/v1beta1/mcp_route.go MCPRouteSpec.BackendRefs, CEL self.all(i, self.exists_one(j, j.name == i.name))`,
    },
    {
      at: 'spec/backendRefs/*',
      // group defaults to "" and kind to Service.
      holds: (r) => !isObject(r) || !((r.group ?? '') === '' && (r.kind ?? 'Service') === 'Service') || has(r, 'port'),
      message: 'Must have port for Service reference',
      source: `${EG}: CRD aigateway.envoyproxy.io_mcproutes.yaml backendRefs items, CEL (size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true`,
    },
    {
      at: 'spec/backendRefs/*/toolSelector',
      holds: (s) => !(has(s, 'include') && has(s, 'includeRegex')),
      message: 'include and includeRegex are mutually exclusive',
      source: `${EG}: api/v1beta1/mcp_route.go MCPToolFilter, CEL !(has(self.include) && has(self.includeRegex))`,
    },
    {
      at: 'spec/backendRefs/*/toolSelector',
      holds: (s) => !(has(s, 'exclude') && has(s, 'excludeRegex')),
      message: 'exclude and excludeRegex are mutually exclusive',
      source: `${EG}: api/v1beta1/mcp_route.go MCPToolFilter, CEL !(has(self.exclude) && has(self.excludeRegex))`,
    },
    {
      at: 'spec/backendRefs/*/toolSelector',
      holds: (s) => ['include', 'includeRegex', 'exclude', 'excludeRegex'].some((k) => has(s, k)),
      message: 'at least one of include, includeRegex, exclude, or excludeRegex must be specified',
      source: `${EG}: api/v1beta1/mcp_route.go MCPToolFilter, CEL has(self.include) || has(self.includeRegex) || has(self.exclude) || has(self.excludeRegex)`,
    },
    ...(['includeRegex', 'excludeRegex'] as const).map((key): Rule => ({
      at: `spec/backendRefs/*/toolSelector/${key}/*`,
      holds: (re) => {
        if (typeof re !== 'string') return true;
        try {
          RE2JS.compile(re);
          return true;
        } catch {
          return false;
        }
      },
      message: `${key} entries must compile as RE2 (Go regexp.Compile; matched unanchored)`,
      source: `${EG}: internal/mcpproxy/config.go compileRegexps`,
    })),
  ],
};

// ---------------------------------------------------------------------------------------------
// agentgateway standalone config (the simplified `mcp:` block).

/** An MCP target name: the Gateway API SectionName pattern, 1..253 characters ('_' and '+' are reserved delimiters). */
const mcpTargetName = { type: 'string', minLength: 1, maxLength: 253, pattern: DNS1123_SUBDOMAIN };
/** McpBackendHostInput: host (a URI, or with port and path) or a backend reference. */
const mcpHost = (extra: Record<string, SchemaObject> = {}): SchemaObject => ({
  type: 'object',
  additionalProperties: false,
  properties: {
    host: { type: 'string' },
    port: { type: 'integer', minimum: 0, maximum: 65535 },
    path: { type: 'string' },
    backend: { type: 'string' },
    ...extra,
  },
});
const celRule = (key: string): SchemaObject => ({ type: 'object', additionalProperties: false, required: [key], properties: { [key]: { type: 'string' } } });
/** RuleSet: `rules` (required), each a plain string (allow) or exactly one of {allow|deny|require: <cel>}. */
const ruleSet: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['rules'],
  properties: { rules: { type: 'array', items: { oneOf: [{ type: 'string' }, celRule('allow'), celRule('deny'), celRule('require')] } } },
};
const hostKinds = ['mcp', 'sse', 'openapi'] as const;

const agentgateway: TargetFormat = {
  id: 'agentgateway',
  file: 'agentgateway.yaml',
  syntax: 'yaml',
  schema: {
    $schema: DRAFT,
    $id: 'urn:toolgate:export-target:agentgateway',
    $comment: `agentgateway standalone config (LocalConfig; published schema https://agentgateway.dev/schema/config). ${AGW}: crates/agentgateway/src/types/local.rs (LocalConfig, LocalSimpleMcpConfig, LocalMcpBackend, LocalMcpTarget, LocalMcpTargetSpec, McpBackendHost, SimpleLocalBackendPolicies); crates/core/src/serdes.rs (schema_de!: camelCase, deny_unknown_fields, so every object here is closed); crates/agentgateway/src/http/authorization.rs (RuleSet, RuleSerde); crates/agentgateway/src/types/agent.rs (validate_mcp_target_name, McpPrefixMode). Only the \`mcp\` block (what the export writes) is modelled in depth; other top-level keys are typed only.`,
    type: 'object',
    additionalProperties: false,
    properties: {
      config: { type: ['object', 'null'] },
      binds: { type: 'array' },
      frontendPolicies: { type: 'object' },
      policies: { type: 'array' },
      workloads: { type: 'array' },
      services: { type: 'array' },
      backends: { type: 'array' },
      routeGroups: { type: 'array' },
      gateways: { type: 'object' },
      routes: { type: 'array' },
      tcpRoutes: { type: 'array' },
      llm: { type: ['object', 'null'] },
      ui: { type: ['object', 'null'] },
      mcp: {
        type: 'object',
        additionalProperties: false,
        required: ['targets'],
        properties: {
          gateways: { oneOf: [{ type: 'string' }, strings] },
          port: { $comment: 'Deprecated; use gateways.', type: ['integer', 'null'], minimum: 0, maximum: 65535 },
          statefulMode: { enum: ['stateless', 'stateful'] },
          prefixMode: { enum: ['conditional', 'always', 'never'] },
          failureMode: { enum: ['failClosed', 'failOpen'] },
          dnsRebindingProtection: { type: 'boolean' },
          policies: {
            $comment: 'Route-level policies (FilterOrPolicy); only mcpAuthorization is modelled.',
            type: 'object',
            properties: { mcpAuthorization: ruleSet },
          },
          targets: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['name'],
              oneOf: [{ required: ['stdio'] }, { required: ['mcp'] }, { required: ['sse'] }, { required: ['openapi'] }],
              properties: {
                name: mcpTargetName,
                stdio: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['cmd'],
                  properties: { cmd: { type: 'string' }, args: strings, env: stringMap, clearEnv: { type: 'boolean' } },
                },
                mcp: mcpHost(),
                sse: mcpHost(),
                openapi: mcpHost({ schema: {} }),
                policies: {
                  $comment:
                    'SimpleLocalBackendPolicies: transport policies only; mcpAuthorization belongs on the route or mcp.policies (a load error since v1.4.0).',
                  type: 'object',
                  additionalProperties: false,
                  properties: { requestHeaderModifier: {}, transformations: {}, backendTLS: {}, backendAuth: {}, http: {}, tcp: {}, backendTunnel: {} },
                },
              },
            },
          },
        },
      },
    },
  },
  rules: [
    {
      at: 'mcp',
      holds: (m) => {
        const gateways = isObject(m) ? m.gateways : undefined;
        return !(typeof gateways === 'string' || list(gateways).length > 0) || !has(m, 'port');
      },
      message: 'mcp.gateways cannot be used with mcp.port',
      source: `${AGW}: crates/agentgateway/src/types/local.rs validate_local_listener_ports`,
    },
    {
      at: 'mcp/targets/*',
      holds: (t) => !(has(t, 'stdio') && has(t, 'policies')),
      message: "stdio MCP target '…': policies are not supported",
      source: `${AGW}: crates/agentgateway/src/types/local.rs (LocalBackend::MCP translation)`,
    },
    ...hostKinds.flatMap((kind): Rule[] => [
      {
        at: `mcp/targets/*/${kind}`,
        holds: (h) => (has(h, 'host') ? !has(h, 'backend') : has(h, 'backend') && !has(h, 'port')),
        message: 'host or backend is required for MCP target backend configuration, and host/port cannot be mixed with backend',
        source: `${AGW}: crates/agentgateway/src/types/local.rs McpBackendHost deserialize`,
      },
      {
        at: `mcp/targets/*/${kind}`,
        holds: (h) => !has(h, 'host') || has(h, 'port') === has(h, 'path'),
        message: 'if port or path is set, both must be set; otherwise, use only host',
        source: `${AGW}: crates/agentgateway/src/types/local.rs McpBackendHost::process`,
      },
    ]),
  ],
};

// ---------------------------------------------------------------------------------------------
// agentgateway on Kubernetes: AgentgatewayPolicy.

const TARGET_KINDS: Record<string, string> = {
  Gateway: 'gateway.networking.k8s.io',
  HTTPRoute: 'gateway.networking.k8s.io',
  GRPCRoute: 'gateway.networking.k8s.io',
  ListenerSet: 'gateway.networking.k8s.io',
  Service: '',
  AgentgatewayBackend: 'agentgateway.dev',
  InferencePool: 'inference.networking.k8s.io',
};
const refsOf = (spec: unknown) =>
  [...list(isObject(spec) ? spec.targetRefs : undefined), ...list(isObject(spec) ? spec.targetSelectors : undefined)].filter(isObject);
const AGW_POLICY = `${AGW}: controller/api/v1alpha1/agentgateway/agentgateway_policy_types.go AgentgatewayPolicySpec`;

const agentgatewayK8s: TargetFormat = {
  id: 'agentgateway-k8s',
  file: 'agentgateway-k8s.yaml',
  syntax: 'yaml',
  schema: k8sObject(
    'agentgateway.dev/v1alpha1',
    'AgentgatewayPolicy',
    {
      type: 'object',
      additionalProperties: false,
      properties: {
        targetRefs: {
          type: 'array',
          minItems: 1,
          maxItems: 16,
          items: {
            $comment: 'LocalPolicyTargetReferenceWithSectionName (shared_types.go).',
            type: 'object',
            additionalProperties: false,
            required: ['group', 'kind', 'name'],
            properties: {
              group: gatewayApiGroup,
              kind: gatewayApiKind,
              name: gatewayApiName,
              sectionName: { type: 'string', minLength: 1, maxLength: 253, pattern: DNS1123_SUBDOMAIN },
              port,
            },
          },
        },
        targetSelectors: { type: 'array', minItems: 1, maxItems: 16, items: { type: 'object' } },
        strategy: { type: 'object' },
        frontend: { type: 'object' },
        traffic: { type: 'object' },
        backend: {
          $comment: 'BackendFull; only mcp is modelled.',
          type: 'object',
          additionalProperties: false,
          properties: {
            ai: { type: 'object' },
            auth: { type: 'object' },
            extAuth: { type: 'object' },
            health: { type: 'object' },
            http: { type: 'object' },
            tcp: { type: 'object' },
            tls: { type: 'object' },
            transformation: { type: 'object' },
            tunnel: { type: 'object' },
            mcp: {
              type: 'object',
              additionalProperties: false,
              properties: {
                authorization: {
                  $comment: 'Authorization (rbac.go): every matchExpression becomes one rule of the action (OR for Allow).',
                  type: 'object',
                  additionalProperties: false,
                  required: ['policy'],
                  properties: {
                    action: { enum: ['Allow', 'Deny', 'Require'] },
                    policy: {
                      type: 'object',
                      additionalProperties: false,
                      required: ['matchExpressions'],
                      properties: {
                        matchExpressions: { type: 'array', minItems: 1, maxItems: 256, items: { type: 'string', minLength: 1, maxLength: 16384 } },
                      },
                    },
                  },
                },
                authentication: { $comment: 'Deprecated.', type: 'object' },
                guardrails: { type: 'object' },
              },
            },
          },
        },
      },
    },
    `agentgateway AgentgatewayPolicy, apiVersion agentgateway.dev/v1alpha1. ${AGW}: controller/api/v1alpha1/agentgateway/agentgateway_policy_types.go, rbac.go, shared_types.go; CRD controller/install/helm/agentgateway-crds/templates/agentgateway.dev_agentgatewaypolicies.yaml. Closed objects: structural CRD schema, kubectl strict field validation.`,
    'agentgateway-k8s',
  ),
  rules: [
    {
      at: 'spec',
      holds: (s) => has(s, 'targetRefs') !== has(s, 'targetSelectors'),
      message: 'exactly one of targetRefs or targetSelectors must be set',
      source: `${AGW_POLICY} (+kubebuilder:validation:ExactlyOneOf=targetRefs;targetSelectors)`,
    },
    {
      at: 'spec',
      holds: (s) => has(s, 'traffic') || has(s, 'frontend') || has(s, 'backend'),
      message: 'At least one of traffic, frontend, or backend must be provided.',
      source: AGW_POLICY,
    },
    {
      at: 'spec',
      holds: (s) => !has(s.backend, 'mcp') || !refsOf(s).some((t) => t.kind === 'Service'),
      message: 'backend.mcp may not be used with a Service target',
      source: AGW_POLICY,
    },
    {
      at: 'spec',
      holds: (s) => !has(s.backend, 'mcp') || !refsOf(s).some((t) => t.kind === 'AgentgatewayBackend' && has(t, 'sectionName')),
      message: 'backend.mcp may not target an AgentgatewayBackend sectionName',
      source: AGW_POLICY,
    },
    {
      at: 'spec',
      holds: (s) => !list(s.targetRefs).some((t) => has(t, 'port')) || (has(s, 'frontend') && !has(s, 'traffic') && !has(s, 'backend')),
      message: 'port may only be set on frontend-only policies (not traffic or backend)',
      source: AGW_POLICY,
    },
    {
      at: 'spec/targetRefs',
      holds: (refs) =>
        list(refs).every((r) => !isObject(r) || (typeof r.kind === 'string' && Object.hasOwn(TARGET_KINDS, r.kind) && TARGET_KINDS[r.kind] === r.group)),
      message:
        'targetRefs may only reference Gateway, HTTPRoute, GRPCRoute, ListenerSet, Service, AgentgatewayBackend, or InferencePool resources (each in its own group)',
      source: `${AGW_POLICY}.TargetRefs`,
    },
    {
      at: 'spec/targetRefs',
      holds: (refs) => new Set(list(refs).map((r) => (isObject(r) ? r.kind : undefined))).size <= 1,
      message: 'Only one Kind of targetRef can be set on one policy',
      source: `${AGW_POLICY}.TargetRefs`,
    },
    {
      at: 'spec/targetRefs/*',
      holds: (r) => !(has(r, 'sectionName') && has(r, 'port')),
      message: 'at most one of the fields in [sectionName port] may be set',
      source: `${AGW}: controller/api/v1alpha1/agentgateway/shared_types.go (+kubebuilder:validation:AtMostOneOf=sectionName;port)`,
    },
    {
      at: 'spec/backend/mcp',
      holds: (m) => ['authentication', 'authorization', 'guardrails'].some((k) => has(m, k)),
      message: 'at least one of the fields in [authentication authorization guardrails] must be set',
      source: `${AGW}: controller/api/v1alpha1/agentgateway/agentgateway_policy_types.go BackendMCP (+kubebuilder:validation:AtLeastOneFieldSet)`,
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// Docker MCP Gateway tools.yaml.

const docker: TargetFormat = {
  id: 'docker',
  file: 'docker.yaml',
  syntax: 'yaml',
  schema: {
    $schema: DRAFT,
    $id: 'urn:toolgate:export-target:docker',
    $comment: `Docker MCP Gateway tools.yaml: a map of server name to the list of enabled tool names (ToolsConfig{ServerTools map[string][]string yaml:",inline"}); a listed server gets only its listed tools, exact and case-sensitive. ${DOCKER}: pkg/config/tools.go; pkg/gateway/capabilitites.go isToolEnabled; pkg/gateway/configuration.go readToolsConfig. No server-name pattern in the gateway (the official catalog's ^[a-z0-9-]+$ is docker/mcp-registry's, not the gateway's).`,
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
  },
  rules: [],
};

// ---------------------------------------------------------------------------------------------
// Claude Code settings.json (permissions).

/** A permission rule as the export writes it: an exact MCP rule (mcp__<server>__<tool>), whose whole name is an Anthropic tool name. */
const claudeMcpRule: SchemaObject = {
  type: 'string',
  allOf: [
    { $comment: 'MCP rules start with mcp__ (SchemaStore $defs.permissionRule: mcp__.*; code.claude.com/docs/en/permissions#mcp).', pattern: '^mcp__' },
    {
      $comment: 'The tool name the API receives: ^[a-zA-Z0-9_-]{1,64}$ (Claude platform docs, "Define tools"); Claude Code neither truncates nor hashes.',
      pattern: '^[a-zA-Z0-9_-]{1,64}$',
    },
  ],
};
const claudeRules = { type: 'array', uniqueItems: true, items: claudeMcpRule };
const claudeServerMatchers = (serverName: SchemaObject): SchemaObject => ({
  type: 'array',
  items: {
    oneOf: [
      { type: 'object', additionalProperties: false, required: ['serverName'], properties: { serverName } },
      { type: 'object', additionalProperties: false, required: ['serverCommand'], properties: { serverCommand: { ...strings, minItems: 1 } } },
      { type: 'object', additionalProperties: false, required: ['serverUrl'], properties: { serverUrl: { type: 'string' } } },
    ],
  },
});

const claudeCode: TargetFormat = {
  id: 'claude-code',
  file: 'claude-code.json',
  syntax: 'json',
  schema: {
    $schema: DRAFT,
    $id: 'urn:toolgate:export-target:claude-code',
    $comment:
      'Claude Code settings.json, the keys an MCP allowlist uses. https://code.claude.com/docs/en/settings-reference#permissions; https://code.claude.com/docs/en/permissions#mcp; SchemaStore/schemastore@00d7563704c86f65f16db30d108f42a3539c7f47:src/schemas/json/claude-code-settings.json (top level open, `permissions` closed, allow/ask/deny uniqueItems); tool names: Claude platform docs content/en/agents-and-tools/tool-use/define-tools.md. The rules are restricted to exact MCP rules, the only kind an export writes.',
    type: 'object',
    properties: {
      $schema: { type: 'string' },
      permissions: {
        type: 'object',
        additionalProperties: false,
        properties: {
          allow: claudeRules,
          ask: claudeRules,
          deny: claudeRules,
          additionalDirectories: strings,
          defaultMode: { enum: ['acceptEdits', 'bypassPermissions', 'default', 'delegate', 'dontAsk', 'plan', 'auto', 'manual'] },
          disableBypassPermissionsMode: {},
          disableAutoMode: {},
        },
      },
      enabledMcpjsonServers: strings,
      disabledMcpjsonServers: strings,
      enableAllProjectMcpServers: { type: 'boolean' },
      allowedMcpServers: claudeServerMatchers({ type: 'string', pattern: '^[a-zA-Z0-9_-]+$' }),
      deniedMcpServers: claudeServerMatchers({ type: 'string', minLength: 1 }),
      allowManagedMcpServersOnly: { type: 'boolean' },
    },
  },
  rules: [],
};

// ---------------------------------------------------------------------------------------------
// Gemini CLI settings.json (mcpServers).

/** `mcpServers.<name>` entry: at least one of command, url, httpUrl — checked on a whole entry, not on the export's fragment. */
export const geminiEntryHasTransport = (entry: unknown): boolean => has(entry, 'command') || has(entry, 'url') || has(entry, 'httpUrl');

const gemini: TargetFormat = {
  id: 'gemini',
  file: 'gemini.json',
  syntax: 'json',
  schema: {
    $schema: DRAFT,
    $id: 'urn:toolgate:export-target:gemini',
    $comment: `Gemini CLI settings.json, mcpServers. ${GEMINI}: docs/tools/mcp-server.md; docs/reference/configuration.md; schemas/settings.schema.json $defs.MCPServerConfig (additionalProperties false; at runtime a strict Zod object whose failure is a warning); packages/core/src/config/config.ts MCPServerConfig. No pattern on server names. includeTools/excludeTools hold raw tool names, compared exactly.`,
    type: 'object',
    properties: {
      mcpServers: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          additionalProperties: false,
          properties: {
            command: { type: 'string' },
            args: strings,
            env: stringMap,
            cwd: { type: 'string' },
            url: { type: 'string' },
            httpUrl: { type: 'string' },
            headers: stringMap,
            type: { enum: ['stdio', 'sse', 'http'] },
            tcp: { type: 'string' },
            timeout: { type: 'number' },
            trust: { type: 'boolean' },
            description: { type: 'string' },
            includeTools: strings,
            excludeTools: strings,
            oauth: { type: 'object' },
            authProviderType: { enum: ['dynamic_discovery', 'google_credentials', 'service_account_impersonation'] },
            targetAudience: { type: 'string' },
            targetServiceAccount: { type: 'string' },
            extension: { type: 'object' },
          },
        },
      },
    },
  },
  rules: [],
};

// ---------------------------------------------------------------------------------------------
// OpenAI Codex config.toml (mcp_servers).

const CODEX_STDIO_ONLY = ['args', 'env', 'env_vars', 'cwd'];
const CODEX_HTTP_ONLY = ['bearer_token_env_var', 'http_headers', 'env_http_headers', 'oauth_resource'];
/** `[mcp_servers.<name>]`: command or url — checked on a whole (merged) entry, not on the export's fragment ("invalid transport"). */
export const codexEntryHasTransport = (entry: unknown): boolean => has(entry, 'command') || has(entry, 'url');

const codex: TargetFormat = {
  id: 'codex',
  file: 'codex.toml',
  syntax: 'toml',
  schema: {
    $schema: DRAFT,
    $id: 'urn:toolgate:export-target:codex',
    $comment: `Codex config.toml, [mcp_servers.<name>]. ${CODEX}@035416bfd9b70f179348fe3b74d4fe6f8ea91c07:codex-rs/core/src/config/types.rs RawMcpServerConfig (schemars deny_unknown_fields: closed in the published JSON schema; serde ignores unknown keys at runtime); ${CODEX}@00302de7:codex-rs/core/src/mcp_connection_manager.rs validate_mcp_server_name (^[a-zA-Z0-9_-]+$, checked when the server starts); ${CODEX}@0195ef05:docs/config.md; default_tools_approval_mode and tools.<tool>.approval_mode from https://developers.openai.com/codex/mcp (as captured 2026-05). Layers merge table by table, so an entry may hold only the lists.`,
    type: 'object',
    properties: {
      mcp_servers: {
        type: 'object',
        propertyNames: { type: 'string', pattern: '^[a-zA-Z0-9_-]+$' },
        additionalProperties: {
          type: 'object',
          additionalProperties: false,
          properties: {
            command: { type: 'string' },
            args: strings,
            env: stringMap,
            env_vars: strings,
            cwd: { type: 'string' },
            url: { type: 'string' },
            bearer_token_env_var: { type: 'string' },
            http_headers: stringMap,
            env_http_headers: stringMap,
            enabled: { type: 'boolean' },
            required: { type: 'boolean' },
            startup_timeout_sec: { type: 'number', minimum: 0 },
            startup_timeout_ms: { type: 'integer', minimum: 0 },
            tool_timeout_sec: { type: 'number', minimum: 0 },
            enabled_tools: strings,
            disabled_tools: strings,
            scopes: strings,
            oauth_resource: { type: 'string' },
            default_tools_approval_mode: { enum: ['auto', 'prompt', 'approve'] },
            tools: { type: 'object', additionalProperties: { type: 'object', properties: { approval_mode: { type: 'string' } } } },
          },
        },
      },
    },
  },
  rules: [
    {
      at: 'mcp_servers/*',
      holds: (e) =>
        !(has(e, 'command') && (has(e, 'url') || CODEX_HTTP_ONLY.some((k) => has(e, k)))) &&
        !(has(e, 'url') && !has(e, 'command') && CODEX_STDIO_ONLY.some((k) => has(e, k))),
      message: 'mixed transports: `<field> is not supported for stdio` / `for streamable_http`',
      source: `${CODEX}@035416bfd9b70f179348fe3b74d4fe6f8ea91c07:codex-rs/core/src/config/types.rs McpServerConfig::deserialize`,
    },
  ],
};

// ---------------------------------------------------------------------------------------------

/** Every target format, in the order of the golden files. */
export const TARGET_FORMATS: readonly TargetFormat[] = [
  toolgate,
  toolhive,
  toolhiveCedar,
  agentgateway,
  agentgatewayK8s,
  docker,
  envoy,
  claudeCode,
  gemini,
  codex,
];

export function targetFormat(id: TargetId): TargetFormat {
  const f = TARGET_FORMATS.find((t) => t.id === id);
  if (!f) throw new Error(`no target format ${id}`);
  return f;
}

// One Ajv per module (Ajv keeps one JSON Schema dialect per instance). The toolgate schema file
// is draft-07; it is registered without its `$schema`, which is sound because it uses no keyword
// whose meaning differs in 2020-12 (array-form `items`, `additionalItems`, `dependencies`): the
// test suite checks that.
// strictRequired off: `oneOf: [{ required: ['stdio'] }, …]` names properties declared beside it.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
const { $schema: _draft07, ...toolgateSchema } = toolgateSchemaFile;
ajv.addSchema(toolgateSchema);
const validators = new Map<TargetId, ValidateFunction>(TARGET_FORMATS.map((f) => [f.id, ajv.compile(f.schema)]));

const describeError = (e: ErrorObject) =>
  `${e.instancePath || '/'}: ${e.keyword}: ${e.message ?? ''}${e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : ''}`;

/** Everything wrong with `doc` as a `id` file: schema errors (`<pointer>: <keyword>: <message>`) and failed rules (`<pointer>: rule: <message>`). */
export function validateTarget(id: TargetId, doc: unknown): string[] {
  const f = targetFormat(id);
  const validate = validators.get(id)!;
  const problems = validate(doc) ? [] : (validate.errors ?? []).map(describeError);
  for (const rule of f.rules) {
    for (const [pointer, node] of select(doc, rule.at)) {
      let ok: boolean;
      try {
        ok = rule.holds(node);
      } catch {
        ok = false;
      }
      if (!ok) problems.push(`${pointer || '/'}: rule: ${rule.message}`);
    }
  }
  return problems;
}

/** The document in `text`, read as the target's own reader reads it (YAML 1.2 core schema for YAML). */
export function parseTarget(syntax: Syntax, text: string): unknown {
  if (syntax === 'json') return JSON.parse(text);
  if (syntax === 'toml') return parseToml(text);
  return parseYaml(text);
}

/** The YAML document under YAML 1.1 rules (sigs.k8s.io/yaml and Go's YAML readers: yes/no/on/off, octal, sexagesimal). */
export function parseYaml11(text: string): unknown {
  return parseYaml(text, { version: '1.1' });
}
