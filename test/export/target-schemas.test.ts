/**
 * The golden exports (test/golden/exports/<case>/<target>.<ext>) against the formats their targets
 * document (test/export/target-schemas.ts): each file parsed the way its target reads it, checked
 * by a JSON Schema (Ajv 2020-12, all errors) and by the rules a schema cannot express (Kubernetes
 * CEL validations, the products' own checks). Negative cases show that every schema and rule can
 * fail. No network, no processes, nothing written.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  TARGET_FORMATS,
  codexEntryHasTransport,
  geminiEntryHasTransport,
  parseTarget,
  parseYaml11,
  select,
  toolgateSchemaFile,
  validateTarget,
  type TargetId,
} from './target-schemas.js';

const GOLDEN = fileURLToPath(new URL('../golden/exports/', import.meta.url));
const CASES = readdirSync(GOLDEN).filter((d) => statSync(join(GOLDEN, d)).isDirectory());

const read = (c: string, file: string) => readFileSync(join(GOLDEN, c, file), 'utf8');
const names = (n: number, prefix = 'tool_') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('golden exports match their target formats', () => {
  it('has both golden cases', () => {
    expect(CASES).toEqual(expect.arrayContaining(['server-filesystem', 'openapi-github']));
  });

  describe.each(CASES)('%s', (c) => {
    it('holds, per target, either the export or its error, and nothing else', () => {
      const expected = new Set<string>();
      for (const f of TARGET_FORMATS) {
        const ok = existsSync(join(GOLDEN, c, f.file));
        const error = existsSync(join(GOLDEN, c, `${f.id}.error.txt`));
        expect(ok !== error, `${c}: exactly one of ${f.file} and ${f.id}.error.txt`).toBe(true);
        expected.add(ok ? f.file : `${f.id}.error.txt`);
      }
      expect(new Set(readdirSync(join(GOLDEN, c)))).toEqual(expected);
    });

    const present = TARGET_FORMATS.filter((f) => existsSync(join(GOLDEN, c, f.file)));
    it.each(present.map((f) => [f.file, f] as const))('%s', (_file, f) => {
      const text = read(c, f.file);
      const doc = parseTarget(f.syntax, text);
      // Kubernetes (sigs.k8s.io/yaml) and Go readers apply YAML 1.1: the value must not depend on it.
      if (f.syntax === 'yaml') expect(parseYaml11(text)).toStrictEqual(doc);
      expect(validateTarget(f.id, doc)).toEqual([]);
    });
  });

  // A client export of an MCP source is a whole entry (the server as toolgate.yml runs it, plus
  // the lists); one of a source toolgate cannot start (OpenAPI, recorded) has only the lists,
  // which the export merges into the entry that defines the server (gemini.ts, codex.ts `merge`).
  const whole = { 'server-filesystem': true, 'openapi-github': false } as Record<string, boolean>;
  it.each(CASES.filter((c) => existsSync(join(GOLDEN, c, 'gemini.json'))))('%s/gemini.json: a whole entry exactly when the source is an MCP server', (c) => {
    const entries = select(parseTarget('json', read(c, 'gemini.json')), 'mcpServers/*');
    expect(entries.length).toBe(1);
    expect(entries.map(([, e]) => geminiEntryHasTransport(e))).toEqual([whole[c]]);
    expect(geminiEntryHasTransport({ ...(entries[0]![1] as object), command: 'npx' })).toBe(true);
  });
  it.each(CASES.filter((c) => existsSync(join(GOLDEN, c, 'codex.toml'))))('%s/codex.toml: a whole table exactly when the source is an MCP server', (c) => {
    const entries = select(parseTarget('toml', read(c, 'codex.toml')), 'mcp_servers/*');
    expect(entries.length).toBe(1);
    expect(entries.map(([, e]) => codexEntryHasTransport(e))).toEqual([whole[c]]);
    expect(codexEntryHasTransport({ ...(entries[0]![1] as object), url: 'https://example.com/mcp' })).toBe(true);
  });
});

describe('the target schemas', () => {
  it.each(TARGET_FORMATS.map((f) => [f.id, f] as const))('%s is draft 2020-12 and names its source', (_id, f) => {
    expect(f.schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(f.schema.$comment).toMatch(/github\.com|https:\/\/|schema\/toolgate\.schema\.json/);
    for (const r of f.rules) expect(r.source, r.message).toMatch(/github\.com|https:\/\//);
  });

  it('checks the toolgate runtime block with schema/toolgate.schema.json itself, whose keywords mean the same in 2020-12', () => {
    expect(TARGET_FORMATS.find((f) => f.id === 'toolgate')!.schema.properties.runtime.$ref).toBe(`${toolgateSchemaFile.$id}#/properties/runtime`);
    const changed: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (Array.isArray(node)) return node.forEach((v, i) => walk(v, `${path}/${i}`));
      if (typeof node !== 'object' || node === null) return;
      for (const [k, v] of Object.entries(node)) {
        if ((k === 'items' && Array.isArray(v)) || k === 'additionalItems' || k === 'dependencies' || k === '$recursiveRef') changed.push(`${path}/${k}`);
        walk(v, `${path}/${k}`);
      }
    };
    walk(toolgateSchemaFile.properties.runtime, '/properties/runtime');
    walk(toolgateSchemaFile.definitions, '/definitions');
    expect(changed).toEqual([]);
  });

  it('YAML 1.1 and 1.2 can disagree, so the golden comparison can fail', () => {
    const text = 'spec:\n  toolsFilter: [on, off, yes, "no", 010]\n';
    expect(parseYaml11(text)).not.toStrictEqual(parseTarget('yaml', text));
  });
});

// ---------------------------------------------------------------------------------------------
// Negative cases: a minimal valid document per target (written from the documented facts), then
// one change each that the target rejects.

const BASE: Record<TargetId, unknown> = {
  toolgate: { runtime: { allow: ['read'], 'allow-tools': ['get_issue'], deny: ['delete_*'], 'on-drift': 'hide' } },
  toolhive: {
    apiVersion: 'toolhive.stacklok.dev/v1beta1',
    kind: 'MCPToolConfig',
    metadata: { name: 'allowlist', namespace: 'default' },
    spec: { toolsFilter: ['get_issue', 'list_issues'], toolsOverride: { get_issue: { description: 'Read one issue' } } },
  },
  'toolhive-cedar': {
    version: '1.0',
    type: 'cedarv1',
    cedar: { policies: ['permit(principal, action == Action::"call_tool", resource == Tool::"get_issue");'], entities_json: '[]' },
  },
  agentgateway: {
    mcp: {
      policies: { mcpAuthorization: { rules: ['mcp.tool.target == "time" && mcp.tool.name == "now"', { deny: 'mcp.tool.name == "rm"' }] } },
      targets: [
        { name: 'time', stdio: { cmd: 'uvx', args: ['mcp-server-time'] } },
        { name: 'everything', mcp: { host: 'http://localhost:3001/mcp' } },
      ],
    },
  },
  'agentgateway-k8s': {
    apiVersion: 'agentgateway.dev/v1alpha1',
    kind: 'AgentgatewayPolicy',
    metadata: { name: 'mcp-tool-allowlist', namespace: 'agentgateway-system' },
    spec: {
      targetRefs: [{ group: 'agentgateway.dev', kind: 'AgentgatewayBackend', name: 'mcp-tools' }],
      backend: { mcp: { authorization: { action: 'Allow', policy: { matchExpressions: ['mcp.tool.target == "everything" && mcp.tool.name == "echo"'] } } } },
    },
  },
  docker: { duckduckgo: ['fetch_content', 'search'], postgres: [] },
  envoy: {
    apiVersion: 'aigateway.envoyproxy.io/v1beta1',
    kind: 'MCPRoute',
    metadata: { name: 'mcp-route', namespace: 'default' },
    spec: {
      parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'my-gateway' }],
      backendRefs: [{ group: 'gateway.envoyproxy.io', kind: 'Backend', name: 'github', path: '/mcp', toolSelector: { include: ['get_issue', 'list_issues'] } }],
    },
  },
  'claude-code': {
    $schema: 'https://json.schemastore.org/claude-code-settings.json',
    permissions: { allow: ['mcp__github__get_issue'], deny: ['mcp__github__delete_repo'], defaultMode: 'dontAsk' },
  },
  gemini: {
    mcpServers: { github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], includeTools: ['get_issue'], excludeTools: ['delete_repo'] } },
  },
  codex: {
    mcp_servers: {
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], enabled_tools: ['get_issue'], disabled_tools: ['delete_repo'] },
    },
  },
};

type Negative = [id: TargetId, what: string, change: (d: any) => void, expected: string];

const NEGATIVE: Negative[] = [
  // toolgate (schema/toolgate.schema.json, runtime)
  ['toolgate', 'an unknown runtime key', (d) => (d.runtime.allow_tools = ['x']), '/runtime: additionalProperties'],
  ['toolgate', 'on-drift: ignore', (d) => (d.runtime['on-drift'] = 'ignore'), '/runtime/on-drift: enum'],
  ['toolgate', 'an empty runtime.allow', (d) => (d.runtime.allow = []), '/runtime/allow: minItems'],
  ['toolgate', 'max-result-bytes below 1024', (d) => (d.runtime['max-result-bytes'] = 10), '/runtime/max-result-bytes: minimum'],
  ['toolgate', 'a key besides runtime', (d) => (d.sources = []), '/: additionalProperties'],
  // ToolHive MCPToolConfig
  ['toolhive', 'a toolsFilter entry "a,b"', (d) => (d.spec.toolsFilter = ['a,b']), '/spec/toolsFilter/0: rule: tool filter entries'],
  ['toolhive', 'an empty toolsFilter entry', (d) => d.spec.toolsFilter.push(''), '/spec/toolsFilter/2: rule: tool filter entries'],
  ['toolhive', 'a toolsFilter entry with a newline', (d) => (d.spec.toolsFilter = ['a\nb']), 'rule: tool filter entries'],
  ['toolhive', 'a toolsFilter entry with a carriage return', (d) => (d.spec.toolsFilter = ['a\rb']), 'rule: tool filter entries'],
  ['toolhive', 'a duplicate toolsFilter entry (listType=set)', (d) => d.spec.toolsFilter.push('get_issue'), '/spec/toolsFilter: uniqueItems'],
  ['toolhive', 'a non-string toolsFilter entry', (d) => (d.spec.toolsFilter = [1]), '/spec/toolsFilter/0: type'],
  ['toolhive', 'the deprecated v1alpha1 apiVersion', (d) => (d.apiVersion = 'toolhive.stacklok.dev/v1alpha1'), '/apiVersion: const'],
  ['toolhive', 'an unknown spec key', (d) => (d.spec.toolFilter = []), '/spec: additionalProperties'],
  [
    'toolhive',
    'an override with neither name nor description',
    (d) => (d.spec.toolsOverride = { get_issue: {} }),
    '/spec/toolsOverride/get_issue: rule: override name and description',
  ],
  ['toolhive', 'a metadata.name with "_"', (d) => (d.metadata.name = 'tool_config'), '/metadata/name: pattern'],
  ['toolhive', 'no metadata.name', (d) => delete d.metadata.name, '/metadata: required'],
  // ToolHive Cedar config
  ['toolhive-cedar', 'type cedarv2', (d) => (d.type = 'cedarv2'), '/type: const'],
  ['toolhive-cedar', 'no policies', (d) => (d.cedar.policies = []), '/cedar/policies: minItems'],
  ['toolhive-cedar', 'entities_json as a list, not a string', (d) => (d.cedar.entities_json = []), '/cedar/entities_json: type'],
  ['toolhive-cedar', 'entities_json that is not JSON', (d) => (d.cedar.entities_json = '[{'), '/cedar/entities_json: rule'],
  ['toolhive-cedar', 'no version', (d) => delete d.version, '/: required'],
  ['toolhive-cedar', 'no cedar block', (d) => delete d.cedar, '/: required'],
  // agentgateway standalone
  ['agentgateway', 'an unknown top-level key', (d) => (d.listeners = []), '/: additionalProperties'],
  ['agentgateway', 'an unknown key in mcp', (d) => (d.mcp.target = []), '/mcp: additionalProperties'],
  ['agentgateway', 'a snake_case key', (d) => (d.mcp.stateful_mode = 'stateless'), '/mcp: additionalProperties'],
  ['agentgateway', 'mcpAuthorization without rules', (d) => (d.mcp.policies.mcpAuthorization = { allow: ['x'] }), '/mcp/policies/mcpAuthorization: required'],
  [
    'agentgateway',
    'a rule with both allow and deny',
    (d) => d.mcp.policies.mcpAuthorization.rules.push({ allow: 'true', deny: 'false' }),
    '/mcp/policies/mcpAuthorization/rules/2: oneOf',
  ],
  [
    'agentgateway',
    'a rule of an unknown kind',
    (d) => d.mcp.policies.mcpAuthorization.rules.push({ permit: 'true' }),
    '/mcp/policies/mcpAuthorization/rules/2: oneOf',
  ],
  ['agentgateway', 'a target name with "_"', (d) => (d.mcp.targets[0].name = 'my_time'), '/mcp/targets/0/name: pattern'],
  ['agentgateway', 'an upper-case target name', (d) => (d.mcp.targets[0].name = 'Time'), '/mcp/targets/0/name: pattern'],
  ['agentgateway', 'a 254-character target name', (d) => (d.mcp.targets[0].name = 'a'.repeat(254)), '/mcp/targets/0/name: maxLength'],
  ['agentgateway', 'a target with two transports', (d) => (d.mcp.targets[0].sse = { host: 'http://x/sse' }), '/mcp/targets/0: oneOf'],
  ['agentgateway', 'a target with no transport', (d) => delete d.mcp.targets[0].stdio, '/mcp/targets/0: oneOf'],
  [
    'agentgateway',
    'mcpAuthorization on a target',
    (d) => (d.mcp.targets[1].policies = { mcpAuthorization: { rules: ['true'] } }),
    '/mcp/targets/1/policies: additionalProperties',
  ],
  ['agentgateway', 'policies on a stdio target', (d) => (d.mcp.targets[0].policies = { backendTLS: {} }), '/mcp/targets/0: rule: stdio MCP target'],
  [
    'agentgateway',
    'mcp.gateways with mcp.port',
    (d) => Object.assign(d.mcp, { gateways: 'default', port: 3000 }),
    '/mcp: rule: mcp.gateways cannot be used with mcp.port',
  ],
  ['agentgateway', 'a target with host and backend', (d) => (d.mcp.targets[1].mcp.backend = 'b'), '/mcp/targets/1/mcp: rule: host or backend'],
  [
    'agentgateway',
    'a host with port but no path',
    (d) => (d.mcp.targets[1].mcp = { host: 'localhost', port: 3001 }),
    '/mcp/targets/1/mcp: rule: if port or path is set',
  ],
  ['agentgateway', 'prefixMode in the wrong case', (d) => (d.mcp.prefixMode = 'Always'), '/mcp/prefixMode: enum'],
  // agentgateway Kubernetes
  [
    'agentgateway-k8s',
    'an empty matchExpressions',
    (d) => (d.spec.backend.mcp.authorization.policy.matchExpressions = []),
    '/spec/backend/mcp/authorization/policy/matchExpressions: minItems',
  ],
  [
    'agentgateway-k8s',
    '257 matchExpressions',
    (d) => (d.spec.backend.mcp.authorization.policy.matchExpressions = names(257, 'true || ')),
    'matchExpressions: maxItems',
  ],
  ['agentgateway-k8s', 'an empty expression', (d) => (d.spec.backend.mcp.authorization.policy.matchExpressions = ['']), 'matchExpressions/0: minLength'],
  [
    'agentgateway-k8s',
    'a 16385-character expression',
    (d) => (d.spec.backend.mcp.authorization.policy.matchExpressions = ['x'.repeat(16385)]),
    'matchExpressions/0: maxLength',
  ],
  ['agentgateway-k8s', 'no targetRefs', (d) => (d.spec.targetRefs = []), '/spec/targetRefs: minItems'],
  [
    'agentgateway-k8s',
    '17 targetRefs',
    (d) => (d.spec.targetRefs = names(17, 'b').map((name) => ({ group: 'agentgateway.dev', kind: 'AgentgatewayBackend', name }))),
    '/spec/targetRefs: maxItems',
  ],
  [
    'agentgateway-k8s',
    'targetRefs of two kinds',
    (d) => d.spec.targetRefs.push({ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'r' }),
    '/spec/targetRefs: rule: Only one Kind',
  ],
  [
    'agentgateway-k8s',
    'backend.mcp on a Service',
    (d) => (d.spec.targetRefs = [{ group: '', kind: 'Service', name: 'svc' }]),
    '/spec: rule: backend.mcp may not be used with a Service target',
  ],
  [
    'agentgateway-k8s',
    'backend.mcp on a backend sectionName',
    (d) => (d.spec.targetRefs[0].sectionName = 'everything'),
    '/spec: rule: backend.mcp may not target an AgentgatewayBackend sectionName',
  ],
  [
    'agentgateway-k8s',
    'a kind in the wrong group',
    (d) => (d.spec.targetRefs[0].group = 'gateway.networking.k8s.io'),
    '/spec/targetRefs: rule: targetRefs may only reference',
  ],
  [
    'agentgateway-k8s',
    'both targetRefs and targetSelectors',
    (d) => (d.spec.targetSelectors = [{ group: 'agentgateway.dev', kind: 'AgentgatewayBackend', matchLabels: { a: 'b' } }]),
    '/spec: rule: exactly one of targetRefs or targetSelectors',
  ],
  ['agentgateway-k8s', 'neither targetRefs nor targetSelectors', (d) => delete d.spec.targetRefs, '/spec: rule: exactly one of targetRefs or targetSelectors'],
  ['agentgateway-k8s', 'no traffic, frontend or backend', (d) => delete d.spec.backend, '/spec: rule: At least one of traffic, frontend, or backend'],
  ['agentgateway-k8s', 'an empty backend.mcp', (d) => (d.spec.backend.mcp = {}), '/spec/backend/mcp: rule: at least one of the fields'],
  ['agentgateway-k8s', 'action Permit', (d) => (d.spec.backend.mcp.authorization.action = 'Permit'), '/spec/backend/mcp/authorization/action: enum'],
  [
    'agentgateway-k8s',
    'sectionName and port on one targetRef',
    (d) => Object.assign(d.spec.targetRefs[0], { sectionName: 'a', port: 80 }),
    '/spec/targetRefs/0: rule: at most one of the fields in [sectionName port]',
  ],
  [
    'agentgateway-k8s',
    'an unknown key in authorization',
    (d) => (d.spec.backend.mcp.authorization.rules = []),
    '/spec/backend/mcp/authorization: additionalProperties',
  ],
  ['agentgateway-k8s', 'the older kgateway TrafficPolicy kind', (d) => (d.kind = 'TrafficPolicy'), '/kind: const'],
  // Docker tools.yaml
  ['docker', 'a server mapped to a string', (d) => (d.duckduckgo = 'search'), '/duckduckgo: type'],
  ['docker', 'a non-string tool', (d) => (d.duckduckgo = [1]), '/duckduckgo/0: type'],
  ['docker', 'a server mapped to a map', (d) => (d.duckduckgo = { search: true }), '/duckduckgo: type'],
  // Envoy AI Gateway MCPRoute
  ['envoy', '33 include names', (d) => (d.spec.backendRefs[0].toolSelector.include = names(33)), '/spec/backendRefs/0/toolSelector/include: maxItems'],
  [
    'envoy',
    '33 excludeRegex entries',
    (d) => (d.spec.backendRefs[0].toolSelector = { excludeRegex: names(33) }),
    '/spec/backendRefs/0/toolSelector/excludeRegex: maxItems',
  ],
  [
    'envoy',
    'both include and includeRegex',
    (d) => (d.spec.backendRefs[0].toolSelector.includeRegex = ['^get_']),
    'rule: include and includeRegex are mutually exclusive',
  ],
  [
    'envoy',
    'both exclude and excludeRegex',
    (d) => Object.assign(d.spec.backendRefs[0].toolSelector, { exclude: ['a'], excludeRegex: ['b'] }),
    'rule: exclude and excludeRegex are mutually exclusive',
  ],
  ['envoy', 'an empty toolSelector', (d) => (d.spec.backendRefs[0].toolSelector = {}), 'rule: at least one of include, includeRegex, exclude, or excludeRegex'],
  [
    'envoy',
    'an includeRegex RE2 cannot compile',
    (d) => (d.spec.backendRefs[0].toolSelector = { includeRegex: ['^(?=get)'] }),
    '/spec/backendRefs/0/toolSelector/includeRegex/0: rule',
  ],
  [
    'envoy',
    'two backendRefs of one name',
    (d) => d.spec.backendRefs.push({ ...d.spec.backendRefs[0] }),
    '/spec/backendRefs: rule: all backendRefs names must be unique',
  ],
  [
    'envoy',
    '257 backendRefs',
    (d) => (d.spec.backendRefs = names(257, 'b').map((name) => ({ group: 'gateway.envoyproxy.io', kind: 'Backend', name }))),
    '/spec/backendRefs: maxItems',
  ],
  ['envoy', 'no backendRefs', (d) => (d.spec.backendRefs = []), '/spec/backendRefs: minItems'],
  ['envoy', '17 parentRefs', (d) => (d.spec.parentRefs = names(17, 'g').map((name) => ({ kind: 'Gateway', name }))), '/spec/parentRefs: maxItems'],
  ['envoy', 'a parentRef that is not a Gateway', (d) => (d.spec.parentRefs[0].kind = 'ListenerSet'), '/spec/parentRefs: rule: only Gateway is supported'],
  [
    'envoy',
    'a Service backendRef without port',
    (d) => (d.spec.backendRefs[0] = { name: 'github', toolSelector: { include: ['x'] } }),
    '/spec/backendRefs/0: rule: Must have port for Service reference',
  ],
  ['envoy', 'a toolSelector typo', (d) => (d.spec.backendRefs[0].toolSelectors = {}), '/spec/backendRefs/0: additionalProperties'],
  ['envoy', 'a path over 1024 characters', (d) => (d.spec.backendRefs[0].path = `/${'p'.repeat(1024)}`), '/spec/backendRefs/0/path: maxLength'],
  ['envoy', 'the deprecated v1alpha1 apiVersion', (d) => (d.apiVersion = 'aigateway.envoyproxy.io/v1alpha1'), '/apiVersion: const'],
  ['envoy', 'an upper-case metadata.name', (d) => (d.metadata.name = 'GitHub'), '/metadata/name: pattern'],
  ['envoy', 'a 254-character metadata.name', (d) => (d.metadata.name = 'a'.repeat(254)), '/metadata/name: maxLength'],
  // Claude Code settings.json
  ['claude-code', 'permissions.allowed', (d) => (d.permissions = { allowed: [] }), '/permissions: additionalProperties'],
  ['claude-code', 'a duplicate allow rule', (d) => d.permissions.allow.push('mcp__github__get_issue'), '/permissions/allow: uniqueItems'],
  ['claude-code', 'a rule that is not an MCP rule', (d) => d.permissions.allow.push('Bash(ls)'), '/permissions/allow/1: pattern'],
  ['claude-code', 'a 65-character tool name', (d) => d.permissions.allow.push(`mcp__github__${'t'.repeat(52)}`), '/permissions/allow/1: pattern'],
  ['claude-code', 'a tool name with a space', (d) => d.permissions.deny.push('mcp__github__get issue'), '/permissions/deny/1: pattern'],
  ['claude-code', 'a glob (never written by an export)', (d) => d.permissions.deny.push('mcp__github__*'), '/permissions/deny/1: pattern'],
  ['claude-code', 'permissions.allow as a string', (d) => (d.permissions.allow = 'mcp__github__get_issue'), '/permissions/allow: type'],
  ['claude-code', 'an unknown defaultMode', (d) => (d.permissions.defaultMode = 'sometimes'), '/permissions/defaultMode: enum'],
  ['claude-code', 'an allowedMcpServers serverName with a space', (d) => (d.allowedMcpServers = [{ serverName: 'git hub' }]), '/allowedMcpServers/0: oneOf'],
  // Gemini CLI settings.json
  ['gemini', 'includeTools as a string', (d) => (d.mcpServers.github.includeTools = 'get_issue'), '/mcpServers/github/includeTools: type'],
  ['gemini', 'a non-string excludeTools entry', (d) => (d.mcpServers.github.excludeTools = [1]), '/mcpServers/github/excludeTools/0: type'],
  ['gemini', 'an unknown server key', (d) => (d.mcpServers.github.includeTool = []), '/mcpServers/github: additionalProperties'],
  ['gemini', 'an unknown transport type', (d) => (d.mcpServers.github.type = 'websocket'), '/mcpServers/github/type: enum'],
  ['gemini', 'mcpServers as a list', (d) => (d.mcpServers = [d.mcpServers.github]), '/mcpServers: type'],
  // Codex config.toml
  ['codex', 'a server key "a b"', (d) => (d.mcp_servers['a b'] = { enabled_tools: [] }), '/mcp_servers: propertyNames'],
  ['codex', 'enabled_tools as a string', (d) => (d.mcp_servers.github.enabled_tools = 'get_issue'), '/mcp_servers/github/enabled_tools: type'],
  ['codex', 'an unknown server key', (d) => (d.mcp_servers.github.enabledTools = []), '/mcp_servers/github: additionalProperties'],
  ['codex', 'command and url', (d) => (d.mcp_servers.github.url = 'https://example.com/mcp'), '/mcp_servers/github: rule: mixed transports'],
  ['codex', 'url with args', (d) => (d.mcp_servers.github = { url: 'https://example.com/mcp', args: ['x'] }), '/mcp_servers/github: rule: mixed transports'],
  [
    'codex',
    'an unknown default_tools_approval_mode',
    (d) => (d.mcp_servers.github.default_tools_approval_mode = 'always'),
    'default_tools_approval_mode: enum',
  ],
  ['codex', 'a negative startup timeout', (d) => (d.mcp_servers.github.startup_timeout_sec = -1), 'startup_timeout_sec: minimum'],
];

describe('the minimal documents pass', () => {
  it.each(TARGET_FORMATS.map((f) => f.id))('%s', (id) => {
    expect(validateTarget(id, BASE[id])).toEqual([]);
  });
});

describe('documents the targets reject fail', () => {
  it('every target has negative cases', () => {
    expect(new Set(NEGATIVE.map(([id]) => id))).toEqual(new Set(TARGET_FORMATS.map((f) => f.id)));
  });

  it.each(NEGATIVE)('%s: %s', (id, _what, change, expected) => {
    const doc = structuredClone(BASE[id]);
    change(doc);
    const problems = validateTarget(id, doc);
    expect(
      problems.some((p) => p.includes(expected)),
      `expected "${expected}" among:\n${problems.join('\n')}`,
    ).toBe(true);
  });

  it('a Codex server named "a b" parses from TOML and fails', () => {
    const doc = parseTarget('toml', '[mcp_servers."a b"]\nenabled_tools = ["x"]\n');
    expect(validateTarget('codex', doc)).toEqual(expect.arrayContaining([expect.stringContaining('/mcp_servers: propertyNames')]));
  });

  it('an unquoted Cedar config version reads as a number and fails', () => {
    const doc = parseTarget('yaml', "version: 1.0\ntype: cedarv1\ncedar:\n  policies: ['permit(principal, action, resource);']\n  entities_json: '[]'\n");
    expect(validateTarget('toolhive-cedar', doc)).toEqual(['/version: type: must be string']);
  });
});
