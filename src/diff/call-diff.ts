/**
 * Where an OpenAPI operation's calls go and what they carry, compared (docs/design.md §7): each
 * difference between the call fields of two origins is classed as widening (the agent's calls may
 * now reach another host, carry other credentials or more scopes, send data elsewhere) or not.
 *
 * Widening: a server URL added or changed (a new host, base path or scheme); a server variable
 * that accepts a value it did not (its `enum` grew or was dropped) or whose `default` changed; a
 * security requirement removed (or all of them), or made optional (an empty requirement `{}`
 * added); a requirement added (the call carries another credential); scopes added; a scheme's
 * definition changed (its type, where the key goes, a flow or a flow's URL: tokens come from
 * elsewhere); a parameter moved to another location; a parameter added that is not an argument (a
 * cookie, or a header OpenAPI has the client set); a parameter's serialization changed (`style`,
 * `explode`, `collectionFormat`, `content` media type or `schema` ↔ `content`, `allowReserved` or
 * `allowEmptyValue` turned on); a request media type added.
 * Not widening: the same things removed or narrowed, servers reordered, a scheme's list of
 * available scopes changed (the requirement's scopes decide what a token carries), a parameter
 * added that is an argument (its schema judges it: `schema-widened`), response media types.
 * Pure.
 */
import type { CallDifference, CallField, Change } from './change.js';
import type { PinnedParameter, PinnedSecurityScheme, PinnedServer, ToolOrigin } from '../surface/model.js';
import { canonicalJson, type Json } from '../util/json.js';

const CALL_FIELDS: readonly CallField[] = ['servers', 'security', 'parameters', 'requestBody', 'responses'];

/** Headers OpenAPI has the client set (tools.ts does not make them arguments). */
const CLIENT_HEADERS = new Set(['accept', 'content-type', 'authorization']);

const same = (a: unknown, b: unknown) => canonicalJson((a ?? null) as Json) === canonicalJson((b ?? null) as Json);
const show = (v: Json | undefined) => (v === undefined ? '(none)' : JSON.stringify(v));
const widen = (what: CallDifference['what'], text: string): CallDifference => ({ what, widens: true, text });
const narrow = (what: CallDifference['what'], text: string): CallDifference => ({ what, widens: false, text });

/**
 * The changes between the call fields of one tool's two origins: one `call-changed` per field that
 * differs; `call-first-pinned` when the base pins none (a format 1 contract).
 */
export function diffCall(tool: string, base: ToolOrigin, head: ToolOrigin): Change[] {
  if (base.servers === undefined && head.servers !== undefined) return [{ kind: 'call-first-pinned', tool, head }];
  if (head.servers === undefined && base.servers !== undefined) {
    const text = 'where calls go and what they carry is no longer pinned (a surface written by an older toolgate)';
    return [{ kind: 'call-changed', tool, field: 'servers', differences: [widen('unpinned', text)], base: base.servers as unknown as Json }];
  }
  const out: Change[] = [];
  for (const field of CALL_FIELDS) {
    const differences = differencesIn(field, base, head);
    if (differences.length === 0) continue;
    const [b, h] = [base[field], head[field]] as unknown as [Json | undefined, Json | undefined];
    out.push({ kind: 'call-changed', tool, field, differences, ...(b !== undefined ? { base: b } : {}), ...(h !== undefined ? { head: h } : {}) });
  }
  return out;
}

function differencesIn(field: CallField, base: ToolOrigin, head: ToolOrigin): CallDifference[] {
  switch (field) {
    case 'servers':
      return same(base.servers, head.servers) ? [] : serverDifferences(base.servers ?? [], head.servers ?? []);
    case 'security':
      return same(base.security, head.security) && same(base.securitySchemes, head.securitySchemes) ? [] : securityDifferences(base, head);
    case 'parameters':
      return same(base.parameters, head.parameters) ? [] : parameterDifferences(base.parameters ?? [], head.parameters ?? []);
    case 'requestBody':
      return same(base.requestBody, head.requestBody) ? [] : mediaDifferences(base.requestBody, head.requestBody);
    case 'responses':
      return same(base.responses, head.responses) ? [] : responseDifferences(base.responses ?? {}, head.responses ?? {});
  }
}

