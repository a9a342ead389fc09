/**
 * Every rule id is raised through the registry (docs/design.md §5), read from the code with the
 * TypeScript parser:
 * - a rule is raised where a `ruleId:` property or a `ConfigError` names it with a literal; each
 *   such place is in the module `RAISED` (src/rules/catalog.ts) names for the rule, and nowhere
 *   else: run-check.ts, the export verifier and the sources build no findings of their own;
 * - every place in src/rules/checks/ that raises a rule is reached from a check registered in
 *   src/rules/index.ts, in the list of the rule's stage (SOURCE_CHECKS: source; CHECKS: surface or
 *   change; ACROSS_SOURCES: surface; POLICY_CHECKS: policy; EXPORT_CHECKS: export);
 * - only the configuration errors of an OpenAPI integration config are raised outside
 *   src/rules/, by its loader in src/sources/ (thrown as a `ConfigError`, which stops the run).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { RAISED, RULES, isRuleId, ruleById, type Stage } from '../../src/rules/catalog.js';
import { ROOT } from '../support/mcp-fixtures.js';

const SRC = join(ROOT, 'src');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
const parse = (file: string) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
const rel = (file: string) => relative(ROOT, file).split('\\').join('/');

interface Site {
  file: string;
  line: number;
  id: string;
  /** A `ruleId:` property (a raw finding, or a loader's schema problem), or a `new ConfigError(…)` argument. */
  how: 'property' | 'config-error';
  /** The top-level declaration the site is in. */
  decl?: string;
}

/** The rule ids a node names with string literals (both branches of `a ? 'x' : 'y'`). */
function literalIds(node: ts.Node): string[] {
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isStringLiteralLike(n) && isRuleId(n.text)) out.push(n.text);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

/** The name of the top-level declaration (function, const) that holds `node`. */
function topLevel(node: ts.Node): string | undefined {
  let n: ts.Node = node;
  while (n.parent && !ts.isSourceFile(n.parent)) n = n.parent;
  if (ts.isFunctionDeclaration(n)) return n.name?.text;
  if (ts.isVariableStatement(n)) {
    const d = n.declarationList.declarations[0];
    return d && ts.isIdentifier(d.name) ? d.name.text : undefined;
  }
  return undefined;
}

/** Every place in src/ that raises a rule: a `ruleId:` property or a `new ConfigError(…)` naming one. */
function raiseSites(): Site[] {
  const out: Site[] = [];
  for (const file of files(SRC)) {
    const sf = parse(file);
    const at = (n: ts.Node, id: string, how: Site['how']) =>
      out.push({ file: rel(file), line: sf.getLineAndCharacterOfPosition(n.getStart()).line + 1, id, how, ...(topLevel(n) ? { decl: topLevel(n) } : {}) });
    const visit = (n: ts.Node) => {
      if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && n.name.text === 'ruleId') for (const id of literalIds(n.initializer)) at(n, id, 'property');
      if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'ConfigError')
        for (const arg of n.arguments ?? []) if (ts.isStringLiteralLike(arg) && isRuleId(arg.text)) at(n, arg.text, 'config-error');
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

/** Top-level declarations of a module, and the names of the module's other top-level declarations each refers to. */
function declarations(file: string): Map<string, Set<string>> {
  const sf = parse(join(ROOT, file));
  const nodes = new Map<string, ts.Node>();
  for (const st of sf.statements) {
    if (ts.isFunctionDeclaration(st) && st.name) nodes.set(st.name.text, st);
    if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) nodes.set(d.name.text, d);
  }
  const refs = new Map<string, Set<string>>();
  for (const [name, node] of nodes) {
    const used = new Set<string>();
    const visit = (n: ts.Node) => {
      if (ts.isIdentifier(n) && nodes.has(n.text) && n.text !== name) used.add(n.text);
      ts.forEachChild(n, visit);
    };
    visit(node);
    refs.set(name, used);
  }
  return refs;
}

