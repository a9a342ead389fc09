import { basename, dirname, join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { LineCounter, parseDocument, isMap, isNode, isScalar, isSeq, visit, type Document } from 'yaml';
import { policyValidator } from '../util/validators.js';
import { ConfigError } from '../util/errors.js';
import { displayPath } from '../util/display-path.js';
import { CONTRACT_OUTSIDE_FIX, resolveInside } from '../util/safe-path.js';
import { escapePointerToken, pointerSegments } from '../util/json.js';
import { schemaError } from '../util/schema-errors.js';
import { isRuleId, ruleById, RULES } from '../rules/catalog.js';
import { didYouMean } from '../util/suggest.js';
import { loginKey, parseTeamRef } from './reviewers.js';
import { defaultOf } from './keys.js';
import policySchema from '../../schema/toolgate.schema.json' with { type: 'json' };
import type { Level } from '../rules/types.js';
import type { JsonObject } from '../util/json.js';
import type { SafetyField } from '../surface/safety-fields.js';
import {
  DEFAULT_CONTAINMENT,
  DEFAULT_LIST_LIMITS,
  DEFAULT_TIMEOUTS,
  defaultContractPath,
  type CommandSpec,
  type HeaderFromEnv,
  type SandboxMode,
  type SourceConfig,
} from './source-config.js';

/** A rule level as written in the policy; `off` silences the rule. */
export type PolicyLevel = Level | 'off';

/** Rule levels for tools whose names match any of `tools` (minimatch). */
export interface RuleOverride {
  tools: string[];
  /** Restrict to these source ids (all when absent). */
  sources?: string[];
  rules: Record<string, PolicyLevel>;
}

/** A `deny` entry. */
export interface DenyEntry {
  tools: string[];
  /** `reachable`: must not be reachable at all; `read`: must not be classed read. */
  when: 'reachable' | 'read';
  /** `less-safe:`: only tools on the less safe side of one of these safety fields are denied. */
  lessSafe?: SafetyField[];
  reason?: string;
  /** Pointer of the entry in the policy, for annotations. */
  pointer: string;
}

/** Who must approve read promotions and lowered risk claims (docs/design.md §7). */
export interface ReviewPolicy {
  reviewers?: string[];
  fresh: boolean;
  required: number;
}

/** `toolgate.yml`, validated and resolved. */
export interface Policy {
  /** Path of the policy file as given, relative to the working directory or absolute ('' when built from CLI arguments). */
  file: string;
  /** Directory paths are resolved against. */
  root: string;
  sources: SourceConfig[];
  rules: Record<string, PolicyLevel>;
  overrides: RuleOverride[];
  /** `limits:`; tokens are o200k_base tokens per turn (surface/tokens.ts). */
  limits: { maxTools?: number; maxPayloadBytes?: number; maxTokens?: number; maxTokensPerTool?: number };
  /** `safety-fields:`: vendor safety fields (docs/design.md §2), in the order written. */
  safetyFields: SafetyField[];
  deny: DenyEntry[];
  review: ReviewPolicy;
  requireExplicitHints: boolean;
  allowPullRequestTarget: boolean;
  allowRemoteRefs: boolean;
  /** `sandbox:` (auto: sandbox where possible, report where not; required: refuse to run servers unsandboxed). */
  sandbox: SandboxMode;
  /**
   * Names of the runner's own secrets and settings (GITHUB_TOKEN, ACTIONS_*, INPUT_*, RUNNER_*)
   * that a source may still pass to its server (`allow-runner-env`); default none.
   */
  allowRunnerEnv: string[];
  /** Time budget per inputSchema comparison (ms). */
  schemaBudgetMs: number;
  /** `runtime:`: what `toolgate proxy` admits and exports write (docs/design.md §11). */
  runtime: RuntimePolicy;
  /** `exports:`: committed exports of contracts (docs/design.md §12), each checked by `toolgate check`. */
  exports: ExportEntry[];
  /** The document as written, validated against the schema: what `diffPolicies` compares key by key (config/keys.ts). */
  doc: JsonObject;
  /** 1-based line of a JSON pointer in the policy file (1 when unknown). */
  lineOf(pointer: string): number;
  /** True when the policy file has a value at this JSON pointer (`''`: the document). */
  has(pointer: string): boolean;
}

/** One committed export (`exports:` entry, or `check --export`). */
export interface ExportEntry {
  /** Target id (`toolgate export --to`). */
  to: string;
  /** Absolute path of the committed file. */
  file: string;
  /** Source id whose contract it exports. */
  source: string;
  /** The server's name in the target (default: the source id). */
  server: string;
  /** The Gateway an Envoy AI Gateway route attaches to (`parentRefs`). */
  gateway?: string;
  /** JSON pointer of the entry in toolgate.yml (absent for one given on the command line). */
  pointer?: string;
}

/** The `runtime` block (docs/design.md §11), with defaults applied. */
export interface RuntimePolicy {
  /** Classes admitted: read, write (disabled OpenAPI operations never are). */
  allow: ('read' | 'write')[];
  /** When set, only names matching one of these minimatch patterns are admitted. */
  allowTools?: string[];
  /** Names matching one of these minimatch patterns are never admitted. */
  deny: string[];
  /** A tools/call result larger than this many UTF-8 JSON bytes becomes an error result. */
  maxResultBytes: number;
  /** Largest JSON-RPC message either side may send, in bytes. */
  maxMessageBytes: number;
  /** Call arguments in the decision log (else only their sha256). */
  logArguments: boolean;
  /** What a drifted tool does: hidden alone, or no tool admitted at all. */
  onDrift: 'hide' | 'refuse-all';
  /** `require-safer:`: a tool is admitted only on the safer side of each of these safety fields. */
  requireSafer?: SafetyField[];
  /**
   * `pass-methods:`: JSON-RPC methods the proxy passes on although no MCP version it knows has
   * them (a vendor's extension); any other unknown method is refused.
   */
  passMethods: string[];
}

/** Defaults of the `runtime` block (config/keys.ts). */
export const DEFAULT_RUNTIME: RuntimePolicy = {
  allow: defaultOf('runtime.allow') as RuntimePolicy['allow'],
  deny: defaultOf('runtime.deny') as string[],
  maxResultBytes: defaultOf('runtime.max-result-bytes') as number,
  maxMessageBytes: defaultOf('runtime.max-message-bytes') as number,
  logArguments: defaultOf('runtime.log-arguments') as boolean,
  onDrift: defaultOf('runtime.on-drift') as RuntimePolicy['onDrift'],
  passMethods: defaultOf('runtime.pass-methods') as string[],
};

const FIX = 'Fix the policy file at that line; its schema is schema/toolgate.schema.json (see docs/policy.md).';

/**
 * Validates policy text read from `file` ({@link parsePolicy}) and checks where its contracts
 * really are ({@link validateContractPaths}). `loadPolicy` (config/policy-file.ts) reads the file.
 * @throws ConfigError (exit 2) as {@link parsePolicy} and {@link validateContractPaths}.
 */
export async function policyFromText(text: string, file: string): Promise<Policy> {
  const policy = parsePolicy(text, file, dirname(resolve(file)));
  await validateContractPaths(policy);
  return policy;
}

/** Absolute path of the policy file (`file` is as given, relative to the working directory it was read from). */
export function policyFilePath(policy: Pick<Policy, 'root' | 'file'>): string {
  return join(policy.root, basename(policy.file));
}

/**
 * Every file a run reads, absolute: the policy file, each source's contract, recording and
 * integration config (`source`: whose). A file the run writes (a report) must be none of them.
 */
export function policyInputs(policy: Policy): { path: string; what: string; source?: string }[] {
  const out: { path: string; what: string; source?: string }[] = [];
  if (policy.file) out.push({ path: policyFilePath(policy), what: 'the policy file' });
  for (const s of policy.sources) {
    out.push({ path: s.contract, what: `the contract of source "${s.id}"`, source: s.id });
    if (s.kind === 'recorded') out.push({ path: s.file, what: `the recorded tools/list file of source "${s.id}"`, source: s.id });
    if (s.kind === 'openapi') out.push({ path: s.integration, what: `the integration config of source "${s.id}"`, source: s.id });
  }
  return out;
}

/**
 * Checks with the file system where each source's contract really is, symbolic links resolved:
 * inside the policy's directory (`root`), and not the policy file or another source's contract,
 * recording or integration config, so that \`toolgate update\` cannot write outside the
 * repository or over another input. {@link loadPolicy} calls it; call it for a policy built
 * otherwise (adHocPolicy) before contracts are written. A contract that is the source's own
 * recording or integration config is read as what it is (`check` says it is not a contract);
 * `writeContract` never replaces such a file. Whether the contract is a regular file is checked
 * when it is read or written.
 * @throws ConfigError on the source's \`contract\` line (its \`id\` line for the default path).
 */
export async function validateContractPaths(policy: Policy): Promise<void> {
  const inputs = policyInputs(policy);
  for (const [i, s] of policy.sources.entries()) {
    const shown = displayPath(policy.root, s.contract);
    const pointer = policy.has(`/sources/${i}/contract`) ? `/sources/${i}/contract` : `/sources/${i}/id`;
    try {
      await resolveInside(policy.root, s.contract, {
        what: `the contract of source "${s.id}"`,
        lead: `cannot use ${shown} as the contract of source "${s.id}"`,
        display: shown,
        special: 'allow',
        notOnto: inputs.filter((x) => x.source !== s.id),
        fix: CONTRACT_OUTSIDE_FIX,
      });
    } catch (e) {
      // Other errors (a parent that cannot be read) are reported by the read or write itself.
      if (!(e instanceof ConfigError)) continue;
      if (!policy.file) throw e;
      throw new ConfigError(e.message, { file: policy.file, line: policy.lineOf(pointer), pointer }, e.fix);
    }
  }
}

/** Parses policy text; see {@link loadPolicy}. `root` is the directory relative paths resolve against. */
export function parsePolicy(text: string, file: string, root: string): Policy {
  const lineCounter = new LineCounter();
  // `uniqueKeys: true` compares each key with every earlier key of its map: 100,000 keys take
  // minutes. The same check, linear, is firstDuplicateKey.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const duplicate = firstDuplicateKey(doc);
  if (duplicate !== undefined && (doc.errors[0] === undefined || duplicate < doc.errors[0].pos[0])) {
    const pos = lineCounter.linePos(duplicate);
    throw new ConfigError('YAML syntax error: Map keys must be unique', { file, line: pos.line, column: pos.col }, FIX);
  }
  const yamlError = doc.errors[0];
  if (yamlError) {
    // With prettyErrors off, `linePos` is not filled in: compute it from the offset.
    const pos = yamlError.linePos?.[0] ?? lineCounter.linePos(yamlError.pos[0]);
    throw new ConfigError(`YAML syntax error: ${yamlError.message.split('\n')[0]}`, { file, line: pos?.line, column: pos?.col }, FIX);
  }
  const lineOf = yamlLines(doc, lineCounter);
  const has = (pointer: string) => pointer === '' || doc.hasIn(yamlPath(pointer));
  let value: JsonObject;
  try {
    value = (doc.toJS() ?? {}) as JsonObject;
  } catch (e) {
    // `yaml` resolves aliases here and throws (ReferenceError) for an alias to an anchor that is
    // not defined before it, and for an alias bomb ("billion laughs"): a user error, not a bug.
    throw new ConfigError(
      `YAML error: ${(e as Error).message}`,
      { file, line: aliasLine(doc, lineCounter) },
      `${FIX} Anchors and aliases (&name / *name) are not needed in toolgate.yml: write the values out.`,
    );
  }
  const odd = firstNonJsonValue(value);
  if (odd) {
    throw new ConfigError(
      `the value at ${odd.pointer || '/'} is not JSON (${odd.what})`,
      { file, line: lineOf(odd.pointer), pointer: odd.pointer },
      `${FIX} Write it as a plain YAML string, number, true/false, list or mapping (a \`%YAML 1.1\` document reads dates as dates: quote them).`,
    );
  }
  const validate = policyValidator();
  if (!validate(value)) throw schemaError(validate.errors ?? [], file, lineOf, FIX, policySchema);
  return { ...resolvePolicy(value as unknown as RawPolicy, file, root, lineOf), has };
}

/**
 * The first value `toJS` made that JSON cannot hold, with its JSON pointer: what YAML 1.1's tags
 * make (`!!binary` a byte array, read differently by yaml's CommonJS and ESM builds; `!!timestamp`
 * a Date; `!!set` a Set; `!!omap`/`!!pairs` a Map), a date in a `%YAML 1.1` document even
 * untagged, and `.inf`/`.nan`. Such a value passes the schema's `type: object` or is serialized
 * as something else (a Date as a string, NaN as null), so the policy would not mean what it
 * shows. Iterative.
 */
function firstNonJsonValue(value: unknown): { pointer: string; what: string } | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [v, pointer] = stack.pop()!;
    if (typeof v === 'number' && !Number.isFinite(v)) return { pointer, what: 'an infinite number, or not a number' };
    if (typeof v === 'bigint' || typeof v === 'undefined' || typeof v === 'function' || typeof v === 'symbol') return { pointer, what: `a ${typeof v}` };
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push([x, `${pointer}/${i}`]));
      continue;
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) {
      const what =
        v instanceof Date
          ? 'a date'
          : v instanceof Uint8Array
            ? 'a byte array'
            : v instanceof Set
              ? 'a set'
              : v instanceof Map
                ? 'a map'
                : 'an object of its own kind';
      return { pointer, what };
    }
    for (const [k, x] of Object.entries(v)) stack.push([x, `${pointer}/${escapePointerToken(k)}`]);
  }
  return undefined;
}

