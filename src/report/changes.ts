import { describeAuthChange, type Change } from '../diff/change.js';

/**
 * One line per change, in the surface's words: `+ tool x added`, `~ x: readOnlyHint true → (not
 * declared; effective false)`. Tool names are raw here: each renderer escapes the line.
 */
export function describeChange(c: Change): string {
  switch (c.kind) {
    case 'tool-added':
      return `+ tool ${c.tool} added (${c.head.safetyClass})`;
    case 'tool-removed':
      return `- tool ${c.tool} removed`;
    case 'hint-changed': {
      const side = (h: { declared?: boolean; effective: boolean }) =>
        h.declared === undefined ? `not declared (effective ${h.effective})` : String(h.declared);
      return `~ ${c.tool}: ${c.hint} ${side(c.base)} → ${side(c.head)}`;
    }
    case 'class-changed':
      return `~ ${c.tool}: class ${c.base} → ${c.head}`;
    case 'text-changed':
      return c.field === 'inputSchema' ? `~ ${c.tool}: text of inputSchema${c.pointer ?? ''} changed` : `~ ${c.tool}: ${c.field} changed`;
    case 'input-schema-changed':
      return `~ ${c.tool}: inputSchema changed`;
    case 'output-schema-changed':
      return `~ ${c.tool}: outputSchema changed`;
    case 'origin-changed':
      return `~ ${c.tool}: origin ${c.base ? `${c.base.method} ${c.base.path}` : 'none'} → ${c.head ? `${c.head.method} ${c.head.path}` : 'none'}`;
    case 'call-changed':
      return `~ ${c.tool}: ${c.differences.map((d) => d.text).join('; ')}`;
    case 'call-first-pinned':
      return `~ ${c.tool}: servers, security, parameters and media types pinned for the first time`;
    case 'metadata-changed':
      return `~ ${c.tool}: ${c.field} changed`;
    case 'count-changed':
      return `~ ${c.count} ${c.base} → ${c.head}`;
    case 'server-changed':
      return `~ server ${c.field} ${c.base ?? 'none'} → ${c.head ?? 'none'}`;
    case 'source-changed':
      return `~ source ${c.field} changed`;
    case 'instructions-changed':
      return `~ server instructions ${c.base === undefined ? 'added' : c.head === undefined ? 'removed' : 'changed'}`;
    case 'auth-metadata-changed':
      return `~ protected resource metadata: ${describeAuthChange(c)}`;
  }
}
