// The import graph of src/, read with the TypeScript parser: every `import`, `import type`,
// `export … from`, `import()` and `import('…').Type`. Checks what ESLint's rules cannot see whole:
// that every file of src/ is in a layer of the table in eslint.config.js (a new directory would
// otherwise be in no zone), that no import reaches a higher layer, and that there is no cycle,
// type-only imports included (import-x/no-cycle skips those). Exit 1 on any problem.
// `--graph` prints the edges between layers with their counts.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { LAYERS } from '../eslint.config.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [relative(ROOT, p).split('\\').join('/')] : [];
  });
}

/** Files of src/ that are code in a form the checks do not read (every extension Node or tsc would load but .ts and .mjs). */
function otherSources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return otherSources(p);
    return /\.(mts|cts|js|cjs|jsx|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [relative(ROOT, p).split('\\').join('/')] : [];
  });
}

/** Imports of one file: `{ to, kind }` with `to` relative to the repository, `kind` value, type or dynamic. */
function importsOf(file) {
  const sf = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const out = [];
  const add = (spec, kind) => {
    if (!spec.startsWith('.')) return;
    let to = resolve(ROOT, dirname(file), spec);
    if (to.endsWith('.js') && !existsSync(to) && existsSync(`${to.slice(0, -3)}.ts`)) to = `${to.slice(0, -3)}.ts`;
    out.push({ to: relative(ROOT, to).split('\\').join('/'), kind });
  };
  const typeOnly = (clause) =>
    clause.isTypeOnly ||
    (!clause.name &&
      clause.namedBindings &&
      ts.isNamedImports(clause.namedBindings) &&
      clause.namedBindings.elements.length > 0 &&
      clause.namedBindings.elements.every((e) => e.isTypeOnly));
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier.text, node.importClause && typeOnly(node.importClause) ? 'type' : 'value');
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) add(node.moduleSpecifier.text, node.isTypeOnly ? 'type' : 'value');
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      add(node.arguments[0].text, 'dynamic');
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      add(node.argument.literal.text, 'type');
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Index in LAYERS of a file: the layer with the longest path that contains it. */
function layerOf(file) {
  let best;
  let length = -1;
  LAYERS.forEach((layer, i) => {
    for (const p of layer.paths) if ((file === p || file.startsWith(`${p}/`)) && p.length > length) [best, length] = [i, p.length];
  });
  return best;
}

const files = sourceFiles(join(ROOT, 'src'));
const graph = new Map(files.map((f) => [f, importsOf(f).filter((e) => e.to.startsWith('src/'))]));
const problems = [];
// Every other check (format, function lengths, knip, ESLint) reads .ts (and this one .mjs): a
// source in another form (.mts, .cts, .js, .tsx) would pass them all unread.
for (const f of otherSources(join(ROOT, 'src'))) problems.push(`${f}: src/ holds TypeScript (.ts) only (and the schema worker's .mjs); rename it to .ts`);
for (const f of files) if (layerOf(f) === undefined) problems.push(`${f}: in no layer of the table in eslint.config.js`);
const between = new Map();
let edges = 0;
for (const [from, imports] of graph) {
  for (const { to, kind } of imports) {
    edges++;
    const [a, b] = [layerOf(from), layerOf(to)];
    if (a === undefined || b === undefined) continue;
    if (b > a) problems.push(`${from} (${LAYERS[a].name}) imports ${to} (${LAYERS[b].name}, higher)${kind === 'value' ? '' : ` [${kind}]`}`);
    if (a !== b) between.set(`${LAYERS[a].name} -> ${LAYERS[b].name}`, (between.get(`${LAYERS[a].name} -> ${LAYERS[b].name}`) ?? 0) + 1);
  }
}

// Cycles: strongly connected components of the file graph (Tarjan), every kind of import.
let index = 0;
const stack = [];
const state = new Map();
const cycles = [];
function connect(v) {
  const s = { index, low: index, onStack: true };
  index++;
  state.set(v, s);
  stack.push(v);
  for (const { to } of graph.get(v) ?? []) {
    if (!graph.has(to)) continue;
    const t = state.get(to);
    if (!t) {
      connect(to);
      s.low = Math.min(s.low, state.get(to).low);
    } else if (t.onStack) s.low = Math.min(s.low, t.index);
  }
  if (s.low === s.index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      state.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).some((e) => e.to === v)) cycles.push(component.sort());
  }
}
for (const f of files) if (!state.has(f)) connect(f);
for (const c of cycles) problems.push(`import cycle: ${c.join(', ')}`);

if (process.argv.includes('--graph')) for (const [k, n] of [...between].sort()) console.log(`${k}: ${n}`);
if (problems.length > 0) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
console.log(`import layers: ${files.length} files of src/ in ${LAYERS.length} layers, ${edges} imports; none reaches a higher layer, no cycle`);
