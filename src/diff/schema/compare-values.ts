/**
 * Compares the keywords of strings and numbers: `format`, `pattern`, the numeric bounds and
 * `multipleOf`, and the lower and upper bounds that lengths and the counts of arrays and objects
 * share. Each is one constraint: loosening it widens, tightening it narrows.
 *
 * @module
 */
import type { Json, JsonObject } from '../../util/json.js';
import { jsonEqual } from '../../util/json.js';
import { emit, show, undecided, type CompareResult, type Polarity } from './compare-deltas.js';

/**
 * Standard formats whose accepted strings include those of another format
 * (`uri` ⊂ `iri` ⊂ `iri-reference`, ...). Formats are treated as assertions, as validators with
 * format checking on (ajv-formats, most MCP clients) do.
 */
const FORMAT_SUPERSETS: Readonly<Record<string, readonly string[]>> = {
  uri: ['uri-reference', 'iri', 'iri-reference'],
  'uri-reference': ['iri-reference'],
  iri: ['iri-reference'],
  email: ['idn-email'],
  hostname: ['idn-hostname'],
  int32: ['int64'],
  float: ['double'],
  uuid: ['uri-reference', 'iri-reference'],
};
const KNOWN_FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uuid',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
  'regex',
  'int32',
  'int64',
  'float',
  'double',
  'byte',
  'binary',
  'password',
]);

/** Patterns that match every string (JSON Schema patterns are unanchored searches). */
const UNIVERSAL_PATTERNS = new Set(['', '.*', '^.*', '.*$', '[\\s\\S]*', '^[\\s\\S]*$', '^[\\s\\S]*']);

export function compareFormat(fa: Json | undefined, fb: Json | undefined, path: string, pol: Polarity, out: CompareResult): void {
  if (jsonEqual(fa, fb)) return;
  if (fb === undefined) return emit(out, path, 'widened', pol, `format ${show(fa)} removed`);
  if (fa === undefined) return emit(out, path, 'narrowed', pol, `format ${show(fb)} added`);
  if (typeof fa !== 'string' || typeof fb !== 'string' || !KNOWN_FORMATS.has(fa) || !KNOWN_FORMATS.has(fb)) {
    undecided(out, path, `format changed from ${show(fa)} to ${show(fb)} at ${path || '/'}; toolgate cannot relate these formats`, false, fa, fb);
    return;
  }
  if (FORMAT_SUPERSETS[fa]?.includes(fb)) return emit(out, path, 'widened', pol, `format widened from "${fa}" to "${fb}"`);
  if (FORMAT_SUPERSETS[fb]?.includes(fa)) return emit(out, path, 'narrowed', pol, `format narrowed from "${fa}" to "${fb}"`);
  // Two unrelated standard formats: each accepts strings the other rejects.
  emit(out, path, 'widened', pol, `format changed from "${fa}" to "${fb}": accepts "${fb}" strings`);
  emit(out, path, 'narrowed', pol, `format changed from "${fa}" to "${fb}": rejects "${fa}" strings`);
}

const stripAnchors = (p: string): string => p.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');

export function comparePattern(pa: Json | undefined, pb: Json | undefined, path: string, pol: Polarity, out: CompareResult): void {
  if (jsonEqual(pa, pb)) return;
  const universal = (p: Json | undefined): boolean => p === undefined || (typeof p === 'string' && UNIVERSAL_PATTERNS.has(p));
  if (universal(pa) && universal(pb)) return;
  if (universal(pb)) return emit(out, path, 'widened', pol, `pattern ${show(pa)} removed`);
  if (universal(pa)) return emit(out, path, 'narrowed', pol, `pattern ${show(pb)} added`);
  if (typeof pa === 'string' && typeof pb === 'string') {
    // Dropping ^ or $ only lets the same expression match in more places.
    if (stripAnchors(pa) === stripAnchors(pb)) {
      const anchorsA = pa.length - stripAnchors(pa).length;
      const anchorsB = pb.length - stripAnchors(pb).length;
      const aHasAll = (pa.startsWith('^') || !pb.startsWith('^')) && (pa.endsWith('$') || !pb.endsWith('$'));
      const bHasAll = (pb.startsWith('^') || !pa.startsWith('^')) && (pb.endsWith('$') || !pa.endsWith('$'));
      if (aHasAll && anchorsA > anchorsB) return emit(out, path, 'widened', pol, `pattern anchors removed: ${show(pa)} → ${show(pb)}`);
      if (bHasAll && anchorsB > anchorsA) return emit(out, path, 'narrowed', pol, `pattern anchored: ${show(pa)} → ${show(pb)}`);
    }
  }
  // Regular-language inclusion is decidable but not cheaply; do not guess.
  undecided(
    out,
    path,
    `pattern changed from ${show(pa)} to ${show(pb)} at ${path || '/'}; whether it accepts more or fewer strings is not decided`,
    false,
    pa ?? null,
    pb ?? null,
  );
}

