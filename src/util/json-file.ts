import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { ConfigError } from './errors.js';
import type { Json } from '../surface/model.js';

/** A parsed JSON document that can tell the line of any value by JSON pointer. */
export interface JsonDocument {
  value: Json;
  /** 1-based line of the value at `pointer` (RFC 6901), or of its nearest existing parent. */
  lineOf(pointer: string): number;
}

/** Splits an RFC 6901 JSON pointer into unescaped segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return pointer === '' ? [] : [''];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Builds an RFC 6901 pointer from segments. */
export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** Line (1-based) and column (1-based) of a UTF-16 offset in `text`. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Parses strict JSON (no comments, no trailing commas) keeping positions.
 * @param file shown in errors.
 * @param fix the fix printed with a syntax error.
 * @throws ConfigError naming `file:line:column` of the first syntax error.
 */
export function parseJsonDocument(text: string, file: string, fix: string): JsonDocument {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first || !root) {
    const pos = positionOf(text, first?.offset ?? 0);
    const what = first ? printParseErrorCode(first.error) : 'empty document';
    throw new ConfigError(`invalid JSON: ${what}`, { file, line: pos.line, column: pos.column }, fix);
  }
  // JSON.parse gives exact number/string semantics; the tree only serves positions.
  const value = JSON.parse(text) as Json;
  const lineStarts = computeLineStarts(text);
  return {
    value,
    lineOf(pointer: string): number {
      const segs = pointerSegments(pointer).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      for (let n = segs.length; n >= 0; n--) {
        const node: Node | undefined = findNodeAtLocation(root, segs.slice(0, n));
        if (node) {
          // For a property value, point at its key's line (where a reader looks).
          const at = node.parent?.type === 'property' ? node.parent.offset : node.offset;
          return lineAt(lineStarts, at);
        }
      }
      return 1;
    },
  };
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function lineAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
