/**
 * `policy-relaxed` and `policy-tightened` (docs/design.md §7): one finding for each change a pull
 * request makes to toolgate.yml (config/policy-diff.ts judges each key by its row in
 * config/keys.ts), on the head policy's line. A tightening applies after the merge. Pure.
 */
import type { PolicyCheck } from '../context.js';

export const policyChanges: PolicyCheck = (changes) =>
  changes.map((c) => ({
    ruleId: c.relaxed ? 'policy-relaxed' : 'policy-tightened',
    target: { in: 'policy', sub: c.pointer },
    message: c.relaxed ? c.message : `${c.message} (applies after the merge)`,
    data: { kind: c.kind },
  }));