/** Line of the first alias whose anchor does not resolve, else of the first alias (1 when none). */
function aliasLine(doc: Document, lc: LineCounter): number {
  let first: number | undefined;
  let unresolved: number | undefined;
  visit(doc, {
    Alias(_, node) {
      const line = node.range ? lc.linePos(node.range[0]).line : undefined;
      first ??= line;
      if (unresolved === undefined && node.resolve(doc) === undefined) {
        unresolved = line;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return unresolved ?? first ?? 1;
}

/** A JSON pointer as a `yaml` path: digit segments index sequences. */
function yamlPath(pointer: string): (string | number)[] {
  return pointerSegments(pointer).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/**
 * `lineOf` of a policy: the 1-based line of a JSON pointer, or of its nearest existing parent (1
 * when none). A map entry gives its key's line (where a reader looks), a sequence item or the
 * document the line where it starts. Every line is indexed in one walk on the first question, so
 * thousands of questions (one per schema error) cost one walk, not one each.
 */
function yamlLines(doc: Document, lc: LineCounter): (pointer: string) => number {
  let index: Map<string, number> | undefined;
  const build = (): Map<string, number> => {
    const out = new Map<string, number>();
    const at = (pointer: string, node: unknown) => {
      if (isNode(node) && node.range && !out.has(pointer)) out.set(pointer, lc.linePos(node.range[0]).line);
    };
    const walk = (node: unknown, pointer: string): void => {
      if (isMap(node)) {
        for (const pair of node.items) {
          if (!isScalar(pair.key)) continue;
          const p = `${pointer}/${String(pair.key.value).replace(/~/g, '~0').replace(/\//g, '~1')}`;
          at(p, pair.key);
          walk(pair.value, p);
        }
      } else if (isSeq(node)) {
        node.items.forEach((item, i) => {
          at(`${pointer}/${i}`, item);
          walk(item, `${pointer}/${i}`);
        });
      }
    };
    at('', doc.contents);
    walk(doc.contents, '');
    return out;
  };
  return (pointer: string): number => {
    const map = (index ??= build());
    for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
      const line = map.get(p);
      if (line !== undefined) return line;
      if (p === '') return 1;
    }
  };
}

/**
 * Offset of the first key (in the document) that its map already has: the check `yaml` makes
 * with `uniqueKeys: true` (scalar keys by value, others by identity), with a set per map.
 */
function firstDuplicateKey(doc: Document): number | undefined {
  let first: number | undefined;
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        const offset = isNode(pair.key) ? pair.key.range?.[0] : undefined;
        if (seen.has(key) && offset !== undefined && (first === undefined || offset < first)) first = offset;
        seen.add(key);
      }
    },
  });
  return first;
}

