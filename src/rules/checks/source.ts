/**
 * Findings about a source itself, from what its run found out (the source stage, docs/design.md
 * §3): `server-failed` (the snapshot failed), `server-unsandboxed`, `server-escaped` and
 * `server-network-blocked` (how the command toolgate started was contained, docs/design.md §9),
 * `stdout-noise`. Each is located on the source's entry in toolgate.yml. Pure.
 */
import type { RawFinding, SourceCheck, SourceFacts } from '../context.js';

/** `server-failed`: the source could not be snapshotted; the message says which way and shows the stderr tail. */
export const serverFailed: SourceCheck = ({ failure, sourcePointer }) =>
  failure ? [{ ruleId: 'server-failed', target: { in: 'policy', sub: sourcePointer }, message: failure.message, data: { reason: failure.reason } }] : [];

/**
 * `server-unsandboxed`, `server-escaped` and `server-network-blocked` for a source whose command
 * toolgate started, on the source's `mcp` entry in toolgate.yml.
 */
export function containmentFindings(d: Pick<SourceFacts['diagnostics'], 'sandbox' | 'escaped' | 'networkBlocked'>, sourcePointer: string): RawFinding[] {
  const out: RawFinding[] = [];
  const target = { in: 'policy' as const, sub: `${sourcePointer}/mcp` };
  if (d.sandbox && !d.sandbox.sandboxed)
    out.push({ ruleId: 'server-unsandboxed', target, message: `the server ran unsandboxed: ${d.sandbox.reason}`, data: { reason: d.sandbox.reason } });
  if (d.escaped?.length) {
    const shown = d.escaped
      .slice(0, 5)
      .map((p) => `pid ${p.pid} \`${p.command.slice(0, 200)}\``)
      .join(', ');
    out.push({
      ruleId: 'server-escaped',
      target,
      message: `${d.escaped.length} process${d.escaped.length === 1 ? '' : 'es'} of the server outlived it (left its process group or session) and ${d.escaped.length === 1 ? 'was' : 'were'} killed: ${shown}${d.escaped.length > 5 ? ', …' : ''}`,
      data: { processes: d.escaped.map((p) => p.command.slice(0, 200)) },
    });
  }
  if (d.networkBlocked?.length) {
    out.push({
      ruleId: 'server-network-blocked',
      target,
      message: `the server tried to reach the network, which its sandbox blocks: ${d.networkBlocked.join(', ')}`,
      data: { hosts: d.networkBlocked },
    });
  }
  return out;
}

export const containment: SourceCheck = (facts) => containmentFindings(facts.diagnostics, facts.sourcePointer);

/** `stdout-noise`: lines on the server's stdout that are not JSON-RPC, with the first of them. */
export const stdoutNoise: SourceCheck = ({ diagnostics, sourcePointer }) => {
  const noise = diagnostics.stdoutNoiseLines ?? 0;
  if (noise === 0) return [];
  const sample = diagnostics.stdoutNoiseSample === undefined ? '' : `; first: ${JSON.stringify(diagnostics.stdoutNoiseSample)}`;
  return [
    {
      ruleId: 'stdout-noise',
      target: { in: 'policy', sub: sourcePointer },
      message: `the server wrote ${noise} non-JSON line${noise === 1 ? '' : 's'} on stdout${sample}`,
    },
  ];
};
