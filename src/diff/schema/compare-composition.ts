/**
 * Compares the composition keywords: `allOf`, `anyOf` and `oneOf` member by member where they
 * pair up (the rest is json-schema-diff's, see classify.ts), `not` with its polarity turned
 * around, and `then`/`else` under an unchanged `if`.
 *
 * @module
 */
import type { Json, JsonObject } from '../../util/json.js';
import { jsonEqual } from '../../util/json.js';
import { emit, undecided, type CompareNode, type CompareResult, type Polarity } from './compare-deltas.js';

/**
 * allOf/anyOf/oneOf: identical members are matched first; when the remaining members are equally
 * many on both sides they are paired in order and compared keyword by keyword (each keyword is
 * monotone: a looser member makes allOf/anyOf looser; for oneOf this assumes disjoint branches).
 * Added or removed members are a set question (is the new branch already covered?) left to
 * json-schema-diff.
 */
export function compareComposition(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult, node: CompareNode): void {
  for (const kw of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (jsonEqual(a[kw], b[kw])) continue;
    const ma = Array.isArray(a[kw]) ? a[kw] : [];
    const mb = Array.isArray(b[kw]) ? b[kw] : [];
    const restA = ma.map((s, i) => ({ s, i }));
    const restB = mb.map((s, i) => ({ s, i }));
    for (let i = restA.length - 1; i >= 0; i--) {
      const j = restB.findIndex((x) => jsonEqual(x.s, (restA[i] as { s: Json }).s));
      if (j >= 0) {
        restA.splice(i, 1);
        restB.splice(j, 1);
      }
    }
    if (kw === 'allOf') {
      // allOf is a conjunction: an extra member is a constraint added (or removed) next to `true`.
      const n = Math.max(restA.length, restB.length);
      for (let k = 0; k < n; k++) {
        const x = restA[k];
        const y = restB[k];
        node(x?.s ?? true, y?.s ?? true, `${path}/allOf/${y?.i ?? x?.i ?? k}`, pol, out);
      }
    } else if (kw === 'anyOf' && restA.length === restB.length && restA.length > 0) {
      restA.forEach((x, k) => {
        const y = restB[k] as { s: Json; i: number };
        node(x.s, y.s, `${path}/${kw}/${y.i}`, pol, out);
      });
    } else {
      // oneOf: a branch that narrows can widen the whole (a value matching two branches was
      // rejected), so oneOf, like added or removed members, is a set question for json-schema-diff.
      undecided(out, path, `"${kw}" members changed at ${path || '/'} (${ma.length} → ${mb.length})`, true, a, b);
    }
  }
  if (!jsonEqual(a.not, b.not)) {
    if (a.not === undefined) emit(out, `${path}/not`, 'narrowed', pol, '"not" added: values matching it are now rejected');
    else if (b.not === undefined) emit(out, `${path}/not`, 'widened', pol, '"not" removed: values matching it are accepted again');
    else node(a.not, b.not, `${path}/not`, pol === 1 ? -1 : 1, out);
  }
  if (!jsonEqual(a.if, b.if)) {
    if (a.if !== undefined || b.if !== undefined) {
      undecided(out, path, `"if" changed at ${path || '/'}; conditional schemas are not compared`, false, a, b);
    }
  } else if (a.if !== undefined) {
    node(a.then ?? true, b.then ?? true, `${path}/then`, pol, out);
    node(a.else ?? true, b.else ?? true, `${path}/else`, pol, out);
  }
}