interface RawCommand {
  command: string;
  args?: string[];
  cwd?: string;
  env?: string[];
}
interface RawMcp extends Partial<RawCommand> {
  url?: string;
  start?: RawCommand;
  headers?: Record<string, { env: string; prefix?: string }>;
  capabilities?: JsonObject;
  'startup-timeout-ms'?: number;
  'request-timeout-ms'?: number;
  'total-timeout-ms'?: number;
  'max-pages'?: number;
  'max-bytes'?: number;
  sandbox?: 'on' | 'off';
  network?: 'loopback' | 'open';
  writable?: string[];
  readable?: string[];
}
interface RawSource {
  id: string;
  mcp?: RawMcp;
  openapi?: string;
  recorded?: string;
  contract?: string;
}
interface RawPolicy {
  sources: RawSource[];
  rules?: Record<string, PolicyLevel>;
  overrides?: { tools: string | string[]; sources?: string[]; rules: Record<string, PolicyLevel> }[];
  limits?: { 'max-tools'?: number; 'max-payload-bytes'?: number; 'max-tokens'?: number; 'max-tokens-per-tool'?: number };
  deny?: { tools: string | string[]; when?: 'reachable' | 'read'; 'less-safe'?: string[]; reason?: string }[];
  'safety-fields'?: { name?: string; pointer: string; safer: SafetyField['safer']; default?: SafetyField['safer'] }[];
  review?: { reviewers?: string[]; fresh?: boolean; required?: number };
  'require-explicit-hints'?: boolean;
  'allow-pull-request-target'?: boolean;
  'allow-remote-refs'?: boolean;
  sandbox?: SandboxMode;
  'allow-runner-env'?: string[];
  'schema-budget-ms'?: number;
  runtime?: {
    allow?: ('read' | 'write')[];
    'allow-tools'?: string | string[];
    deny?: string | string[];
    'max-result-bytes'?: number;
    'max-message-bytes'?: number;
    'log-arguments'?: boolean;
    'on-drift'?: 'hide' | 'refuse-all';
    'require-safer'?: string[];
    'pass-methods'?: string[];
  };
  exports?: { to: string; file: string; source?: string; server?: string; gateway?: string }[];
}

