/**
 * What a reviewer reads for each change of a policy key: `diffPolicies` (policy-diff.ts) decides
 * whether a change relaxes the policy from the key's row (keys.ts) and asks this module for the
 * sentence. A key without words of its own gets {@link genericWords}, which names the key and its
 * values before and after. Values from the policy are JSON-quoted, truncated and on one line.
 *
 * @module
 */
import type { Json, JsonObject } from '../util/json.js';
import { displayPath } from '../util/display-path.js';
import { sourceKind, type PolicyKey } from './keys.js';
import { ruleLevel } from './rule-levels.js';
import type { Policy } from './policy-model.js';

/** One change of one key, as {@link Words} receive it. */
export interface Said {
  relaxed: boolean;
  /** The key as people write it (`limits.max-tools`, `mcp.env`), without the `sources[]` prefix. */
  name: string;
  /** The id of the source the key belongs to, for keys under `sources`. */
  source?: string;
  /** A value's before and after (defaults applied; `undefined`: absent with no default). */
  before?: Json;
  after?: Json;
  /** The entries of a list that were added, or removed, as written. */
  items?: string[];
  /** An entry (of a list, a map or a block) added or removed; for a changed one, its new form. */
  entry?: JsonObject;
  /** A changed entry's old form. */
  was?: JsonObject;
  /** For an entry, the policy it comes from. */
  policy: Policy;
}

/** Sentences for the changes of one key; each returns the message (and a kind when it is not the row's). */
export interface Words {
  changed?: (s: Said) => Sentence;
  added?: (s: Said) => Sentence;
  removed?: (s: Said) => Sentence;
  /** An entry that now comes after `was` (order decides: `overrides`); `items` say what changes. */
  moved?: (s: Said) => Sentence;
}

/** A message, or a message with a kind other than the row's. */
export type Sentence = string | { kind: string; message: string };

const MAX_QUOTED = 80;
const MAX_LISTED = 10;

/**
 * A value from the policy as inert data: at most {@link MAX_QUOTED} code points, JSON-quoted,
 * with invisible, format and line-separator characters escaped too (`\uXXXX`), so it is one line.
 */
