// No history in code and docs: `node scripts/no-history.mjs [path...]`. Lists every line of
// src/ (.ts), docs/ (.md) and README.md that cites the project's tracker ("issue 16", "#12",
// "round 3") or a review session ("attacker review"): the commit log keeps where a change came
// from, and a comment or a document says what holds and why in the present tense. Exits 1 when
// one is found. `#` followed by digits is a tracker number only as a word of prose: an HTML
// entity (`&#8203;`), another repository's reference (`github/markup#1168`), a URL fragment and
// text inside a `code span` are not. `npm run lint` runs it; test/no-history.test.ts tests it.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What is checked by default: folders (with the file endings read there) and files. */
const DEFAULT_PATHS = ['src', 'docs', 'README.md'];
const ENDINGS = ['.ts', '.md'];

/** Files allowed to cite the tracker, each with its reason (none: every file says why without it). */
export const ALLOWED = new Map();

/** The patterns, each with what it names. */
const PATTERNS = [
  [/\b(?:project\s+)?issues?\s+#?\d+/i, 'a tracker issue'],
  [/\bround\s+\d+\b/i, 'a review round'],
  [/\b(?:attacker|attack)\s+review\b/i, 'a review session'],
  [/(?<![&\w/.-])(?<!(?:Report|Standard|Annex)\s)#\d+\b/, 'a tracker number'],
];

/** The line with its code spans (`...`) and URLs blanked, so that only prose is matched. */
function proseOf(line) {
  return line.replace(/`[^`]*`/g, '``').replace(/\bhttps?:\/\/\S+/g, '');
}

/** Every tracker citation in one file's text: `{ line, what, text }`, `line` 1-based. */
export function historyIn(text) {
  const out = [];
  text.split('\n').forEach((raw, i) => {
    const prose = proseOf(raw);
    for (const [re, what] of PATTERNS) {
      if (re.test(prose)) {
        out.push({ line: i + 1, what, text: raw.trim() });
        break;
      }
    }
  });
  return out;
}

/** Every file under the given paths (relative to the repository) that this check reads. */
function filesUnder(path) {
  const abs = join(ROOT, path);
  if (!statSync(abs).isDirectory()) return [path];
  return readdirSync(abs, { recursive: true })
    .map(String)
    .filter((f) => ENDINGS.some((e) => f.endsWith(e)))
    .map((f) => relative(ROOT, join(abs, f)));
}

/** Every tracker citation under the given paths, with its file, leaving out {@link ALLOWED}. */
export function historyUnder(paths = DEFAULT_PATHS) {
  return paths
    .flatMap(filesUnder)
    .filter((f) => !ALLOWED.has(f))
    .sort()
    .flatMap((file) => historyIn(readFileSync(join(ROOT, file), 'utf8')).map((h) => ({ file, ...h })));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const found = historyUnder(args.length > 0 ? args : DEFAULT_PATHS);
  for (const h of found) console.error(`${h.file}:${h.line}: ${h.what}: ${h.text.slice(0, 160)}`);
  if (found.length > 0) {
    console.error(
      `\n${found.length} line(s) cite the tracker or a review session. Say what holds and why, in the present tense; the commit log keeps the history.`,
    );
    process.exit(1);
  }
}