const list = (p: string | string[]) => (Array.isArray(p) ? p : [p]);

/**
 * A GitHub user login, optionally with a leading @ or an app's `[bot]` suffix. Looser than
 * GitHub's rule for new accounts (some old logins have double or trailing hyphens); it exists to
 * catch typos, which would otherwise never match any reviewer.
 */
const GITHUB_LOGIN = /^@?[A-Za-z0-9][A-Za-z0-9-]{0,38}(\[bot\])?$/;

/** Makes the located error of a policy value at a JSON pointer (`fix` defaults to {@link FIX}). */
type PolicyError = (pointer: string, message: string, fix?: string) => ConfigError;

function resolvePolicy(raw: RawPolicy, file: string, root: string, lineOf: (p: string) => number): Omit<Policy, 'has'> {
  const err: PolicyError = (pointer, message, fix = FIX) => new ConfigError(message, { file, line: lineOf(pointer), pointer }, fix);
  validateReview(raw.review, err);
  validateRuleIds(raw.rules, '/rules', err);
  (raw.overrides ?? []).forEach((o, i) => validateRuleIds(o.rules, `/overrides/${i}/rules`, err));

  const safetyFields = resolveSafetyFields(raw['safety-fields'] ?? [], err);
  const pickFields = fieldPicker(safetyFields, err);
  const sources = resolveSources(raw, root, err);

  return {
    file,
    root,
    sources,
    rules: raw.rules ?? {},
    overrides: (raw.overrides ?? []).map((o) => ({ tools: list(o.tools), rules: o.rules, ...(o.sources ? { sources: o.sources } : {}) })),
    limits: resolveLimits(raw.limits),
    safetyFields,
    deny: (raw.deny ?? []).map((d, i) => ({
      tools: list(d.tools),
      when: d.when ?? (defaultOf('deny[].when') as DenyEntry['when']),
      pointer: `/deny/${i}`,
      ...(d['less-safe'] ? { lessSafe: pickFields(d['less-safe'], `/deny/${i}/less-safe`) } : {}),
      ...(d.reason !== undefined ? { reason: d.reason } : {}),
    })),
    review: {
      fresh: raw.review?.fresh ?? (defaultOf('review.fresh') as boolean),
      required: raw.review?.required ?? (defaultOf('review.required') as number),
      ...(raw.review?.reviewers ? { reviewers: raw.review.reviewers } : {}),
    },
    requireExplicitHints: raw['require-explicit-hints'] ?? (defaultOf('require-explicit-hints') as boolean),
    allowPullRequestTarget: raw['allow-pull-request-target'] ?? (defaultOf('allow-pull-request-target') as boolean),
    allowRemoteRefs: raw['allow-remote-refs'] ?? (defaultOf('allow-remote-refs') as boolean),
    sandbox: raw.sandbox ?? (defaultOf('sandbox') as SandboxMode),
    allowRunnerEnv: raw['allow-runner-env'] ?? (defaultOf('allow-runner-env') as string[]),
    schemaBudgetMs: raw['schema-budget-ms'] ?? (defaultOf('schema-budget-ms') as number),
    runtime: {
      ...resolveRuntime(raw.runtime),
      ...(raw.runtime?.['require-safer'] ? { requireSafer: pickFields(raw.runtime['require-safer'], '/runtime/require-safer') } : {}),
    },
    exports: resolveExports(raw.exports ?? [], sources, root, err),
    doc: raw as unknown as JsonObject,
    lineOf,
  };
}

