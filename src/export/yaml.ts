/**
 * YAML for exports, written so that every YAML reader the targets use reads the same values:
 * Kubernetes (sigs.k8s.io/yaml over go-yaml, YAML 1.1: `yes`, `on`, `y` are booleans there),
 * Docker's and agentgateway's loaders, and YAML 1.2 readers. The `yaml` package writes `yes`
 * plain and U+2028 or bidi controls raw (YAML 1.1 treats U+2028 as a line break), so every string
 * here is double-quoted with printable ASCII only and every other character escaped (YAML 1.2
 * §5.7: `\uXXXX`, `\UXXXXXXXX`). Keys that are plain identifiers stay plain. Pure.
 */
import { ConfigError } from '../util/errors.js';

/** A value the writer takes: what the exports build (no cycles, no undefined in arrays). */
export type YamlValue = string | number | boolean | null | readonly YamlValue[] | { readonly [k: string]: YamlValue | undefined };

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
// YAML 1.1 (and 1.2 core) words that a plain scalar would turn into booleans or null.
const RESERVED = /^(y|yes|n|no|on|off|true|false|null|~)$/i;

/** A double-quoted YAML string, printable ASCII only. @throws ConfigError for a lone surrogate (no YAML reader keeps it). */
export function yamlString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp >= 0xd800 && cp <= 0xdfff)
      throw new ConfigError(
        `cannot write ${JSON.stringify(s)} as YAML: it holds a lone UTF-16 surrogate, which is no Unicode character`,
        undefined,
        'Such a name cannot be exported; deny it in the runtime block.',
      );
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (cp >= 0x20 && cp <= 0x7e) out += ch;
    else out += cp > 0xffff ? `\\U${cp.toString(16).toUpperCase().padStart(8, '0')}` : `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `${out}"`;
}

function key(k: string): string {
  return PLAIN_KEY.test(k) && !RESERVED.test(k) ? k : yamlString(k);
}

const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./-]*$/;

/**
 * A string as a reader expects to see it: plain when it cannot be read as anything else (starts
 * with a letter, `_` or `/`, no YAML indicator, not a YAML 1.1 boolean or null), single-quoted when
 * it is printable ASCII (no escapes there: `''` is the only one), else double-quoted with escapes.
 */
function str(v: string): string {
  if (PLAIN.test(v) && !RESERVED.test(v)) return v;
  if (/^[\x20-\x7e]*$/.test(v)) return `'${v.replaceAll("'", "''")}'`;
  return yamlString(v);
}

function scalar(v: string | number | boolean | null): string {
  if (typeof v === 'string') return str(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error('yaml: non-finite number');
    return String(v);
  }
  return String(v);
}

const isScalar = (v: YamlValue): v is string | number | boolean | null => v === null || typeof v !== 'object';

function lines(v: YamlValue, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v as readonly YamlValue[]) {
      if (isScalar(item)) out.push(`${indent}- ${scalar(item)}`);
      else if (Array.isArray(item) ? item.length === 0 : Object.keys(item).length === 0) out.push(`${indent}- ${Array.isArray(item) ? '[]' : '{}'}`);
      else {
        const sub: string[] = [];
        lines(item, `${indent}  `, sub);
        // The first line of a mapping item goes on the dash's line.
        out.push(`${indent}- ${(sub[0] as string).slice(indent.length + 2)}`, ...sub.slice(1));
      }
    }
    return;
  }
  for (const [k, val] of Object.entries(v as Record<string, YamlValue | undefined>)) {
    if (val === undefined) continue;
    if (isScalar(val)) out.push(`${indent}${key(k)}: ${scalar(val)}`);
    else if (Array.isArray(val) ? val.length === 0 : Object.keys(val).length === 0) out.push(`${indent}${key(k)}: ${Array.isArray(val) ? '[]' : '{}'}`);
    else {
      out.push(`${indent}${key(k)}:`);
      lines(val, Array.isArray(val) ? `${indent}  ` : `${indent}  `, out);
    }
  }
}

/** One YAML document (block style, two-space indent), ending with a newline. */
export function toYaml(value: YamlValue): string {
  if (isScalar(value)) return `${scalar(value)}\n`;
  const out: string[] = [];
  lines(value, '', out);
  return `${out.join('\n')}\n`;
}
