// Function lengths: `node scripts/function-lengths.mjs [--max N] [--all] [dir...]`.
// Lists every function, method, accessor, constructor, arrow function and function expression
// in src/ (or the given folders) longer than --max lines (80), counted from the line its
// declaration starts on (after its TSDoc) to the line of its closing brace. Exits 1 when one is
// over and the line just above it is not a one-line `// long: <reason>` comment, so a function
// that reads better long (a table, a big switch) says why where it stands. --all also lists the
// ones that carry such a comment. .ci/run runs it; test/function-lengths.test.ts tests it.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/** The repository root. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The longest a function may be without a `// long:` comment. */
export const MAX_LINES = 80;

const LONG_COMMENT = /^\s*\/\/\s*long:\s*\S/;

/** The node kinds that count as a function, with the word a report names them by. */
const KINDS = new Map([
  [ts.SyntaxKind.FunctionDeclaration, 'function'],
  [ts.SyntaxKind.FunctionExpression, 'function expression'],
  [ts.SyntaxKind.ArrowFunction, 'arrow function'],
  [ts.SyntaxKind.MethodDeclaration, 'method'],
  [ts.SyntaxKind.Constructor, 'constructor'],
  [ts.SyntaxKind.GetAccessor, 'getter'],
  [ts.SyntaxKind.SetAccessor, 'setter'],
]);

/** A name for a function node: its own, else the variable, property or argument that holds it. */
function nameOf(node) {
  if (node.kind === ts.SyntaxKind.Constructor) return 'constructor';
  if (node.name) return node.name.getText();
  const p = node.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name) return p.name.getText();
  if (p && ts.isCallExpression(p)) return `(argument of ${p.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/**
 * Every function in one file's text longer than `max` lines: `{ name, kind, line, lines,
 * reason }`, where `line` is 1-based and `reason` is the text of the `// long:` comment on the
 * line above, or undefined.
 */
export function longFunctionsIn(fileName, text, max = MAX_LINES) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const sourceLines = text.split('\n');
  const out = [];
  const visit = (node) => {
    const kind = KINDS.get(node.kind);
    // Overload signatures and abstract methods have no body: nothing to count.
    if (kind && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) {
        const above = sourceLines[first - 1] ?? '';
        const reason = LONG_COMMENT.test(above) ? above.replace(/^\s*\/\/\s*long:\s*/, '').trim() : undefined;
        out.push({ name: nameOf(node), kind, line: first + 1, lines, reason });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The .ts files under `dir`, sorted, without declaration files. */
function tsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Every function over `max` lines in the .ts files under the given folders, with its file. */
export function longFunctions(dirs, max = MAX_LINES) {
  return dirs.flatMap((dir) =>
    tsFiles(dir).flatMap((file) => longFunctionsIn(file, readFileSync(file, 'utf8'), max).map((f) => ({ file: relative(ROOT, file), ...f }))),
  );
}

function main(argv) {
  let max = MAX_LINES;
  let all = false;
  const dirs = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--max') max = Number(argv[++i]);
    else if (argv[i] === '--all') all = true;
    else dirs.push(argv[i]);
  }
  if (!Number.isInteger(max) || max < 1) {
    console.error('function-lengths: --max takes a whole number of lines');
    return 2;
  }
  const found = longFunctions(dirs.length ? dirs : [join(ROOT, 'src')], max);
  const over = found.filter((f) => f.reason === undefined);
  for (const f of all ? found : over) {
    const why = f.reason === undefined ? '' : ` (long: ${f.reason})`;
    console.log(`${f.file}:${f.line}: ${f.kind} ${f.name} has ${f.lines} lines${why}`);
  }
  if (over.length) {
    console.error(
      `function-lengths: ${over.length} function(s) over ${max} lines. Split them, or, where one reads better long, ` +
        'put a one-line `// long: <reason>` comment on the line above it.',
    );
    return 1;
  }
  console.log(`function-lengths: no function over ${max} lines${found.length ? ` (${found.length} long with a reason)` : ''}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv.slice(2));