/**
 * `review:`: each reviewer is a login or an org/team (a typo would never match anyone), and a
 * list of people only must have at least `required` of them.
 */
function validateReview(review: RawPolicy['review'], err: PolicyError): void {
  (review?.reviewers ?? []).forEach((login, i) => {
    if (GITHUB_LOGIN.test(login) || parseTeamRef(login)) return;
    throw err(
      `/review/reviewers/${i}`,
      `review.reviewers: "${login}" is neither a GitHub login nor an org/team`,
      "Write a login as on the user's profile (e.g. alice, @alice) or a team as org/team-slug (e.g. acme/security).",
    );
  });
  const reviewers = review?.reviewers;
  const people = new Set((reviewers ?? []).map(loginKey)).size;
  if (reviewers && reviewers.length > 0 && !reviewers.some((r) => parseTeamRef(r)) && (review?.required ?? 1) > people) {
    throw err(
      '/review/required',
      `review.required is ${review?.required} but review.reviewers names only ${people} ${people === 1 ? 'person' : 'people'}: it can never be met`,
      'Lower `required`, or add reviewers (a team, org/team, counts all its members).',
    );
  }
}

/** The rule ids of a `rules:` map (at pointer `at`) exist, and none is a configuration error's. */
function validateRuleIds(rules: Record<string, PolicyLevel> | undefined, at: string, err: PolicyError): void {
  for (const id of Object.keys(rules ?? {})) {
    if (!isRuleId(id))
      throw err(
        `${at}/${id}`,
        `unknown rule id "${id}"${didYouMean(
          id,
          RULES.map((r) => r.id),
        )}`,
        'Use an id listed by `toolgate rules` (docs/rules.md).',
      );
    if (ruleById(id)?.configError) {
      throw err(
        `${at}/${id}`,
        `rule "${id}" is a configuration error; its level cannot be changed`,
        'Remove this entry and fix the integration config instead: the run stops while loading it (exit 2).',
      );
    }
  }
}