const num = (v: Json | undefined): number | undefined => (typeof v === 'number' ? v : undefined);

export function compareLowerBound(la: Json | undefined, lb: Json | undefined, kw: string, path: string, pol: Polarity, out: CompareResult): void {
  const x = num(la) ?? 0;
  const y = num(lb) ?? 0;
  if (y < x) emit(out, path, 'widened', pol, lb === undefined ? `${kw} ${x} removed` : `${kw} lowered from ${x} to ${y}`);
  else if (y > x) emit(out, path, 'narrowed', pol, la === undefined ? `${kw} ${y} added` : `${kw} raised from ${x} to ${y}`);
}

export function compareUpperBound(ua: Json | undefined, ub: Json | undefined, kw: string, path: string, pol: Polarity, out: CompareResult): void {
  const x = num(ua) ?? Infinity;
  const y = num(ub) ?? Infinity;
  if (y > x) emit(out, path, 'widened', pol, ub === undefined ? `${kw} ${x} removed` : `${kw} raised from ${x} to ${y}`);
  else if (y < x) emit(out, path, 'narrowed', pol, ua === undefined ? `${kw} ${y} added` : `${kw} lowered from ${x} to ${y}`);
}

interface Bound {
  value: number;
  exclusive: boolean;
}

/** Effective bound from `minimum` and (numeric) `exclusiveMinimum`, or the max side. */
function bound(s: JsonObject, side: 'min' | 'max'): Bound | undefined {
  const incl = num(side === 'min' ? s.minimum : s.maximum);
  const excl = num(side === 'min' ? s.exclusiveMinimum : s.exclusiveMaximum);
  const candidates: Bound[] = [];
  if (incl !== undefined) candidates.push({ value: incl, exclusive: false });
  if (excl !== undefined) candidates.push({ value: excl, exclusive: true });
  if (candidates.length === 0) return undefined;
  // The tighter of the two applies.
  const tighter = (p: Bound, q: Bound): Bound => {
    if (p.value !== q.value) return side === 'min' ? (p.value > q.value ? p : q) : p.value < q.value ? p : q;
    return p.exclusive ? p : q;
  };
  return candidates.reduce(tighter);
}

const showBound = (b: Bound | undefined, side: 'min' | 'max'): string =>
  b === undefined ? 'none' : `${side === 'min' ? (b.exclusive ? '>' : '≥') : b.exclusive ? '<' : '≤'} ${b.value}`;

export function compareNumericBounds(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult): void {
  for (const side of ['min', 'max'] as const) {
    const x = bound(a, side);
    const y = bound(b, side);
    // Rank: how restrictive; larger is tighter.
    const rank = (v: Bound | undefined): [number, number] => {
      if (v === undefined) return [-Infinity, 0];
      return [side === 'min' ? v.value : -v.value, v.exclusive ? 1 : 0];
    };
    const [rx, ex] = rank(x);
    const [ry, ey] = rank(y);
    const cmp = ry !== rx ? Math.sign(ry - rx) : Math.sign(ey - ex);
    const label = side === 'min' ? 'lower bound' : 'upper bound';
    const what = `${label} ${showBound(x, side)} → ${showBound(y, side)}`;
    if (cmp < 0) emit(out, path, 'widened', pol, what);
    else if (cmp > 0) emit(out, path, 'narrowed', pol, what);
  }
}

export function compareMultipleOf(ma: Json | undefined, mb: Json | undefined, path: string, pol: Polarity, out: CompareResult): void {
  if (jsonEqual(ma, mb)) return;
  const x = num(ma);
  const y = num(mb);
  if (y === undefined) return emit(out, path, 'widened', pol, `multipleOf ${show(ma)} removed`);
  if (x === undefined) return emit(out, path, 'narrowed', pol, `multipleOf ${show(mb)} added`);
  const divides = (d: number, n: number): boolean => Math.abs(n / d - Math.round(n / d)) < 1e-9;
  if (divides(y, x)) emit(out, path, 'widened', pol, `multipleOf relaxed from ${x} to ${y}`);
  else if (divides(x, y)) emit(out, path, 'narrowed', pol, `multipleOf tightened from ${x} to ${y}`);
  else {
    emit(out, path, 'widened', pol, `multipleOf changed from ${x} to ${y}: accepts multiples of ${y}`);
    emit(out, path, 'narrowed', pol, `multipleOf changed from ${x} to ${y}: rejects multiples of ${x}`);
  }
}
