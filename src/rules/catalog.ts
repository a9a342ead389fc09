import type { RuleMeta } from './types.js';

const SPEC_ANNOTATIONS = 'MCP spec 2025-11-25, Server Features › Tools › Tool annotations (ToolAnnotations defaults)';
const UPDATE = 'Run `toolgate update`, review the contract diff and commit it.';

/**
 * The rule catalog: the only place rule ids and default levels live. Ids are stable forever and
 * never reused. `docs/rules.md` and `toolgate rules` are generated from this table.
 */
export const RULES = [
  {
    id: 'annotation-dropped',
    level: 'error',
    title: 'A declared hint was removed and the spec default now says something riskier',
    rationale:
      'Clients apply the spec defaults to undeclared hints: readOnlyHint false, destructiveHint true, openWorldHint true. Removing `readOnlyHint: true` turns a read tool into a write; removing the whole annotations object makes the tool destructive and open-world.',
    source: SPEC_ANNOTATIONS,
    fix: 'Get an approving review on the pull request from someone with write access who is not its author (the tool now claims more risk: a read tool is a write now, or a write may destroy or reach the open world), or declare the hint again in the server.',
    reviewable: true,
  },
  {
    id: 'annotation-now-implicit',
    level: 'notice',
    title: 'A declared hint was removed but its effective value is unchanged',
    rationale: 'Typical SDK churn: a hint declared at its default value is no longer sent. Nothing changes for clients, but explicit hints document intent.',
    source: SPEC_ANNOTATIONS,
    fix: 'Declare the hint explicitly in the server if you want it pinned, then run `toolgate update`.',
  },
  {
    id: 'auth-metadata-changed',
    level: 'error',
    title:
      "Who authorizes an HTTP server changed: an authorization server, a scope, the resource or its name in the server's protected resource metadata (RFC 9728)",
    rationale:
      "A client sends the user to the authorization servers the metadata names (the first one) and asks for the scopes it lists, before any tool is called: a new authorization server decides who holds tokens for the agent, a new scope lets those tokens do more, a new resource is another audience. Where no authorization server or no scope is listed, or the metadata cannot be read, clients fall back to the MCP server's own origin and the authorization server's default scopes, so losing them is a change too. Removals alone only narrow what a client asks for and are listed, not raised.",
    source:
      'RFC 9728 §2 (authorization_servers, scopes_supported, resource_name), §3.3 (resource); MCP spec 2025-11-25, Authorization › Authorization Server Location',
    fix: 'Check that each new authorization server is one your organization trusts and that each new scope is one agents should hold; the change passes once a reviewer with write access who is not the author approves the pull request.',
    reviewable: true,
  },
  {
    id: 'auth-metadata-unavailable',
    level: 'warning',
    title: 'An HTTP server wants credentials (HTTP 401) but publishes no protected resource metadata, or metadata toolgate cannot use (RFC 9728)',
    rationale:
      "MCP clients find who issues tokens for a server from its protected resource metadata (the 401's `resource_metadata`, then `/.well-known/oauth-protected-resource` with the path, then at the root). Without a usable document nothing about the server's authorization can be pinned or reviewed, and clients cannot start the spec's OAuth flow (or fall back to guesses). For a source that sends credentials, toolgate asks once without them to see the 401 a client would get.",
    source: 'RFC 9728 §3, §3.3, §5.1; MCP spec 2025-11-25, Authorization › Protected Resource Metadata Discovery Requirements',
    fix: 'Publish RFC 9728 metadata at `/.well-known/oauth-protected-resource<path>` (or name it in the 401\'s `WWW-Authenticate: Bearer resource_metadata="…"`) with a `resource` that covers the server URL, or give the source the credentials it needs in `headers`.',
  },
  {
    id: 'contract-stale',
    level: 'error',
    title: 'The live surface differs from the committed contract',
    rationale:
      'The contract is the reviewed allowlist. When the server changes without a contract update, the change never shows up as a reviewable diff. When every tool that differs has a finding of its own at least as severe, this one is folded into them and the verdict says the contract is stale (one change, one finding).',
    source: 'docs/design.md §3 (drift), §6 (folding)',
    fix: UPDATE,
  },
  {
    id: 'contradictory-annotations',
    level: 'warning',
    title: 'A tool declares readOnlyHint true together with destructiveHint true',
    rationale:
      'destructiveHint only has meaning for tools that are not read-only; declaring both shows the annotations were not thought through and clients may treat them differently.',
    source: SPEC_ANNOTATIONS,
    fix: 'Remove destructiveHint from the read-only tool, or set readOnlyHint to false.',
  },
  {
    id: 'count-mismatch',
    level: 'error',
    title: 'A pinned count differs from the live surface',
    rationale:
      "toolCount, readOnlyToolCount, destructiveToolCount and openWorldToolCount summarise what an agent can reach; a change in any of them is a change in exposure. A count that the contract's own tools give is explained by the per-tool findings and folded into contract-stale; one they do not give (a hand edit) stays.",
    source: 'docs/design.md §4 (pinned counts), §6 (folding)',
    fix: UPDATE,
  },
  {
    id: 'denied-tool',
    level: 'error',
    title: 'A tool matching a deny pattern is reachable (or classed read where the pattern forbids it)',
    rationale: 'The policy lists tools that must never be reachable by the agent, or never run unattended.',
    source: 'toolgate policy `deny`',
    fix: 'Remove or disable the tool in the server or integration, or change the `deny` entry in toolgate.yml with a reviewed commit.',
  },
  {
    id: 'description-changed',
    level: 'error',
    title:
      'Text a model or user reads changed: a description or title, annotations.title, text inside inputSchema or outputSchema (description, title, default, examples, $comment, x- keys), vendor annotation keys, icons, _meta',
    rationale:
      'Descriptions are text the model reads and follows, the tool\'s own and those of its arguments alike, and clients show titles, icons and `_meta` to people. Changing one after review is the classic tool-poisoning "rug pull"; a schema comparison alone would not notice the arguments\' text, which changes nothing that validates.',
    source: 'Invariant Labs, "MCP tool poisoning" (2025); MCP spec, Security considerations',
    fix: 'Read the old and the new text for instructions aimed at the model; the change passes once a reviewer with write access who is not the author approves the pull request.',
    reviewable: true,
  },
  {
    id: 'duplicate-tool-name',
    level: 'error',
    title: 'Two tools share a name',
    rationale: 'Tool names are unique keys; a client calls one of them at random or rejects the list.',
    source: 'MCP spec 2025-11-25, Tools › Tool names',
    fix: 'Rename one of the tools in the server.',
  },
  {
    id: 'export-stale',
    level: 'error',
    title: 'A committed export (gateway or client configuration) no longer matches its contract',
    rationale:
      'An export puts the reviewed contract into a gateway or client that enforces it (ToolHive, agentgateway, Docker MCP Gateway, Envoy AI Gateway, Claude Code, Gemini CLI, Codex). A pull request that changes the contract or the runtime block and leaves the export behind ships a gateway that still allows what was removed, or refuses what was reviewed.',
    source: 'docs/design.md §12',
    fix: 'Run `toolgate export` (it writes every export listed in toolgate.yml; `--to TARGET -o FILE` for one) and commit the result.',
  },
  {
    id: 'instructions-changed',
    level: 'error',
    title: "The server's instructions changed (the text clients put into the model's context, from initialize)",
    rationale:
      "A server's `instructions` reach the model on every turn, as its tools' descriptions do, and can steer how it uses every tool of every server; a change after review is a rug pull like a changed description.",
    source: 'MCP spec 2025-11-25, Lifecycle › Initialization (InitializeResult.instructions); Invariant Labs, "MCP tool poisoning" (2025)',
    fix: 'Read the old and the new instructions for directions aimed at the model; the change passes once a reviewer with write access who is not the author approves the pull request.',
    reviewable: true,
  },
  {
    id: 'invalid-annotation',
    level: 'warning',
    title: 'A hint is declared with a value that is not a boolean',
    rationale:
      'The spec types every hint as a boolean. A client ignores `"readOnlyHint": "true"` and applies the default (false), so the server means one thing and every client sees another.',
    source: SPEC_ANNOTATIONS,
    fix: 'Declare the hint as true or false in the server, then run `toolgate update`.',
  },
  {
    id: 'invalid-policy',
    level: 'error',
    title: 'An OpenAPI `policies` entry has a value other than "read"',
    rationale: 'The only promotion toolgate knows is to read; any other value is a typo that would silently do nothing.',
    source: 'toolgate integration config',
    fix: 'Set the value to "read" or remove the entry.',
    configError: true,
  },
  {
    id: 'invalid-tool-name',
    level: 'warning',
    title: 'A tool name is outside [A-Za-z0-9_.-]{1,128} or has invisible or confusable characters',
    rationale:
      'The spec recommends 1–128 characters of ASCII letters, digits, underscore, hyphen and dot. Invisible or look-alike characters let one tool impersonate another.',
    source: 'MCP spec 2025-11-25, Tools › Tool names',
    fix: 'Rename the tool in the server using only [A-Za-z0-9_.-].',
  },
  {
    id: 'malformed-tool',
    level: 'error',
    title: 'A listed tool does not have the shape of an MCP tool',
    rationale:
      'Strict clients (the MCP SDKs) drop a tool whose inputSchema is not an object of type "object", or whose title, description, outputSchema or annotations have the wrong type; lenient clients still offer it to the model. So it is pinned exactly as served, counted and judged like any other tool (annotations that are not an object declare nothing: the spec defaults apply), and reported here. An entry without a string name cannot be keyed or called: no contract is written while one is listed.',
    source: 'MCP spec 2025-11-25, schema `Tool`',
    fix: 'Fix the tool definition in the server.',
  },
  {
    id: 'open-arguments',
    level: 'notice',
    title: "A tool's inputSchema allows unknown arguments",
    rationale:
      'With additionalProperties not false, the model may pass arguments nobody reviewed, and a later server change can start honouring them without a schema change.',
    source: 'JSON Schema 2020-12, additionalProperties',
    fix: 'Set `additionalProperties: false` on the tool input schema.',
  },
  {
    id: 'operation-call-changed',
    level: 'notice',
    title:
      "Where an OpenAPI operation's calls go or what they carry changed without widening: a server, scope, parameter or media type removed, servers reordered, response media types changed",
    rationale:
      "The contract pins, per operation, its servers, security requirements and schemes, parameters' locations and media types (docs/design.md §4). A change that only narrows them, or that an agent's calls cannot use to reach or carry more (responses, a scheme's list of available scopes, an argument's parameter, which its schema judges), needs no approval, but the reviewer still sees what the calls now do.",
    source:
      'OpenAPI 3.1.1, Server Object, Security Requirement Object, Parameter Object (`in`), Media Type Object; Swagger 2.0 `consumes`, `produces`; docs/design.md §7 (narrowing)',
    fix: 'Nothing to approve: check that the integration still works with what the operation now sends and accepts.',
  },
  {
    id: 'operation-request-changed',
    level: 'error',
    title:
      "What an OpenAPI operation's calls send changed: a parameter moved to another location, a parameter the client sends added, a request media type added",
    rationale:
      "Where a parameter goes decides who sees it: moved from the path to a header or a cookie, the same argument lands in logs, proxies or a session the client holds; a new cookie or client-set header is data the call carries that no argument shows. A new request media type lets the body be sent in a form (XML, form-encoded, multipart) whose parsing nobody reviewed. Each is a change to what the agent's calls send.",
    source: 'OpenAPI 3.1.1, Parameter Object (`in`: path, query, header, cookie), Request Body Object (`content`); Swagger 2.0 `in`, `consumes`',
    fix: 'Check where the moved or added parameter now goes and that the new media type is one the integration should send; the change passes once a reviewer with write access who is not the author approves the pull request.',
    reviewable: true,
  },
  {
    id: 'operation-security-changed',
    level: 'error',
    title:
      "The credentials an OpenAPI operation's calls carry changed: a security requirement removed, added or made optional, scopes added, a security scheme changed",
    rationale:
      "An operation's security requirements say which credentials a call carries and with which scopes (operation `security` overrides the document's; `[]` removes it, an empty requirement `{}` makes it optional). Added scopes or a new requirement let the agent's token do more or carry another credential; a removed or optional requirement means the API now takes calls nobody authenticated; a scheme whose type, key location, flow or token and authorization URLs change sends the user's consent or the credential to another party. Only removed scopes narrow.",
    source:
      'OpenAPI 3.1.1, Operation Object `security`, Security Requirement Object, Security Scheme Object, OAuth Flows Object; Swagger 2.0 `securityDefinitions`; RFC 6749 §3.3 (scope)',
    fix: "Check that each new scope and credential is one the agent should hold, and that every authorization and token URL is your provider's; the change passes once a reviewer with write access who is not the author approves the pull request.",
    reviewable: true,
  },
  {
    id: 'operation-server-changed',
    level: 'error',
    title:
      "Where an OpenAPI operation's calls go changed: a server URL added or changed (host, base path, scheme), a server variable that accepts more values or has another default",
    rationale:
      "The servers in effect for an operation (its own `servers`, else its path item's, else the document's; Swagger 2.0: `schemes`, `host`, `basePath`) decide where the agent's calls, their arguments and their credentials go. A new host or base path sends them somewhere nobody reviewed, and a server variable whose `enum` grows or whose `default` changes does the same through substitution. A contract written before toolgate pinned servers (format 1) has them all new, and says so once per source.",
    source:
      'OpenAPI 3.1.1, OpenAPI Object, Path Item Object and Operation Object `servers`, Server Object, Server Variable Object; Swagger 2.0 `schemes`, `host`, `basePath`',
    fix: 'Check that each new server is one the integration should call (a relative URL resolves against where the document is served); the change passes once a reviewer with write access who is not the author approves the pull request.',
    reviewable: true,
  },
  {
    id: 'output-schema-changed',
    level: 'notice',
    title: "A tool's outputSchema changed",
    rationale: 'Structured output feeds the model and downstream code; a change can break parsers.',
    source: 'MCP spec 2025-11-25, Tools › Output schema',
    fix: UPDATE,
  },
  {
    id: 'partially-annotated-tool',
    level: 'notice',
    title: 'A tool declares some hints but not all four',
    rationale: 'Undeclared hints take the spec defaults, which may not be what the author meant.',
    source: SPEC_ANNOTATIONS,
    fix: 'Declare all four hints (readOnlyHint, destructiveHint, idempotentHint, openWorldHint).',
  },
  {
    id: 'payload-too-large',
    level: 'error',
    title: 'The advertised tool list exceeds the configured size',
    rationale: 'Every tool definition is sent to the model on each turn; a large list costs context and money and crowds out the task.',
    source: 'toolgate policy `limits`',
    fix: 'Shorten descriptions or schemas, remove tools, or raise `limits.max-payload-bytes` in toolgate.yml.',
  },
  {
    id: 'policy-not-included',
    level: 'error',
    title: 'An OpenAPI `policies` entry names an operation that is not included',
    rationale: 'A policy on an operation outside the allowlist does nothing and usually means the include list and the policies drifted apart.',
    source: 'toolgate integration config',
    fix: 'Add the operation to `include` or remove the policy.',
    configError: true,
  },
  {
    id: 'policy-relaxed',
    level: 'error',
    title: 'The pull request relaxes the policy that judges it',
    rationale:
      "The base branch's toolgate.yml judges a pull request; a PR's own edits apply only after the merge. Lowering a level, adding an override, removing a deny entry, weakening review, raising a limit, turning an allow-* key on, or changing what a source starts or passes to its server widens what later PRs can do unseen, so a second person must agree.",
    source: 'docs/design.md §7 (the base branch judges)',
    fix: 'Get an approving review on the pull request from someone with write access who is not its author, or undo the relaxation.',
    reviewable: true,
  },
  {
    id: 'policy-tightened',
    level: 'notice',
    title: 'The pull request makes the policy stricter; it applies after the merge',
    rationale:
      "The base branch's toolgate.yml judges a pull request, so a stricter setting written in the PR does not judge the PR itself. Saying so keeps a reviewer from believing it already did.",
    source: 'docs/design.md §7 (the base branch judges)',
    fix: 'Nothing to do: the stricter setting judges the pull requests after this one.',
  },
  {
    id: 'promoted-operation-moved',
    level: 'error',
    title: "A reachable OpenAPI operation's method or path changed",
    rationale:
      'An allowlisted operation, and a read promotion above all, was reviewed for one HTTP method and path. If the operationId now points elsewhere, the tool calls an endpoint nobody reviewed.',
    source: 'docs/design.md §7 (widening)',
    fix: 'Review the operation the id now points to and re-approve the promotion in the PR.',
    reviewable: true,
  },
  {
    id: 'read-promotion-unreviewed',
    level: 'error',
    title: 'A tool newly classed read has no approving review',
    rationale:
      'A read tool may run without a human in the loop. Promoting a non-GET/HEAD operation, or an MCP tool that was not read-only, needs a second person to agree.',
    source: 'docs/design.md §7; MCP spec, annotations are hints, not authorization',
    fix: 'Get an approving review on the pull request from someone with write access who is not its author.',
    reviewable: true,
  },
  {
    id: 'read-tool-became-write',
    level: 'error',
    title: 'A tool the contract classes read now claims it is not read-only',
    rationale: 'Agents may call read tools unattended; if such a tool starts writing, that permission is now wrong.',
    source: SPEC_ANNOTATIONS,
    fix: 'Get an approving review on the pull request from someone with write access who is not its author (the tool is now a write: agents that run read tools unattended lose it), or restore readOnlyHint in the server.',
    reviewable: true,
  },
  {
    id: 'risk-claim-lowered',
    level: 'error',
    title: 'An effective hint moved to the less risky side',
    rationale:
      'destructiveHint true→false, openWorldHint true→false or idempotentHint false→true loosens what clients guard (a client may retry an idempotent call or skip a confirmation). The server is claiming less risk; annotations are claims by the party being limited, so a person must agree.',
    source: SPEC_ANNOTATIONS,
    fix: 'Get an approving review on the pull request from someone with write access who is not its author.',
    reviewable: true,
  },
  {
    id: 'safety-field-changed',
    level: 'error',
    title: 'A vendor safety field named in toolgate.yml (`safety-fields`) changed in a tool: to the less safe side, to the safer side, or within one side',
    rationale:
      'Servers declare safety facts beyond the four hints (a `_meta` key, a vendor annotation key, a safety object of their own: paid generation, sensitive URLs, read-only). A move to the less safe side widens what the tool does; a move to the safer side is a claim of less risk by the party being limited, and `deny[].less-safe` and `runtime.require-safer` act on it. Like hints, a field only restricts: a missing value is on the less safe side unless the policy gives a `default`.',
    source:
      'MCP spec 2025-11-25, Server Features › Tools (`_meta`, tool annotations: clients must treat them as untrusted unless from a trusted server); docs/design.md §7 (who may widen the surface)',
    fix: 'Check what the tool now declares at the field; the change passes once a reviewer with write access who is not the author approves the pull request.',
    reviewable: true,
  },
  {
    id: 'schema-narrowed',
    level: 'warning',
    title: "A tool's inputSchema accepts or declares less than before",
    rationale: 'Callers and prompts written against the old schema break.',
    source: 'JSON Schema validation semantics',
    fix: 'Make the change backward compatible or announce it, then run `toolgate update`.',
  },
  {
    id: 'schema-unclassified',
    level: 'error',
    title: "A tool's inputSchema changed in a way toolgate could not classify",
    rationale:
      'When the comparison times out, fails, or meets a recursive schema that changed, toolgate fails closed rather than pass a change it could not read. References are resolved as the validator the proxy enforces schemas with (Ajv) resolves them; one that leads outside the schema (another file, a meta-schema), names two schemas (a duplicate `$anchor` or `$id`), or goes through a dynamic scope whose target is not certain (`$dynamicRef`, `$recursiveRef` other than to the root) is unclassified, even when only a description changed beside it. So is a change that makes the proxy check the schema in fewer dialects (one that no longer compiles as JSON Schema 2020-12 stops enforcing `prefixItems`, `dependentSchemas`...).',
    source: 'JSON Schema 2020-12 Core §8.2 (base URI, `$id`, `$anchor`, `$ref`, `$dynamicRef`); docs/design.md §8 (fail closed), §14 (json-schema-diff limits)',
    fix: 'Review the schema change by hand; it passes once a reviewer with write access who is not the author approves the pull request.',
    reviewable: true,
  },
  {
    id: 'schema-widened',
    level: 'error',
    title: "A tool's inputSchema accepts inputs it did not accept before",
    rationale:
      'An allowlisted tool must match the structural snapshot that was reviewed: new inputs are new capability. Every reference is followed as a validator resolves it (JSON pointers into any part of the schema, `$anchor`, `$id` absolute, `urn:` or relative to an enclosing `$id`, and `$dynamicRef`/`$recursiveRef` where the target is certain), so a constraint dropped inside a referenced definition is a widening where the definition is used.',
    source: 'JSON Schema validation semantics; docs/design.md §7 (widening)',
    fix: 'Review the newly accepted inputs; the change passes once a reviewer with write access who is not the author approves the pull request.',
    reviewable: true,
  },
  {
    id: 'server-escaped',
    level: 'error',
    title: 'A process of the server outlived it',
    rationale:
      "Code from a pull request that keeps running after the check (a daemon in a new session, a double fork) can act on the runner after toolgate is done: read later steps' secrets, change their files. toolgate marks every process it starts and kills those still alive after the server ended; in the sandbox none can survive.",
    source: 'docs/design.md §9 (the sandbox)',
    fix: 'Make the server exit with its stdin (or on SIGTERM) without leaving processes behind, and run toolgate where the sandbox is available (Linux with bubblewrap).',
  },
  {
    id: 'server-failed',
    level: 'error',
    title: 'The source could not be snapshotted',
    rationale:
      'A server that crashes, hangs or answers garbage, or a document that fails to load, must fail the check: never a clean report on a broken input.',
    source: 'docs/design.md §8 (fail closed), §9 (limits)',
    fix: 'Read the message and the server stderr tail; fix the server or the source config in toolgate.yml.',
  },
  {
    id: 'server-network-blocked',
    level: 'warning',
    title: 'The sandboxed server tried to reach the network',
    rationale:
      'A server that phones home while its tools are listed (telemetry, update checks, a package install) does so for every agent that starts it. The sandbox blocks it; this says which hosts it wanted, as far as its error output names them.',
    source: 'docs/design.md §9 (the sandbox)',
    fix: "Turn the server's telemetry and update checks off (its flags or env), or, if it needs the network to list its tools, set `network: open` on the source (reviewed like any policy relaxation).",
  },
  {
    id: 'server-unsandboxed',
    level: 'notice',
    title: 'The server ran outside the sandbox',
    rationale:
      "Without the sandbox the server runs as toolgate's user: it can read toolgate's environment through /proc (the Action's token), reach the network and write the runner's files. Every report says so.",
    source: 'docs/design.md §9 (the sandbox)',
    fix: 'The message says why. No sandbox on the machine: in a workflow, add the step `uses: toolgate/toolgate/setup-sandbox@v0` before toolgate (it installs bubblewrap and, on Ubuntu 23.10+ such as ubuntu-latest, loads AppArmor\'s bwrap-userns-restrict profile); elsewhere install bubblewrap on Linux. `sandbox: "off"` on the source: remove it. `sandbox: required` at the top of toolgate.yml makes an unsandboxed run a configuration error.',
  },

  {
    id: 'stdout-noise',
    level: 'warning',
    title: 'The server writes non-JSON-RPC lines on stdout',
    rationale: 'On stdio, stdout carries only JSON-RPC messages; other lines are dropped or corrupt the stream for stricter clients.',
    source: 'MCP spec 2025-11-25, Transports › stdio',
    fix: 'Send logs to stderr in the server.',
  },
  {
    id: 'suspicious-text',
    level: 'warning',
    title:
      "Text a model reads tries something: an instruction aimed at the model about other servers' tools (call X first, use this instead of X), about data leaving (send to a URL, put it in a URL or an argument), secrecy, rewritten arguments, secrets and their files, shell commands, hidden text; or an argument shaped to carry what the model knows",
    rationale:
      'Tool-poisoning payloads live in text the model reads and a reviewer skims. The patterns look for structure more than words: a verb aimed at the model and its object (read ~/.ssh/id_rsa, send … to https://…, pass the conversation), an ordering or redirecting word with a tool this server does not serve, an argument named _system_prompt_. Each hit quotes the span and names the pattern (docs/rules.md, "Patterns of suspicious-text"), so a person can judge it in seconds. Only new text is judged: all of it in an audit, in a check what a change adds to a text (quoted first), so a reviewed text is not raised on every run and a changed one rides on the approval description-changed already needs. Measured in bench/poison/RESULTS.md.',
    source:
      'Invariant Labs, "MCP tool poisoning" (2025) and "WhatsApp MCP exploited" (2025); Trail of Bits, "Jumping the line" (2025); CyberArk, full-schema poisoning (2025); OWASP LLM01; Unicode TR36; the pattern table in src/rules/suspicious-patterns.ts',
    fix: 'Read the quoted text: if it tells the model what to hide, what to read, where to send or what to call, remove it from the server (or deny the tool); if it is benign documentation, approve the change or turn the rule off for this tool with an `overrides:` entry.',
  },
  {
    id: 'token-budget-exceeded',
    level: 'error',
    title: 'The advertised tools cost the model more tokens per turn than the policy allows (limits.max-tokens, limits.max-tokens-per-tool)',
    rationale:
      "Every advertised tool is sent to the model on every turn: a surface that grows costs money, context and accuracy on every call. Counted with OpenAI's o200k_base encoding over what a client sends for each tool (name, title, description, inputSchema as JSON); other models' tokenizers differ by roughly 10-20 %.",
    source: "toolgate.yml `limits`; published figures: GitHub's MCP server about 26K tokens for 35 tools",
    fix: 'Trim descriptions and schemas, split the server, deny tools the agent does not need, or raise the limit in toolgate.yml with a reviewed commit.',
  },
  {
    id: 'too-many-tools',
    level: 'error',
    title: 'More tools are reachable than the configured limit',
    rationale:
      'Each reachable tool is one more thing the model can be steered into calling, and tool choice degrades as lists grow; a cap makes every addition past it a deliberate decision.',
    source: 'toolgate policy `limits.max-tools`',
    fix: 'Remove or disable tools, split the server, or raise `limits.max-tools` in toolgate.yml.',
  },
  {
    id: 'tool-added',
    level: 'error',
    title: 'A tool becomes reachable that the base contract lacks',
    rationale:
      'The contract is an allowlist only because a second person reviewed it: an author who runs `toolgate update` and commits has reviewed nothing. A new tool of any class, write or read, is new reach for the agent; the message names its class and effective hints.',
    source: 'docs/design.md §7 (widening); MCP spec 2025-11-25, Tool annotations (defaults)',
    fix: 'Get an approving review on the pull request from someone with write access who is not its author, or remove the tool.',
    reviewable: true,
  },
  {
    id: 'tool-removed',
    level: 'warning',
    title: 'A contract tool is no longer served',
    rationale: 'Agents and prompts that rely on it break.',
    source: 'docs/design.md §7 (narrowing)',
    fix: UPDATE,
  },
  {
    id: 'tool-shadowed',
    level: 'warning',
    title: "Two sources of one toolgate.yml serve the same tool name, or a tool's text names another source's tool",
    rationale:
      'An agent connected to several servers sees them in one tool list: two tools of one name collide (clients keep one, or rename them), and a description that names another server\'s tool ("use this instead of send_email") is how a malicious server shadows a trusted one. Names are looked for as whole words and only when they read as identifiers (with "_", "-", "." or camelCase), so ordinary words do not match.',
    source: 'Invariant Labs, "MCP tool poisoning: cross-server shadowing" (2025); MCP spec, Tools › Tool names',
    fix: "Rename one of the tools in its server (or deny it in one source), or remove the other server's tool names from the description; when the reference is intended, turn the rule off for this tool with an `overrides:` entry.",
  },
  {
    id: 'unannotated-tool',
    level: 'warning',
    title: 'A tool declares no hints at all',
    rationale: 'With no hints, the spec defaults make the tool destructive and open-world: the most dangerous case.',
    source: SPEC_ANNOTATIONS,
    fix: 'Declare readOnlyHint, destructiveHint, idempotentHint and openWorldHint on the tool.',
  },
  {
    id: 'unknown-operation',
    level: 'error',
    title: 'An OpenAPI include or policies entry names an operation the document lacks',
    rationale: 'Spec drift must fail when the integration loads, not in production when the agent calls it.',
    source: 'toolgate integration config',
    fix: 'Fix the operationId (or "METHOD /path") in the integration config, or update the OpenAPI document.',
    configError: true,
  },
  {
    id: 'unlisted-tool',
    level: 'error',
    title: 'A reachable tool has no entry in the contract',
    rationale: 'The contract is the allowlist: a tool is reachable only if a person reviewed and committed it.',
    source: 'docs/design.md §4 (the allowlist); MCP spec, annotations are hints, not authorization',
    fix: UPDATE,
  },
] as const satisfies readonly RuleMeta[];

