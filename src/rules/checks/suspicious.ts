/**
 * `suspicious-text` (issue 16 §2): text a model reads that tries something (hidden-instruction
 * tags, concealment, instruction overrides, directives about other tools, secret paths, invisible
 * characters, images and links), and exfiltration-prone arguments added to an existing tool. One
 * finding per tool, quoting each span and naming its pattern (src/rules/suspicious-patterns.ts).
 *
 * Only text that is new is judged: everything in an audit (and at first adoption), in a check
 * only the texts that differ from the base. A text a reviewer already approved is not raised again
 * on every run; a changed one rides on the approval `description-changed` already needs.
 */
import { describeSchemaTextPath, schemaTexts } from '../../diff/schema-text.js';
import type { SurfaceTool } from '../../surface/model.js';
import type { Json } from '../../util/json.js';
import { getOwn, isObject } from '../../util/json.js';
import type { Check, RawFinding } from '../context.js';
import { EXFILTRATION_ARGUMENT, findSuspicious, SUSPICIOUS_PATTERNS } from '../suspicious-patterns.js';

/** Every text of a tool a model reads, by pointer below the tool (`/description`, `/inputSchema/properties/q/description`). */
export function toolTexts(t: Pick<SurfaceTool, 'description' | 'title' | 'annotations' | 'inputSchema'>): Map<string, string> {
  const out = new Map<string, string>();
  if (t.title !== undefined) out.set('/title', t.title);
  if (t.description !== undefined) out.set('/description', t.description);
  const at = t.annotations ? getOwn(t.annotations, 'title') : undefined;
  if (typeof at === 'string') out.set('/annotations/title', at);
  for (const [p, text] of schemaTexts(t.inputSchema)) out.set(`/inputSchema${p}`, text);
  return out;
}

/** Where a text is, in a reviewer's words. */
function place(pointer: string): string {
  if (pointer === '/description') return 'description';
  if (pointer === '/title') return 'title';
  if (pointer === '/annotations/title') return 'annotations.title';
  return describeSchemaTextPath(pointer.slice('/inputSchema'.length));
}

const TITLES = new Map(SUSPICIOUS_PATTERNS.map((p) => [p.id, p.title]));
const MAX_SPAN = 80;
const span = (s: string) => JSON.stringify(s.length > MAX_SPAN ? `${s.slice(0, MAX_SPAN)}…` : s);

/** One hit of a tool: where, which pattern, what it matched. */
interface ToolHit {
  pointer: string;
  where: string;
  pattern: string;
  span: string;
}

const propertiesOf = (t: SurfaceTool | undefined): string[] => {
  const props = t?.inputSchema ? getOwn(t.inputSchema, 'properties') : undefined;
  return isObject(props) ? Object.keys(props) : [];
};

export const suspiciousText: Check = (ctx) => {
  const base = ctx.base ? new Map(ctx.base.tools.map((t) => [t.name, t])) : undefined;
  const out: RawFinding[] = [];
  // The server's instructions, when they are new: text every turn of the model reads.
  const instructions = ctx.head.server?.instructions;
  if (instructions !== undefined && instructions !== ctx.base?.server?.instructions) {
    const hits = findSuspicious(instructions);
    if (hits.length) {
      out.push({
        ruleId: 'suspicious-text',
        target: { sub: '/server/instructions', key: '/server/instructions' },
        message: `the server's instructions try something: ${hits.map((h) => `${TITLES.get(h.pattern)} (${h.pattern}) ${span(h.span)}`).join('; ')}`,
        data: { hits: hits.map((h) => ({ pointer: '/server/instructions', pattern: h.pattern, span: h.span })) as unknown as Json },
      });
    }
  }
  for (const tool of ctx.head.tools) {
    if (tool.safetyClass === 'disabled') continue;
    const before = base?.get(tool.name);
    // The same digest is the same tool as the model sees it: no text or argument of it is new.
    if (before && before.digest === tool.digest) continue;
    const old = before ? toolTexts(before) : undefined;
    const hits: ToolHit[] = [];
    for (const [pointer, text] of toolTexts(tool)) {
      // Judged once, when it is new: the same text at the same place in the base was reviewed.
      if (old?.get(pointer) === text) continue;
      for (const h of findSuspicious(text)) hits.push({ pointer, where: place(pointer), pattern: h.pattern, span: h.span });
    }
    if (before) {
      const had = new Set(propertiesOf(before));
      for (const name of propertiesOf(tool)) {
        if (!had.has(name) && EXFILTRATION_ARGUMENT.test(name))
          hits.push({
            pointer: `/inputSchema/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
            where: `argument "${name}"`,
            pattern: 'exfiltration-argument',
            span: name,
          });
      }
    }
    if (hits.length === 0) continue;
    const said = hits.map(
      (h) =>
        `${h.where}: ${h.pattern === 'exfiltration-argument' ? 'a new argument that invites the model to pass along what it knows' : TITLES.get(h.pattern)} (${h.pattern}) ${span(h.span)}`,
    );
    out.push({
      ruleId: 'suspicious-text',
      target: { tool: tool.name, sub: (hits[0] as ToolHit).pointer, key: '/suspicious' },
      message: `text of tool "${tool.name}" tries something: ${said.join('; ')}`,
      data: { hits: hits.map(({ pointer, pattern, span: s }) => ({ pointer, pattern, span: s })) as unknown as Json },
    });
  }
  return out;
};
