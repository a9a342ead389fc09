/** Generated docs are fresh, design citations resolve, and action.yml is what GitHub runs. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { actionReference, replaceBetweenMarkers } from '../scripts/docs-lib.js';
import { exportTargetsMarkdown } from '../scripts/export-table.js';
import { rulesMarkdown } from '../src/report/rules.js';
import { designAnchor, designSections, linkDesignCitations } from '../src/report/design-links.js';
import { buildSarifLog } from '../src/report/sarif.js';
import { RULES } from '../src/rules/catalog.js';
import { REPO } from './support/run-dist.js';

const read = (p: string) => readFileSync(join(REPO, p), 'utf8');

describe('generated docs', () => {
  it('the inputs/outputs of docs/action.md match action.yml (run `npm run docs` when this fails)', () => {
    const page = read('docs/action.md');
    expect(replaceBetweenMarkers(page, 'action-reference', actionReference(read('action.yml')))).toBe(page);
  });

  it('the table of export targets in docs/exports.md matches the targets (run `npm run docs` when this fails)', () => {
    const page = read('docs/exports.md');
    expect(replaceBetweenMarkers(page, 'export-targets', exportTargetsMarkdown(), 'src/export/targets')).toBe(page);
  });

  it('docs/rules.md matches the catalog (run `npm run docs` when this fails)', () => {
    expect(read('docs/rules.md')).toBe(rulesMarkdown());
  });
});

describe('action.yml', () => {
  const action = parse(read('action.yml')) as {
    runs: { using: string; main: string };
    inputs: Record<string, { description: string }>;
    outputs: Record<string, unknown>;
  };

  it('runs dist/index.js on node24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
  });

  it('documents every input the code reads and every output it sets', () => {
    const code = read('src/action/inputs.ts') + read('src/action/main.ts') + read('src/action/check.ts') + read('src/action/outputs.ts');
    // inputs.ts reads each input as `input('name')` or `bool(input, 'name', …)`.
    const read_ = [...code.matchAll(/\binput\('([a-z-]+)'/g)].map((m) => m[1]);
    const bool = [...code.matchAll(/bool\(input, '([a-z-]+)'/g)].map((m) => m[1]);
    expect(read_.length, 'the inputs the code reads are found').toBeGreaterThanOrEqual(12);
    expect(bool.sort()).toEqual(['check-run', 'comment']);
    for (const name of [...read_, ...bool]) expect(Object.keys(action.inputs), name).toContain(name);
    const set = [...code.matchAll(/setOutput\('([a-z-]+)'/g)].map((m) => m[1]);
    expect(set.sort()).toEqual(Object.keys(action.outputs).sort());
  });

  it('the excerpt of a PR comment in docs/reports.md is real: every line of it is a line of the golden comment', () => {
    const page = read('docs/reports.md');
    const m = /<!-- golden-excerpt:([a-z0-9-]+):start -->\n([\s\S]*?)\n<!-- golden-excerpt:\1:end -->/.exec(page);
    expect(m, 'docs/reports.md has a golden excerpt').not.toBeNull();
    const golden = new Set(read(`test/golden/${m![1]}/comment.md`).split('\n'));
    const lines = m![2]!.split('\n').map((l) => l.replace(/^> ?/, ''));
    expect(lines.filter((l) => l !== '').length).toBeGreaterThan(10);
    for (const line of lines) expect(golden.has(line), line).toBe(true);
  });
});

/** Text files under `dir` (relative to the repository), fixtures and generated bundles left out. */
function textFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const p = join(abs, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'fixtures') walk(p);
      } else if (/\.(?:[cm]?[jt]s|md|json|ya?ml|sarif|txt)$/.test(e.name)) out.push(relative(REPO, p));
    }
  };
  walk(join(REPO, dir));
  return out;
}

describe('docs/design.md citations', () => {
  const design = read('docs/design.md');
  /** Section numbers with a `## N. Title` heading that carries the anchor the links point at. */
  const sections = new Set([...design.matchAll(/^## <a id="section-(\d+)"><\/a>(\d+)\. \S/gm)].filter((m) => m[1] === m[2]).map((m) => Number(m[1])));
  const files = [...['src', 'scripts', 'docs', 'schema', 'test', 'bench'].flatMap(textFiles), 'README.md', 'action.yml'];

  it('numbers its sections 1, 2, 3, … each with its anchor', () => {
    const headings = [...design.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(headings.length).toBeGreaterThan(10);
    expect(sections.size).toBe(headings.length);
    expect([...sections]).toEqual(headings.map((_, i) => i + 1));
  });

  it('every `docs/design.md §N` in the code, docs, schemas, tests and bench names a section that exists', () => {
    let cited = 0;
    for (const file of files) {
      for (const n of designSections(read(file))) {
        cited++;
        expect(sections.has(n), `${file} cites docs/design.md §${n}`).toBe(true);
      }
    }
    expect(cited).toBeGreaterThan(50);
  });

  it('every link into docs/design.md names an anchor that exists', () => {
    for (const file of files) {
      for (const m of read(file).matchAll(/design\.md#([\w-]+)/g)) {
        expect(design.includes(`<a id="${m[1]}"></a>`), `${file} links to design.md#${m[1]}`).toBe(true);
      }
    }
  });

  it('no citation of the old design text remains', () => {
    // Written so that this file does not match itself.
    const old = new RegExp(['DESIGN( §|:)', 'toolgate design ' + '§'].join('|'));
    for (const file of files) expect(old.exec(read(file))?.[0], file).toBeUndefined();
  });

  it('rule sources cite sections as links in docs/rules.md and in the SARIF help, as text in the SARIF help text', () => {
    expect(RULES.filter((r) => designSections(r.source).length > 0).length).toBeGreaterThan(10);
    expect(read('docs/rules.md')).toContain(
      `- **Source:** [docs/design.md §3](design.md#${designAnchor(3)}) (drift), [§6](design.md#${designAnchor(6)}) (folding)`,
    );
    const log = buildSarifLog([], RULES, { version: '0.0.0', informationUri: 'https://github.com/acme/toolgate' });
    const stale = log.runs[0]!.tool.driver.rules!.find((r) => r.id === 'contract-stale')!;
    expect(stale.help!.text).toContain('Source: docs/design.md §3 (drift), §6 (folding)');
    expect(stale.help!.markdown).toContain(
      '[docs/design.md §3](https://github.com/acme/toolgate/blob/main/docs/design.md#section-3) (drift), [§6](https://github.com/acme/toolgate/blob/main/docs/design.md#section-6) (folding)',
    );
  });

  it('linkDesignCitations links each section of a citation and leaves other text alone', () => {
    const href = (n: number) => `#s${n}`;
    expect(linkDesignCitations('RFC 9728 §2; docs/design.md §7 (widening); MCP spec', href)).toBe('RFC 9728 §2; [docs/design.md §7](#s7) (widening); MCP spec');
    expect(linkDesignCitations('docs/design.md §8, §14', href)).toBe('[docs/design.md §8](#s8), [§14](#s14)');
    expect(designSections('see docs/design.md §11, §12 and issue 16 §1')).toEqual([11, 12]);
  });
});
