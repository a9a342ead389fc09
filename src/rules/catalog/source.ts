/**
 * The rows of the rules about the source itself: a server that fails, runs outside the sandbox,
 * escapes it, needs the network or writes noise, and who authorizes an HTTP server. catalog.ts
 * assembles the families into one table, sorted by id.
 *
 * @module
 */
import type { RuleMeta } from '../types.js';

/** The rows of this family, in id order. */
export const SOURCE_RULES = [
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
] as const satisfies readonly RuleMeta[];
