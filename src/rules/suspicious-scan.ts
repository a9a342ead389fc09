/**
 * Runs the pattern table of `suspicious-text` (`suspicious-patterns.ts`) over one text: which
 * rows hit, and the span each quotes. Pure and deterministic; linear in the text (every regex of
 * the table is, and each row is first tried on the whole text so that a sentence is only looked
 * at when every part of the row occurs somewhere).
 */
import { remove as removeConfusables } from 'confusables';
import { INVISIBLE } from './name-fold.js';
import { addedRanges } from '../diff/added-text.js';
import { globalOf, lowerLatin, sameText } from './scan-regex.js';
import { quoted } from './suspicious-quote.js';
import { SUSPICIOUS_PATTERNS, type SuspiciousPattern } from './suspicious-patterns.js';
import { identifierLike, identifierMentions, meant, toolMentions, toolShaped, type ToolMention } from './tool-references.js';

/** A hit: which pattern, where in the text, and what a reviewer reads of it. */
export interface SuspiciousHit {
  pattern: string;
  index: number;
  /** What the finding quotes: a `sentence` row's sentence ({@link quoted}), a `text` row's match. */
  span: string;
  /** The words the row matched, when {@link span} quotes more ("before", "Prefer"). */
  match?: string;
  /** For the rows about other tools: the tool this server does not serve that the sentence names. */
  otherTool?: string;
  /** When the text changed ({@link ScanContext.before}): the words the change added where it hit. */
  added?: string;
}

/** What a scan knows about the surface the text belongs to. */
export interface ScanContext {
  /**
   * What the surface serves ({@link ownNames}): a directive that names only these is the
   * server's own workflow.
   */
  own?: OwnNames;
  /** The text is an argument's description (what the model fills in). */
  argument?: boolean;
  /** The name of the tool the text belongs to. */
  self?: string;
  /**
   * The text a reviewer approved at the same place, when it changed: only what the change adds
   * is judged (a sentence it writes or extends, a character it inserts), and each hit says which
   * words those were.
   */
  before?: string;
}

const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');
const NON_ASCII = /[^\x20-\x7E\t\n\r]/;
/**
 * Letters that pass for Latin ones: Latin extensions and IPA, Greek, Cyrillic, Armenian,
 * Cherokee, letter-like and mathematical symbols. Only text with one is folded (the fold costs a
 * lookup a character; an em dash or an emoji alone needs none).
 */
const LOOK_ALIKE_SCRIPT = /[\u0100-\u058F\u13A0-\u13FF\u1D00-\u1DBF\u1E00-\u1FFF\u2100-\u214F\uA640-\uA69F\uA720-\uA7FF]|\uD835[\uDC00-\uDFFF]/;

/**
 * The text as a model reads it, for matching words, from its NFKC form (full-width `ｉｇｎｏｒｅ`
 * is `ignore`): invisible characters removed (`ig\u200Bnore`), look-alike letters folded to Latin
 * (Cyrillic `іgnore`). Only called for non-ASCII text.
 */
function readable(nfkc: string): string {
  const folded = nfkc.replace(INVISIBLE_ALL, '');
  return LOOK_ALIKE_SCRIPT.test(folded) ? removeConfusables(folded) : folded;
}

/**
 * One sentence: its text with blanks collapsed and that text lowered for the table's regexes
 * ({@link lowerLatin}), where it starts in the text, and (once asked) the tools it names that the
 * surface does not serve.
 */
interface Sentence {
  text: string;
  lower: string;
  start: number;
  end: number;
  others?: ToolMention[];
}

/**
 * A sentence ends at `.`, `!` or `?` before a blank, at a blank line, and before a list item on a
 * new line. A single line break inside a paragraph does not end one: split words stay together.
 */
