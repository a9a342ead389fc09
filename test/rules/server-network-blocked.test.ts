/**
 * server-network-blocked: the sandboxed server tried to reach the network. The real
 * lookup from inside the sandbox is in test/hostile/sandbox.test.ts (where bubblewrap is); here,
 * the hosts read from a server's error output and the finding made of them.
 */
import { describe, expect, it } from 'vitest';
import { containmentFindings } from '../../src/rules/checks/source.js';
import { blockedHosts } from '../../src/sources/launch/hints.js';
import { ruleTests } from '../support/surface-builders.js';

const STDERR = [
  'Error: getaddrinfo EAI_AGAIN telemetry.example.invalid',
  '    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:120:26)',
  'update check failed: getaddrinfo ENOTFOUND registry.npmjs.org',
  'connect ENETUNREACH 203.0.113.7:443 - Local (0.0.0.0:0)',
  'getaddrinfo EAI_AGAIN telemetry.example.invalid',
].join('\n');

ruleTests('server-network-blocked', {
  fires: [
    {
      name: 'lookups and connections a sandboxed server logged, each host once',
      run: () => containmentFindings({ networkBlocked: blockedHosts(STDERR) }, '/sources/0').map((f) => ({ ...f, level: 'warning' as const })),
      expect: [
        {
          ruleId: 'server-network-blocked',
          message: 'the server tried to reach the network, which its sandbox blocks: telemetry.example.invalid, registry.npmjs.org, 203.0.113.7:443',
        },
      ],
    },
  ],
  silent: [
    {
      name: 'nothing blocked',
      run: () => containmentFindings({ networkBlocked: blockedHosts('listening on stdio\nready') }, '/sources/0'),
      expect: [],
    },
  ],
});

describe('blockedHosts', () => {
  it('reads at most 20 hosts and nothing from other errors', () => {
    const many = Array.from({ length: 30 }, (_, i) => `getaddrinfo ENOTFOUND h${i}.invalid`).join('\n');
    expect(blockedHosts(many)).toHaveLength(20);
    expect(blockedHosts('connect ECONNREFUSED 127.0.0.1:9')).toEqual([]);
  });
});
