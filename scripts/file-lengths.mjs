// File lengths: `node scripts/file-lengths.mjs [--max N] [dir...]`. Lists every .ts file in src/
// (or the given folders) longer than --max lines (600): a file that long does several jobs, and
// each job reads better in a file of its own whose header says which. Exits 1 when one is over and
// not on ALLOWED, which names each file still waiting for its split and why it waits. `npm run
// lint` runs it; test/file-lengths.test.ts tests it.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The longest a file of src/ may be. */
export const MAX_FILE_LINES = 600;

/**
 * Files allowed over the limit, each with the reason: none. An entry names a file waiting for its
 * split and why it waits; a file on this list that is no longer over the limit fails the check
 * too, so the list stays true.
 */
export const ALLOWED = new Map([]);

/** Lines of a text: a final newline ends the last line rather than starting another. */
export function lineCount(text) {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Every .ts file under the given folders (relative to the repository), with its line count. */
export function fileLengths(dirs = ['src']) {
  return dirs
    .flatMap((d) =>
      readdirSync(join(ROOT, d), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => relative(ROOT, join(ROOT, d, f))),
    )
    .sort()
    .map((file) => ({ file, lines: lineCount(readFileSync(join(ROOT, file), 'utf8')) }));
}

/** What fails: files over `max` not on {@link ALLOWED}, and entries of it that are not over. */
export function fileLengthProblems(lengths, max = MAX_FILE_LINES, allowed = ALLOWED) {
  const out = [];
  for (const { file, lines } of lengths) {
    if (lines > max && !allowed.has(file)) out.push(`${file}: ${lines} lines, more than ${max}: split it, one job per file, each with a header saying which`);
  }
  const byFile = new Map(lengths.map((l) => [l.file, l.lines]));
  for (const file of allowed.keys()) {
    const lines = byFile.get(file);
    if (lines !== undefined && lines <= max) out.push(`${file}: ${lines} lines, within ${max}: remove it from ALLOWED in scripts/file-lengths.mjs`);
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--max');
  const max = at >= 0 ? Number(args.splice(at, 2)[1]) : MAX_FILE_LINES;
  const problems = fileLengthProblems(fileLengths(args.length > 0 ? args : ['src']), max);
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
}
