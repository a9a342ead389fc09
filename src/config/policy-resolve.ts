/**
 * Resolves a schema-valid `toolgate.yml` document into a {@link Policy}: the defaults of each key
 * (from the rows of keys.ts), and the checks the schema cannot make (unique source ids and
 * contracts, known rule ids, declared safety fields, reviewers that can be met, export sources).
 * Each error is located at its JSON pointer. Reading the YAML is policy.ts's job.
 *
 * @module
 */
import { join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { ConfigError } from '../util/errors.js';
import { displayPath } from '../util/display-path.js';
import { pointerSegments, type JsonObject } from '../util/json.js';
import { isRuleId, ruleById, RULES } from '../rules/catalog.js';
import { didYouMean } from '../util/suggest.js';
import { loginKey, parseTeamRef } from './reviewers.js';
import { defaultOf } from './keys.js';
import type { SafetyField } from '../surface/safety-fields.js';
import type { DenyEntry, ExportEntry, Policy, PolicyLevel, RuntimePolicy } from './policy-model.js';
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

/** The fix of an error in the policy file that has no fix of its own. */
export const POLICY_FIX = 'Fix the policy file at that line; its schema is schema/toolgate.schema.json (see docs/policy.md).';

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
/** `toolgate.yml` as written, once its schema has validated it. */
export interface RawPolicy {
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

/** Makes the located error of a policy value at a JSON pointer (`fix` defaults to {@link POLICY_FIX}). */
type PolicyError = (pointer: string, message: string, fix?: string) => ConfigError;

/**
 * A validated document as a {@link Policy} without `has` (which needs the YAML); `lineOf` locates
 * its errors in `file`.
 * @throws ConfigError at the offending value's line.
 */
export function resolvePolicy(raw: RawPolicy, file: string, root: string, lineOf: (p: string) => number): Omit<Policy, 'has'> {
  const err: PolicyError = (pointer, message, fix = POLICY_FIX) => new ConfigError(message, { file, line: lineOf(pointer), pointer }, fix);
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
