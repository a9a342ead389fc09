/**
 * What the base of a change review holds (docs/design.md §7): the policy that judges the pull request and
 * the contracts it compares against. Read before any code of the pull request starts in this run
 * (servers, specs), from the GitHub API at the base commit when a token can read contents, else
 * from the checkout's git with replace refs and grafts ignored (see `github/base-contract.ts`).
 */
import { DEFAULT_CONTAINMENT } from '../config/source-config.js';
import type { SourceConfig } from '../config/source-config.js';
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { FILE_LIMITS, readBounded } from '../util/safe-path.js';
import { isObject } from '../util/json.js';
import { findRepositoryRoot, within } from '../util/repository-root.js';
import type { Policy, PolicyLevel } from '../config/policy-model.js';
import { parsePolicy, policyFilePath } from '../config/policy.js';
import { displayPath } from '../util/display-path.js';
import { ruleById } from '../rules/catalog.js';
import { assertHeadersStayWithBase, assertNoRunnerSecrets, diffPolicies, judgedContainment, judgingPolicy, type PolicyChange } from '../config/policy-diff.js';
import { parseContract } from '../contract/store.js';
import type { Surface } from '../surface/model.js';

/** Reads a file (path relative to the repository root, `/`-separated) at the base; `undefined` when absent there. */
export type BaseFileReader = (path: string) => Promise<string | undefined>;

/** The base of a change review, and how the head's policy differs from it. */
export interface BaseState {
  /** Short name of the base for messages, e.g. `base 1a2b3c4` or `origin/main`. */
  label: string;
  /** The policy that judges: the base's settings with the head's sources; the head's on first adoption. */
  policy: Policy;
  /** The base commit's policy; `null` when it has none (first adoption). */
  basePolicy: Policy | null;
  /** Relaxations and tightenings the head makes to the base policy (first adoption: one relaxation, the whole file). */
  policyChanges: PolicyChange[];
  /** Contracts at the base by head source id; `null` where the base has none (every tool is new). */
  contracts: Map<string, Surface | null>;
  /**
   * Paths (relative to the workspace) whose change after an approval re-opens the review: the
   * policy, contracts, integration configs (base and head) and the files the OpenAPI surfaces were
   * built from.
   */
  watched: string[];
}

/**
 * Reads the base policy and contracts and judges the head policy against the base one.
 * @param head     The head's policy (loaded from the workspace).
 * @param root     The workspace root (repository root); paths are made relative to it.
 * @param read     Reads one file at the base.
 * @throws ConfigError when a base file is malformed, or the head passes a runner secret
 *   (`GITHUB_TOKEN`, `ACTIONS_*`, `INPUT_*`, `RUNNER_*`) to a server that the base policy's
 *   `allow-runner-env` does not name, or sends a header's variable to an origin the base does not
 *   send it to (on first adoption, any header's variable).
 */
export async function readBaseState(head: Policy, root: string, read: BaseFileReader, label: string): Promise<BaseState> {
  const policyPath = displayPath(root, policyFilePath(head));
  const baseText = await read(policyPath);
  const basePolicy = baseText === undefined ? null : parsePolicy(baseText, `${policyPath} at ${label}`, head.root);
  assertNoRunnerSecrets(head, basePolicy?.allowRunnerEnv ?? []);
  assertHeadersStayWithBase(head, basePolicy);
  const policy = basePolicy ? judgingPolicy(basePolicy, head) : withGateClosed(head);
  const policyChanges: PolicyChange[] = basePolicy
    ? diffPolicies(basePolicy, head)
    : [
        {
          relaxed: true,
          pointer: '',
          kind: 'policy-added',
          message: `${policyPath} is new in this pull request (first adoption): the whole policy is one change to approve`,
        },
      ];
  const contracts = new Map<string, Surface | null>();
  for (const s of head.sources) {
    // A source whose contract moved is compared with the contract the base really had.
    const at = basePolicy?.sources.find((b) => b.id === s.id)?.contract ?? s.contract;
    const path = displayPath(root, at);
    const text = await read(path);
    contracts.set(s.id, text === undefined ? null : parseContract(text, `${path} at ${label}`).surface);
  }
  const built = [...(await builtFrom(root, head, basePolicy, contracts))];
  return { label, policy, basePolicy, policyChanges, contracts, watched: await watchedPaths(root, head, basePolicy, built) };
}

/**
 * The files the OpenAPI surfaces were built from, as the base's contracts and the head's (read
 * from the workspace) record them (`source.files`, repository paths), made absolute. The head's
 * list is the author's to write, but a list that is not what the live surface reads is drift
 * (`contract-stale`), which no approval clears. Remote documents (URLs) have no history to compare.
 */
