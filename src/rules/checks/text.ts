import type { Change } from '../../diff/change.js';
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
  const what = c.pointer.slice(c.pointer.lastIndexOf('/') + 1);
  const where = c.field === 'outputSchema' ? `outputSchema${c.pointer.slice(0, c.pointer.lastIndexOf('/'))}` : describeSchemaTextPath(c.pointer);
  return `the ${what} of ${where || 'the output schema'} of tool "${c.tool}" ${c.base === undefined ? 'was added' : c.head === undefined ? 'was removed' : 'changed'}`;
}

/**
 * `description-changed`: the text a model or a user reads (DESIGN §1, §5): titles, descriptions,
 * text inside inputSchema and outputSchema, and what clients may show besides (vendor annotation
 * keys, icons, `_meta`, keys outside the spec).
 */
export const textChanges: Check = (ctx) =>
  ctx.changes.flatMap((c): RawFinding[] => {
    if (c.kind === 'metadata-changed') {
      return [
        {
          ruleId: 'description-changed',
          target: { tool: c.tool, sub: c.field === 'extra' ? '' : `/${c.field}` },
          message: `the ${METADATA_WORDS[c.field]} of tool "${c.tool}" changed`,
          data: { field: c.field, base: c.base, head: c.head },
        },
      ];
    }
    if (c.kind !== 'text-changed') return [];
    return [
      {
        ruleId: 'description-changed',
        target: { tool: c.tool, sub: `/${c.field.replace('.', '/')}${c.pointer ?? ''}` },
        message: textMessage(c),
        data: { field: c.field, ...(c.pointer !== undefined ? { pointer: c.pointer } : {}), base: c.base, head: c.head },
      },
    ];
  });