function serverDifferences(base: readonly PinnedServer[], head: readonly PinnedServer[]): CallDifference[] {
  const baseUrls = new Map(base.map((s) => [s.url, s]));
  const headUrls = new Map(head.map((s) => [s.url, s]));
  const added = head.filter((s) => !baseUrls.has(s.url)).map((s) => s.url);
  const removed = base.filter((s) => !headUrls.has(s.url)).map((s) => s.url);
  const out: CallDifference[] = [];
  if (added.length === 1 && removed.length === 1) out.push(widen('server-changed', `server ${removed[0]} → ${added[0]}`));
  else {
    for (const url of added) out.push(widen('server-added', `server added: ${url}`));
    for (const url of removed) out.push(narrow('server-removed', `server removed: ${url}`));
  }
  for (const h of head) {
    const b = baseUrls.get(h.url);
    if (b) out.push(...variableDifferences(h.url, b, h));
  }
  const kept = (list: readonly PinnedServer[], other: ReadonlyMap<string, PinnedServer>) => list.filter((s) => other.has(s.url)).map((s) => s.url);
  const [bKept, hKept] = [kept(base, headUrls), kept(head, baseUrls)];
  if (added.length === 0 && removed.length === 0 && bKept[0] !== hKept[0]) {
    out.push(narrow('servers-reordered', `first server (the one most clients use) ${bKept[0] ?? '(none)'} → ${hKept[0] ?? '(none)'}, both reviewed`));
  }
  return out;
}

/**
 * A server's variables compared: an undeclared variable takes any value, so a dropped `enum` or
 * declaration widens like a value added to the `enum`; a new `default` is where calls go by default.
 */
function variableDifferences(url: string, base: PinnedServer, head: PinnedServer): CallDifference[] {
  const out: CallDifference[] = [];
  const names = [...new Set([...Object.keys(base.variables ?? {}), ...Object.keys(head.variables ?? {})])].sort();
  for (const name of names) {
    const b = base.variables && Object.hasOwn(base.variables, name) ? base.variables[name] : undefined;
    const h = head.variables && Object.hasOwn(head.variables, name) ? head.variables[name] : undefined;
    const label = `server ${url}: variable ${name}`;
    const [bEnum, hEnum] = [b?.enum, h?.enum];
    if (!same(bEnum, hEnum)) {
      const before = new Set((bEnum ?? []).map((v) => canonicalJson(v)));
      const after = new Set((hEnum ?? []).map((v) => canonicalJson(v)));
      const gained = hEnum === undefined ? ['any value'] : [...after].filter((v) => bEnum !== undefined && !before.has(v));
      const lost = bEnum === undefined ? [] : [...before].filter((v) => hEnum !== undefined && !after.has(v));
      if (hEnum === undefined || (bEnum !== undefined && gained.length > 0))
        out.push(widen('server-variable-widened', `${label} accepts ${gained.join(', ')} (enum ${show(bEnum)} → ${show(hEnum)})`));
      else if (bEnum === undefined || lost.length > 0) out.push(narrow('server-variable-narrowed', `${label}: enum ${show(bEnum)} → ${show(hEnum)}`));
    }
    if (!same(b?.default, h?.default)) out.push(widen('server-variable-default-changed', `${label}: default ${show(b?.default)} → ${show(h?.default)}`));
  }
  return out;
}

type Requirement = Record<string, string[]>;
const reqKey = (r: Requirement) => Object.keys(r).sort().join('\0');
const describeReq = (r: Requirement) =>
  Object.keys(r).length === 0
    ? '{} (no credentials)'
    : Object.keys(r)
        .sort()
        .map((n) => (r[n]!.length ? `${n} [${r[n]!.join(', ')}]` : n))
        .join(' + ');

function securityDifferences(base: ToolOrigin, head: ToolOrigin): CallDifference[] {
  const out = requirementDifferences(base.security ?? [], head.security ?? []);
  const [bs, hs] = [base.securitySchemes ?? {}, head.securitySchemes ?? {}];
  for (const name of Object.keys(hs).sort()) {
    if (Object.hasOwn(bs, name)) out.push(...schemeDifferences(name, bs[name]!, hs[name]!));
  }
  return out;
}

