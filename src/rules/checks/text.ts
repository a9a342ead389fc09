import type { Change } from '../../diff/change.js';
import { onlySafetyFields } from './safety.js';
import type { Check, RawFinding } from '../context.js';
import { INVISIBLE } from '../name-fold.js';
import { describeSchemaTextPath } from '../../diff/schema-text.js';

/** MCP spec 2025-11-25 (Tools › Tool names): 1–128 of ASCII letters, digits, `_`, `-`, `.`. */
const VALID_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
function codePoints(text: string): string {
  return [...new Set([...text].filter((ch) => !/^[A-Za-z0-9_.-]$/.test(ch)))]
    .slice(0, 5)
    .map((ch) => `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`)
    .join(', ');
}

/** `invalid-tool-name`: names outside the spec's character set, invisible or confusable characters. */
export const toolNames: Check = (ctx) => {
  const out: RawFinding[] = [];
  for (const t of ctx.head.tools) {
    if (VALID_NAME.test(t.name)) continue;
    const invisible = INVISIBLE.test(t.name);
    const reason =
      t.name.length > 128
        ? `is ${t.name.length} characters long (at most 128)`
        : invisible
          ? `contains invisible characters (${codePoints(t.name)})`
          : `contains characters outside [A-Za-z0-9_.-] (${codePoints(t.name)})`;
    out.push({ ruleId: 'invalid-tool-name', target: { tool: t.name }, message: `tool name "${t.name}" ${reason}`, data: { invisible } });
  }
  return out;
};

const METADATA_WORDS = { annotations: 'vendor keys of the annotations', icons: 'icons', _meta: '_meta', extra: 'top-level keys outside the spec' } as const;

/** What changed, in a reviewer's words. */
function textMessage(c: Extract<Change, { kind: 'text-changed' }>): string {
  if (c.pointer === undefined) return `the ${c.field} of tool "${c.tool}" changed`;
  if (c.more !== undefined) return `${c.more} more texts of the ${c.field} of tool "${c.tool}" changed (each one is in the JSON report)`;
  const what = c.pointer.slice(c.pointer.lastIndexOf('/') + 1);
  const where = c.field === 'outputSchema' ? `outputSchema${c.pointer.slice(0, c.pointer.lastIndexOf('/'))}` : describeSchemaTextPath(c.pointer);
  return `the ${what} of ${where || 'the output schema'} of tool "${c.tool}" ${c.base === undefined ? 'was added' : c.head === undefined ? 'was removed' : 'changed'}`;
}

/** One changed text of a tool, as `description-changed` carries it in `data.texts`. */
export interface ChangedTextData {
  /** `description`, `title`, `annotations.title`, `inputSchema`, `outputSchema`, or a metadata field. */
  field: string;
  /** JSON pointer inside the schema, for text in `inputSchema` or `outputSchema`. */
  pointer?: string;
  /** Old text (canonical JSON for metadata); undefined when the text was added. */
  base: string | undefined;
  /** New text; undefined when the text was removed. */
  head: string | undefined;
  /** What changed, in a reviewer's words ("the description of argument "q" of tool "get" changed"). */
  what: string;
}

const MAX_NAMED = 3;

/**
 * `description-changed`: the text a model or a user reads (docs/design.md §1, §7): titles, descriptions,
 * text inside inputSchema and outputSchema, and what clients may show besides (vendor annotation
 * keys, icons, `_meta`, keys outside the spec). One finding per tool (docs/design.md §6, one change one
 * finding): every changed text of the tool is in `data.texts`, in the order of the changes; the
 * first one's `field`, `pointer`, `base` and `head` are also at the top of `data`. Located at
 * the first changed text.
 */
export const textChanges: Check = (ctx) => {
  const byTool = new Map<string, { sub: string; texts: ChangedTextData[] }>();
  for (const c of ctx.changes) {
    let text: ChangedTextData;
    let sub: string;
    if (c.kind === 'metadata-changed') {
      // Judged as safety-field-changed, which names the field and the side it moved to.
      if (onlySafetyFields(c, ctx.policy.safetyFields)) continue;
      sub = c.field === 'extra' ? '' : `/${c.field}`;
      text = { field: c.field, base: c.base, head: c.head, what: `the ${METADATA_WORDS[c.field]} of tool "${c.tool}" changed` };
    } else if (c.kind === 'text-changed') {
      sub = `/${c.field.replace('.', '/')}${c.pointer ?? ''}`;
      text = { field: c.field, ...(c.pointer !== undefined ? { pointer: c.pointer } : {}), base: c.base, head: c.head, what: textMessage(c) };
    } else continue;
    const entry = byTool.get(c.tool);
    if (entry) entry.texts.push(text);
    else byTool.set(c.tool, { sub, texts: [text] });
  }
  return [...byTool].map(([tool, { sub, texts }]): RawFinding => {
    const { what: _what, ...head } = texts[0] as ChangedTextData;
    return { ruleId: 'description-changed', target: { tool, sub, key: '/text' }, message: textsMessage(tool, texts), data: { ...head, texts } };
  });
};

/** "the description of tool "x" changed", or "3 texts of tool "x" changed: …; …; …; and 2 more". */
export function textsMessage(tool: string, texts: readonly Pick<ChangedTextData, 'what'>[]): string {
  const first = texts[0];
  if (texts.length === 1 && first) return first.what;
  const more = texts.length - MAX_NAMED;
  const named = texts.slice(0, MAX_NAMED).map((t) => t.what.replace(` of tool "${tool}"`, ''));
  return `${texts.length} texts of tool "${tool}" changed: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/**
 * `instructions-changed`: the server's `instructions` (from `initialize`) were added, changed or
 * removed. A finding about no tool, on the contract's `/server/instructions`.
 */
export const instructionsChanges: Check = (ctx) =>
  ctx.changes.flatMap((c): RawFinding[] => {
    if (c.kind !== 'instructions-changed') return [];
    const what = c.base === undefined ? 'added' : c.head === undefined ? 'removed' : 'changed';
    return [
      {
        ruleId: 'instructions-changed',
        target: { sub: '/server/instructions' },
        message: `the server's instructions (text clients put into the model's context) ${what === 'changed' ? 'changed' : `were ${what}`}`,
        data: { ...(c.base !== undefined ? { base: c.base } : {}), ...(c.head !== undefined ? { head: c.head } : {}) },
      },
    ];
  });
