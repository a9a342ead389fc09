/**
 * The rows of the rules about what a tool claims of its own risk: the MCP annotation hints,
 * declared and effective, and the policy's vendor safety fields. catalog.ts assembles the families
 * into one table, sorted by id.
 *
 * @module
 */
import type { RuleMeta } from '../types.js';
import { SPEC_ANNOTATIONS } from './common.js';

/** The rows of this family, in id order. */
export const HINT_RULES = [
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
    id: 'contradictory-annotations',
    level: 'warning',
    title: 'A tool declares readOnlyHint true together with destructiveHint true',
    rationale:
      'destructiveHint only has meaning for tools that are not read-only; declaring both shows the annotations were not thought through and clients may treat them differently.',
    source: SPEC_ANNOTATIONS,
    fix: 'Remove destructiveHint from the read-only tool, or set readOnlyHint to false.',
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
    id: 'partially-annotated-tool',
    level: 'notice',
    title: 'A tool declares some hints but not all four',
    rationale: 'Undeclared hints take the spec defaults, which may not be what the author meant.',
    source: SPEC_ANNOTATIONS,
    fix: 'Declare all four hints (readOnlyHint, destructiveHint, idempotentHint, openWorldHint).',
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
    id: 'unannotated-tool',
    level: 'warning',
    title: 'A tool declares no hints at all',
    rationale: 'With no hints, the spec defaults make the tool destructive and open-world: the most dangerous case.',
    source: SPEC_ANNOTATIONS,
    fix: 'Declare readOnlyHint, destructiveHint, idempotentHint and openWorldHint on the tool.',
  },
] as const satisfies readonly RuleMeta[];