/** The registry's lists (src/rules/index.ts): each registered check as `module#name`, with its list's stages. */
function registry(): { check: string; stages: Stage[] }[] {
  const file = join(SRC, 'rules/index.ts');
  const sf = parse(file);
  const from = new Map<string, string>();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !st.importClause?.namedBindings || !ts.isNamedImports(st.importClause.namedBindings)) continue;
    const spec = (st.moduleSpecifier as ts.StringLiteral).text;
    if (!spec.startsWith('./checks/')) continue;
    for (const el of st.importClause.namedBindings.elements) from.set(el.name.text, `src/rules/${spec.slice(2).replace(/\.js$/, '.ts')}`);
  }
  const STAGES: Record<string, Stage[]> = {
    SOURCE_CHECKS: ['source'],
    CHECKS: ['surface', 'change'],
    ACROSS_SOURCES: ['surface'],
    POLICY_CHECKS: ['policy'],
    EXPORT_CHECKS: ['export'],
  };
  const out: { check: string; stages: Stage[] }[] = [];
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      const list = ts.isIdentifier(d.name) ? STAGES[d.name.text] : undefined;
      if (!list || !d.initializer || !ts.isArrayLiteralExpression(d.initializer)) continue;
      for (const el of d.initializer.elements) {
        expect(ts.isIdentifier(el) && from.has(el.text), `${el.getText(sf)} in src/rules/index.ts is imported from src/rules/checks/`).toBe(true);
        out.push({ check: `${from.get((el as ts.Identifier).text)}#${(el as ts.Identifier).text}`, stages: list });
      }
    }
  }
  return out;
}

/** `module#name` of every declaration a registered check reaches in its module, with the stages it is registered for. */
function reached(): Map<string, Set<Stage>> {
  const out = new Map<string, Set<Stage>>();
  const graphs = new Map<string, Map<string, Set<string>>>();
  for (const { check, stages } of registry()) {
    const [file, name] = check.split('#') as [string, string];
    const graph = graphs.get(file) ?? declarations(file);
    graphs.set(file, graph);
    const todo = [name];
    while (todo.length > 0) {
      const n = todo.pop()!;
      const key = `${file}#${n}`;
      const seen = out.get(key);
      if (seen && stages.every((s) => seen.has(s))) continue;
      out.set(key, new Set([...(seen ?? []), ...stages]));
      todo.push(...(graph.get(n) ?? []));
    }
  }
  return out;
}

const SITES = raiseSites();
const REACHED = reached();

describe('every rule id is raised through the registry', () => {
  it('finds the places that raise rules (the scan works)', () => {
    expect(SITES.length).toBeGreaterThan(RULES.length);
    expect(SITES.some((s) => s.id === 'tool-added' && s.file === 'src/rules/checks/additions.ts')).toBe(true);
    expect(SITES.some((s) => s.id === 'unknown-operation' && s.how === 'config-error')).toBe(true);
  });

  it('raises each rule only in the module RAISED names for it (src/rules/catalog.ts)', () => {
    const elsewhere = SITES.filter((s) => RAISED[s.id as keyof typeof RAISED].module !== s.file);
    expect(
      elsewhere,
      elsewhere
        .map(
          (s) =>
            `${s.file}:${s.line} raises "${s.id}", which RAISED says is raised by ${RAISED[s.id as keyof typeof RAISED].module}: ` +
            'raise it in a check in src/rules/checks/ registered in src/rules/index.ts, and pass the check the facts it needs',
        )
        .join('\n'),
    ).toEqual([]);
  });

  it.each(RULES.map((r) => [r.id] as const))('%s is raised in its module, through the registry in its stage', (id) => {
    const { module, stage } = RAISED[id];
    const sites = SITES.filter((s) => s.id === id);
    expect(sites.length, `${id}: nothing in ${module} raises it`).toBeGreaterThan(0);
    if (ruleById(id)?.configError) {
      // Thrown while the source loads (a ConfigError, or a schema problem that becomes one), never a finding.
      expect(module.startsWith('src/sources/'), `${id} is a configuration error, raised by a source's loader`).toBe(true);
      return;
    }
    expect(module.startsWith('src/rules/checks/'), `${id}: ${module} is not a check module`).toBe(true);
    for (const s of sites) {
      expect(s.how, `${s.file}:${s.line}`).toBe('property');
      const stages = REACHED.get(`${s.file}#${s.decl}`);
      expect(stages, `${s.file}:${s.line} (${s.decl}) raises ${id} but no check registered in src/rules/index.ts reaches it`).toBeDefined();
      expect([...stages!], `${s.file}:${s.line}: ${id} is a ${stage} rule`).toContain(stage);
    }
  });

  it('run-check.ts and the export verifier build no findings of their own', () => {
    for (const file of ['src/run-check.ts', 'src/export/verify.ts']) expect(SITES.filter((s) => s.file === file)).toEqual([]);
  });
});
