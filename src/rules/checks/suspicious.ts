/**
 * `suspicious-text`: text a model reads that tries something (the rows of
 * src/rules/suspicious-patterns.ts: hidden instructions, concealment, overrides, directives about
 * other servers' tools, data sent out, secrets read, arguments rewritten, shell commands), and
 * arguments shaped to carry what the model knows: `_system_prompt_` or `conversation_history` on
 * any new tool, `notes` or `context` added to an existing one. One finding per tool, quoting each
 * span and naming its pattern.
 *
 * Only text that is new is judged: everything in an audit (and at first adoption), in a check
 * only the texts that differ from the base. A text a reviewer already approved is not raised again
 * on every run; a changed one rides on the approval `description-changed` already needs.
 */
import { describeSchemaTextPath, schemaTexts } from '../../diff/schema-text.js';
import type { SurfaceTool } from '../../surface/model.js';
import type { Json } from '../../util/json.js';
import { escapePointerToken, getOwn, isObject } from '../../util/json.js';
import { mark } from '../../util/timing.js';
import type { Check, RawFinding } from '../context.js';
import { SUSPICIOUS_TEXT_FIXES } from '../catalog/text.js';
import { SUSPICIOUS_PATTERNS, USER_SUPPLIED } from '../suspicious-patterns.js';
import { MAX_QUOTE } from '../suspicious-quote.js';
import { CONTEXT_ARGUMENT, CONTEXT_ARGUMENT_NAMES, EXFILTRATION_ARGUMENT } from '../suspicious-vocabulary.js';
import { findSuspicious, ownNames, type OwnNames, type SuspiciousHit } from '../suspicious-scan.js';

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

/** {@link toolTexts} and what its arguments are named and may take ({@link argumentTexts}): what `suspicious-text` reads. */
function judgedTexts(t: SurfaceTool): Map<string, string> {
  const out = toolTexts(t);
  argumentTexts(t.inputSchema, '/inputSchema', out);
  return out;
}

/** An identifier of four words or more (`summary_of_all_previous_messages`, `debugWithFullChatAttached`). */
const SENTENCE_IDENTIFIER = /^[A-Za-z][a-z0-9]*(?:(?:[_.-]+[A-Za-z0-9]|(?<=[a-z0-9])[A-Z])[a-z0-9]*){3,}[_-]*$/;

/**
 * The words of an identifier that reads as a phrase (`content_of_aws_credentials_file` →
 * "content of aws credentials file"), else undefined: a name or a value can carry an instruction
 * as well as a description can, and the rows read words, not identifiers.
 */
