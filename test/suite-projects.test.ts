/**
 * The full suite's projects (vitest.config.ts): a file that changes the process it runs in is
 * isolated, since the other projects run many files in one worker and would carry the change into
 * the files after it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAST_FILES } from '../vitest.fast.config.js';
import { ISOLATED_FILES } from './support/isolated-files.js';
import { REPO } from './support/run-dist.js';

/**
 * What makes a file change its worker: vi's module and global stubs, process state; an env stub or
 * a spy counts unless the file also takes them all back (`vi.unstubAllEnvs()`,
 * `vi.restoreAllMocks()`, in its afterEach or afterAll). The sandbox switches of
 * test/support/sandbox-mode.ts take their setting back (after the test, after the file).
 */
const CHANGES_THE_PROCESS: [what: string, pattern: RegExp, undoneBy?: RegExp][] = [
  ['mocks modules or stubs globals or timers with vi', /\bvi\.(mock|doMock|stubGlobal|useFakeTimers)\(/],
  ['stubs process.env with vi and never calls vi.unstubAllEnvs()', /\bvi\.stubEnv\(/, /\bvi\.unstubAllEnvs\(\)/],
  ['spies with vi and never calls vi.restoreAllMocks()', /\bvi\.spyOn\(/, /\bvi\.restoreAllMocks\(\)/],
  ['writes process.env', /process\.env(\.\w+|\[[^\]]+\])\s*=(?!=)|delete process\.env|Object\.assign\(process\.env/],
  ['installs process handlers or moves the working directory', /process\.(on|once|chdir)\(/],
];

/** Why `text` changes the process it runs in (empty when it does not). */
const changes = (text: string): string[] =>
  CHANGES_THE_PROCESS.filter(([, pattern, undoneBy]) => pattern.test(text) && !undoneBy?.test(text)).map(([what]) => what);

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : testFiles(path);
    return e.name.endsWith('.test.ts') ? [relative(REPO, path)] : [];
  });
}

describe('test projects', () => {
  const files = testFiles(join(REPO, 'test'));

  it('every file that changes the process it runs in is isolated, and only those', () => {
    const changing = files.map((f) => ({ f, why: changes(readFileSync(join(REPO, f), 'utf8')) })).filter((x) => x.why.length > 0);
    const missing = changing.filter((x) => !ISOLATED_FILES.includes(x.f)).map((x) => `${x.f} (${x.why.join(', ')}): add it to ISOLATED_FILES`);
    expect(missing).toEqual([]);
    const needless = ISOLATED_FILES.filter((f) => !changing.some((x) => x.f === f));
    expect(needless, 'isolated without a reason: it can share a worker').toEqual([]);
  });

  it('the lists name existing files, and no file is both a unit and isolated', () => {
    expect([...FAST_FILES, ...ISOLATED_FILES].filter((f) => !existsSync(join(REPO, f)))).toEqual([]);
    expect(FAST_FILES.filter((f) => ISOLATED_FILES.includes(f))).toEqual([]);
  });
});
