/** Generated docs are fresh and action.yml is what GitHub runs. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { actionReference, replaceBetweenMarkers } from '../scripts/docs-lib.js';
import { rulesMarkdown } from '../src/report/rules.js';
import { REPO } from './support/run-dist.js';

const read = (p: string) => readFileSync(join(REPO, p), 'utf8');

describe('generated docs', () => {
  it('README inputs/outputs match action.yml (run `npm run docs` when this fails)', () => {
    const readme = read('README.md');
    expect(replaceBetweenMarkers(readme, 'action-reference', actionReference(read('action.yml')))).toBe(readme);
  });

  it('docs/rules.md matches the catalog (run `npm run docs` when this fails)', () => {
    expect(read('docs/rules.md')).toBe(rulesMarkdown());
  });
});

describe('action.yml', () => {
  const action = parse(read('action.yml')) as { runs: { using: string; main: string }; inputs: Record<string, { description: string }>; outputs: Record<string, unknown> };

  it('runs dist/index.js on node24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
  });

  it('documents every input the code reads and every output it sets', () => {
    const code = read('src/config/inputs.ts') + read('src/main.ts') + read('src/action-check.ts') + read('src/action-outputs.ts');
    const read_ = [...code.matchAll(/getInput\('([a-z-]+)'/g)].map((m) => m[1]);
    const bool = [...code.matchAll(/bool\('([a-z-]+)'/g)].map((m) => m[1]);
    for (const name of [...read_, ...bool]) expect(Object.keys(action.inputs), name).toContain(name);
    const set = [...code.matchAll(/setOutput\('([a-z-]+)'/g)].map((m) => m[1]);
    expect(set.sort()).toEqual(Object.keys(action.outputs).sort());
  });

  it('the README excerpt of a PR comment is real: every line of it is a line of the golden comment', () => {
    const readme = read('README.md');
    const m = /<!-- golden-excerpt:([a-z0-9-]+):start -->\n([\s\S]*?)\n<!-- golden-excerpt:\1:end -->/.exec(readme);
    expect(m, 'README has a golden excerpt').not.toBeNull();
    const golden = new Set(read(`test/golden/${m![1]}/comment.md`).split('\n'));
    const lines = m![2]!.split('\n').map((l) => l.replace(/^> ?/, ''));
    expect(lines.filter((l) => l !== '').length).toBeGreaterThan(10);
    for (const line of lines) expect(golden.has(line), line).toBe(true);
  });
});
