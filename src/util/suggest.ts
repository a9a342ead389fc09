/**
 * "Did you mean" for misspelt keys, rule ids and operationIds: the closest candidate by
 * Levenshtein distance (the `leven` package), accepted only within a small distance so that
 * an unrelated word gets no suggestion.
 */
import { closestMatch } from 'leven';

/**
 * The candidate closest to `input` (case-insensitive), or undefined when none is within 1 edit
 * (inputs of up to 3 characters), 2 (up to 5) or 3 (longer): "sorces"→"sources" (1),
 * "policy"→"policies" (3), "readonlyhint"→"readOnlyHint" (0).
 */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  const byLower = new Map(candidates.map((c) => [c.toLowerCase(), c] as const));
  const maxDistance = input.length <= 3 ? 1 : input.length <= 5 ? 2 : 3;
  const hit = closestMatch(input.toLowerCase(), [...byLower.keys()], { maxDistance });
  return hit === undefined ? undefined : byLower.get(hit);
}

/** `; did you mean "x"?` for messages, or '' when nothing is close. */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const hit = closest(input, candidates);
  return hit === undefined || hit === input ? '' : `; did you mean ${JSON.stringify(hit)}?`;
}
