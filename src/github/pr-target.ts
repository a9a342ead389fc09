import { displayPath } from '../util/display-path.js';
import { ConfigError } from '../util/errors.js';
import type { EventContext } from './event.js';

/**
 * Under `pull_request_target` the workflow has the base repository's token and secrets while the
 * checkout may hold PR code: toolgate refuses to start servers or load specs unless the policy
 * **at the base commit** says `allow-pull-request-target: true` (a PR cannot grant itself that).
 * @throws ConfigError explaining the refusal and the safe alternatives.
 */
export async function assertPullRequestTargetAllowed(event: EventContext, policyPath: string, workspace: string): Promise<void> {
  if (!event.pullRequestTarget) return;
  const pr = event.pullRequest;
  let allowed = false;
  if (pr) {
    const rel = displayPath(workspace, policyPath);
    // git (node:child_process) loads only here, under pull_request_target (the Action's cold start).
    const { readFileAtCommit } = await import('./base-contract.js');
    const text = await readFileAtCommit({ cwd: workspace, sha: pr.baseSha, path: rel }).catch(() => undefined);
    if (text !== undefined) {
      try {
        // The parser loads only here, under pull_request_target (keeps the Action's start-up small).
        const { parsePolicy } = await import('../config/policy.js');
        allowed = parsePolicy(text, `${rel} at base`, workspace).allowPullRequestTarget;
      } catch {
        allowed = false;
      }
    }
  }
  if (!allowed) {
    throw new ConfigError(
      'refusing to start servers or load specs under pull_request_target: this event runs with the base repository token and secrets, and the checkout may hold code from the pull request',
      undefined,
      'Run toolgate on `pull_request` (read-only token, no secrets) and post results with a `workflow_run` workflow (see docs/action.md, "Fork pull requests"), or set `allow-pull-request-target: true` in toolgate.yml on the base branch if you check out only trusted code.',
    );
  }
}
