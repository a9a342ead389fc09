/**
 * Reads `toolgate.yml` text: YAML with every line located, values JSON can hold, the schema, then
 * the resolver (policy-resolve.ts); and what a loaded policy says about files: which ones a run
 * reads, and where each contract really is. Reading the file itself is policy-file.ts's job.
 *
 * @module
 */
import { basename, dirname, join, resolve } from 'node:path';
import { LineCounter, parseDocument, isMap, isNode, isScalar, isSeq, visit, type Document } from 'yaml';
import { policyValidator } from '../util/validators.js';
import { ConfigError } from '../util/errors.js';
import { displayPath } from '../util/display-path.js';
import { CONTRACT_OUTSIDE_FIX, resolveInside } from '../util/safe-path.js';
import { escapePointerToken, pointerSegments, type JsonObject } from '../util/json.js';
import { schemaError } from '../util/schema-errors.js';
import { POLICY_FIX, resolvePolicy, type RawPolicy } from './policy-resolve.js';
import policySchema from '../../schema/toolgate.schema.json' with { type: 'json' };
import type { Policy } from './policy-model.js';

/**
 * Validates policy text read from `file` ({@link parsePolicy}) and checks where its contracts
 * really are ({@link validateContractPaths}). `loadPolicy` (config/policy-file.ts) reads the file.
 * @throws ConfigError (exit 2) as {@link parsePolicy} and {@link validateContractPaths}.
 */
export async function policyFromText(text: string, file: string): Promise<Policy> {
  const policy = parsePolicy(text, file, dirname(resolve(file)));
  await validateContractPaths(policy);
  return policy;
}

/** Absolute path of the policy file (`file` is as given, relative to the working directory it was read from). */
export function policyFilePath(policy: Pick<Policy, 'root' | 'file'>): string {
  return join(policy.root, basename(policy.file));
}

/**
 * Every file a run reads, absolute: the policy file, each source's contract, recording and
 * integration config (`source`: whose). A file the run writes (a report) must be none of them.
 */
export function policyInputs(policy: Policy): { path: string; what: string; source?: string }[] {
  const out: { path: string; what: string; source?: string }[] = [];
  if (policy.file) out.push({ path: policyFilePath(policy), what: 'the policy file' });
  for (const s of policy.sources) {
    out.push({ path: s.contract, what: `the contract of source "${s.id}"`, source: s.id });
    if (s.kind === 'recorded') out.push({ path: s.file, what: `the recorded tools/list file of source "${s.id}"`, source: s.id });
    if (s.kind === 'openapi') out.push({ path: s.integration, what: `the integration config of source "${s.id}"`, source: s.id });
  }
  return out;
}

/**
 * Checks with the file system where each source's contract really is, symbolic links resolved:
 * inside the policy's directory (`root`), and not the policy file or another source's contract,
 * recording or integration config, so that \`toolgate update\` cannot write outside the
 * repository or over another input. {@link loadPolicy} calls it; call it for a policy built
 * otherwise (adHocPolicy) before contracts are written. A contract that is the source's own
 * recording or integration config is read as what it is (`check` says it is not a contract);
 * `writeContract` never replaces such a file. Whether the contract is a regular file is checked
 * when it is read or written.
 * @throws ConfigError on the source's \`contract\` line (its \`id\` line for the default path).
 */
export async function validateContractPaths(policy: Policy): Promise<void> {
  const inputs = policyInputs(policy);
  for (const [i, s] of policy.sources.entries()) {
    const shown = displayPath(policy.root, s.contract);
    const pointer = policy.has(`/sources/${i}/contract`) ? `/sources/${i}/contract` : `/sources/${i}/id`;
    try {
      await resolveInside(policy.root, s.contract, {
        what: `the contract of source "${s.id}"`,
        lead: `cannot use ${shown} as the contract of source "${s.id}"`,
        display: shown,
        special: 'allow',
        notOnto: inputs.filter((x) => x.source !== s.id),
        fix: CONTRACT_OUTSIDE_FIX,
      });
    } catch (e) {
      // Other errors (a parent that cannot be read) are reported by the read or write itself.
      if (!(e instanceof ConfigError)) continue;
      if (!policy.file) throw e;
      throw new ConfigError(e.message, { file: policy.file, line: policy.lineOf(pointer), pointer }, e.fix);
    }
  }
}

