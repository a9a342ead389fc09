import type { Check, RawFinding } from '../context.js';
import { describeReach } from './additions.js';
import type { SurfaceCounts } from '../../surface/model.js';

/** Counts whose change is a change in exposure (docs/design.md §4, `count-mismatch`). */
export const PINNED_COUNTS: readonly (keyof SurfaceCounts)[] = ['toolCount', 'readOnlyToolCount', 'destructiveToolCount', 'openWorldToolCount'];

/** `unlisted-tool` and `contract-stale`: the live surface against the committed contract. */
export const membership: Check = (ctx) => {
  const out: RawFinding[] = [];
  const inContract = new Set(ctx.contract?.tools.map((t) => t.name));
  for (const t of ctx.head.tools) {
    if (t.safetyClass === 'disabled' || inContract.has(t.name)) continue;
    out.push({
      ruleId: 'unlisted-tool',
      target: { tool: t.name },
      message: `tool "${t.name}" is reachable but has no entry in the contract: a new ${describeReach(t)}`,
      data: {
        safetyClass: t.safetyClass,
        effectiveHints: t.effectiveHints,
        declaredHints: t.declaredHints,
        // What the model will be told about it: reports show it whole.
        ...(t.description !== undefined ? { description: t.description } : {}),
      },
    });
  }
  if (!ctx.contract) {
    out.push({
      ruleId: 'contract-stale',
      target: {},
      message: 'no contract has been committed for this source yet',
      data: { differences: ctx.head.tools.length, missing: true },
    });
  } else if (ctx.drift.length > 0) {
    const kinds = [...new Set(ctx.drift.map((c) => c.kind))].sort();
    const older = olderFormat(ctx);
    out.push({
      ruleId: 'contract-stale',
      target: {},
      message: `the live surface differs from the contract in ${ctx.drift.length} place${ctx.drift.length === 1 ? '' : 's'} (${kinds.join(', ')})${older ? `: ${OLDER_FORMAT}` : ''}`,
      data: { differences: ctx.drift.length, kinds, ...(older ? { olderFormat: true } : {}) },
    });
  } else if (aggregatesDiffer(ctx).length > 0) {
    // The contract keeps its aggregates as pinned (a hand edit is not rejected on read), and
    // diffSurfaces compares tools and counts only: a digest or size that matches no live tool
    // list is still a difference between the contract and the live surface.
    const kinds = aggregatesDiffer(ctx);
    // "the tokens pinned … do", "the digest pinned … does".
    out.push({
      ruleId: 'contract-stale',
      target: { sub: `/${kinds[0]}` },
      message: `the ${kinds.join(' and ')} pinned in the contract ${kinds.length === 1 && kinds[0] !== 'tokens' ? 'does' : 'do'} not match the live surface`,
      data: { differences: kinds.length, kinds },
    });
  }
  return out;
};

/** Why a contract of format 1 differs from every OpenAPI surface toolgate makes now. */
const OLDER_FORMAT =
  'an older toolgate wrote it (contract format 1, which pins no OpenAPI servers, security or media types): run `toolgate update` and commit it';

/** Whether the contract is an OpenAPI contract of format 1: no call fields in its tools' origins, no `source.files`. */
function olderFormat(ctx: Parameters<Check>[0]): boolean {
  if (ctx.drift.some((c) => c.kind === 'call-first-pinned')) return true;
  return ctx.contract?.source.kind === 'openapi' && ctx.contract.source.files === undefined && ctx.head.source.files !== undefined;
}

/**
 * The contract's pinned aggregates that the live surface does not match. Tokens are compared with
 * what this run counted, or, in a pull request, with the base's total for the same tools: outside
 * one, a pinned total is taken on the digest's word.
 */
function aggregatesDiffer(ctx: Parameters<Check>[0]): string[] {
  const c = ctx.contract;
  if (!c) return [];
  const kinds: string[] = [];
  if (c.digest !== ctx.head.digest) kinds.push('digest');
  if (c.payloadBytes !== ctx.head.payloadBytes) kinds.push('payloadBytes');
  const known = ctx.tokens?.perTurn;
  if (c.tokens && known !== undefined && c.tokens.perTurn !== known) kinds.push('tokens');
  return kinds;
}

/**
 * `tool-removed` (the change review) and `count-mismatch` (drift: the counts pinned in the
 * committed contract against the live surface, so `toolgate update` is the fix; a PR that adds a
 * tool and updates its contract has no count mismatch).
 */
export const removalsAndCounts: Check = (ctx) => {
  const out: RawFinding[] = [];
  for (const c of ctx.changes) {
    if (c.kind === 'tool-removed') {
      out.push({ ruleId: 'tool-removed', target: { tool: c.tool }, message: `tool "${c.tool}" is no longer served` });
    }
  }
  for (const c of ctx.drift) {
    if (c.kind === 'count-changed' && PINNED_COUNTS.includes(c.count)) {
      out.push({
        ruleId: 'count-mismatch',
        target: { sub: `/counts/${c.count}` },
        message: `${c.count} is ${c.head}; the contract pins ${c.base}`,
        data: { count: c.count, base: c.base, head: c.head },
      });
    }
  }
  return out;
};

/** `duplicate-tool-name` and `malformed-tool`: the listing itself. */
export const listing: Check = (ctx) => {
  const out: RawFinding[] = [];
  const seen = new Map<string, number>();
  for (const t of ctx.head.tools) seen.set(t.name, (seen.get(t.name) ?? 0) + 1);
  for (const [name, n] of seen) {
    if (n > 1) out.push({ ruleId: 'duplicate-tool-name', target: { tool: name }, message: `${n} tools are named "${name}"`, data: { count: n } });
  }
  for (const m of ctx.malformed) {
    const named = `tool #${m.index + 1}${m.name !== undefined ? ` ("${m.name}")` : ''}`;
    out.push({
      ruleId: 'malformed-tool',
      target: { ...(m.name !== undefined ? { tool: m.name } : {}), listingIndex: m.index },
      message: m.pinned
        ? `${named} is malformed: ${m.problem}; strict clients drop it, lenient ones still offer it, so it is pinned and judged as served`
        : `${named} cannot be pinned: ${m.problem}; no contract can be written while the server lists it`,
      data: { index: m.index, problem: m.problem, pinned: m.pinned },
    });
  }
  return out;
};
