/**
 * The rows of the rules about the policy and the OpenAPI integration configs: a pull request's
 * edits to `toolgate.yml`, operations that are not there, promotions, and where an operation's
 * calls go and what they carry. catalog.ts assembles the families into one table, sorted by id.
 *
 * @module
 */
import type { RuleMeta } from '../types.js';

/** The rows of this family, in id order. */
export const CONFIG_RULES = [
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
    id: 'operation-call-changed',
    level: 'notice',
    title:
      "Where an OpenAPI operation's calls go or what they carry changed without widening: a server, scope, parameter or media type removed, `allowReserved` or `allowEmptyValue` turned off, servers reordered, response media types changed",
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
      "What an OpenAPI operation's calls send changed: a parameter moved to another location, a parameter the client sends added, a parameter's serialization changed (style, explode, allowReserved, schema or content), a request media type added",
    rationale:
      "Where a parameter goes decides who sees it: moved from the path to a header or a cookie, the same argument lands in logs, proxies or a session the client holds; a new cookie or client-set header is data the call carries that no argument shows. How a parameter is serialized decides what the server reads out of the same argument: with `allowReserved` an argument `x&admin=true` arrives as a second query parameter nobody declared, and another `style`, `explode`, `collectionFormat` or a `content` media type in place of `schema` makes the server split or parse it differently. A new request media type lets the body be sent in a form (XML, form-encoded, multipart) whose parsing nobody reviewed. Each is a change to what the agent's calls send.",
    source:
      'OpenAPI 3.1.1, Parameter Object (`in`: path, query, header, cookie; `style`, `explode`, `allowReserved`, `allowEmptyValue`, `schema` or `content`), Request Body Object (`content`); Swagger 2.0 `in`, `collectionFormat`, `consumes`',
    fix: 'Check where the moved or added parameter now goes, how the API reads a parameter serialized the new way, and that the new media type is one the integration should send; the change passes once a reviewer with write access who is not the author approves the pull request.',
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
    id: 'unknown-operation',
    level: 'error',
    title: 'An OpenAPI include or policies entry names an operation the document lacks',
    rationale: 'Spec drift must fail when the integration loads, not in production when the agent calls it.',
    source: 'toolgate integration config',
    fix: 'Fix the operationId (or "METHOD /path") in the integration config, or update the OpenAPI document.',
    configError: true,
  },
] as const satisfies readonly RuleMeta[];
