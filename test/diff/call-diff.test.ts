/** diffCall: how each difference in where an OpenAPI operation's calls go and what they carry is classed. */
import { describe, expect, it } from 'vitest';
import { diffCall } from '../../src/diff/call-diff.js';
import type { CallDifference, Change } from '../../src/diff/change.js';
import type { ToolOrigin } from '../../src/surface/model.js';

const origin = (over: Partial<ToolOrigin> = {}): ToolOrigin => ({
  method: 'GET',
  path: '/pets',
  operationId: 'listPets',
  servers: [{ url: 'https://api.example.com/v1' }],
  security: [],
  parameters: [],
  responses: { '200': ['application/json'] },
  ...over,
});
const differences = (changes: Change[]): Pick<CallDifference, 'what' | 'widens'>[] =>
  changes.flatMap((c) => (c.kind === 'call-changed' ? c.differences.map(({ what, widens }) => ({ what, widens })) : []));

describe('diffCall', () => {
  it('nothing when the call fields are equal', () => {
    expect(diffCall('t', origin(), origin())).toEqual([]);
  });

  it('a base without call fields (contract format 1): one call-first-pinned change', () => {
    const { servers: _s, security: _x, parameters: _p, responses: _r, ...legacy } = origin();
    expect(diffCall('t', legacy, origin())).toEqual([{ kind: 'call-first-pinned', tool: 't', head: origin() }]);
  });

  it('a head without call fields: where calls go is no longer known, which widens', () => {
    const { servers: _s, security: _x, parameters: _p, responses: _r, ...legacy } = origin();
    expect(differences(diffCall('t', origin(), legacy))).toEqual([{ what: 'unpinned', widens: true }]);
  });

  it('one change per field, carrying the pinned values of both sides', () => {
    const head = origin({ servers: [{ url: 'https://b.example/v1' }], requestBody: ['application/json'] });
    const changes = diffCall('t', origin(), head);
    expect(changes.map((c) => (c.kind === 'call-changed' ? [c.field, c.base, c.head] : c.kind))).toEqual([
      ['servers', [{ url: 'https://api.example.com/v1' }], [{ url: 'https://b.example/v1' }]],
      ['requestBody', undefined, ['application/json']],
    ]);
  });

  it('servers: two added and one removed are listed one by one; a declared variable newly constrained narrows', () => {
    const base = origin({ servers: [{ url: 'https://a.example/{v}' }, { url: 'https://old.example' }] });
    const head = origin({
      servers: [{ url: 'https://a.example/{v}', variables: { v: { enum: ['v1'] } } }, { url: 'https://b.example' }, { url: 'https://c.example' }],
    });
    expect(differences(diffCall('t', base, head))).toEqual([
      { what: 'server-added', widens: true },
      { what: 'server-added', widens: true },
      { what: 'server-removed', widens: false },
      { what: 'server-variable-narrowed', widens: false },
    ]);
  });

  it('security: [{s: [a]}, {s: [b]}] → [{s: [a, b]}] adds a scope to one alternative and removes the other', () => {
    const base = origin({ security: [{ s: ['a'] }, { s: ['b'] }] });
    const head = origin({ security: [{ s: ['a', 'b'] }] });
    expect(differences(diffCall('t', base, head))).toEqual([
      { what: 'scopes-added', widens: true },
      { what: 'requirement-removed', widens: true },
    ]);
  });

  it('security: none → a requirement: the call now carries a credential', () => {
    expect(
      differences(diffCall('t', origin(), origin({ security: [{ key: [] }], securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } }))),
    ).toEqual([{ what: 'requirement-added', widens: true }]);
  });

  it('security: a scheme whose type changes widens; a flow removed does not', () => {
    const oauth = {
      type: 'oauth2',
      flows: { implicit: { authorizationUrl: 'https://a/auth', scopes: [] }, password: { tokenUrl: 'https://a/token', scopes: [] } },
    };
    const base = origin({ security: [{ s: [] }], securitySchemes: { s: oauth } });
    expect(
      differences(
        diffCall(
          't',
          base,
          origin({ security: [{ s: [] }], securitySchemes: { s: { type: 'openIdConnect', openIdConnectUrl: 'https://a/.well-known/openid-configuration' } } }),
        ),
      ),
    ).toEqual([
      { what: 'scheme-changed', widens: true },
      { what: 'scheme-changed', widens: true },
      { what: 'scheme-changed', widens: false },
      { what: 'scheme-changed', widens: false },
    ]);
    expect(
      differences(diffCall('t', base, origin({ security: [{ s: [] }], securitySchemes: { s: { ...oauth, flows: { implicit: oauth.flows.implicit } } } }))),
    ).toEqual([{ what: 'scheme-changed', widens: false }]);
  });

  it('parameters: a client-set header (Authorization) added widens; a header argument added does not', () => {
    const head = origin({
      parameters: [
        { in: 'header', name: 'Authorization' },
        { in: 'header', name: 'X-Trace' },
      ],
    });
    expect(differences(diffCall('t', origin(), head))).toEqual([
      { what: 'parameter-added', widens: true },
      { what: 'parameter-added', widens: false },
    ]);
  });

  it('request body: added without media types widens; removed narrows', () => {
    expect(differences(diffCall('t', origin(), origin({ requestBody: [] })))).toEqual([{ what: 'media-type-added', widens: true }]);
    expect(differences(diffCall('t', origin({ requestBody: ['application/json'] }), origin()))).toEqual([{ what: 'media-type-removed', widens: false }]);
  });
});
