/**
 * The words a regex of `suspicious-text`'s table cannot match without, read from the regex's
 * source, so that the scan (suspicious-scan.ts) runs a row's regexes only on a text that has them.
 * A word is named as the scan indexes a text's words: lower case, its first four letters (all of
 * a shorter one), where a word is a run of the letters `[a-z\u00DF-\u024F]`. Speed only; decides
 * nothing.
 *
 * Each alternative of a regex needs all of its clauses, a clause one of its words: `\bwhat the
 * user (?:said|asked)` needs `what`, `the`, `user` and one of `said`, `aske`. The reading is
 * conservative: where the source does not settle which word a match holds (a class of letters, a
 * repetition, a word that may run on), it finds none there, and a regex with an alternative
 * that needs no word has no gate (it runs on every text). An alternative that needs a character
 * of another script (`调用`) needs no Latin word: a text with one enables every row.
 */

import { SUSPICIOUS_PATTERNS } from './suspicious-patterns.js';
import { NEEDED_WORDS } from './suspicious-words-table.js';

/** Letters of scripts other than Latin: the scan enables every row for a text with one. */
export const OTHER_SCRIPT = /[\u0370-\u1DBF\u2C00-\u2DFF\u2E80-\uFFEF]/;

/** A parsed piece of a regex: literal strings (finitely many), zero-width, or anything else. */
type Atom =
  | { t: 'set'; strings: string[] }
  | { t: 'edge' } // \b, ^, $: the next character (if a letter) starts a word, a letter before it ends one
  | { t: 'zero' } // lookaround, \B: ignored
  | { t: 'group'; alts: Item[][] }
  | { t: 'class'; letter: boolean }; // one character of a class; `letter`: it may be a letter
interface Item {
  atom: Atom;
  min: number;
  max: number;
  /** The strings it stands for ({@link strings}), once read; `null` until then. */
  strings: string[] | undefined | null;
}

const LETTER = /[a-z\u00DF-\u024F]/;
/** Literal strings a piece may stand for, at most this many (beyond it the piece is "anything"). */
const CAP = 64;