const BOUNDARY = /[.!?]+["')\]]*(?:\s+|$)|\n[ \t]*(?:\n|[-*•>#]\s|\d{1,3}[.)]\s)/g;

function sentences(text: string, ascii: boolean): Sentence[] {
  const out: Sentence[] = [];
  let start = 0;
  const push = (end: number) => {
    const cut = text.slice(start, end).replace(/\s+/g, ' ').trim();
    const s = ascii ? cut : sameText(cut);
    // Every field present from the start: one added later changes the shape under V8's compiled scan, which is then compiled again.
    if (s) out.push({ text: s, lower: lowerLatin(s, ascii), start, end, others: undefined });
  };
  BOUNDARY.lastIndex = 0;
  for (let m = BOUNDARY.exec(text); m; m = BOUNDARY.exec(text)) {
    // Keep the sentence's own punctuation: "… to https://x.io." ends with its URL.
    push(m.index + (m[0].startsWith('\n') ? 0 : 1));
    start = m.index + m[0].length;
    if (m[0].length === 0) BOUNDARY.lastIndex++;
  }
  push(text.length);
  return out;
}

/** A negation just before a match: "never reads", "do not include", "don't send the". */
const NEGATED = /(?:\b(?:never|not|no|cannot|without|nor)|n['’]t)\s+(?:[\w-]+\s+){0,2}$/i;

/** Other tools named as a group ("any other tool", "the built-in tools", "others"). */
const OTHER_TOOLS = new RegExp(
  String.raw`\b(?:any|all|every|each)\s+(?:of\s+the\s+)?other\s+(?:[\w-]+\s+){0,2}(?:tools?|functions?|servers?|plugins?|integrations?)\b|\bother\s+(?:[\w-]+\s+){0,2}(?:tools?|servers?|functions?|plugins?|integrations?)\b|\bothers\b|\bbuilt-?in\s+(?:[\w-]+\s+){0,2}(?:tools?|search|fetch|browser|terminal|shell)\b|\b(?:native|default|standard|original|regular|official|old(?:er)?|existing|previous|usual|normal|basic|generic|third-party|built-?in)\s+(?:[\w-]+\s+){0,2}(?:tools?|integrations?|servers?|plugins?|functions?|readers?|fetchers?|connectors?)\b`,
  'gi',
);
/** A product's tools by name: "the Slack integration", "the Google Drive tools" (capitals matter). */
const PRODUCT_TOOLS = /\b[Tt]he\s+(?!MCP\b|API\b|HTTP\b)[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?\s+(?:integration|tools|server|plugin|connector)\b/g;

const segments = (name: string) =>
  name
    .toLowerCase()
    .split(/[_.\-\s]+/)
    .filter(Boolean);

/** Names a surface serves, indexed for {@link isOwn}. */
export interface OwnNames {
  /** Names, titles, argument names and values, lower case. */
  exact: ReadonlySet<string>;
  /** Every tail of a name's words (`list properties` of `hubspot-list-properties`). */
  tails: ReadonlySet<string>;
  /** Every word of a name (`shopify` of `learn_shopify_api`). */
  words: ReadonlySet<string>;
}

/**
 * Indexes what a surface serves: its tools' names and titles, their arguments' names and values.
 * @param names any case; tool names and titles should come first (only they give tails and words).
 * @param tools how many of `names` are tool names or titles.
 */
export function ownNames(names: readonly string[], tools: number): OwnNames {
  const exact = new Set<string>();
  const tails = new Set<string>();
  const words = new Set<string>();
  // A tail stands for its tool only under a prefix the server's tools share (`hubspot-`): a tail
  // of one tool alone (`send_email` of `safe_send_email`) is another tool's name.
  const firsts = new Map<string, number>();
  for (const n of names.slice(0, tools)) {
    const w = segments(n);
    if (w.length > 1) firsts.set(w[0] as string, (firsts.get(w[0] as string) ?? 0) + 1);
  }
  names.forEach((n, i) => {
    exact.add(n.toLowerCase());
    if (i >= tools) return;
    const w = segments(n);
    if ((firsts.get(w[0] as string) ?? 0) > 1) for (let k = 1; k < w.length; k++) tails.add(w.slice(k).join(' '));
    for (const x of w) words.add(x);
  });
  return { exact, tails, words };
}

const NOTHING_OWN = ownNames([], 0);

/**
 * Whether a mention names something this surface serves: one of its tools, titles, arguments or
 * argument values (the key or value a text explains), a tool under a prefix (`mcp__x__read_file`),
 * the tail of one of its tools' names (`list-properties` for `hubspot-list-properties`), or, for
 * a group ("the Shopify tools"), a word of its tools' names.
 */
function isOwn(m: ToolMention, own: OwnNames): boolean {
  if (own.exact.has(m.name.toLowerCase()) || meant(m.name).some((k) => own.exact.has(k))) return true;
  // Another version of a tool it serves (`query_docs_v1` of `query_docs`).
  const unversioned = m.name.toLowerCase().replace(/[_.-]?v?\d+$/, '');
  if (unversioned !== m.name.toLowerCase() && own.exact.has(unversioned)) return true;
  const w = segments(m.name);
  if (w.length === 0) return true;
  return m.group ? w.length === 1 && own.words.has(w[0] as string) : identifierLike(m.name) && own.tails.has(w.join(' '));
}

/** Tools a sentence names that the surface does not serve, with where each starts. */
const otherTools = (s: Sentence, own: OwnNames) =>
  (s.others ??= mentionsIn(s.text).filter((m) => !isOwn(m, own) && !POINTED_TO.test(s.text.slice(Math.max(0, m.index - 30), m.index))));

/** A tool the text points the reader to ("available via the component_detail tool", "see get_issue"): a reference, not a call it orders. */
const POINTED_TO = /\b(?:see|available\s+(?:via|in|from|through))\s+(?:the\s+)?[`'"]?$/i;

/** The tools a sentence names as prose does ({@link toolMentions}) and every identifier in it ({@link identifierMentions}). */
/** What every tool mention needs: an identifier's `_`, `-` or camelCase, a quote, a call's `(`, or a word like "tool". */
const MAY_NAME_A_TOOL = /[_`'"(]|[a-z][A-Z]|\w-\w|\b(?:tools?|functions?|operations?|commands?)\b/;

/**
 * Names the rows about other tools read besides {@link toolMentions} and {@link identifierMentions}:
 * a lower-case snake_case word in any language (`leer_credenciales`, `collect_system_info`), even
 * before a colon, right after a verb of calling or an ordering word in English, German, French or
 * Spanish, an adverb of order or the Spanish personal `a` between ("ejecuta leer_credenciales",
 * "llama primero a exportar_historial", "depends on read_env_vars:", "pair this tool with
 * list_all_files"), and a quoted word after "the tool" (`the tool 'prepare'`). A snake_case word
 * elsewhere is a value or a field the text explains (`report_only`, `row_configuration_schema`), so
 * is the first of a list of them, and one ending like a field (`project_id`) is never a tool.
 */
const LOOSE_NAME =
  /\b(?:call|calls|calling|run|running|invoke|invoking|execute|executing|trigger|use|using|with|alongside|before|after|first|then|prior to|depends on|requires?|ejecut[ae]r?|llam[ae]r?|us[ae]r?|utiliz[ae]r?|antes de|despu[eé]s de|primero|appel(?:ez|er)|ex[ée]cut(?:ez|er)|utilis(?:ez|er)|avant|apr[eè]s|d['’]abord|rufen|rufe|nutze|verwende|zuerst|vorher|nach)\s+(?:(?:first|primero|zuerst|d['’]abord|siempre|always|immer|toujours)\s+)?(?:(?:the|la|el|le|den|die|das|a|al)\s+)?[`'"“]?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?=$|[\s`'"”),;:!?]|\.(?:\s|$))|\b(?:tool|function)\s+[`'"“]([A-Za-z][\w-]{2,40})[`'"”]/gi;
/** Last words of fields, not tools (`project_id`, `created_at`). */
const FIELD_END = new Set(
  'id ids at on by url uri urls name names type types date time timestamp count size limit offset page cursor number num code status level mode format version value values dir path field fields key keys token tokens email address label title text body content description flag enabled hash ref len length max min per schema'.split(
    ' ',
  ),
);

function looseMentions(sentence: string): ToolMention[] {
  const out: ToolMention[] = [];
  LOOSE_NAME.lastIndex = 0;
  for (let m = LOOSE_NAME.exec(sentence); m; m = LOOSE_NAME.exec(sentence)) {
    const name = (m[1] ?? m[2]) as string;
    if (m[1] && (name !== name.toLowerCase() || FIELD_END.has(name.slice(name.lastIndexOf('_') + 1)))) continue;
    // A list of snake_case values ("run the instruction_mix, cpu_microarchitecture … recipes") names options, not a tool.
    if (m[1] && /^[`'"”]?\s*,\s*[`'"“]?[a-z][a-z0-9]*_/.test(sentence.slice(m.index + m[0].length))) continue;
    out.push({ name, index: m.index + m[0].lastIndexOf(name), group: false });
  }
  return out;
}

function mentionsIn(sentence: string): ToolMention[] {
  if (!MAY_NAME_A_TOOL.test(sentence)) return [];
  // A name prose writes as a tool ("the check tool") is one whatever its words; any other must
  // be shaped like one (`read_file`, not `JavaScript` or `self-correction`).
  const strict = toolMentions(sentence).filter(
    (m) =>
      m.group ||
      toolShaped(m.name) ||
      /^[`'"]?\s+(?:tools?|functions?|operations?|commands?)\b/i.test(sentence.slice(m.index + m.name.length, m.index + m.name.length + 12)),
  );
  const seen = new Set(strict.map((m) => m.name.toLowerCase()));
  const more = [...identifierMentions(sentence), ...looseMentions(sentence)].filter((m) => {
    const k = m.name.toLowerCase();
    return !seen.has(k) && (seen.add(k), true);
  });
  return [...strict, ...more];
}

/**
 * Whether a sentence steers the model away from a tool this surface does not serve: it names such
 * a tool (or "other tools", "the built-in tools"); the row's own words (deprecated, instead,
 * unsafe, do not use) say how.
 */
function awayFromOther(s: Sentence, own: OwnNames): boolean {
  for (const re of [OTHER_TOOLS, PRODUCT_TOOLS]) {
    re.lastIndex = 0;
    for (let g = re.exec(s.text); g; g = re.exec(s.text))
      if (!ownGroup(g[0], s.text.slice(g.index + g[0].length, g.index + g[0].length + 40), own)) return true;
  }
  return otherTools(s, own).some((m) => steeredFrom(s, m));
}

/** Whether the sentence names `m` somewhere other than as a recommendation: "use translate_text …, it replaces translate_text" steers away. */
function steeredFrom(s: Sentence, m: ToolMention): boolean {
  for (let at = m.index; at >= 0; at = s.text.indexOf(m.name, at + m.name.length)) if (!RECOMMENDED.test(s.text.slice(Math.max(0, at - 40), at))) return true;
  return false;
}

/**
 * A tool the text recommends ("use search_events instead", "see get_issue"): pointing the model
 * at another tool is not steering it away from one. "Do not use X" is not a recommendation.
 */
const RECOMMENDED = /(?:^|[^\w'’])(?<!\b(?:not|never|n['’]t|avoid|stop)\s+)(?:use|call|try|prefer|see|via)\s+(?:the\s+)?[`'"]?$/i;

/** Whether "any other … tools" means this server's own: it names the server ("other Shopify tools") or says so ("of this server"). */
const ownGroup = (span: string, after: string, own: OwnNames) =>
  /^\s*(?:of|on|from|in|by)\s+(?:this|the same)\s+(?:server|integration|plugin|app|mcp)\b/i.test(after) ||
  span
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some(
      (w) =>
        w.length > 2 &&
        !['any', 'every', 'all', 'each', 'the', 'other', 'tool', 'tools', 'function', 'functions', 'before', 'after', 'using', 'calling'].includes(w) &&
        own.words.has(w),
    );

/**
 * Where a directive may start: the start of a clause, or after a word that makes what follows an
 * instruction to the model ("to", "and", "must", "always", "please") or names the tool as the one
 * acting ("this tool also collects"). Adverbs in -ly may stand between.
 */
const DIRECTIVE_LEAD =
  /(?:^|[,:;(—–>\]*"!\u3000-\u9fff]|\b(?:to|and|then|also|please|must|should|shall|will|always|first|now|just|simply|you|or|so|it|tool|server|function|be|need|needs|are|is|get|gets|been)|\bn['’]t|\bnot)\s*(?:\w+ly\s+)?$/i;
/** A verb in the passive voice: "are relayed to". */
const PASSIVE_LEAD = /\b(?:are|is|been|get|gets|was|were|(?<!\b(?:must|should|shall|to)\s)be)\s*(?:\w+ly\s+)?$/i;
/** The tool as the one acting: "this tool also reads". */
const SELF_LEAD = /\b(?:also|tool|server|function|it|this|automatically|silently|secretly|quietly)\s*(?:\w+ly\s+)?$/i;
/** A preposition between a verb and its object: the noun is not what the verb takes ("include periods per API key"). */
const PREPOSITION = /\b(?:per|for|with|by|from|in|on|at|about|into|to|as|via|than|like|without|within|across|between|through|under|over)\b/i;

/** Anchors of a row tried in one sentence (each costs a bounded look for its verb). */
const MAX_ANCHORS = 8;

/** How far before its object (characters) a row's verb may stand; rows' `words` limits fit in it. */
const VERB_WINDOW = 600;

/** Whether the table regex `re` matches the text whose lowered form ({@link lowerLatin}) is `lower`. */
const has = (re: RegExp, lower: string) => globalOf(re).test(lower);

/** The verb of a row in a sentence, aimed at the model, taking the anchor at `anchorAt` as its object; undefined if none. */
function verbFor(p: SuspiciousPattern, s: Sentence, anchorAt: number): RegExpExecArray | undefined {
  const spec = p.verb;
  if (!spec) return undefined;
  // The verb stands at most `words` words before the anchor: only that window is searched, so a
  // long sentence of verbs costs a bounded look per anchor, not a pass over all of them.
  const from = Math.max(0, anchorAt - VERB_WINDOW);
  const g = globalOf(spec.re);
  g.lastIndex = from;
  const sentence = s.text;
  let found: RegExpExecArray | undefined;
  for (let v = g.exec(s.lower); v && v.index < anchorAt; v = g.exec(s.lower)) {
    const between = sentence.slice(v.index + v[0].length, anchorAt);
    const words = between.trim() ? between.trim().split(/\s+/).length : 0;
    if (words > spec.words) continue;
    if (spec.direct && PREPOSITION.test(between.replace(/\b(?:contents? of|of)\b/gi, ''))) continue;
    // "the contents of ~/.ssh/id_rsa" is what is asked for, wherever it stands.
    const lead = sentence.slice(Math.max(0, v.index - 60), v.index);
    if (!/^contents? of$/i.test(v[0]) && !DIRECTIVE_LEAD.test(lead)) continue;
    // "Adds a key to ~/.ssh/authorized_keys", "are read from ~/.aws/credentials": the tool saying
    // what it does, not the model told to; "this tool also reads" still is.
    const head = v[0].split(/\s/)[0] as string;
    const described = (/[^s]s$/i.test(head) && !/^contents? of$/i.test(v[0])) || /ed$/i.test(head) || PASSIVE_LEAD.test(lead);
    if (!spec.anyVoice && described && !SELF_LEAD.test(lead)) continue;
    found = v;
  }
  return found;
}
/** The row's hit in one sentence, or undefined. */
function hitIn(p: SuspiciousPattern, s: Sentence, ctx: ScanContext): SuspiciousHit | undefined {
  const [anchor, ...rest] = p.all as [RegExp, ...RegExp[]];
  // The cheap tests first: the row's regexes in this sentence, then what needs the tool names.
  if (!has(anchor, s.lower) || !rest.every((r) => has(r, s.lower)) || (p.verb && !has(p.verb.re, s.lower))) return undefined;
  const own = ctx.own ?? NOTHING_OWN;
  if (p.needs === 'other-tool' && otherTools(s, own).length === 0) return undefined;
  if (p.needs === 'away-from-other' && !awayFromOther(s, own)) return undefined;
  // The first few places the anchor matches: a verb may take the second path, not the first.
  const g = globalOf(anchor);
  let n = 0;
  for (let m = g.exec(s.lower); m && n < MAX_ANCHORS; m = g.exec(s.lower), n++) {
    if (m[0].length === 0) g.lastIndex++;
    const verb = verbFor(p, s, m.index);
    if (p.verb && !verb) continue;
    if (p.needs === 'other-group' && ownGroup(m[0], s.text.slice(m.index + m[0].length, m.index + m[0].length + 40), own)) continue;
    if (p.except?.test(s.text)) return undefined;
    const from = verb ? verb.index : m.index;
    if (p.negatable && NEGATED.test(s.text.slice(Math.max(0, from - 40), from))) continue;
    const other =
      p.needs === 'other-tool' || p.needs === 'away-from-other' ? otherTools(s, own).find((t) => p.needs === 'other-tool' || steeredFrom(s, t)) : undefined;
    return { pattern: p.id, ...quoted(s, from, m, other) };
  }
  return undefined;
}

/** Ranges of a text that a change added; `undefined` where the whole text is new. */
type Added = Array<[number, number]> | undefined;

/** The added words that overlap `[start, end)`, blanks collapsed, ` … ` between pieces. */
function addedIn(text: string, added: Added, start: number, end: number): string | undefined {
  if (!added) return undefined;
  const pieces = added.filter(([a, b]) => a < end && b > start).map(([a, b]) => text.slice(Math.max(a, start), Math.min(b, end)).replace(/\s+/g, ' ').trim());
  return pieces.length ? pieces.join(' … ') : undefined;
}

/** The first match of the table regex `re` in a text lowered by {@link lowerLatin} that overlaps the added ranges (any match when all is new). */
function matchIn(re: RegExp, lower: string, added: Added): RegExpExecArray | undefined {
  if (!added) return globalOf(re).exec(lower) ?? undefined;
  if (added.length === 0) return undefined;
  const g = globalOf(re);
  for (let m = g.exec(lower); m; m = g.exec(lower)) {
    if (added.some(([a, b]) => a < m.index + Math.max(1, m[0].length) && b > m.index)) return m;
    if (m[0].length === 0) g.lastIndex++;
  }
  return undefined;
}

/** A `text` row's hit on the text as sent, else on its NFKC form. */
function textRowHit(p: SuspiciousPattern, variants: readonly Variant[]): SuspiciousHit | undefined {
  for (const v of variants) {
    if (p.gate && !p.gate.test(v.text)) continue;
    const m = matchIn(p.all[0] as RegExp, v.lower, v.added);
    if (!m) continue;
    if (
      p.except?.test(
        v.text
          .slice(Math.max(0, m.index - 200), m.index)
          .split(/(?<!\be\.g|\bi\.e)[.!?]\s|\n/)
          .pop() ?? '',
      )
    )
      continue;
    const added = addedIn(v.text, v.added, m.index, m.index + Math.max(1, m[0].length));
    return { pattern: p.id, index: m.index, span: v.text.slice(m.index, m.index + m[0].length), ...(added !== undefined ? { added } : {}) };
  }
  return undefined;
}

/**
 * Every pattern's first hit in `text` (one per pattern: a finding names each once), in table
 * order. `text` rows run on the text as sent and on its NFKC form (a hit there quotes the NFKC
 * span); `sentence` rows run on each sentence of the readable form (look-alikes folded, invisible
 * characters removed, blanks collapsed) and quote what their first regex matched.
 * @param ctx the surface the text belongs to (for directives naming tools) and whether it is an argument's description.
 */
/**
 * For each four-letter word start, the rows it triggers, as bits (row `i` of the table is bit
 * `1 << (i % 31)` of word `i / 31`); rows without triggers are always on.
 */
const ROW_WORDS = Math.ceil(SUSPICIOUS_PATTERNS.length / 31);
const TRIGGER_BITS = new Map<string, number[]>();
const ALWAYS_ON: number[] = new Array<number>(ROW_WORDS).fill(0);
SUSPICIOUS_PATTERNS.forEach((p, i) => {
  const [w, bit] = [Math.floor(i / 31), 1 << (i % 31)];
  if (!p.triggers) {
    ALWAYS_ON[w] = (ALWAYS_ON[w] as number) | bit;
    return;
  }
  for (const t of p.triggers.split(' ')) {
    const key = t.slice(0, 4);
    const bits = TRIGGER_BITS.get(key) ?? new Array<number>(ROW_WORDS).fill(0);
    bits[w] = (bits[w] as number) | bit;
    TRIGGER_BITS.set(key, bits);
  }
});
/** Letters of scripts other than Latin (Greek and Cyrillic that did not fold, CJK, …): their words are not indexed. */
const OTHER_SCRIPT = /[\u0370-\u1DBF\u2C00-\u2DFF\u2E80-\uFFEF]/;
const LATIN_WORD = /[a-z\u00DF-\u024F]+/g;

/**
 * The rows a text may hit: one pass over its words (of `lower`, the text in lower case), each
 * word's first four letters looked up in the rows' trigger words. Text in another script enables
 * every row.
 */
function rowsFor(text: string, lower: string): number[] | undefined {
  if (OTHER_SCRIPT.test(text)) return undefined;
  const on = ALWAYS_ON.slice();
  const seen = new Set<string>();
  for (const word of lower.match(LATIN_WORD) ?? []) {
    const key = word.slice(0, 4);
    if (seen.has(key)) continue;
    seen.add(key);
    const bits = TRIGGER_BITS.get(key);
    if (bits) for (let w = 0; w < ROW_WORDS; w++) on[w] = (on[w] as number) | (bits[w] as number);
  }
  return on;
}

/** Whether row `i` is on in {@link rowsFor}'s answer. */
const rowOn = (on: number[] | undefined, i: number) => !on || ((on[Math.floor(i / 31)] as number) & (1 << (i % 31))) !== 0;

/**
 * The table's rows with every field present (`undefined` where a row has none): rows written with
 * different fields are objects of different shapes, and code reading a field of many shapes is
 * slow to run and, in V8, compiled again and again.
 */
/**
 * A row as the scan reads it: every field of {@link SuspiciousPattern}, and `parts`, the regexes a
 * `sentence` row needs somewhere in the text (its `all` and its verb), shortest source first.
 */
interface Row extends SuspiciousPattern {
  parts: readonly RegExp[];
}

const ROWS: readonly Row[] = SUSPICIOUS_PATTERNS.map((p) => ({
  id: p.id,
  title: p.title,
  scope: p.scope,
  all: p.all,
  gate: p.gate,
  verb: p.verb && { re: p.verb.re, words: p.verb.words, direct: p.verb.direct, anyVoice: p.verb.anyVoice },
  needs: p.needs,
  triggers: p.triggers,
  negatable: p.negatable,
  argumentOnly: p.argumentOnly,
  except: p.except,
  unlessHit: p.unlessHit,
  rationale: p.rationale,
  source: p.source,
  parts: [...p.all, ...(p.verb ? [p.verb.re] : [])].sort((a, b) => a.source.length - b.source.length),
}));

/** The forms of a text a scan reads, and (when it changed) what the change added to each. */
interface Forms {
  ascii: boolean;
  /** The text as sent, and its NFKC form when that differs. */
  variants: Variant[];
  /** The readable form ({@link readable}), its wrapped lines joined ({@link unwrapped}), and that form lowered ({@link lowerLatin}). */
  read: string;
  readLower: string;
  readAdded: Added;
}

/** A form of a text a `text` row reads, that form lowered ({@link lowerLatin}), and what a change added to it. */
interface Variant {
  text: string;
  lower: string;
  added: Added;
}

/**
 * A line break inside a paragraph, not one next to a blank line or before a list item: where
 * {@link BOUNDARY} ends no sentence. Descriptions are often hard-wrapped docstrings, and "do not
 * tell\nthe user" is one instruction.
 */
const WRAP = /(?<!\n[ \t]*)\r?\n(?![ \t]*(?:\r?\n|[-*•>#]\s|\d{1,3}[.)]\s))/g;

/**
 * `text` with each line break inside a paragraph ({@link WRAP}) made blanks, character for
 * character: the rows then read a wrapped sentence as one line, and every position stays where it
 * was (hits, spans and added ranges share the text's coordinates).
 */
const unwrapped = (text: string): string => (text.includes('\n') ? text.replace(WRAP, (m) => ' '.repeat(m.length)) : text);

function formsOf(text: string, before: string | undefined): Forms {
  const ascii = !NON_ASCII.test(text);
  if (ascii && before === undefined) {
    const lower = text.toLowerCase();
    const read = unwrapped(text);
    return { ascii, variants: [{ text, lower, added: undefined }], read, readLower: read === text ? lower : unwrapped(lower), readAdded: undefined };
  }
  const nfkc = ascii ? text : text.normalize('NFKC');
  const read = unwrapped(ascii ? text : readable(nfkc));
  // Each form compared with the same form of the reviewed text, so ranges share its coordinates.
  const b = before;
  const bNfkc = b === undefined || !NON_ASCII.test(b) ? b : b.normalize('NFKC');
  const added = (was: string | undefined, now: string): Added => (was === undefined ? undefined : addedRanges(was, now));
  const variants = [
    { text, lower: lowerLatin(text, ascii), added: added(b, text) },
    ...(nfkc === text ? [] : [{ text: nfkc, lower: lowerLatin(nfkc, false), added: added(bNfkc, nfkc) }]),
  ];
  const bRead = bNfkc === undefined || bNfkc === b ? bNfkc : readable(bNfkc);
  const readAdded = added(bRead === undefined ? undefined : unwrapped(bRead), read);
  return { ascii, variants, read, readLower: lowerLatin(read, ascii), readAdded };
}

/**
 * Whether every part of a `sentence` row occurs somewhere in the readable text, before any
 * sentence is looked at: a row about other tools needs a word that can name one; then its parts,
 * the smallest regex first (the conversation's, the largest, often need not run). `found` holds
 * what earlier rows learnt of the same text: rows share vocabularies (the conversation, secrets,
 * the verbs of files), and each runs once a text.
 */
function mayHit(p: Row, f: Forms, found: Map<RegExp, boolean>): boolean {
  const read = f.read;
  if (p.gate && !p.gate.test(read)) return false;
  if (p.needs !== undefined && p.needs !== 'other-group' && !MAY_NAME_A_TOOL.test(read)) return false;
  for (const re of p.parts) {
    let hit = found.get(re);
    if (hit === undefined) found.set(re, (hit = has(re, f.readLower)));
    if (!hit) return false;
  }
  return true;
}

/** A `sentence` row's hit in the first sentence it hits, with the words a change added there. */
function sentenceRowHit(p: SuspiciousPattern, split: readonly Sentence[], f: Forms, ctx: ScanContext): SuspiciousHit | undefined {
  for (const s of split) {
    const hit = hitIn(p, s, ctx);
    if (hit) {
      const words = addedIn(f.read, f.readAdded, s.start, s.end);
      return words !== undefined ? { ...hit, added: words } : hit;
    }
  }
  return undefined;
}

export function findSuspicious(text: string, ctx: ScanContext = {}): SuspiciousHit[] {
  // Made on the first hit, as a list of objects from the start: an empty list that later takes
  // one changes its kind under V8's compiled scan, which is then compiled again.
  let hits: SuspiciousHit[] | undefined;
  const f = formsOf(text, ctx.before);
  let split: Sentence[] | undefined;
  const found = new Map<RegExp, boolean>();
  const on = rowsFor(f.read, f.ascii ? f.readLower : f.read.toLowerCase());
  for (let i = 0; i < ROWS.length; i++) {
    const p = ROWS[i] as Row;
    if (!rowOn(on, i)) continue;
    if (p.argumentOnly && !ctx.argument) continue;
    if (p.unlessHit !== undefined && hits?.some((h) => h.pattern === p.unlessHit)) continue;
    let hit: SuspiciousHit | undefined;
    // A `text` row tries its gate on each form first (textRowHit).
    if (p.scope === 'text') hit = textRowHit(p, f.variants);
    else if (mayHit(p, f, found)) {
      const readAdded = f.readAdded;
      split ??= sentences(f.read, f.ascii).filter((s) => !readAdded || readAdded.some(([a, z]) => a < s.end && z > s.start));
      hit = sentenceRowHit(p, split, f, ctx);
    }
    if (hit) {
      if (hits) hits.push(hit);
      else hits = [hit];
    }
  }
  return hits ?? [];
}
