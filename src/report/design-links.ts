/**
 * Citations of the design document, `docs/design.md`, as the rule catalog's `source` texts and
 * code comments write them: `docs/design.md §7`, or several sections with optional notes,
 * `docs/design.md §3 (drift), §6 (folding)`. Markdown renderers (docs/rules.md, SARIF help) link
 * each section to its anchor in the document, `<a id="section-N">` in its heading; plain text
 * keeps the citation as written. test/docs.test.ts checks that every cited section exists.
 * Pure.
 */

/** One citation: the path, then `§N` with an optional `(note)`, repeated after `, `. */
const CITATION = /docs\/design\.md §\d+(?: \([^()§\n]*\))?(?:, §\d+(?: \([^()§\n]*\))?)*/g;

/** The anchor of section `n` in docs/design.md. */
export function designAnchor(n: number): string {
  return `section-${n}`;
}

/** Every section number cited in `text`, in order, repeats included. @internal for test/docs.test.ts */
export function designSections(text: string): number[] {
  return [...text.matchAll(CITATION)].flatMap((m) => [...m[0].matchAll(/§(\d+)/g)].map((s) => Number(s[1])));
}

/**
 * `text` with each cited section as a Markdown link: `[docs/design.md §3](HREF) (drift), [§6](HREF)
 * (folding)`, where `href(n)` is the URL of section `n` (relative in docs/, absolute in SARIF).
 */
export function linkDesignCitations(text: string, href: (section: number) => string): string {
  return text.replace(CITATION, (citation) => citation.replace(/(?:docs\/design\.md )?§(\d+)/g, (cited, n: string) => `[${cited}](${href(Number(n))})`));
}