/** A function giving the fields a selector names (at pointer `at`), each of which must be declared. */
function fieldPicker(safetyFields: readonly SafetyField[], err: PolicyError): (names: readonly string[], at: string) => SafetyField[] {
  return (names, at) =>
    names.map((n, i) => {
      const f = safetyFields.find((x) => x.name === n);
      if (!f) {
        throw err(
          `${at}/${i}`,
          `"${n}" is not a safety field${didYouMean(
            n,
            safetyFields.map((x) => x.name),
          )}`,
          `Declare it under \`safety-fields\` (pointer and safer value), or use one of: ${safetyFields.map((x) => x.name).join(', ') || '(none declared)'}.`,
        );
      }
      return f;
    });
}

/** `limits:`, with only the limits the policy sets. */
function resolveLimits(l: RawPolicy['limits']): Policy['limits'] {
  return {
    ...(l?.['max-tools'] !== undefined ? { maxTools: l['max-tools'] } : {}),
    ...(l?.['max-payload-bytes'] !== undefined ? { maxPayloadBytes: l['max-payload-bytes'] } : {}),
    ...(l?.['max-tokens'] !== undefined ? { maxTokens: l['max-tokens'] } : {}),
    ...(l?.['max-tokens-per-tool'] !== undefined ? { maxTokensPerTool: l['max-tokens-per-tool'] } : {}),
  };
}

/**
 * `sources:` entries: ids are unique, each has one kind, and no two share a contract file (two
 * sources writing one file would each overwrite the other).
 */
