/**
 * What each tool costs in the model's context on every turn (issue 16 §1): the tokens of what a
 * client sends the model for it (name, title, description, inputSchema, as JSON), counted with
 * OpenAI's `o200k_base` encoding (gpt-tokenizer). Other models' tokenizers differ by roughly
 * 10–20 %. The encoding's tables are 2.4 MB of JavaScript (about 0.6 s to load on this machine),
 * so they are loaded on first use only: nothing pays for them unless a count is needed.
 */
import type { SurfaceTool } from './model.js';

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

let loading: Promise<TokenCounter> | undefined;

/** The o200k_base counter, loaded once. */
export function tokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => (text: string) => m.countTokens(text));
  return loading;
}

/** What a client sends the model for one tool: name, title, description and inputSchema, as JSON. */
export function modelFacingJson(t: Pick<SurfaceTool, 'name' | 'title' | 'description' | 'inputSchema'>): string {
  return JSON.stringify({ name: t.name, ...(t.title !== undefined ? { title: t.title } : {}), ...(t.description !== undefined ? { description: t.description } : {}), inputSchema: t.inputSchema ?? {} });
}

/** Tokens per tool and their total, over the reachable tools (a disabled OpenAPI operation is never sent). */
export interface TokenCost {
  total: number;
  /** By tool name, in surface order. */
  perTool: { name: string; tokens: number }[];
}

/** Counts a surface's tools. */
export function tokenCost(tools: readonly SurfaceTool[], count: TokenCounter): TokenCost {
  const perTool = tools.filter((t) => t.safetyClass !== 'disabled').map((t) => ({ name: t.name, tokens: count(modelFacingJson(t)) }));
  return { total: perTool.reduce((n, t) => n + t.tokens, 0), perTool };
}

/** The `n` most expensive tools, most expensive first (ties by name). */
export function mostExpensive(cost: TokenCost, n = 5): { name: string; tokens: number }[] {
  return [...cost.perTool].sort((a, b) => b.tokens - a.tokens || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, n);
}