function identifierWords(id: string): string | undefined {
  if (id.length > 200 || !SENTENCE_IDENTIFIER.test(id)) return undefined;
  return id
    .replace(/(?<=[a-z0-9])(?=[A-Z])/g, ' ')
    .replace(/[_.-]+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * What a model reads of a schema's arguments besides their descriptions, into `out`, 64 levels at
 * most: the `enum` and `const` strings, one text a list (`/inputSchema/properties/x/enum`), and each
 * name that reads as a phrase, as its words, at the argument's pointer (`/inputSchema/properties/x`).
 * A value or a name can carry an instruction as well as a description can; one shaped as an
 * identifier (`debug_with_full_chat_attached`) is read as its words too ({@link identifierWords}).
 */
function argumentTexts(schema: Json | undefined, at: string, out: Map<string, string>, depth = 0): void {
  if (depth > 64 || !isObject(schema)) return;
  for (const k of ['enum', 'const']) {
    const v = getOwn(schema, k);
    const strings = typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    const read = strings.flatMap((v) => [v, identifierWords(v) ?? []].flat());
    if (read.length) out.set(`${at}/${k}`, read.join('\n'));
  }
  const props = getOwn(schema, 'properties');
  if (isObject(props))
    for (const [name, sub] of Object.entries(props)) {
      const pointer = `${at}/properties/${escapePointerToken(name)}`;
      const words = identifierWords(name);
      if (words !== undefined) out.set(pointer, words);
      argumentTexts(sub, pointer, out, depth + 1);
    }
  const items = getOwn(schema, 'items');
  if (isObject(items)) argumentTexts(items, `${at}/items`, out, depth + 1);
}

/** Where a text is, in a reviewer's words. */
function place(pointer: string): string {
  // An argument's name sits at the argument's own pointer; describeSchemaTextPath names the argument a text below it belongs to.
  if (/\/properties\/[^/]+$/.test(pointer)) return `the name of ${describeSchemaTextPath(`${pointer.slice('/inputSchema'.length)}/description`)}`;
  if (pointer === '/description') return 'description';
  if (pointer === '/title') return 'title';
  if (pointer === '/annotations/title') return 'annotations.title';
  return describeSchemaTextPath(pointer.slice('/inputSchema'.length));
}

const TITLES = new Map(SUSPICIOUS_PATTERNS.map((p) => [p.id, p.title]));
const span = (s: string) => JSON.stringify(s.length > MAX_QUOTE ? `${s.slice(0, MAX_QUOTE - 1)}…` : s);

/** One hit of a tool: where, and the scan's hit (pattern, quote, match, other tool, added words). */
interface ToolHit extends Omit<SuspiciousHit, 'index'> {
  pointer: string;
  where?: string;
}

/**
 * One hit in a reviewer's words: where, what the pattern is, the other tool it is about, and the
 * sentence. For a changed text the words the change added lead, as what is new to read
 * ("description adds \"…\": …"); the sentence follows when it says more than they do.
 */
function said(h: ToolHit): string {
  // Without a place (the instructions' first hit, whose added words the message leads with), `added` only spares the quote.
  const at = h.where === undefined ? '' : h.added !== undefined ? `${h.where} adds ${span(h.added)}: ` : `${h.where}: `;
  const about = h.otherTool !== undefined ? `, about ${span(h.otherTool)}` : '';
  const quote = h.added !== undefined && h.added.includes(h.span) ? '' : `: ${span(h.span)}`;
  return `${at}${ARGUMENT_TITLES[h.pattern] ?? TITLES.get(h.pattern)} (${h.pattern})${about}${quote}`;
}

/** A hit as the finding's data keeps it: the fields a program reads, without the reviewer's place name. */
const hitData = ({ pointer, pattern, span: s, match, otherTool, added }: ToolHit) => ({
  pointer,
  pattern,
  span: s,
  ...(match !== undefined ? { match } : {}),
  ...(otherTool !== undefined ? { otherTool } : {}),
  ...(added !== undefined ? { added } : {}),
});

const propertiesOf = (t: SurfaceTool | undefined): string[] => {
  const props = t?.inputSchema ? getOwn(t.inputSchema, 'properties') : undefined;
  return isObject(props) ? Object.keys(props) : [];
};

/** An argument's name or description: there the text says what the model fills in. */
const isArgumentText = (pointer: string) => /\/properties\/[^/]+(?:\/(?:description|title|default|examples|enum|const))?$/.test(pointer);

/** Keys and `enum`/`const` strings of a schema, lower case, into `out` (64 levels, 10,000 names at most). */
function schemaNames(schema: Json | undefined, out: Set<string>, depth = 0): void {
  if (depth > 64 || out.size > 10_000 || schema === null || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const v of schema) schemaNames(v, out, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(schema)) {
    out.add(k.toLowerCase());
    if ((k === 'enum' || k === 'const') && (typeof v === 'string' || Array.isArray(v)))
      for (const e of [v].flat()) if (typeof e === 'string') out.add(e.toLowerCase());
    schemaNames(v, out, depth + 1);
  }
}

/**
 * What the surface itself serves: its tools' names and titles, their arguments' names at any depth
 * and the values they take (`enum`, `const`). A directive naming only these is the server's own
 * workflow ("call list_users first", "use gifRef instead").
 */
function servedNames(tools: readonly SurfaceTool[]): OwnNames {
  const names: string[] = [];
  for (const t of tools) {
    names.push(t.name);
    if (t.title !== undefined) names.push(t.title);
    const at = t.annotations ? getOwn(t.annotations, 'title') : undefined;
    if (typeof at === 'string') names.push(at);
  }
  const schema = new Set<string>();
  for (const t of tools) schemaNames(t.inputSchema, schema);
  return ownNames([...names, ...schema], names.length);
}

/** Whether an argument's name asks for what the model knows (`_system_prompt_`, `chatHistory`). */
const asksForContext = (name: string) =>
  (name.startsWith('_') && CONTEXT_ARGUMENT.test(name)) || CONTEXT_ARGUMENT_NAMES.has(name.replace(/[_-]/g, '').toLowerCase());

const pointerOf = (name: string) => `/inputSchema/properties/${escapePointerToken(name)}`;

/**
 * Arguments of `tool` that are new (all of a new tool's) and shaped to carry what the model
 * knows: any with a context-shaped name; on an existing tool also one with a name from the
 * exfiltration list (`notes`, `context`), which real tools use too, so only its arrival is raised.
 */
function argumentHits(tool: SurfaceTool, before: SurfaceTool | undefined): ToolHit[] {
  const had = new Set(propertiesOf(before));
  const hits: ToolHit[] = [];
  const props = tool.inputSchema ? getOwn(tool.inputSchema, 'properties') : undefined;
  for (const name of propertiesOf(tool)) {
    if (had.has(name)) continue;
    // An argument the user fills ("the transcript the user pastes") is the tool's input.
    const schema = isObject(props) ? getOwn(props, name) : undefined;
    const text = isObject(schema) ? getOwn(schema, 'description') : undefined;
    if (typeof text === 'string' && USER_SUPPLIED.test(text)) continue;
    const where = `argument "${name}"`;
    if (asksForContext(name)) hits.push({ pointer: pointerOf(name), where, pattern: 'context-argument', span: name });
    else if (before && EXFILTRATION_ARGUMENT.test(name)) hits.push({ pointer: pointerOf(name), where, pattern: 'exfiltration-argument', span: name });
  }
  return hits;
}

/** What a hit's pattern is, in a reviewer's words. */
const ARGUMENT_TITLES: Record<string, string> = {
  'exfiltration-argument': 'a new argument that invites the model to pass along what it knows',
  'context-argument': 'an argument named for what the model knows (its prompt, the conversation)',
};

export const suspiciousText: Check = (ctx) => {
  // `TOOLGATE_TIMING=1`: the time between the two marks is this check's (bench/poison measures it).
  mark('suspicious-text started');
  const base = ctx.base ? new Map(ctx.base.tools.map((t) => [t.name, t])) : undefined;
  const own = servedNames(ctx.head.tools);
  // Tools repeat texts ("The ID of the project"): each is read once a run. The tool's own name
  // matters only where the text names it, so it is part of the key only there.
  const seen = new Map<string, SuspiciousHit[]>();
  const scan = (text: string, argument: boolean, self: string): SuspiciousHit[] => {
    const key = `${argument ? 'a' : 't'}${text.toLowerCase().includes(self.toLowerCase()) ? self : ''}\u0000${text}`;
    let hits = seen.get(key);
    if (!hits) seen.set(key, (hits = findSuspicious(text, { own, argument, self })));
    return hits;
  };
  const out: RawFinding[] = [];
  // An audit (no base) has no change to approve: its fixes say whether to adopt the server.
  const fixes = ctx.base
    ? { tool: SUSPICIOUS_TEXT_FIXES.checkTool, instructions: SUSPICIOUS_TEXT_FIXES.checkInstructions }
    : { tool: SUSPICIOUS_TEXT_FIXES.auditTool, instructions: SUSPICIOUS_TEXT_FIXES.auditInstructions };
  // The server's instructions, when they are new: text every turn of the model reads.
  const instructions = ctx.head.server?.instructions;
  const reviewed = ctx.base?.server?.instructions;
  if (instructions !== undefined && instructions !== reviewed) {
    const hits = findSuspicious(instructions, { own, ...(reviewed !== undefined ? { before: reviewed } : {}) }).map(({ index: _, ...h }) => ({
      pointer: '/server/instructions',
      ...h,
    }));
    if (hits.length) {
      const first = hits[0] as ToolHit;
      out.push({
        ruleId: 'suspicious-text',
        target: { sub: '/server/instructions', key: '/server/instructions' },
        message: `the server's instructions ${first.added !== undefined ? `add ${span(first.added)} and ` : ''}try something: ${hits.map((h, i) => said({ ...h, added: i === 0 ? h.added : undefined })).join('; ')}`,
        fix: fixes.instructions,
        data: { hits: hits.map(hitData) as unknown as Json },
      });
    }
  }
  for (const tool of ctx.head.tools) {
    if (tool.safetyClass === 'disabled') continue;
    const before = base?.get(tool.name);
    // The same digest is the same tool as the model sees it: no text or argument of it is new.
    if (before && before.digest === tool.digest) continue;
    const old = before ? judgedTexts(before) : undefined;
    const hits: ToolHit[] = [];
    for (const [pointer, text] of judgedTexts(tool)) {
      // Judged once, when it is new: the same text at the same place in the base was reviewed.
      const was = old?.get(pointer);
      if (was === text) continue;
      // A changed text: what the change adds is judged, and quoted first.
      const found =
        was === undefined
          ? scan(text, isArgumentText(pointer), tool.name)
          : findSuspicious(text, { own, argument: isArgumentText(pointer), self: tool.name, before: was });
      for (const { index: _, ...h } of found) hits.push({ pointer, where: place(pointer), ...h });
    }
    hits.push(...argumentHits(tool, before));
    if (hits.length === 0) continue;
    out.push({
      ruleId: 'suspicious-text',
      target: { tool: tool.name, sub: (hits[0] as ToolHit).pointer, key: '/suspicious' },
      message: `text of tool "${tool.name}" tries something: ${hits.map(said).join('; ')}`,
      fix: fixes.tool,
      data: { hits: hits.map(hitData) as unknown as Json },
    });
  }
  mark('suspicious-text done');
  return out;
};
