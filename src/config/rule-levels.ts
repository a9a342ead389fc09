/**
 * The level a policy gives a rule before any `overrides` entry: its `rules:` entry, else the
 * catalog default, raised to error for `annotation-now-implicit` by `require-explicit-hints`.
 * Shared by the rule levels of a run (rules/levels.ts) and the judgement of a policy edit
 * (policy-diff.ts), so that both read a level the same way. Pure.
 *
 * @module
 */
import { ruleById } from '../rules/catalog.js';
import type { PolicyLevel } from './policy-model.js';

/** Levels from the least strict (`off`) to the strictest (`error`). */
export const LEVEL_ORDER: Readonly<Record<PolicyLevel, number>> = { off: 0, notice: 1, warning: 2, error: 3 };

/** What a level depends on, in a policy. */
export interface LevelSettings {
  rules: Readonly<Record<string, PolicyLevel>>;
  requireExplicitHints: boolean;
}

/** The level of rule `id` under `p` for a tool no `overrides` entry matches. */
export function ruleLevel(p: LevelSettings, id: string): PolicyLevel {
  const configured = p.rules[id];
  if (configured !== undefined) return configured;
  if (id === 'annotation-now-implicit' && p.requireExplicitHints) return 'error';
  return ruleById(id)?.level ?? 'error';
}
