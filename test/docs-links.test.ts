/**
 * The README stays a newcomer's page and every link between it and the reference pages in docs/
 * resolves: each relative link names a file of the repository, and each `#anchor` a heading of
 * the page it points at (slugged as GitHub does, by github-slugger) or an `<a id>` in it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import GithubSlugger from 'github-slugger';
import { marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { REPO } from './support/run-dist.js';

const PAGES = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (p: string) => readFileSync(join(REPO, p), 'utf8');

/** Every token of a Markdown text, nested ones (links inside lists, tables, emphasis) included. */
function tokens(markdown: string): Token[] {
  const out: Token[] = [];
  marked.walkTokens(marked.lexer(markdown), (t) => {
    out.push(t);
  });
  return out;
}

/** The anchors a page offers: GitHub's slug of each heading, and every `<a id>` / `<a name>`. */
function anchors(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const out = new Set<string>();
  for (const t of tokens(markdown)) if (t.type === 'heading') out.add(slugger.slug((t as Tokens.Heading).text));
  for (const m of markdown.matchAll(/<a (?:id|name)="([^"]+)"/g)) out.add(m[1]!);
  return out;
}

/** The relative links of a page (external URLs left out), as written. */
function relativeLinks(markdown: string): string[] {
  return tokens(markdown)
    .filter((t): t is Tokens.Link => t.type === 'link')
    .map((t) => t.href)
    .filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href));
}

describe('README.md and docs/*.md', () => {
  it('every relative link names a file of the repository, and every #anchor a heading or <a id> of its page', () => {
    let checked = 0;
    const offered = new Map<string, Set<string>>();
    for (const page of PAGES) {
      for (const href of relativeLinks(read(page))) {
        const [path = '', anchor] = decodeURI(href).split('#');
        const target = path === '' ? page : normalize(join(dirname(page), path));
        expect(relative(REPO, join(REPO, target)).startsWith('..'), `${page}: ${href} leaves the repository`).toBe(false);
        expect(existsSync(join(REPO, target)), `${page}: ${href} names no file`).toBe(true);
        if (anchor !== undefined && target.endsWith('.md')) {
          if (!offered.has(target)) offered.set(target, anchors(read(target)));
          expect([...offered.get(target)!], `${page}: ${href} names no heading of ${target}`).toContain(anchor);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("the anchors are GitHub's: a heading with code, parentheses and a colon", () => {
    expect([...anchors('# Policy file (`toolgate.yml`)\n\n## Runtime gate: `toolgate proxy`\n\n## A\n\n## A\n')]).toEqual([
      'policy-file-toolgateyml',
      'runtime-gate-toolgate-proxy',
      'a',
      'a-1',
    ]);
  });

  it('the README is at most 350 lines and links every page of docs/', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(350);
    const linked = new Set(relativeLinks(readme).map((href) => href.split('#')[0]));
    for (const page of PAGES.filter((p) => p !== 'README.md')) expect(linked, page).toContain(page);
  });

  it('each page of docs/ starts with its title, and its first paragraph links back to the README', () => {
    // docs/rules.md is generated from the catalog, which `toolgate rules` prints too.
    for (const page of PAGES.filter((p) => p !== 'README.md' && p !== 'docs/rules.md')) {
      const [title, intro] = read(page).split('\n\n');
      expect(title, page).toMatch(/^# \S[^\n]*$/);
      expect(intro, page).toContain('](../README.md)');
    }
  });
});
