/**
 * Reading `toolgate.yml`: bounded, never a special file, with errors that say what to do. Kept
 * apart from the parser (config/policy.ts: YAML, the schema's validator, the rule catalog) so
 * that a missing policy file is reported without loading it (docs/design.md §13: the server starts first).
 * @module
 */
import { join, resolve } from 'node:path';
import { ConfigError } from '../util/errors.js';
import { FILE_LIMITS, formatBytes, readBounded } from '../util/safe-path.js';
import type { Policy } from './policy-model.js';

/**
 * Reads and validates a policy file, and checks where its contracts really are
 * (`validateContractPaths` in config/policy.ts).
 * @throws ConfigError (exit 2) naming file:line, pointer and fix: missing file, a directory, a
 *   named pipe or other special file (never opened), a file over {@link FILE_LIMITS}.policy
 *   (1 MiB, refused before it is read), YAML syntax error, unknown key, wrong type, unknown rule
 *   id, duplicate source id, ambiguous source kind, a contract path outside the policy's directory
 *   or onto another input of the run.
 */
export async function loadPolicy(file: string): Promise<Policy> {
  const abs = resolve(file);
  let text: string;
  try {
    text = (
      await readBounded(abs, FILE_LIMITS.policy, 'the policy file', {
        display: file,
        fix: {
          directory: `Pass the policy file, not its directory: --config ${join(file, 'toolgate.yml')} (in the Action, the \`config\` input).`,
          size: `A policy file is limited to ${formatBytes(FILE_LIMITS.policy)} (docs/security.md); one needs a few KB: check that --config (the Action's \`config\` input) names toolgate.yml.`,
        },
      })
    ).toString('utf8');
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(
      code === 'ENOENT' ? 'policy file not found' : `cannot read policy file: ${(e as Error).message}`,
      { file },
      code === 'ENOENT'
        ? `Create ${abs} (README, "Use it on your server"), pass --config PATH, or audit a server directly: \`toolgate audit -- node server.js\`.`
        : undefined,
    );
  }
  // The parser (YAML, the schema's validator) loads only now: a missing file is reported without it.
  const { policyFromText } = await import('./policy.js');
  return policyFromText(text, file);
}