function resolveSources(raw: RawPolicy, root: string, err: PolicyError): SourceConfig[] {
  const seen = new Set<string>();
  const contracts = new Map<string, string>();
  return raw.sources.map((s, i): SourceConfig => {
    const at = `/sources/${i}`;
    if (seen.has(s.id)) throw err(`${at}/id`, `duplicate source id "${s.id}"`);
    seen.add(s.id);
    const kinds = (['mcp', 'openapi', 'recorded'] as const).filter((k) => s[k] !== undefined);
    if (kinds.length !== 1) {
      throw err(at, `source "${s.id}" must have exactly one of mcp, openapi, recorded (has ${kinds.length === 0 ? 'none' : kinds.join(', ')})`);
    }
    const contract = resolve(root, s.contract ?? defaultContractPath(s.id));
    const owner = contracts.get(contract);
    if (owner !== undefined) {
      throw err(
        `${at}/${s.contract !== undefined ? 'contract' : 'id'}`,
        `sources "${owner}" and "${s.id}" would share the contract ${displayPath(root, contract)}`,
        'Give each source its own `contract` file (the default is .toolgate/<source-id>.surface.json).',
      );
    }
    contracts.set(contract, s.id);
    if (s.openapi !== undefined) return { id: s.id, kind: 'openapi', integration: resolve(root, s.openapi), contract };
    if (s.recorded !== undefined) return { id: s.id, kind: 'recorded', file: resolve(root, s.recorded), contract };
    return resolveMcpSource(s.id, s.mcp as RawMcp, at, contract, root, raw.sandbox, err);
  });
}

/** An `mcp:` source (at pointer `at`): stdio (`command`) or HTTP (`url`), with its limits and containment. */
function resolveMcpSource(id: string, m: RawMcp, at: string, contract: string, root: string, sandbox: SandboxMode | undefined, err: PolicyError): SourceConfig {
  const common = mcpSettings(m, root);
  if (m.sandbox === 'off' && sandbox === 'required') {
    throw err(
      `${at}/mcp/sandbox`,
      `source "${id}" turns the sandbox off, but \`sandbox: required\` asks for every server to be sandboxed`,
      'Remove `sandbox: off` from the source, or set `sandbox: auto` at the top of toolgate.yml.',
    );
  }
  if ((m.command === undefined) === (m.url === undefined)) {
    throw err(`${at}/mcp`, `mcp source "${id}" needs exactly one of command (stdio) or url (HTTP)`);
  }
  if (m.command !== undefined) {
    // Point at the offending key, not at `mcp:`.
    if (m.start || m.headers) throw err(`${at}/mcp/${m.headers ? 'headers' : 'start'}`, '`start` and `headers` only apply to an HTTP source (url)');
    return { id, kind: 'mcp', contract, mcp: { transport: 'stdio', ...command(m as RawCommand, root), ...common } };
  }
  if (m.args || m.env || m.cwd)
    throw err(`${at}/mcp/${m.args ? 'args' : m.env ? 'env' : 'cwd'}`, '`args`, `env` and `cwd` belong to a stdio source or to `start`');
  const headers: HeaderFromEnv[] = Object.entries(m.headers ?? {}).map(([name, h]) => ({
    name,
    env: h.env,
    ...(h.prefix !== undefined ? { prefix: h.prefix } : {}),
  }));
  return {
    id,
    kind: 'mcp',
    contract,
    mcp: { transport: 'http', url: m.url as string, headers, ...(m.start ? { start: command(m.start, root) } : {}), ...common },
  };
}

/** What stdio and HTTP `mcp:` sources share: capabilities, timeouts, list limits, containment, with defaults. */
function mcpSettings(m: RawMcp, root: string) {
  return {
    capabilities: m.capabilities ?? {},
    timeouts: {
      startupMs: m['startup-timeout-ms'] ?? DEFAULT_TIMEOUTS.startupMs,
      requestMs: m['request-timeout-ms'] ?? DEFAULT_TIMEOUTS.requestMs,
      totalMs: m['total-timeout-ms'] ?? DEFAULT_TIMEOUTS.totalMs,
    },
    limits: { maxPages: m['max-pages'] ?? DEFAULT_LIST_LIMITS.maxPages, maxBytes: m['max-bytes'] ?? DEFAULT_LIST_LIMITS.maxBytes },
    containment: {
      sandbox: m.sandbox ?? DEFAULT_CONTAINMENT.sandbox,
      network: m.network ?? DEFAULT_CONTAINMENT.network,
      writable: (m.writable ?? []).map((w) => resolve(root, w)),
      ...(m.readable ? { readable: m.readable.map((r) => resolveReadable(r, root)) } : {}),
    },
  };
}

