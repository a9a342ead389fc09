import { minimatch } from 'minimatch';
import type { Check, RawFinding } from '../context.js';
import { foldName } from '../name-fold.js';
import { lessSafeFields } from '../../surface/safety-fields.js';

/**
 * Whether deny pattern `pattern` matches tool `name` as served or as a person reads it
 * ({@link foldName}: case, full-width forms, look-alike letters, invisible characters), with `/`
 * an ordinary character (tool names are no paths: `*shell*` must match `sys/shell`).
 */
export function denies(pattern: string, name: string, folded = foldName(name)): boolean {
  const plain = (n: string) => n.replaceAll('/', '\u2215');
  const loose = plain(foldName(pattern));
  return [name, folded].some((n) => minimatch(n, pattern, { dot: true }) || minimatch(plain(n), loose, { dot: true, nocase: true }));
}

/** `denied-tool`, `too-many-tools`, `payload-too-large` and (through {@link tokenBudget}) `token-budget-exceeded`: deny patterns and limits from toolgate.yml. */
export const policyChecks: Check = (ctx) => {
  const out: RawFinding[] = [];
  // Each name folded once, not once per pattern: thousands of tools meet every deny pattern.
  const folded = ctx.policy.deny.length ? new Map(ctx.head.tools.map((t) => [t.name, foldName(t.name)])) : undefined;
  for (const entry of ctx.policy.deny) {
    for (const t of ctx.head.tools) {
      if (t.safetyClass === 'disabled') continue;
      if (entry.when === 'read' && t.safetyClass !== 'read') continue;
      // `less-safe:` narrows the entry to tools on the less safe side of one of its fields.
      const lessSafe = entry.lessSafe ? lessSafeFields(t, entry.lessSafe) : undefined;
      if (lessSafe?.length === 0) continue;
      const pattern = entry.tools.find((p) => denies(p, t.name, folded?.get(t.name)));
      if (pattern === undefined) continue;
      const side = lessSafe ? ` on the less safe side of ${lessSafe.map((f) => f.name).join(', ')}` : '';
      out.push({
        ruleId: 'denied-tool',
        target: { tool: t.name, in: 'policy', sub: entry.pointer },
        message: `tool "${t.name}" matches deny pattern "${pattern}" and is ${entry.when === 'read' ? 'classed read' : 'reachable'}${side}${entry.reason ? ` (${entry.reason})` : ''}`,
        data: { pattern, when: entry.when, ...(lessSafe ? { lessSafe: lessSafe.map((f) => f.name) } : {}) },
      });
    }
  }
  const { maxTools, maxPayloadBytes } = ctx.policy.limits;
  if (maxTools !== undefined && ctx.head.counts.toolCount > maxTools) {
    out.push({
      ruleId: 'too-many-tools',
      target: { in: 'policy', sub: '/limits/max-tools' },
      message: `${ctx.head.counts.toolCount} tools are reachable; the limit is ${maxTools}`,
      data: { limit: 'max-tools', value: ctx.head.counts.toolCount, max: maxTools },
    });
  }
  if (maxPayloadBytes !== undefined && ctx.head.payloadBytes > maxPayloadBytes) {
    out.push({
      ruleId: 'payload-too-large',
      target: { in: 'policy', sub: '/limits/max-payload-bytes' },
      message: `the advertised tool list is ${ctx.head.payloadBytes} bytes; the limit is ${maxPayloadBytes}`,
      data: { limit: 'max-payload-bytes', value: ctx.head.payloadBytes, max: maxPayloadBytes },
    });
  }
  out.push(...tokenBudget(ctx));
  return out;
};

/**
 * `token-budget-exceeded`: the tools cost the model more tokens per turn than `limits.max-tokens`,
 * or one tool more than `limits.max-tokens-per-tool` (o200k_base; other tokenizers differ by
 * roughly 10–20 %).
 */
function tokenBudget(ctx: Parameters<Check>[0]): RawFinding[] {
  const { maxTokens, maxTokensPerTool } = ctx.policy.limits;
  const cost = ctx.tokens;
  if (!cost) return [];
  const out: RawFinding[] = [];
  if (maxTokens !== undefined && cost.perTurn > maxTokens) {
    out.push({
      ruleId: 'token-budget-exceeded',
      target: { in: 'policy', sub: '/limits/max-tokens' },
      message: `the advertised tools cost ${cost.perTurn} tokens per turn; the limit is ${maxTokens}`,
      data: { limit: 'max-tokens', value: cost.perTurn, max: maxTokens },
    });
  }
  if (maxTokensPerTool !== undefined) {
    for (const t of cost.perTool ?? []) {
      if (t.tokens <= maxTokensPerTool) continue;
      out.push({
        ruleId: 'token-budget-exceeded',
        target: { tool: t.name, key: '/tokens' },
        message: `tool "${t.name}" costs ${t.tokens} tokens per turn; the limit per tool is ${maxTokensPerTool}`,
        data: { limit: 'max-tokens-per-tool', value: t.tokens, max: maxTokensPerTool },
      });
    }
  }
  return out;
}

/**
 * `promoted-operation-moved`: a reachable OpenAPI operation (promoted, or read by its verb) now has
 * another method or path: the tool calls an endpoint nobody reviewed.
 */
export const promotedMoved: Check = (ctx) =>
  ctx.changes.flatMap((c): RawFinding[] => {
    if (c.kind !== 'origin-changed' || !c.base || !c.head) return [];
    if (c.base.method === c.head.method && c.base.path === c.head.path) return [];
    const tool = ctx.head.tools.find((t) => t.name === c.tool);
    // Not reachable now, or not reachable before (then it is a tool newly reachable: tool-added).
    if (!tool || tool.safetyClass === 'disabled' || ctx.base?.tools.find((t) => t.name === c.tool)?.safetyClass === 'disabled') return [];
    return [
      {
        ruleId: 'promoted-operation-moved',
        target: { tool: c.tool, in: 'integration' },
        message: `${c.head.promoted ? 'promoted ' : ''}operation "${c.head.operationId ?? c.tool}" moved from ${c.base.method} ${c.base.path} to ${c.head.method} ${c.head.path}`,
        data: { base: c.base, head: c.head },
      },
    ];
  });
