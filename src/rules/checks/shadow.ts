/**
 * `tool-shadowed` (docs/design.md §5): across the sources of one toolgate.yml, a tool name two sources
 * serve (an agent connected to both sees a collision; clients keep one, or rename), and a text of
 * one source's tool that names another source's tool (how a malicious server steers the model to,
 * or away from, a trusted server's tools). Judged over all sources at once, after each is listed;
 * each finding belongs to one source and is located on that source's contract line. Pure.
 */
import type { Surface } from '../../surface/model.js';
import type { RawFinding } from '../context.js';
import { identifierLike, meant, words } from '../tool-references.js';
import { toolTexts } from './suspicious.js';

/**
 * The `tool-shadowed` findings of each source, by source id (sources without any are absent).
 * @param sources each checked source's live surface, in policy order.
 */
export function shadowing(sources: readonly { id: string; surface: Surface }[]): Map<string, RawFinding[]> {
  const out = new Map<string, RawFinding[]>();
  const push = (id: string, f: RawFinding) => out.set(id, [...(out.get(id) ?? []), f]);
  const reachable = sources.map((s) => ({ id: s.id, tools: s.surface.tools.filter((t) => t.safetyClass !== 'disabled') }));
  const servedBy = new Map<string, string[]>();
  for (const s of reachable) for (const t of new Set(s.tools.map((x) => x.name))) servedBy.set(t, [...(servedBy.get(t) ?? []), s.id]);

  for (const s of reachable) {
    // Names of the other sources' tools, worth looking for in this source's text.
    // A name this source serves itself is its own tool's (a same-name collision is raised apart).
    const own = new Set(s.tools.map((t) => t.name.toLowerCase()));
    // By lower-case name: a text that names READ_FILE means read_file.
    const others = new Map<string, { tool: string; source: string }>();
    for (const o of reachable) {
      if (o.id === s.id) continue;
      for (const t of o.tools) {
        const key = t.name.toLowerCase();
        if (identifierLike(t.name) && !own.has(key) && !others.has(key)) others.set(key, { tool: t.name, source: o.id });
      }
    }
    for (const t of s.tools) {
      const also = (servedBy.get(t.name) ?? []).filter((id) => id !== s.id);
      if (also.length) {
        push(s.id, {
          ruleId: 'tool-shadowed',
          target: { tool: t.name, key: '/shadowed' },
          message: `tool "${t.name}" is also served by source${also.length === 1 ? '' : 's'} ${also.map((id) => `"${id}"`).join(', ')}: an agent connected to both sees two tools of one name, and its client keeps one of them or renames them`,
          data: { kind: 'same-name', sources: also },
        });
      }
      const named: { pointer: string; tool: string; source: string }[] = [];
      for (const [pointer, text] of toolTexts(t)) {
        for (const w of new Set(words(text))) {
          for (const key of meant(w)) {
            const other = others.get(key);
            if (other !== undefined && !named.some((n) => n.tool === other.tool)) named.push({ pointer, tool: other.tool, source: other.source });
          }
        }
      }
      if (named.length) {
        push(s.id, {
          ruleId: 'tool-shadowed',
          target: { tool: t.name, sub: (named[0] as { pointer: string }).pointer, key: '/names-other-tool' },
          message: `the text of tool "${t.name}" names ${named
            .slice(0, 5)
            .map((n) => `tool "${n.tool}" of source "${n.source}"`)
            .join(
              ', ',
            )}${named.length > 5 ? ` and ${named.length - 5} more` : ''}: a server's text that steers the model toward (or away from) another server's tools is how one server shadows another`,
          data: { kind: 'names-other-tool', named },
        });
      }
    }
  }
  return out;
}
