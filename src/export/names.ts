/**
 * Names a target cannot represent. An export never rewrites a name: a client that sanitizes
 * names (or a gateway whose pattern refuses them) would otherwise allow something other than
 * what was reviewed, or nothing. Pure apart from the error.
 */
import { ConfigError } from '../util/errors.js';
import { quoted } from './literals.js';
import type { ExportInput } from './model.js';

/** A rule a target imposes on names, with where it is written. */
export interface NameRule {
  /** What must match, e.g. `^[a-zA-Z0-9_-]{1,64}$`. */
  test: (name: string) => boolean;
  /** The rule in words, as its source states it. */
  rule: string;
  /** Where the target says so (URL or repository path). */
  source: string;
}

/**
 * Refuses the export when a name breaks the target's rule.
 * @param what "tool name", "server name", "qualified tool name"
 * @throws ConfigError (exit 2) naming the target, each offending name (up to 5), the rule and its source.
 */
export function assertNames(target: string, what: string, names: readonly string[], rule: NameRule, fix: string): void {
  const bad = names.filter((n) => !rule.test(n));
  if (bad.length === 0) return;
  const shown = bad.slice(0, 5).map(quoted).join(', ');
  const more = bad.length > 5 ? ` and ${bad.length - 5} more` : '';
  throw new ConfigError(
    `cannot export to ${target}: ${what}${bad.length === 1 ? '' : 's'} ${shown}${more} break${bad.length === 1 ? 's' : ''} its rule ${rule.rule} (${rule.source}); toolgate never rewrites a name, since the target would then allow something other than what was reviewed`,
    undefined,
    fix,
  );
}

/** Refuses an empty allowlist: ToolHive reads an empty `toolsFilter` (or no `--tools`) as every tool. */
export function assertSomeAdmitted(target: string, input: Pick<ExportInput, 'admitted'>, why: string): void {
  if (input.admitted.length > 0) return;
  throw new ConfigError(
    `cannot export to ${target}: the contract admits no tool, and ${why}`,
    undefined,
    'Do not run this server through the gateway at all, or admit at least one tool (runtime.allow, runtime.allow-tools).',
  );
}
