/**
 * Where an OpenAPI operation's calls go and what they carry (docs/design.md §7): the classed
 * differences of `call-changed` changes (diff/call-diff.ts) become `operation-server-changed`,
 * `operation-security-changed` and `operation-request-changed` where they widen, and one
 * `operation-call-changed` notice per tool for the rest; `call-first-pinned` changes (a base
 * contract of format 1) become one `operation-server-changed` per source.
 */
import type { CallDifference, CallField, Change } from '../../diff/change.js';
import type { RuleId } from '../catalog.js';
import type { Check, CheckContext, RawFinding } from '../context.js';
import type { SurfaceTool } from '../../surface/model.js';

type CallChange = Extract<Change, { kind: 'call-changed' }>;

/** The rule a widening difference in a field is judged by. */
const WIDENING_RULE = {
  servers: 'operation-server-changed',
  security: 'operation-security-changed',
  parameters: 'operation-request-changed',
  requestBody: 'operation-request-changed',
  responses: 'operation-call-changed',
} as const satisfies Readonly<Record<CallField, RuleId>>;

/** The rules this check raises. */
type OperationRule = (typeof WIDENING_RULE)[CallField];

/** How each rule's message starts. */
const SUBJECT: Readonly<Record<OperationRule, string>> = {
  'operation-server-changed': 'where its calls go changed',
  'operation-security-changed': 'the credentials its calls carry changed',
  'operation-request-changed': 'what its calls send changed',
  'operation-call-changed': 'its calls changed without widening',
};

/** Most tools named in the one finding about a format 1 base. */
const NAMED_TOOLS = 10;

/**
 * The tools judged here, by name: reachable now and in the base (in any class). A call that cannot
 * be made does not matter; an operation promoted or moved to a read verb in the same pull request
 * is also `read-promotion-unreviewed` or `tool-added`, and its calls' changes are shown beside.
 */
function judgedTools(ctx: CheckContext): Map<string, SurfaceTool> {
  const before = new Set((ctx.base?.tools ?? []).map((t) => t.name));
  return new Map(ctx.head.tools.flatMap((t) => (t.safetyClass !== 'disabled' && before.has(t.name) ? [[t.name, t] as const] : [])));
}

/** How a message names the operation: `getPetById (GET /pet/{petId})`. */
function operationLabel(t: SurfaceTool | undefined, tool: string): string {
  const o = t?.origin;
  if (!o) return `"${tool}"`;
  return `${o.operationId ?? `"${tool}"`} (${o.method} ${o.path})`;
}

/** `operation-*-changed`: see the module comment. */
export const operationCallChanges: Check = (ctx) => {
  if (!ctx.changes.some((c) => c.kind === 'call-changed' || c.kind === 'call-first-pinned')) return [];
  const judged = judgedTools(ctx);
  const byTool = new Map<string, CallChange[]>();
  const firstPinned: string[] = [];
  for (const c of ctx.changes) {
    if (c.kind === 'call-first-pinned' && judged.has(c.tool)) firstPinned.push(c.tool);
    if (c.kind === 'call-changed' && judged.has(c.tool)) byTool.set(c.tool, [...(byTool.get(c.tool) ?? []), c]);
  }
  const out: RawFinding[] = [];
  for (const [tool, changes] of byTool) out.push(...toolFindings(tool, operationLabel(judged.get(tool), tool), changes));
  if (firstPinned.length > 0) out.push(firstPinnedFinding(firstPinned));
  return out;
};

/** One finding per rule for one tool, its differences in the order the fields are compared. */
function toolFindings(tool: string, label: string, changes: readonly CallChange[]): RawFinding[] {
  const byRule = new Map<OperationRule, { fields: CallField[]; differences: (CallDifference & { field: CallField })[] }>();
  for (const c of changes) {
    for (const d of c.differences) {
      const rule = d.widens ? WIDENING_RULE[c.field] : 'operation-call-changed';
      const entry = byRule.get(rule) ?? { fields: [], differences: [] };
      if (!entry.fields.includes(c.field)) entry.fields.push(c.field);
      entry.differences.push({ field: c.field, ...d });
      byRule.set(rule, entry);
    }
  }
  return [...byRule].map(([rule, { fields, differences }]) => ({
    // Spelled out so that the rules raised here can be read off the code (test/rules/raised.test.ts).
    ruleId: rule satisfies 'operation-server-changed' | 'operation-security-changed' | 'operation-request-changed' | 'operation-call-changed',
    // The field the finding is about when it is one (the contract line a reviewer reads), else the origin.
    target: { tool, sub: fields.length === 1 ? `/origin/${fields[0]}` : '/origin', key: `/origin/${rule}` },
    message: `operation ${label}: ${SUBJECT[rule]}: ${differences.map((d) => d.text).join('; ')}`,
    data: { differences },
  }));
}

/** The one finding about a base that pinned no call fields (a contract of format 1). */
function firstPinnedFinding(tools: readonly string[]): RawFinding {
  const named = tools.slice(0, NAMED_TOOLS).join(', ') + (tools.length > NAMED_TOOLS ? ` and ${tools.length - NAMED_TOOLS} more` : '');
  return {
    ruleId: 'operation-server-changed',
    target: { sub: '/tools', key: 'call-first-pinned' },
    message: `the base contract was written by an older toolgate (contract format 1), which did not pin where OpenAPI calls go or what they carry: the servers, security requirements and schemes, parameter locations and media types of ${tools.length} reachable operation${tools.length === 1 ? '' : 's'} (${named}) are pinned here for the first time; review them in the contract`,
    data: { firstPinned: tools },
  };
}
