import { adHocPolicy } from './config/policy-resolve.js';
import type { LoadedContract } from './contract/store.js';
import { buildContext, judge } from './judge/judge.js';
import { contractsLocator } from './judge/locate.js';
import { tally, type CheckResult } from './judge/result.js';

/**
 * `toolgate diff BASE HEAD`: the change review between two saved surfaces, with findings pointing
 * at lines of HEAD (or BASE for removed tools). No drift: HEAD is its own contract.
 */
export async function runDiff(base: LoadedContract, head: LoadedContract, root: string): Promise<CheckResult> {
  const id = head.surface.source.id;
  const policy = adHocPolicy({ id, kind: 'recorded', file: head.file, contract: head.file }, root);
  const ctx = await buildContext({ sourceId: id, head: head.surface, contract: head.surface, base: base.surface, policy });
  const { findings, folded } = await judge(ctx, {
    // A removed tool is found in BASE; everything else in HEAD.
    locate: contractsLocator([head, base]),
  });
  const counts = tally(findings);
  const changes = ctx.changes;
  return {
    mode: 'check',
    sources: [
      {
        id,
        kind: head.surface.source.kind,
        contractFile: head.file,
        surface: head.surface,
        contract: base.surface,
        live: true,
        malformed: [],
        findings,
        ...(folded.length ? { folded } : {}),
        ...(changes.length ? { changes } : {}),
      },
    ],
    findings,
    counts,
    exitCode: counts.error > 0 ? 1 : 0,
  };
}