async function builtFrom(root: string, head: Policy, base: Policy | null, contracts: ReadonlyMap<string, Surface | null>): Promise<Set<string>> {
  const out = new Set<string>();
  const add = (integration: string, files: readonly unknown[] | undefined) => {
    const repository = findRepositoryRoot(dirname(resolve(root, integration)));
    for (const f of files ?? []) if (typeof f === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(f)) out.add(resolve(repository, f));
  };
  for (const s of head.sources) {
    if (s.kind !== 'openapi') continue;
    const atBase = base?.sources.find((b) => b.id === s.id);
    add(atBase?.kind === 'openapi' ? atBase.integration : s.integration, contracts.get(s.id)?.source.files);
    add(s.integration, await recordedFiles(resolve(root, s.contract)));
  }
  return out;
}

/** `source.files` of the contract at `file` in the workspace; none when it cannot be read (the run reports that). */
async function recordedFiles(file: string): Promise<unknown[] | undefined> {
  try {
    const value = JSON.parse((await readBounded(file, FILE_LIMITS.contract, 'the contract')).toString('utf8')) as unknown;
    const files = isObject(value) && isObject(value.source) ? value.source.files : undefined;
    return Array.isArray(files) ? files : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The policy file, every contract and integration config of the head's and the base's sources,
 * and the files their OpenAPI surfaces were built from (`builtFrom`, absolute): what an approval
 * must have seen. Each is watched as configured, through every parent directory (a directory
 * swapped for a symlink is a change of that path), and as the workspace resolves it now (a file
 * reached through a symlinked directory changes under its real path). A built-from file outside
 * the workspace but inside its repository is watched by its `../` path, and also under its real
 * path when it is reached through a symbolic link.
 */
async function watchedPaths(root: string, head: Policy, base: Policy | null, builtFrom: readonly string[] = []): Promise<string[]> {
  const files = [
    policyFilePath(head),
    ...[head, ...(base ? [base] : [])].flatMap((p) => p.sources.flatMap((s) => [s.contract, ...(s.kind === 'openapi' ? [s.integration] : [])])),
  ];
  const out = new Set<string>();
  const inside = (rel: string) => rel !== '' && !rel.startsWith('/') && !rel.startsWith('..');
  const realRoot = await realpath(root).catch(() => root);
  const repository = builtFrom.length ? findRepositoryRoot(root) : root;
  const realRepository = builtFrom.length ? await realpath(repository).catch(() => repository) : repository;
  for (const file of builtFrom) {
    const rel = relative(root, file).split(sep).join('/');
    if (rel !== '' && !isAbsolute(rel) && within(file, repository)) out.add(rel);
    // `source.files` names a file as the document reached it; through a symbolic link git reports
    // a change to what it points to under the target's path, so that path is watched too.
    const real = await realpath(file).catch(() => undefined);
    if (real === undefined) continue;
    const realRel = relative(realRoot, real).split(sep).join('/');
    if (realRel !== '' && !isAbsolute(realRel) && within(real, realRepository)) out.add(realRel);
  }
  for (const file of files) {
    const rel = displayPath(root, resolve(root, file));
    if (!inside(rel)) continue;
    out.add(rel);
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) out.add(parts.slice(0, i).join('/'));
    const real = await realpath(resolve(root, file)).catch(() => undefined);
    const realRel = real === undefined ? undefined : displayPath(realRoot, real);
    if (realRel !== undefined && inside(realRel)) out.add(realRel);
  }
  return [...out].sort();
}

/**
 * On first adoption the pull request's own policy judges it; its `rules` and `overrides` may set
 * any rule but the gate itself: a reviewable rule (a widening change, `policy-relaxed` above all)
 * stays an error until an approval by someone with write access, so the new policy cannot wave
 * itself through, nor name its own reviewers, nor run its servers outside the strictest sandbox.
 */
function withGateClosed(p: Policy): Policy {
  const keep = (rules: Record<string, PolicyLevel>) =>
    Object.fromEntries(Object.entries(rules).filter(([id, level]) => !ruleById(id)?.reviewable || level === 'error'));
  // Nor may it name who approves it: named reviewers skip the write-access check.
  const { reviewers: _named, ...review } = p.review;
  // Nor contain its own servers less than the strictest: no base, no relaxation yet.
  const sources = p.sources.map((s): SourceConfig =>
    s.kind === 'mcp' ? { ...s, mcp: { ...s.mcp, containment: judgedContainment(DEFAULT_CONTAINMENT, s.mcp.containment, p.root, false) } } : s,
  );
  return { ...p, rules: keep(p.rules), overrides: p.overrides.map((o) => ({ ...o, rules: keep(o.rules) })), review, sources };
}