/** A rule id from the catalog. */
export type RuleId = (typeof RULES)[number]['id'];

const BY_ID = new Map<string, RuleMeta>(RULES.map((r) => [r.id, r]));

/** Looks a rule up by id. */
export function ruleById(id: string): RuleMeta | undefined {
  return BY_ID.get(id);
}

/** True when `id` names a catalog rule. */
export function isRuleId(id: string): id is RuleId {
  return BY_ID.has(id);
}

/** How often a finding of a rule is a true one (SARIF `precision`, shown by code scanning). */
export type Precision = 'very-high' | 'high' | 'medium' | 'low';

/**
 * Code scanning's view of each rule (GitHub: "SARIF support for code scanning", `properties`
 * `security-severity` and `precision`). A security rule has a severity from 0.1 to 10, which
 * GitHub files as critical (9.0 and over), high (7.0–8.9), medium (4.0–6.9) or low; the others
 * are quality findings. Precision: `very-high` for what a diff or the contract decides, `high`
 * where a judgment of the schema or the listing is involved, `medium` for the text heuristics.
 * Every rule has an entry (a test checks it).
 */
export const SCANNING: Readonly<Record<RuleId, { security?: number; precision: Precision }>> = {
  'annotation-dropped': { security: 8.0, precision: 'very-high' },
  'annotation-now-implicit': { precision: 'very-high' },
  'auth-metadata-changed': { security: 8.0, precision: 'very-high' },
  'auth-metadata-unavailable': { security: 4.0, precision: 'high' },
  'contract-stale': { security: 7.0, precision: 'very-high' },
  'contradictory-annotations': { security: 4.0, precision: 'very-high' },
  'count-mismatch': { security: 4.0, precision: 'very-high' },
  'denied-tool': { security: 8.5, precision: 'very-high' },
  'description-changed': { security: 7.0, precision: 'very-high' },
  'duplicate-tool-name': { security: 5.0, precision: 'very-high' },
  'export-stale': { security: 7.0, precision: 'very-high' },
  'instructions-changed': { security: 7.0, precision: 'very-high' },
  'invalid-annotation': { security: 4.0, precision: 'very-high' },
  'invalid-policy': { precision: 'very-high' },
  'invalid-tool-name': { security: 4.0, precision: 'high' },
  'malformed-tool': { precision: 'very-high' },
  'open-arguments': { precision: 'high' },
  'operation-call-changed': { precision: 'very-high' },
  'operation-request-changed': { security: 7.0, precision: 'very-high' },
  'operation-security-changed': { security: 8.0, precision: 'very-high' },
  'operation-server-changed': { security: 8.0, precision: 'very-high' },
  'output-schema-changed': { precision: 'very-high' },
  'partially-annotated-tool': { precision: 'very-high' },
  'payload-too-large': { precision: 'very-high' },
  'policy-not-included': { security: 5.0, precision: 'very-high' },
  'policy-relaxed': { security: 8.0, precision: 'very-high' },
  'policy-tightened': { precision: 'very-high' },
  'promoted-operation-moved': { security: 7.5, precision: 'very-high' },
  'read-promotion-unreviewed': { security: 8.0, precision: 'very-high' },
  'read-tool-became-write': { security: 8.5, precision: 'very-high' },
  'risk-claim-lowered': { security: 8.0, precision: 'very-high' },
  'safety-field-changed': { security: 7.5, precision: 'very-high' },
  'schema-narrowed': { precision: 'high' },
  'schema-unclassified': { security: 5.0, precision: 'medium' },
  'schema-widened': { security: 7.5, precision: 'high' },
  'server-escaped': { security: 9.0, precision: 'very-high' },
  'server-failed': { precision: 'very-high' },
  'server-network-blocked': { security: 4.0, precision: 'high' },
  'server-unsandboxed': { security: 6.0, precision: 'very-high' },
  'stdout-noise': { precision: 'very-high' },
  'suspicious-text': { security: 6.0, precision: 'medium' },
  'token-budget-exceeded': { precision: 'very-high' },
  'too-many-tools': { precision: 'very-high' },
  'tool-added': { security: 7.5, precision: 'very-high' },
  'tool-removed': { precision: 'very-high' },
  'tool-shadowed': { security: 5.5, precision: 'medium' },
  'unannotated-tool': { security: 3.0, precision: 'very-high' },
  'unknown-operation': { precision: 'very-high' },
  'unlisted-tool': { security: 9.0, precision: 'very-high' },
};

