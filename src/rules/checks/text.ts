import type { Check, RawFinding } from '../context.js';
import { describeSchemaTextPath } from '../../diff/schema-text.js';

/** MCP spec 2025-11-25 (Tools › Tool names): 1–128 of ASCII letters, digits, `_`, `-`, `.`. */
const VALID_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** Characters that render as nothing or reorder text: a name containing one can impersonate another. */
// Each listed code point is wanted on its own, combining ones (U+034F) included.
// eslint-disable-next-line no-misleading-character-class
const INVISIBLE = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|\uDB40[\uDC00-\uDDEF]/u;

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

/** `description-changed`: the text a model reads. */
export const textChanges: Check = (ctx) =>
  ctx.changes.flatMap((c): RawFinding[] =>
    c.kind === 'text-changed'
      ? [
          {
            ruleId: 'description-changed',
            target: { tool: c.tool, sub: `/${c.field.replace('.', '/')}${c.pointer ?? ''}` },
            message:
              c.pointer === undefined
                ? `the ${c.field} of tool "${c.tool}" changed`
                : `the ${c.pointer.slice(c.pointer.lastIndexOf('/') + 1)} of ${describeSchemaTextPath(c.pointer)} of tool "${c.tool}" ${c.base === undefined ? 'was added' : c.head === undefined ? 'was removed' : 'changed'}`,
            data: { field: c.field, ...(c.pointer !== undefined ? { pointer: c.pointer } : {}), base: c.base, head: c.head },
          },
        ]
      : [],
  );
