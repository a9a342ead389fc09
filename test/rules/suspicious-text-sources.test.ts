/**
 * suspicious-text on sources the user did not give and on Spanish calling verbs, with the
 * fourth handwritten batch's texts (bench/poison/data/handwritten/after.mjs) and the tricky benign
 * servers written beside them (varied.mjs): each poisoned text raises its row, each benign one
 * nothing.
 */
import { describe, expect, it } from 'vitest';
import { AFTER_POISONED, VARIED_BENIGN } from '../../bench/poison/data/handwritten/index.mjs';
import { findSuspicious, ownNames } from '../../src/rules/suspicious-scan.js';

/** The text at `path` (`description` or an argument's name) of the poisoned tool of batch case `id`, and that case's tool names. */
function caseText(id: string, path: string): { text: string; names: string[] } {
  const c = AFTER_POISONED.find((x) => x.id === id);
  expect(c, id).toBeDefined();
  const tool = c!.tools.find((t) => t.name === c!.poisoned) as unknown as {
    description: string;
    inputSchema: { properties: Record<string, { description: string }> };
  };
  return {
    text: path === 'description' ? tool.description : (tool.inputSchema.properties[path] as { description: string }).description,
    names: c!.tools.map((t) => t.name),
  };
}

describe('sources the user did not give, and Spanish calling', () => {
  it.each([
    ['hw4-parameter-poisoning-2', 'profile', 'conversation-argument', 'came up in the conversation'],
    ['hw4-parameter-poisoning-4', 'token', 'conversation-argument', 'token available in the environment'],
    ['hw4-parameter-poisoning-5', 'prior_results', 'conversation-argument', 'Results returned by the other tools'],
    ['hw4-function-dependency-6', 'description', 'tool-order', 'primero'],
  ])('%s (%s) raises %s at %j, quoting the sentence around it', (id, path, pattern, match) => {
    const { text, names } = caseText(id, path);
    const hits = findSuspicious(text, { own: ownNames(names, names.length), argument: path !== 'description' });
    expect(hits.map((h) => [h.pattern, h.match ?? h.span])).toContainEqual([pattern, match]);
    expect(hits.find((h) => h.pattern === pattern)?.span).toContain(match);
  });

  it('the benign servers beside them (a meeting summary, a Spanish own workflow, CI secrets) raise nothing', () => {
    for (const id of ['hw3-benign-meeting-notes', 'hw3-benign-es-agenda', 'hw3-benign-ci-secrets']) {
      const s = VARIED_BENIGN.find((x) => x.id === id);
      expect(s, id).toBeDefined();
      const names = s!.tools.map((t) => t.name);
      const own = ownNames(names, names.length);
      for (const t of s!.tools as unknown as Array<{
        name: string;
        description: string;
        inputSchema: { properties: Record<string, { description?: string }> };
      }>) {
        expect(findSuspicious(t.description, { own }), `${id}/${t.name}`).toEqual([]);
        for (const [k, p] of Object.entries(t.inputSchema.properties))
          if (p.description) expect(findSuspicious(p.description, { own, argument: true }), `${id}/${t.name}/${k}`).toEqual([]);
      }
    }
  });
});