/**
 * The stage of the pipeline whose facts a rule reads (docs/design.md §3): `source` (what starting
 * or loading the source found out), `surface` (one listing, or the listings of all sources),
 * `change` (the surface against the contract and the base), `policy` (a pull request's edits to
 * toolgate.yml), `export` (a committed export against its contract).
 */
export type Stage = 'source' | 'surface' | 'change' | 'policy' | 'export';

const CHECKS_DIR = 'src/rules/checks';
const OPENAPI_LOADER = 'src/sources/openapi';

/**
 * Where each rule is raised: the module of its check, registered in `src/rules/index.ts`, or for
 * a configuration error the loader that throws it; and the stage it belongs to. Every rule has an
 * entry; test/rules/raised.test.ts reads the code and fails when a rule is raised anywhere else.
 */
export const RAISED: Readonly<Record<RuleId, { stage: Stage; module: string }>> = {
  'annotation-dropped': { stage: 'change', module: `${CHECKS_DIR}/hints.ts` },
  'annotation-now-implicit': { stage: 'change', module: `${CHECKS_DIR}/hints.ts` },
  'auth-metadata-changed': { stage: 'change', module: `${CHECKS_DIR}/auth.ts` },
  'auth-metadata-unavailable': { stage: 'source', module: `${CHECKS_DIR}/auth.ts` },
  'contract-stale': { stage: 'change', module: `${CHECKS_DIR}/membership.ts` },
  'contradictory-annotations': { stage: 'surface', module: `${CHECKS_DIR}/hints.ts` },
  'count-mismatch': { stage: 'change', module: `${CHECKS_DIR}/membership.ts` },
  'denied-tool': { stage: 'surface', module: `${CHECKS_DIR}/policy.ts` },
  'description-changed': { stage: 'change', module: `${CHECKS_DIR}/text.ts` },
  'duplicate-tool-name': { stage: 'surface', module: `${CHECKS_DIR}/membership.ts` },
  'export-stale': { stage: 'export', module: `${CHECKS_DIR}/export.ts` },
  'instructions-changed': { stage: 'change', module: `${CHECKS_DIR}/text.ts` },
  'invalid-annotation': { stage: 'surface', module: `${CHECKS_DIR}/hints.ts` },
  'invalid-policy': { stage: 'source', module: `${OPENAPI_LOADER}/config.ts` },
  'invalid-tool-name': { stage: 'surface', module: `${CHECKS_DIR}/text.ts` },
  'malformed-tool': { stage: 'surface', module: `${CHECKS_DIR}/membership.ts` },
  'open-arguments': { stage: 'surface', module: `${CHECKS_DIR}/schema.ts` },
  'operation-call-changed': { stage: 'change', module: `${CHECKS_DIR}/operation.ts` },
  'operation-request-changed': { stage: 'change', module: `${CHECKS_DIR}/operation.ts` },
  'operation-security-changed': { stage: 'change', module: `${CHECKS_DIR}/operation.ts` },
  'operation-server-changed': { stage: 'change', module: `${CHECKS_DIR}/operation.ts` },
  'output-schema-changed': { stage: 'change', module: `${CHECKS_DIR}/schema.ts` },
  'partially-annotated-tool': { stage: 'surface', module: `${CHECKS_DIR}/hints.ts` },
  'payload-too-large': { stage: 'surface', module: `${CHECKS_DIR}/policy.ts` },
  'policy-not-included': { stage: 'source', module: `${OPENAPI_LOADER}/index.ts` },
  'policy-relaxed': { stage: 'policy', module: `${CHECKS_DIR}/policy-changes.ts` },
  'policy-tightened': { stage: 'policy', module: `${CHECKS_DIR}/policy-changes.ts` },
  'promoted-operation-moved': { stage: 'change', module: `${CHECKS_DIR}/policy.ts` },
  'read-promotion-unreviewed': { stage: 'change', module: `${CHECKS_DIR}/hints.ts` },
  'read-tool-became-write': { stage: 'change', module: `${CHECKS_DIR}/hints.ts` },
  'risk-claim-lowered': { stage: 'change', module: `${CHECKS_DIR}/hints.ts` },
  'safety-field-changed': { stage: 'change', module: `${CHECKS_DIR}/safety.ts` },
  'schema-narrowed': { stage: 'change', module: `${CHECKS_DIR}/schema.ts` },
  'schema-unclassified': { stage: 'change', module: `${CHECKS_DIR}/schema.ts` },
  'schema-widened': { stage: 'change', module: `${CHECKS_DIR}/schema.ts` },
  'server-escaped': { stage: 'source', module: `${CHECKS_DIR}/source.ts` },
  'server-failed': { stage: 'source', module: `${CHECKS_DIR}/source.ts` },
  'server-network-blocked': { stage: 'source', module: `${CHECKS_DIR}/source.ts` },
  'server-unsandboxed': { stage: 'source', module: `${CHECKS_DIR}/source.ts` },
  'stdout-noise': { stage: 'source', module: `${CHECKS_DIR}/source.ts` },
  'suspicious-text': { stage: 'surface', module: `${CHECKS_DIR}/suspicious.ts` },
  'token-budget-exceeded': { stage: 'surface', module: `${CHECKS_DIR}/policy.ts` },
  'too-many-tools': { stage: 'surface', module: `${CHECKS_DIR}/policy.ts` },
  'tool-added': { stage: 'change', module: `${CHECKS_DIR}/additions.ts` },
  'tool-removed': { stage: 'change', module: `${CHECKS_DIR}/membership.ts` },
  'tool-shadowed': { stage: 'surface', module: `${CHECKS_DIR}/shadow.ts` },
  'unannotated-tool': { stage: 'surface', module: `${CHECKS_DIR}/hints.ts` },
  'unknown-operation': { stage: 'source', module: `${OPENAPI_LOADER}/index.ts` },
  'unlisted-tool': { stage: 'change', module: `${CHECKS_DIR}/membership.ts` },
};