/** Parses policy text; see {@link loadPolicy}. `root` is the directory relative paths resolve against. */
export function parsePolicy(text: string, file: string, root: string): Policy {
  const lineCounter = new LineCounter();
  // `uniqueKeys: true` compares each key with every earlier key of its map: 100,000 keys take
  // minutes. The same check, linear, is firstDuplicateKey.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const duplicate = firstDuplicateKey(doc);
  if (duplicate !== undefined && (doc.errors[0] === undefined || duplicate < doc.errors[0].pos[0])) {
    const pos = lineCounter.linePos(duplicate);
    throw new ConfigError('YAML syntax error: Map keys must be unique', { file, line: pos.line, column: pos.col }, POLICY_FIX);
  }
  const yamlError = doc.errors[0];
  if (yamlError) {
    // With prettyErrors off, `linePos` is not filled in: compute it from the offset.
    const pos = yamlError.linePos?.[0] ?? lineCounter.linePos(yamlError.pos[0]);
    throw new ConfigError(`YAML syntax error: ${yamlError.message.split('\n')[0]}`, { file, line: pos?.line, column: pos?.col }, POLICY_FIX);
  }
  const lineOf = yamlLines(doc, lineCounter);
  const has = (pointer: string) => pointer === '' || doc.hasIn(yamlPath(pointer));
  let value: JsonObject;
  try {
    value = (doc.toJS() ?? {}) as JsonObject;
  } catch (e) {
    // `yaml` resolves aliases here and throws (ReferenceError) for an alias to an anchor that is
    // not defined before it, and for an alias bomb ("billion laughs"): a user error, not a bug.
    throw new ConfigError(
      `YAML error: ${(e as Error).message}`,
      { file, line: aliasLine(doc, lineCounter) },
      `${POLICY_FIX} Anchors and aliases (&name / *name) are not needed in toolgate.yml: write the values out.`,
    );
  }
  const odd = firstNonJsonValue(value);
  if (odd) {
    throw new ConfigError(
      `the value at ${odd.pointer || '/'} is not JSON (${odd.what})`,
      { file, line: lineOf(odd.pointer), pointer: odd.pointer },
      `${POLICY_FIX} Write it as a plain YAML string, number, true/false, list or mapping (a \`%YAML 1.1\` document reads dates as dates: quote them).`,
    );
  }
  const validate = policyValidator();
  if (!validate(value)) throw schemaError(validate.errors ?? [], file, lineOf, POLICY_FIX, policySchema);
  return { ...resolvePolicy(value as unknown as RawPolicy, file, root, lineOf), has };
}

/**
 * The first value `toJS` made that JSON cannot hold, with its JSON pointer: what YAML 1.1's tags
 * make (`!!binary` a byte array, read differently by yaml's CommonJS and ESM builds; `!!timestamp`
 * a Date; `!!set` a Set; `!!omap`/`!!pairs` a Map), a date in a `%YAML 1.1` document even
 * untagged, and `.inf`/`.nan`. Such a value passes the schema's `type: object` or is serialized
 * as something else (a Date as a string, NaN as null), so the policy would not mean what it
 * shows. Iterative.
 */
function firstNonJsonValue(value: unknown): { pointer: string; what: string } | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [v, pointer] = stack.pop()!;
    if (typeof v === 'number' && !Number.isFinite(v)) return { pointer, what: 'an infinite number, or not a number' };
    if (typeof v === 'bigint' || typeof v === 'undefined' || typeof v === 'function' || typeof v === 'symbol') return { pointer, what: `a ${typeof v}` };
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push([x, `${pointer}/${i}`]));
      continue;
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) {
      const what =
        v instanceof Date
          ? 'a date'
          : v instanceof Uint8Array
            ? 'a byte array'
            : v instanceof Set
              ? 'a set'
              : v instanceof Map
                ? 'a map'
                : 'an object of its own kind';
      return { pointer, what };
    }
    for (const [k, x] of Object.entries(v)) stack.push([x, `${pointer}/${escapePointerToken(k)}`]);
  }
  return undefined;
}

/** Line of the first alias whose anchor does not resolve, else of the first alias (1 when none). */
function aliasLine(doc: Document, lc: LineCounter): number {
  let first: number | undefined;
  let unresolved: number | undefined;
  visit(doc, {
    Alias(_, node) {
      const line = node.range ? lc.linePos(node.range[0]).line : undefined;
      first ??= line;
      if (unresolved === undefined && node.resolve(doc) === undefined) {
        unresolved = line;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return unresolved ?? first ?? 1;
}

/** A JSON pointer as a `yaml` path: digit segments index sequences. */
function yamlPath(pointer: string): (string | number)[] {
  return pointerSegments(pointer).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/**
 * `lineOf` of a policy: the 1-based line of a JSON pointer, or of its nearest existing parent (1
 * when none). A map entry gives its key's line (where a reader looks), a sequence item or the
 * document the line where it starts. Every line is indexed in one walk on the first question, so
 * thousands of questions (one per schema error) cost one walk, not one each.
 */
function yamlLines(doc: Document, lc: LineCounter): (pointer: string) => number {
  let index: Map<string, number> | undefined;
  const build = (): Map<string, number> => {
    const out = new Map<string, number>();
    const at = (pointer: string, node: unknown) => {
      if (isNode(node) && node.range && !out.has(pointer)) out.set(pointer, lc.linePos(node.range[0]).line);
    };
    const walk = (node: unknown, pointer: string): void => {
      if (isMap(node)) {
        for (const pair of node.items) {
          if (!isScalar(pair.key)) continue;
          const p = `${pointer}/${String(pair.key.value).replace(/~/g, '~0').replace(/\//g, '~1')}`;
          at(p, pair.key);
          walk(pair.value, p);
        }
      } else if (isSeq(node)) {
        node.items.forEach((item, i) => {
          at(`${pointer}/${i}`, item);
          walk(item, `${pointer}/${i}`);
        });
      }
    };
    at('', doc.contents);
    walk(doc.contents, '');
    return out;
  };
  return (pointer: string): number => {
    const map = (index ??= build());
    for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
      const line = map.get(p);
      if (line !== undefined) return line;
      if (p === '') return 1;
    }
  };
}

/**
 * Offset of the first key (in the document) that its map already has: the check `yaml` makes
 * with `uniqueKeys: true` (scalar keys by value, others by identity), with a set per map.
 */
function firstDuplicateKey(doc: Document): number | undefined {
  let first: number | undefined;
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        const offset = isNode(pair.key) ? pair.key.range?.[0] : undefined;
        if (seen.has(key) && offset !== undefined && (first === undefined || offset < first)) first = offset;
        seen.add(key);
      }
    },
  });
  return first;
}
