import * as core from '@actions/core';
import { relative, resolve, isAbsolute } from 'node:path';
import { ConfigError } from '../util/errors.js';
import type { Mode } from '../judge/result.js';

/** The Action's inputs, validated (see action.yml for their documentation). */
export interface ActionInputs {
  /** Absolute workspace root (GITHUB_WORKSPACE). */
  workspace: string;
  /** Policy path relative to the workspace. */
  config: string;
  /** Source ids to check (all when empty). */
  sources: string[];
  mode: Mode;
  /** Release gating: warnings fail too. */
  exact: boolean;
  /** JSON report path relative to the workspace. */
  reportPath: string;
  /** SARIF output path relative to the workspace; empty = none. */
  sarifPath: string;
  /** Token for reviews, check runs and comments; empty = no GitHub API calls. */
  token: string;
  /** Post/update one sticky PR comment. */
  comment: boolean;
  /** Login whose comments may carry the sticky marker. */
  commentAuthor: string;
  /** `auto`: try a check run, fall back to workflow-command annotations on 403. */
  checkRun: boolean;
  /** Committed exports to check besides toolgate.yml's `exports:` (input `exports`: `TARGET FILE` lines). */
  exports: { to: string; file: string }[];
}

/**
 * The `exports` input: one `TARGET FILE` pair a line (blank lines and `#` comments skipped).
 * @throws ConfigError naming the line that is not a pair.
 */
export function parseExportsInput(text: string): { to: string; file: string }[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const m = /^(\S+)\s+(.+)$/.exec(l);
      if (!m) throw new ConfigError(`input "exports": ${JSON.stringify(l)} is not "TARGET FILE"`, undefined, 'Write one export a line, its target then its file, e.g. `claude-code .claude/settings.json`.');
      return { to: m[1] as string, file: m[2] as string };
    });
}

/** Splits a list input on commas and newlines. */
export function splitList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function bool(name: string, fallback: boolean): boolean {
  const v = (core.getInput(name) || String(fallback)).toLowerCase();
  if (v === 'true' || v === 'auto') return v === 'true' || fallback;
  if (v === 'false') return false;
  throw new ConfigError(`input "${name}" must be true or false, not "${v}"`, undefined, `Set \`${name}: true\` or \`${name}: false\`.`);
}

function inWorkspace(workspace: string, name: string, value: string): string {
  const abs = resolve(workspace, value);
  const rel = relative(workspace, abs);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new ConfigError(`input "${name}" points outside the workspace: ${value}`, undefined, `Give a path inside ${workspace}.`);
  }
  return rel;
}

/**
 * Reads `INPUT_*` through @actions/core.
 * @throws ConfigError for an invalid value (names the input and the accepted values).
 */
export function readActionInputs(): ActionInputs {
  const workspace = resolve(process.env.GITHUB_WORKSPACE ?? process.cwd());
  const mode = core.getInput('mode') || 'check';
  if (mode !== 'check' && mode !== 'audit') {
    throw new ConfigError(`input "mode" must be check or audit, not "${mode}"`, undefined, 'Set `mode: check` (default) or `mode: audit` in the workflow step.');
  }
  const exactInput = (core.getInput('exact') || 'auto').toLowerCase();
  if (!['auto', 'true', 'false'].includes(exactInput)) {
    throw new ConfigError(`input "exact" must be auto, true or false, not "${exactInput}"`, undefined, 'Leave it unset (auto: exact on tag pushes and releases).');
  }
  const event = process.env.GITHUB_EVENT_NAME ?? '';
  const isRelease = event === 'release' || (event === 'push' && (process.env.GITHUB_REF ?? '').startsWith('refs/tags/'));
  return {
    workspace,
    config: inWorkspace(workspace, 'config', core.getInput('config') || 'toolgate.yml'),
    sources: splitList(core.getInput('sources')),
    mode,
    exact: exactInput === 'auto' ? isRelease : exactInput === 'true',
    // Where outputs may go (the workspace or RUNNER_TEMP, links resolved) is checked when they are
    // written (util/safe-path `resolveInside`): here only the text.
    reportPath: core.getInput('report-path') || 'toolgate-report.json',
    sarifPath: core.getInput('sarif-path'),
    token: core.getInput('github-token'),
    comment: bool('comment', false),
    commentAuthor: core.getInput('comment-author') || 'github-actions[bot]',
    checkRun: bool('check-run', true),
    exports: parseExportsInput(core.getInput('exports')).map((e) => ({ ...e, file: inWorkspace(workspace, 'exports', e.file) })),
  };
}
