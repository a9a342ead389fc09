/**
 * Who authorizes an HTTP server: `auth-metadata-changed` in the change review and
 * `auth-metadata-unavailable` about the discovery itself (see sources/protected-resource.ts).
 */
import { authChangeWidens, describeAuthChange, type Change } from '../../diff/change.js';
import type { Discovery } from '../../surface/model.js';
import type { Check, RawFinding, SourceCheck } from '../context.js';

type AuthChange = Extract<Change, { kind: 'auth-metadata-changed' }>;

/**
 * `auth-metadata-changed`: one finding per source for every widening change of its protected
 * resource metadata (an added authorization server or scope, a new resource or resource name),
 * on the contract's `/protectedResource`. Narrowing changes are listed with the changes only.
 */
export const authMetadataChanges: Check = (ctx) => {
  const widening = ctx.changes.filter((c): c is AuthChange => c.kind === 'auth-metadata-changed' && authChangeWidens(c));
  if (widening.length === 0) return [];
  return [
    {
      ruleId: 'auth-metadata-changed',
      target: { sub: '/protectedResource' },
      message: `who authorizes the server changed (RFC 9728 metadata): ${widening.map(describeAuthChange).join('; ')}`,
      data: {
        changes: widening.map((c) => ({
          field: c.field,
          ...(c.added ? { added: c.added } : {}),
          ...(c.base !== undefined ? { base: c.base } : {}),
          ...(c.head !== undefined ? { head: c.head } : {}),
        })),
      },
    },
  ];
};

/**
 * `auth-metadata-unavailable` for an HTTP source, on its entry in toolgate.yml: metadata clients
 * would refuse, or none where the server answered 401. A server that neither asks for credentials
 * nor publishes metadata raises nothing.
 */
export function authDiscoveryFindings(d: Discovery | undefined, unauthorized: boolean, sourcePointer: string): RawFinding[] {
  const target = { in: 'policy' as const, sub: `${sourcePointer}/mcp` };
  if (d?.state === 'unusable') {
    return [
      {
        ruleId: 'auth-metadata-unavailable',
        target,
        message: `the server's protected resource metadata cannot be used: ${d.reason}`,
        data: { reason: d.reason, unauthorized },
      },
    ];
  }
  if (d?.state === 'absent' && unauthorized) {
    return [
      {
        ruleId: 'auth-metadata-unavailable',
        target,
        message:
          'the server answered HTTP 401 (it wants credentials) but publishes no protected resource metadata (none in the challenge, none at /.well-known/oauth-protected-resource with the path or at the root)',
        data: { unauthorized },
      },
    ];
  }
  return [];
}

export const authDiscovery: SourceCheck = (facts) =>
  authDiscoveryFindings(facts.protectedResource, facts.diagnostics.unauthorized === true, facts.sourcePointer);
