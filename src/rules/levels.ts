import { minimatch } from 'minimatch';
import type { Policy, PolicyLevel } from '../config/policy.js';
import { ruleById } from './catalog.js';

/**
 * The level of a rule for one tool of one source: the last matching `overrides` entry, then
 * `rules`, then the catalog default. `require-explicit-hints` raises `annotation-now-implicit`.
 */
export function levelFor(policy: Policy, ruleId: string, sourceId: string, tool?: string): PolicyLevel {
  let level: PolicyLevel = ruleById(ruleId)?.level ?? 'error';
  if (ruleId === 'annotation-now-implicit' && policy.requireExplicitHints) level = 'error';
  const configured = policy.rules[ruleId];
  if (configured !== undefined) level = configured;
  if (tool !== undefined) {
    for (const o of policy.overrides) {
      if (o.sources && !o.sources.includes(sourceId)) continue;
      const l = o.rules[ruleId];
      if (l !== undefined && o.tools.some((p) => minimatch(tool, p, { dot: true }))) level = l;
    }
  }
  return level;
}