export function q(value: string): string {
  const cps = Array.from(value);
  const cut = cps.length > MAX_QUOTED ? `${cps.slice(0, MAX_QUOTED - 1).join('')}\u2026` : value;
  return JSON.stringify(cut).replace(/[\p{Default_Ignorable_Code_Point}\p{Cf}\u2028\u2029]/gu, (c) =>
    Array.from(c, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}

/** A list of quoted values, `["a", "b"]`, the first {@link MAX_LISTED} of them. */
export function qList(values: readonly string[]): string {
  const more = values.length > MAX_LISTED ? `, and ${values.length - MAX_LISTED} more` : '';
  return `[${values.slice(0, MAX_LISTED).map(q).join(', ')}${more}]`;
}

/** A value as text: a string as it is, anything else as JSON. */
export const str = (v: Json | undefined): string => (typeof v === 'string' ? v : JSON.stringify(v ?? null));
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const list = (v: Json | undefined): string[] => (Array.isArray(v) ? v.map(str) : v === undefined || v === null ? [] : [str(v)]);
/** A value as shown: strings quoted, lists of strings as quoted lists, numbers and booleans as they are. */
const shown = (v: Json | undefined): string => (Array.isArray(v) ? qList(v.map(str)) : typeof v === 'string' ? q(v) : JSON.stringify(v ?? null));
const src = (s: Said) => `source ${JSON.stringify(s.source ?? '')}`;

/**
 * The sentence for a key with no words of its own: the key, what happened, before → after.
 * Numbers say raised or lowered (an absent limit is "no limit"), booleans on or off, lists which
 * entries came or went.
 */
export function genericWords(row: PolicyKey, s: Said, what: 'changed' | 'added' | 'removed' | 'moved'): string {
  const who = s.source !== undefined ? `${src(s)}: ` : '';
  if (what === 'moved') return `${who}${s.name} entry ${JSON.stringify(s.entry ?? null)} now comes after ${JSON.stringify(s.was ?? null)}`;
  if (what === 'added' || what === 'removed') {
    if (s.items) return `${who}${s.name} ${what === 'added' ? 'now includes' : 'no longer includes'} ${qList(s.items)}`;
    if (row.absentMeans && what === 'removed') return `${who}${s.name} is removed: ${row.absentMeans}`;
    return `${who}${s.name} ${JSON.stringify(s.entry ?? null)} is ${what}`;
  }
  const { before: b, after: a } = s;
  if (typeof a === 'boolean' || typeof b === 'boolean') return `${who}${s.name} is turned ${a === true ? 'on' : 'off'}`;
  if (typeof a === 'number' || typeof b === 'number') {
    if (b === undefined) return `${who}${s.name} is added: ${str(a)}`;
    if (a === undefined) return `${who}${s.name} is removed (was ${str(b)}): no limit`;
    return `${who}${s.name} is ${(a as number) > (b as number) ? 'raised' : 'lowered'} from ${str(b)} to ${str(a)}`;
  }
  if (row.relaxes !== 'any-change') return `${who}${s.name} is ${str(a)} (was ${str(b)})`;
  return `${who}${s.name} is now ${shown(a)} instead of ${shown(b)}`;
}

/** A path as shown in messages (already relative to the policy's directory), quoted. */
const where = (v: Json | undefined) => q(str(v ?? '.'));

const denyWords = (d: JsonObject) => {
  const lessSafe = list(d['less-safe']);
  return `deny entry ${qList(list(d.tools))}${d.when === 'read' ? ' (when: read)' : ''}${d['less-safe'] !== undefined ? ` (less-safe: ${qList(lessSafe)})` : ''}`;
};
const fieldWords = (f: JsonObject) =>
  `safety field ${q(str(f.name ?? ''))} (${str(f.pointer)}, safer: ${JSON.stringify(f.safer)}${f.default !== undefined ? `, default: ${JSON.stringify(f.default)}` : ''})`;
const overrideWords = (o: JsonObject | undefined) =>
  `override for tools ${qList(list(o?.tools))}${o?.sources !== undefined ? ` in sources ${qList(list(o.sources))}` : ''}`;
const overrideLevels = (s: Said) =>
  Object.entries((s.entry?.rules ?? {}) as JsonObject)
    .map(([id, level]) => `${id} ${str(level)} (${ruleLevel(s.policy, id)} without it)`)
    .join(', ');
const exportWords = (s: Said) => `exports entry (to ${str(s.entry?.to)}, file ${q(displayPath(s.policy.root, str(s.entry?.file)))})`;
const headerWords = (h: JsonObject | undefined) => `the value of ${q(str(h?.env))}${h?.prefix !== undefined ? ` after ${q(str(h.prefix))}` : ''}`;

/** A command's words: what it is to its source, and when it runs. */
function commandWords(what: string, when: string): Record<string, Words> {
  return {
    command: { changed: (s) => `${src(s)} now runs ${q(str(s.after))}${when} instead of ${q(str(s.before))}` },
    args: { changed: (s) => `${src(s)} now passes the arguments ${qList(list(s.after))} to ${what} instead of ${qList(list(s.before))}` },
    cwd: { changed: (s) => `${src(s)} now runs ${what} in ${where(s.after)} instead of ${where(s.before)}` },
    env: {
      added: (s) => `${src(s)} passes ${plural(s.items!.length, 'more environment variable')} to ${what}: ${s.items!.join(', ')}`,
      removed: (s) => `${src(s)} no longer passes ${plural(s.items!.length, 'environment variable')} to ${what}: ${s.items!.join(', ')}`,
    },
  };
}

const prefixed = (prefix: string, words: Record<string, Words>) => Object.fromEntries(Object.entries(words).map(([k, w]) => [`${prefix}.${k}`, w]));

/** Words of the keys that have their own, by key. */
export const WORDS: Readonly<Record<string, Words>> = {
  rules: { changed: (s) => `rule "${s.name}" is ${s.relaxed ? 'lowered' : 'raised'} from ${str(s.before)} to ${str(s.after)}` },
  overrides: {
    added: (s) => `${overrideWords(s.entry)} is added: ${overrideLevels(s)}`,
    removed: (s) => `${overrideWords(s.entry)} is removed: ${overrideLevels(s)}`,
    moved: (s) => `${overrideWords(s.entry)} now comes after the ${overrideWords(s.was)}: where both match, ${s.items!.join(', ')}`,
  },
  'runtime.allow': {
    added: (s) => `runtime.allow admits ${q(s.items![0]!)} tools`,
    removed: (s) => `runtime.allow no longer admits ${q(s.items![0]!)} tools`,
  },
  'runtime.allow-tools': {
    added: (s) => (s.items ? `runtime.allow-tools pattern ${q(s.items[0]!)} is added` : `runtime.allow-tools is added: ${qList(list(s.after))}`),
    removed: (s) =>
      s.items ? `runtime.allow-tools pattern ${q(s.items[0]!)} is removed` : 'runtime.allow-tools is removed: every pinned tool may be admitted',
  },
  'runtime.deny': {
    added: (s) => `runtime.deny pattern ${q(s.items![0]!)} is added`,
    removed: (s) => `runtime.deny pattern ${q(s.items![0]!)} is removed`,
  },
  'runtime.require-safer': {
    added: (s) => `runtime.require-safer requires the safer side of ${q(s.items![0]!)}`,
    removed: (s) => `runtime.require-safer no longer requires the safer side of ${q(s.items![0]!)}`,
  },
  'runtime.pass-methods': {
    added: (s) => `runtime.pass-methods passes ${q(s.items![0]!)} to the server unjudged`,
    removed: (s) => `runtime.pass-methods no longer passes ${q(s.items![0]!)}`,
  },
  'runtime.log-arguments': {
    changed: (s) => `runtime.log-arguments is ${s.after === true ? 'on: argument values (secrets among them) are written to the decision log' : 'off'}`,
  },
  exports: {
    added: (s) => `${exportWords(s)} is added`,
    removed: (s) => `${exportWords(s)} is removed or changed: that export is no longer checked against the contract`,
  },
  deny: { added: (s) => `${denyWords(s.entry!)} is added`, removed: (s) => `${denyWords(s.entry!)} is removed` },
  'safety-fields': {
    added: (s) => `${fieldWords(s.entry!)} is added`,
    removed: (s) => `${fieldWords(s.entry!)} is removed or redefined`,
  },
  'review.reviewers': {
    added: (s) => (s.items ? `reviewer ${q(s.items[0]!)} is added to review.reviewers` : `review.reviewers is added: only ${qList(list(s.after))} may approve`),
    removed: (s) =>
      s.items
        ? `reviewer ${q(s.items[0]!)} is removed from review.reviewers`
        : 'review.reviewers is removed: anyone with write access other than the author may approve',
  },
  'review.fresh': {
    changed: (s) =>
      s.relaxed ? 'review.fresh is turned off: an approval of an earlier commit counts' : 'review.fresh is turned on: the approval must be on the head commit',
  },
  sandbox: {
    changed: (s) =>
      s.relaxed
        ? 'sandbox is no longer required: servers may run unsandboxed where the machine has no sandbox'
        : 'sandbox is now required: no server runs unsandboxed',
  },
  'allow-runner-env': {
    added: (s) => `allow-runner-env now lets sources pass ${s.items![0]} to their servers`,
    removed: (s) => `allow-runner-env no longer lets sources pass ${s.items![0]} to their servers`,
  },
  sources: {
    added: (s) => ({ kind: 'source-added', message: `${src(s)} is added: ${sourceKind(s.entry!).words}` }),
    removed: (s) => ({ kind: 'source-removed', message: `${src(s)} is removed: its tools are no longer checked` }),
    changed: (s) => ({ kind: 'source-kind', message: `${src(s)} is now ${str(s.after)} instead of ${str(s.before)}` }),
  },
  'sources[].contract': { changed: (s) => `${src(s)} now keeps its contract in ${where(s.after)} instead of ${where(s.before)}` },
  'sources[].openapi': { changed: (s) => `${src(s)} now reads its integration config from ${where(s.after)} instead of ${where(s.before)}` },
  'sources[].recorded': { changed: (s) => `${src(s)} now reads its recorded tools/list result from ${where(s.after)} instead of ${where(s.before)}` },
  'sources[].mcp.sandbox': {
    changed: (s) => (s.relaxed ? `${src(s)} now runs its server outside the sandbox` : `${src(s)} runs its server in the sandbox again`),
  },
  'sources[].mcp.network': {
    changed: (s) => (s.relaxed ? `${src(s)} now gives its server the host's network` : `${src(s)} no longer gives its server the host's network`),
  },
  'sources[].mcp.writable': {
    added: (s) => `${src(s)} now lets its server write ${q(s.items![0]!)}`,
    removed: (s) => `${src(s)} no longer lets its server write ${q(s.items![0]!)}`,
  },
  'sources[].mcp.readable': {
    added: (s) => `${src(s)} now lets its server read ${q(s.items![0]!)}`,
    removed: (s) => `${src(s)} no longer lets its server read ${q(s.items![0]!)}`,
  },
  ...prefixed('sources[].mcp', commandWords('its server', '')),
  'sources[].mcp.url': { changed: (s) => `${src(s)} now connects to ${q(str(s.after))} instead of ${q(str(s.before))}` },
  'sources[].mcp.start': {
    added: (s) => `${src(s)} now runs ${q(str(s.entry?.command))} before connecting`,
    removed: (s) => `${src(s)} no longer runs ${q(str(s.entry?.command))} before connecting`,
  },
  ...prefixed('sources[].mcp.start', commandWords('its start command', ' before connecting')),
  'sources[].mcp.headers': {
    added: (s) => `${src(s)} now sends header ${q(str(s.items?.[0]))} with ${headerWords(s.entry)}${s.was ? ` instead of ${headerWords(s.was)}` : ''}`,
    removed: (s) => `${src(s)} no longer sends header ${q(str(s.items?.[0]))}`,
  },
};