/** Alternatives compared: exact ones match; others pair with a base alternative of the same schemes. */
function requirementDifferences(base: readonly Requirement[], head: readonly Requirement[]): CallDifference[] {
  if (base.length > 0 && head.length === 0) {
    return [
      widen('security-removed', `security ${base.map(describeReq).join(' | ')} → none: calls carry no credentials and the operation claims to need none`),
    ];
  }
  const texts = (list: readonly Requirement[]) => new Set(list.map((r) => canonicalJson(r as unknown as Json)));
  const [bt, ht] = [texts(base), texts(head)];
  const spare = base.filter((r) => !ht.has(canonicalJson(r as unknown as Json)));
  const out: CallDifference[] = [];
  for (const h of head.filter((r) => !bt.has(canonicalJson(r as unknown as Json)))) {
    if (Object.keys(h).length === 0) {
      out.push(widen('security-optional', 'credentials now optional: an empty security requirement {} was added'));
      continue;
    }
    const candidates = spare.filter((b) => reqKey(b) === reqKey(h) && Object.keys(b).length > 0);
    if (candidates.length === 0) {
      out.push(widen('requirement-added', `security requirement added: ${describeReq(h)}`));
      continue;
    }
    const gain = (b: Requirement) => Object.keys(h).reduce((n, k) => n + h[k]!.filter((s) => !b[k]!.includes(s)).length, 0);
    const b = candidates.reduce((best, c) => (gain(c) < gain(best) ? c : best));
    spare.splice(spare.indexOf(b), 1);
    out.push(...scopeDifferences(b, h));
  }
  for (const b of spare) {
    if (Object.keys(b).length === 0) out.push(narrow('optional-removed', 'credentials no longer optional: the empty security requirement {} was removed'));
    else out.push(widen('requirement-removed', `security requirement removed: ${describeReq(b)}`));
  }
  return out;
}

function scopeDifferences(base: Requirement, head: Requirement): CallDifference[] {
  const out: CallDifference[] = [];
  for (const name of Object.keys(head).sort()) {
    const added = head[name]!.filter((s) => !base[name]!.includes(s));
    const removed = base[name]!.filter((s) => !head[name]!.includes(s));
    if (added.length) out.push(widen('scopes-added', `${name} scopes added: ${added.join(', ')} ([${base[name]!.join(', ')}] → [${head[name]!.join(', ')}])`));
    if (removed.length) out.push(narrow('scopes-removed', `${name} scopes removed: ${removed.join(', ')}`));
  }
  return out;
}

/** A scheme's pinned definition compared field by field; only its flows' scope lists do not widen. */
function schemeDifferences(name: string, base: PinnedSecurityScheme, head: PinnedSecurityScheme): CallDifference[] {
  if (same(base, head)) return [];
  const out: CallDifference[] = [];
  for (const key of ['type', 'in', 'name', 'scheme', 'bearerFormat', 'openIdConnectUrl'] as const) {
    if (base[key] !== head[key]) out.push(widen('scheme-changed', `scheme ${name}: ${key} ${show(base[key])} → ${show(head[key])}`));
  }
  const [bf, hf] = [base.flows ?? {}, head.flows ?? {}];
  for (const flow of [...new Set([...Object.keys(bf), ...Object.keys(hf)])].sort()) {
    const b = Object.hasOwn(bf, flow) ? bf[flow] : undefined;
    const h = Object.hasOwn(hf, flow) ? hf[flow] : undefined;
    if (!h) {
      out.push(narrow('scheme-changed', `scheme ${name}: flow ${flow} removed`));
      continue;
    }
    if (!b) {
      out.push(
        widen(
          'scheme-changed',
          `scheme ${name}: flow ${flow} added${h.authorizationUrl ? ` (authorizationUrl ${h.authorizationUrl})` : ''}${h.tokenUrl ? ` (tokenUrl ${h.tokenUrl})` : ''}`,
        ),
      );
      continue;
    }
    for (const key of ['authorizationUrl', 'tokenUrl', 'refreshUrl'] as const) {
      if (b[key] !== h[key]) out.push(widen('scheme-changed', `scheme ${name}: flow ${flow} ${key} ${show(b[key])} → ${show(h[key])}`));
    }
    if (!same(b.scopes, h.scopes))
      out.push(narrow('scheme-scopes-changed', `scheme ${name}: flow ${flow} lists scopes [${b.scopes.join(', ')}] → [${h.scopes.join(', ')}]`));
  }
  return out;
}

/** Whether a parameter is a tool argument (tools.ts): everything but cookies and the headers the client sets. */
const isArgument = (p: PinnedParameter) => p.in !== 'cookie' && !(p.in === 'header' && CLIENT_HEADERS.has(p.name.toLowerCase()));

