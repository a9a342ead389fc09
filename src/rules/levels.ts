import { minimatch } from 'minimatch';
import type { Policy, PolicyLevel } from '../config/policy-model.js';
import { ruleLevel } from '../config/rule-levels.js';

/**
 * The level of a rule for one tool of one source: the last matching `overrides` entry, then
 * `rules`, then the catalog default (config/rule-levels.ts: `require-explicit-hints` raises
 * `annotation-now-implicit`).
 */
export function levelFor(policy: Policy, ruleId: string, sourceId: string, tool?: string): PolicyLevel {
  let level = ruleLevel(policy, ruleId);
  if (tool !== undefined) {
    for (const o of policy.overrides) {
      if (o.sources && !o.sources.includes(sourceId)) continue;
      const l = o.rules[ruleId];
      if (l !== undefined && o.tools.some((p) => minimatch(tool, p, { dot: true }))) level = l;
    }
  }
  return level;
}