/**
 * A `readable` entry as an absolute path: `~` and `~/…` in toolgate's home directory (the same
 * policy reads the same on a laptop and a runner), else relative to toolgate.yml's directory.
 */
function resolveReadable(r: string, root: string): string {
  if (r === '~' || r.startsWith('~/')) return join(homedir(), r.slice(1));
  return resolve(root, r);
}

function command(c: RawCommand, root: string): CommandSpec {
  return { command: c.command, args: c.args ?? [], cwd: resolve(root, c.cwd ?? '.'), env: c.env ?? [] };
}

/**
 * `exports:` entries: the source defaults to the only one; the file is resolved against the
 * policy's directory (where it may really be is checked when it is read or written).
 */
function resolveExports(raw: NonNullable<RawPolicy['exports']>, sources: readonly SourceConfig[], root: string, err: PolicyError): ExportEntry[] {
  return raw.map((e, i) => {
    const at = `/exports/${i}`;
    const ids = sources.map((s) => s.id);
    if (e.source === undefined && ids.length !== 1)
      throw err(
        at,
        `export ${i + 1} (to ${e.to}) needs \`source\`: toolgate.yml has ${ids.length} sources`,
        `Add \`source: <id>\` with one of: ${ids.join(', ') || '(none)'}.`,
      );
    const source = e.source ?? ids[0] ?? '';
    if (!ids.includes(source))
      throw err(`${at}/source`, `export ${i + 1} names source "${source}", which toolgate.yml does not have`, `Use one of: ${ids.join(', ')}.`);
    return {
      to: e.to,
      file: resolve(root, e.file),
      source,
      server: e.server ?? source,
      ...(e.gateway !== undefined ? { gateway: e.gateway } : {}),
      pointer: at,
    };
  });
}

/**
 * `safety-fields:` entries (docs/design.md §2), each named (by default after its pointer's last token);
 * names are unique, pointers well formed (RFC 6901: `~` only as `~0` or `~1`).
 */
function resolveSafetyFields(raw: NonNullable<RawPolicy['safety-fields']>, err: PolicyError): SafetyField[] {
  const byName = new Map<string, number>();
  return raw.map((f, i) => {
    const at = `/safety-fields/${i}`;
    if (/~(?![01])/.test(f.pointer))
      throw err(
        `${at}/pointer`,
        `safety field pointer ${JSON.stringify(f.pointer)} has a "~" that is neither "~0" nor "~1"`,
        'Write "~" in a key as "~0" and "/" as "~1" (RFC 6901).',
      );
    const name = f.name ?? pointerSegments(f.pointer).at(-1) ?? '';
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name))
      throw err(
        at,
        `safety field ${JSON.stringify(f.pointer)} needs a \`name\`: its last token ${JSON.stringify(name)} is not one`,
        'Add `name:` (letters, digits, `_`, `.`, `-`).',
      );
    const dup = byName.get(name);
    if (dup !== undefined)
      throw err(
        `${at}${f.name !== undefined ? '/name' : ''}`,
        `safety fields ${dup + 1} and ${i + 1} are both named "${name}"`,
        'Give each safety field its own `name`.',
      );
    byName.set(name, i);
    return { name, pointer: f.pointer, safer: f.safer, ...(f.default !== undefined ? { default: f.default } : {}), at };
  });
}

/** The `runtime` block with its defaults (DEFAULT_RUNTIME). */
function resolveRuntime(r: RawPolicy['runtime']): RuntimePolicy {
  const d = DEFAULT_RUNTIME;
  return {
    allow: r?.allow ?? d.allow,
    ...(r?.['allow-tools'] !== undefined ? { allowTools: list(r['allow-tools']) } : {}),
    deny: r?.deny !== undefined ? list(r.deny) : d.deny,
    maxResultBytes: r?.['max-result-bytes'] ?? d.maxResultBytes,
    maxMessageBytes: r?.['max-message-bytes'] ?? d.maxMessageBytes,
    logArguments: r?.['log-arguments'] ?? d.logArguments,
    onDrift: r?.['on-drift'] ?? d.onDrift,
    passMethods: r?.['pass-methods'] ?? d.passMethods,
  };
}

/** A policy for one source given on the command line (no toolgate.yml): every default. */
export function adHocPolicy(source: SourceConfig, root: string): Policy {
  return { ...resolvePolicy({ sources: [] }, '', root, () => 1), sources: [source], has: (pointer) => pointer === '' };
}