function parameterDifferences(base: readonly PinnedParameter[], head: readonly PinnedParameter[]): CallDifference[] {
  const where = (list: readonly PinnedParameter[]) => {
    const m = new Map<string, string[]>();
    for (const p of list) m.set(p.name, [...(m.get(p.name) ?? []), p.in]);
    return m;
  };
  const [b, h] = [where(base), where(head)];
  const out: CallDifference[] = [];
  for (const name of [...new Set([...b.keys(), ...h.keys()])].sort()) {
    const [before, after] = [b.get(name) ?? [], h.get(name) ?? []];
    const gained = after.filter((l) => !before.includes(l));
    const lost = before.filter((l) => !after.includes(l));
    if (gained.length && lost.length) out.push(widen('parameter-moved', `parameter ${name} moved: ${lost.join(', ')} → ${gained.join(', ')}`));
    else {
      for (const l of gained) {
        const p = { in: l, name };
        if (isArgument(p)) out.push(narrow('parameter-added', `${l} parameter added: ${name} (an argument: its schema judges it)`));
        else out.push(widen('parameter-added', `${l} parameter added: ${name} (not an argument: the client sends it)`));
      }
      for (const l of lost) out.push(narrow('parameter-removed', `${l} parameter removed: ${name}`));
    }
  }
  const pinnedAt = (list: readonly PinnedParameter[], p: PinnedParameter) => list.find((x) => x.in === p.in && x.name === p.name);
  for (const h of head) {
    const b = pinnedAt(base, h);
    if (b) out.push(...serializationDifferences(b, h));
  }
  return out;
}

/**
 * How one parameter's value is written into the request, compared. `allowReserved` turned on
 * sends `&`, `=` and `#` in a value as they are: an argument `x&admin=true` becomes a second
 * query parameter nobody declared. Another `style`, `explode`, `collectionFormat` or `content`
 * media type (or `schema` swapped for `content`) changes what the server reads out of the same
 * argument. Each widens; turning `allowReserved` or `allowEmptyValue` off narrows.
 */
function serializationDifferences(base: PinnedParameter, head: PinnedParameter): CallDifference[] {
  const label = `${head.in} parameter ${head.name}`;
  const out: CallDifference[] = [];
  for (const key of ['allowReserved', 'allowEmptyValue'] as const) {
    if (head[key] === base[key]) continue;
    if (head[key])
      out.push(
        widen(
          'parameter-serialization-changed',
          `${label}: ${key} turned on${key === 'allowReserved' ? ' (reserved characters such as & = # sent unencoded)' : ''}`,
        ),
      );
    else out.push(narrow('parameter-serialization-narrowed', `${label}: ${key} turned off`));
  }
  for (const key of ['content', 'style', 'explode', 'collectionFormat'] as const) {
    if (same(base[key], head[key])) continue;
    const word = (p: PinnedParameter) =>
      key === 'content' ? (p.content ? `content ${p.content.join(', ')}` : 'schema') : p[key] === undefined ? 'the default' : JSON.stringify(p[key]);
    out.push(widen('parameter-serialization-changed', `${label}: ${key === 'content' ? 'described by' : key} ${word(base)} → ${word(head)}`));
  }
  return out;
}

function mediaDifferences(base: readonly string[] | undefined, head: readonly string[] | undefined): CallDifference[] {
  const out: CallDifference[] = [];
  if (head === undefined) return [narrow('media-type-removed', `request body removed (was ${(base ?? []).join(', ') || 'no media type'})`)];
  for (const t of head.filter((x) => !(base ?? []).includes(x))) out.push(widen('media-type-added', `request media type added: ${t}`));
  for (const t of (base ?? []).filter((x) => !head.includes(x))) out.push(narrow('media-type-removed', `request media type removed: ${t}`));
  if (base === undefined && head.length === 0) out.push(widen('media-type-added', 'request body added (no media type given)'));
  return out;
}

function responseDifferences(base: Readonly<Record<string, string[]>>, head: Readonly<Record<string, string[]>>): CallDifference[] {
  const out: CallDifference[] = [];
  for (const code of [...new Set([...Object.keys(base), ...Object.keys(head)])].sort()) {
    const b = Object.hasOwn(base, code) ? base[code] : undefined;
    const h = Object.hasOwn(head, code) ? head[code] : undefined;
    if (same(b, h)) continue;
    out.push(narrow('response-media-changed', `response ${code}: ${b ? `[${b.join(', ')}]` : '(none)'} → ${h ? `[${h.join(', ')}]` : '(none)'}`));
  }
  return out;
}