const LOOKAROUND = /\(\?(?:[=!]|<[=!])/y;
const QUANTIFIER = /(?:\?|\*|\+|\{(\d+)(?:(,)(\d*))?\})\??/y;
/** A sticky regex's match at `i` of `src`. */
const at = (re: RegExp, src: string, i: number) => ((re.lastIndex = i), re.exec(src));

/** The regex's alternatives, parsed (the subset of syntax the table uses; anything else is a class). */
function parse(src: string): Item[][] {
  let i = 0;
  const char = (c: string): Atom => ({ t: 'set', strings: [c.toLowerCase()] });
  const escape = (): Atom => {
    const c = src[i + 1] as string;
    i += 2;
    if (c === 'b') return { t: 'edge' };
    if (c === 'B') return { t: 'zero' };
    if ('wWS'.includes(c)) return { t: 'class', letter: true };
    if ('sdD'.includes(c)) return { t: 'class', letter: c === 'D' };
    const hex = c === 'x' ? 2 : c === 'u' && src[i] !== '{' ? 4 : 0;
    if (hex) return char(String.fromCharCode(parseInt(src.slice(i, (i += hex)), 16)));
    // \u{…}, \p{…} and back-references are read as one character of any kind (after their braces).
    if (src[i] === '{' && (c === 'u' || c === 'p' || c === 'P')) i = src.indexOf('}', i) + 1;
    if (c === 'u' || c === 'p' || c === 'P' || /\d/.test(c)) return { t: 'class', letter: true };
    return char(({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[c] ?? c);
  };
  const bracket = (): Atom => {
    const end = src.indexOf(']', i + 2);
    const body = src.slice(i + 1, end);
    i = end + 1;
    // A class of a few literal characters stands for each; any other (negated, \w, a wide range) for anything.
    if (body.startsWith('^') || /\\[wWsSdDpPu]/.test(body))
      return { t: 'class', letter: body.startsWith('^') || /\\[wWSDpPu]/.test(body) || /[a-z]/i.test(body.replace(/\\./g, '')) };
    const chars = body.replace(/\\x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\(.)/g, '$1');
    const out = new Set<string>();
    for (let k = 0; k < chars.length; k++) {
      if (chars[k + 1] === '-' && k + 2 < chars.length) {
        const [a, z] = [chars.charCodeAt(k), chars.charCodeAt(k + 2)];
        if (z - a > CAP) return { t: 'class', letter: true };
        for (let x = a; x <= z; x++) out.add(String.fromCharCode(x));
        k += 2;
      } else out.add(chars[k] as string);
    }
    return { t: 'set', strings: [...new Set([...out].map((c) => c.toLowerCase()))] };
  };
  const atom = (): Atom => {
    const c = src[i] as string;
    if (c === '\\') return escape();
    if (c === '[') return bracket();
    if (c === '.') return (i++, { t: 'class', letter: true });
    if (c === '^' || c === '$') return (i++, { t: 'edge' });
    if (c !== '(') return (i++, char(c));
    const look = at(LOOKAROUND, src, i);
    if (!look && src[i + 1] === '?' && src[i + 2] !== ':') throw new Error(`suspicious-words: cannot read ${src.slice(i, i + 12)}`);
    i += look ? look[0].length : src.startsWith('(?:', i) ? 3 : 1;
    const alts = alternatives();
    i++;
    return look ? { t: 'zero' } : { t: 'group', alts };
  };
  const sequence = (): Item[] => {
    const items: Item[] = [];
    while (i < src.length && src[i] !== '|' && src[i] !== ')') {
      const a = atom();
      const q = at(QUANTIFIER, src, i);
      let [min, max] = [1, 1];
      if (q) {
        i += q[0].length;
        const s = q[0][0];
        [min, max] =
          s === '?' ? [0, 1] : s === '*' ? [0, Infinity] : s === '+' ? [1, Infinity] : [Number(q[1]), q[2] ? (q[3] ? Number(q[3]) : Infinity) : Number(q[1])];
      }
      items.push({ atom: a, min, max, strings: null });
    }
    return items;
  };
  const alternatives = (): Item[][] => {
    const alts = [sequence()];
    while (src[i] === '|') {
      i++;
      alts.push(sequence());
    }
    return alts;
  };
  const out = alternatives();
  if (i < src.length) throw new Error(`suspicious-words: cannot read ${src.slice(0, 60)}… at ${i}`);
  return out;
}

const cross = (a: readonly string[], b: readonly string[]): string[] | undefined =>
  a.length * b.length > CAP ? undefined : a.flatMap((x) => b.map((y) => x + y));

/** The strings an item stands for, when finitely many. */
function strings(item: Item): string[] | undefined {
  if (item.strings === null) item.strings = stringsOf(item);
  return item.strings;
}
function stringsOf(item: Item): string[] | undefined {
  const a = item.atom;
  if (a.t === 'set' && item.min === 1 && item.max === 1) return a.strings;
  let one: string[] | undefined;
  if (a.t === 'set') one = a.strings;
  else if (a.t === 'group') {
    one = [];
    for (const seq of a.alts) {
      let s: string[] | undefined = [''];
      for (const it of seq) {
        const next: string[] | undefined = s && strings(it);
        s = next && cross(s as string[], next);
      }
      if (!s) return undefined;
      one.push(...s);
      if (one.length > CAP) return undefined;
    }
  }
  if (!one || item.max > 3) return undefined;
  let out = item.min === 0 ? [''] : [];
  let run: string[] | undefined = [''];
  for (let k = 1; k <= item.max && run; k++) {
    run = cross(run, one);
    if (run && k >= item.min) out = out.concat(run);
  }
  return run && out.length <= CAP ? [...new Set(out)] : undefined;
}

/** The keys of the words a string holds whole, in order. */
function wordsIn(s: string, before: boolean, after: boolean): string[] {
  const out: string[] = [];
  for (let p = 0; p < s.length; p++) {
    if (!LETTER.test(s[p] as string) || (p === 0 ? !before : LETTER.test(s[p - 1] as string))) continue;
    let q = p;
    while (q < s.length && LETTER.test(s[q] as string)) q++;
    if (q - p >= 4) out.push(s.slice(p, p + 4));
    else if (q < s.length || after) out.push(s.slice(p, q));
    p = q;
  }
  return out;
}
/** Common word starts of tool descriptions: a set of them is a poor filter. */
const COMMON = new Set(
  'list user cont read crea sear retu type defa upda page oper dele opti filt requ incl when conf retr comp obje data tool grou quer that resu valu prov stat deta serv file numb reso time work supp writ desc info this from with only name spec your have will each'.split(
    ' ',
  ),
);
const cost = (keys: ReadonlySet<string>) => [...keys].reduce((n, k) => n + (k.length < 4 || COMMON.has(k) ? 100 : 1), 0);

type Words = ReadonlySet<string> | 'other' | undefined;

/** Words one of which every match of the sequence holds (the rarest set found), given whether a non-letter stands before it. */
function sequenceWords(seq: readonly Item[], before: boolean): Words {
  const found = sequenceClauses(seq, before);
  if (found === 'other') return 'other';
  let best: ReadonlySet<string> | undefined;
  for (const keys of found) if (!best || cost(keys) < cost(best)) best = keys;
  return best;
}
/** Whether every match of a sequence ends with a character that is not a letter (and is not empty). */
function endsNonLetter(seq: readonly Item[]): boolean {
  for (let k = seq.length - 1; k >= 0; k--) {
    const it = seq[k] as Item;
    const a = it.atom;
    if (a.t === 'zero') continue;
    if (it.min === 0) return false;
    if (a.t === 'class') return !a.letter;
    if (a.t === 'set') return a.strings.every((x) => x.length > 0 && !LETTER.test(x.slice(-1)));
    if (a.t === 'group') return a.alts.every(endsNonLetter);
    return false;
  }
  return false;
}
function sequenceClauses(seq: readonly Item[], before: boolean): Array<ReadonlySet<string>> | 'other' {
  const found: Array<ReadonlySet<string>> = [];
  let run: string[] | undefined;
  let runBefore = false;
  let prevNonLetter = before;
  const flush = (after: boolean) => {
    if (run) {
      const words = run.map((s) => wordsIn(s, runBefore, after));
      const n = Math.min(...words.map((w) => w.length));
      for (let j = 0; j < n; j++) {
        found.push(new Set(words.map((w) => w[j] as string)));
        found.push(new Set(words.map((w) => w[w.length - 1 - j] as string)));
      }
    }
    run = undefined;
  };
  for (const item of seq) {
    const a = item.atom;
    if (a.t === 'zero') continue;
    if (a.t === 'edge') {
      flush(true);
      prevNonLetter = true;
      continue;
    }
    let s = strings(item);
    if (s) {
      // A string with a character of another script matches only text the scan reads whole.
      s = s.filter((x) => !OTHER_SCRIPT.test(x));
      if (s.length === 0) return 'other';
      const joined: string[] | undefined = run && cross(run, s);
      if (joined) run = joined;
      else {
        flush(false);
        run = s;
        runBefore = prevNonLetter;
      }
      const last = s.every((x) => x.length > 0 && !LETTER.test(x.slice(-1)));
      prevNonLetter = last || (prevNonLetter && s.every((x) => x === '' || !LETTER.test(x.slice(-1))));
      continue;
    }
    const letter = a.t === 'class' ? a.letter : true;
    flush(!letter && item.min > 0);
    if (a.t === 'group' && item.min > 0) {
      const inner = alternativesWords(a.alts, prevNonLetter);
      if (inner === 'other') return 'other';
      if (inner) found.push(inner);
    }
    const endsNon = a.t === 'group' ? a.alts.every(endsNonLetter) : !letter;
    prevNonLetter = endsNon && (item.min > 0 || prevNonLetter);
  }
  flush(false);
  return found;
}

function alternativesWords(alts: readonly Item[][], before: boolean): Words {
  const out = new Set<string>();
  let any = false;
  for (const seq of alts) {
    const w = sequenceWords(seq, before);
    if (w === undefined) return undefined;
    if (w === 'other') continue;
    any = true;
    for (const k of w) out.add(k);
  }
  return any ? out : 'other';
}

/** Per alternative of a regex, the words it needs: a list of clauses (the rarest first), each a list of words one of which it needs. */
export type NeededWords = ReadonlyArray<ReadonlyArray<readonly string[]>>;

/**
 * The words `re` needs ({@link NeededWords}) in a text without a letter of {@link OTHER_SCRIPT};
 * undefined when some alternative needs none, or the source uses syntax the reading does not know.
 */
export function neededWords(re: RegExp): NeededWords | undefined {
  let alts: Item[][];
  try {
    alts = parse(re.source);
  } catch {
    return undefined;
  }
  const out: Array<Array<readonly string[]>> = [];
  for (const seq of alts) {
    const clauses = sequenceClauses(seq, false);
    if (clauses === 'other') continue;
    if (clauses.length === 0) return undefined;
    // Each clause once (a word read from the front and from the back is the same clause).
    const seen = new Set<string>();
    const unique = clauses.filter((c) => ((k) => !seen.has(k) && (seen.add(k), true))([...c].sort().join(' ')));
    // The rarest clause first: the scan looks an alternative up by its first clause's words.
    out.push(unique.sort((a, b) => cost(a) - cost(b)).map((c) => [...c].sort()));
  }
  return out;
}

/**
 * A regex's key in `NEEDED_WORDS` (suspicious-words-table.ts): the FNV-1a hash of its source and flags, in base 36.
 * A regex whose source changed after the table was generated finds no entry and has no gate.
 */
export function sourceKey(re: RegExp): string {
  let h = 0x811c9dc5;
  const s = `${re.flags}/${re.source}`;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return `k${(h >>> 0).toString(36)}${s.length.toString(36)}`;
}

/**
 * The regexes of the table's `sentence` rows (their `all` and their verb), each with its
 * {@link neededWords} written as `alternative|alternative`, an alternative as `clause+clause`,
 * a clause as its words joined by blanks. Only `sentence` rows: they run on the readable form
 * whose words the scan indexes (a `text` row also runs on the text as sent).
 */
export function neededWordsEntries(): Array<[string, string]> {
  const out = new Map<string, string>();
  for (const p of SUSPICIOUS_PATTERNS) {
    if (p.scope !== 'sentence') continue;
    for (const re of [...p.all, ...(p.verb ? [p.verb.re] : [])]) {
      const words = neededWords(re);
      if (words) out.set(sourceKey(re), words.map((alt) => alt.map((clause) => clause.join(' ')).join('+')).join('|'));
    }
  }
  return [...out].sort(([a], [b]) => (a < b ? -1 : 1));
}

/** src/rules/suspicious-words-table.ts, as `npm run docs` writes it. @internal for scripts/gen-docs.ts and its test */
export function neededWordsModule(): string {
  // As Prettier prints them: a line over 160 characters puts its value on the next.
  const lines = neededWordsEntries().map(([k, v]) => (`  ${k}: '${v}',`.length > 160 ? `  ${k}:\n    '${v}',` : `  ${k}: '${v}',`));
  return `// Generated by \`npm run docs\` from the table of suspicious-patterns.ts (suspicious-words.ts): do not edit.
/** The words each \`sentence\` row's regexes need, by \`sourceKey\`: \`alternative|…\`, an alternative as \`clause+…\`, a clause as words. */
export const NEEDED_WORDS: Readonly<Record<string, string>> = {
${lines.join('\n')}
};
`;
}

/**
 * The words a regex of a `sentence` row needs (`NEEDED_WORDS`): its alternatives by each
 * word of their first (rarest) clause, each as the rest of its clauses.
 */
const NEEDED = new Map<RegExp, Map<string, string[][][]>>();
for (const p of SUSPICIOUS_PATTERNS)
  for (const re of p.scope === 'sentence' ? [...p.all, ...(p.verb ? [p.verb.re] : [])] : []) {
    const needed = NEEDED_WORDS[sourceKey(re)];
    if (needed === undefined || NEEDED.has(re)) continue;
    const byWord = new Map<string, string[][][]>();
    // '': every alternative needs a letter of another script, and such text is read whole.
    for (const alt of needed === '' ? [] : needed.split('|')) {
      const [first, ...rest] = alt.split('+').map((clause) => clause.split(' ')) as [string[], ...string[][]];
      for (const w of first) byWord.set(w, [...(byWord.get(w) ?? []), rest]);
    }
    NEEDED.set(re, byWord);
  }

/** Whether a text with the words `seen` (first four letters) has every word some alternative of a regex needs. */
export function hasNeeded(byWord: Map<string, string[][][]>, seen: ReadonlySet<string>): boolean {
  for (const w of seen) {
    const alternatives = byWord.get(w);
    if (alternatives === undefined) continue;
    for (const rest of alternatives) {
      let all = true;
      for (let c = 0; c < rest.length && all; c++) {
        const clause = rest[c] as string[];
        let one = false;
        for (let k = 0; k < clause.length && !one; k++) one = seen.has(clause[k] as string);
        all = one;
      }
      if (all) return true;
    }
  }
  return false;
}

/** The words `re` needs by the first word of each alternative ({@link hasNeeded}); undefined when it needs none or the table has no entry. */
export const neededWordsOf = (re: RegExp) => NEEDED.get(re);
