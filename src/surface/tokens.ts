/**
 * What each tool costs in the model's context on every turn: the tokens of what a
 * client sends the model for it (name, title, description, inputSchema, as JSON), counted with
 * OpenAI's `o200k_base` encoding (gpt-tokenizer). Other models' tokenizers differ by roughly
 * 10–20 %. The encoding's tables are 200,000 ranks (bundled as one JSON string: about 0.15–0.2 s of CPU to
 * load), so they are loaded on first use only: nothing pays for them unless a count is needed.
 */
import type { PinnedTokens, Surface, SurfaceTool } from './model.js';

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

let loading: Promise<TokenCounter> | undefined;

/** The o200k_base counter, loaded once, bounded against hostile text (see {@link boundedCount}). */
export function tokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => (text: string) => boundedCount(text, (t) => m.countTokens(t)));
  return loading;
}

/**
 * Maximal runs of the classes o200k's pre-tokenizer can keep in one piece: letters with their
 * marks; punctuation (anything but whitespace, letters and numbers, marks included) with the CR,
 * LF and `/` its piece may end in; whitespace. Matched with `+`, each character is read once.
 */
const RUNS = /[\p{L}\p{M}]+|(?:[^\s\p{L}\p{N}]|[\r\n])+|\s+/gu;
/** Far beyond any word of real text (UTF-16 units). */
const MAX_RUN = 256;

/**
 * Counts `text` with `count`, cutting every run of one class longer than 256 characters into
 * pieces of at most 256. Byte-pair merging is quadratic in the length of a piece (measured: 40,000
 * CJK characters in one piece take 6.8 s), so a server could stall toolgate with one long word;
 * cut, the work is linear. Real text has no such runs and is counted exactly (checked on every
 * recorded server); a cut inside a run may count one token more than the whole run would.
 */
export function boundedCount(text: string, count: TokenCounter): number {
  if (text.length <= MAX_RUN) return count(text);
  let total = 0;
  let from = 0;
  for (const m of text.matchAll(RUNS)) {
    if (m[0].length <= MAX_RUN) continue;
    const end = m.index + m[0].length;
    for (let cut = m.index + MAX_RUN; cut < end; cut += MAX_RUN) {
      // Never between the halves of a surrogate pair.
      const at = isLowSurrogate(text.charCodeAt(cut)) ? cut - 1 : cut;
      if (at <= from) continue;
      total += count(text.slice(from, at));
      from = at;
    }
  }
  return total + count(text.slice(from));
}

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** What a client sends the model for one tool: name, title, description and inputSchema, as JSON. */
export function modelFacingJson(t: Pick<SurfaceTool, 'name' | 'title' | 'description' | 'inputSchema'>): string {
  return JSON.stringify({
    name: t.name,
    ...(t.title !== undefined ? { title: t.title } : {}),
    ...(t.description !== undefined ? { description: t.description } : {}),
    inputSchema: t.inputSchema ?? {},
  });
}

/**
 * Tokens per turn of a surface (o200k_base), over the reachable tools (a disabled OpenAPI operation
 * is never sent): `perTurn` is the one name of that figure in the code, the contract and the
 * reports. `perTool` is there only when the tools were counted in this run, not when the figure is
 * a trusted pinned total.
 */
export interface TokenCost {
  perTurn: number;
  /** By tool name, in surface order. */
  perTool?: { name: string; tokens: number }[];
}

/** A count made in this run: every reachable tool's tokens and their sum. */
type CountedTokens = Required<TokenCost>;

/** Counts a surface's tools. */
export function tokenCost(tools: readonly SurfaceTool[], count: TokenCounter): CountedTokens {
  const perTool = tools.filter((t) => t.safetyClass !== 'disabled').map((t) => ({ name: t.name, tokens: count(modelFacingJson(t)) }));
  return { perTurn: perTool.reduce((n, t) => n + t.tokens, 0), perTool };
}

/** The `n` most expensive tools, most expensive first (ties by name). */
export function mostExpensive(cost: CountedTokens, n = 5): { name: string; tokens: number }[] {
  return [...cost.perTool].sort((a, b) => b.tokens - a.tokens || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, n);
}

/** The pinned form of a count (written into the contract by `update`). */
export function pinnedTokens(cost: TokenCost): PinnedTokens {
  return { encoding: 'o200k_base', perTurn: cost.perTurn };
}

/** What a run knows about tokens per turn, for the reports. */
export interface TokenFacts {
  /** Tokens per turn of the live surface. */
  perTurn: number;
  /** The five most expensive tools, most expensive first: only when the tools were counted. */
  top?: { name: string; tokens: number }[];
  /** Tokens per turn of the review's base, when its tools differ from the live ones. */
  base?: number;
}

/** How a run gets its token figures: a pinned total is reused only for the very same tools. */
export interface TokenInputs {
  head: Surface;
  /**
   * A surface whose pinned total may be believed for the head when the digests match: the
   * committed contract outside a pull request. In a pull request the head's contract is the
   * author's and is not passed; the base's (reviewed) total is used instead.
   */
  contract?: Surface;
  /** The review's base (the PR base's contract; the old contract for `update`). */
  base?: Surface;
  /** Count the head's tools whatever is pinned (audit, update, a token limit). */
  countHead: boolean;
  /** Loads the counter (the tokenizer takes ~0.6 s to load: only called when a count is needed). */
  counter?: () => Promise<TokenCounter>;
}

/**
 * The head's tokens per turn and, where the base's tools differ, the base's, counting as little as
 * possible: a trusted pinned total stands for a surface with the same digest (the digest covers
 * every byte the count reads). The head is counted for `countHead` and whenever its tools differ
 * from the base (a delta is shown, and never from a total the pull request's author wrote); the
 * base only when it has no total pinned. Returns the head's full count too when it was counted
 * (the token limits need it); `facts` is undefined when the head's total is neither trusted nor
 * counted.
 */
export async function tokenFacts(i: TokenInputs): Promise<{ facts?: TokenFacts; cost?: CountedTokens }> {
  const load = i.counter ?? tokenCounter;
  const pinnedFor = (s: Surface, by: Surface | undefined): number | undefined => (by?.tokens && by.digest === s.digest ? by.tokens.perTurn : undefined);
  const changed = i.base !== undefined && i.base.digest !== i.head.digest;
  let cost: CountedTokens | undefined;
  let perTurn = pinnedFor(i.head, i.contract) ?? pinnedFor(i.head, i.base);
  if (i.countHead || changed) {
    cost = tokenCost(i.head.tools, await load());
    perTurn = cost.perTurn;
  }
  if (perTurn === undefined) return {};
  const facts: TokenFacts = { perTurn, ...(cost ? { top: mostExpensive(cost) } : {}) };
  if (changed && i.base) facts.base = pinnedFor(i.base, i.base) ?? (i.base.tools.length === 0 ? 0 : tokenCost(i.base.tools, await load()).perTurn);
  return { facts, ...(cost ? { cost } : {}) };
}
