/**
 * String literals of the formats exports write. Every tool name is hostile input (it comes from
 * the server under review): each writer escapes what its grammar gives meaning to, and writes
 * every character outside printable ASCII as an escape, so no name can end a literal, start a
 * line, or hide in a diff (bidi controls, invisible characters, U+2028). Pure.
 */

const hex = (cp: number, width: number) => cp.toString(16).toUpperCase().padStart(width, '0');
const printableAscii = (cp: number) => cp >= 0x20 && cp <= 0x7e;

/** Every code point outside printable ASCII through `escape`; `special` gets its own escapes. */
function escapeWith(text: string, special: Record<string, string>, escape: (cp: number) => string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    out += special[ch] ?? (printableAscii(cp) ? ch : escape(cp));
  }
  return out;
}

const QUOTE_BACKSLASH = { '"': '\\"', '\\': '\\\\' };

/** Every character outside ASCII as `\uXXXX`: safe on JSON text, whose only such characters are in strings. */
export function asciiJson(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (c) => `\\u${hex(c.charCodeAt(0), 4).toLowerCase()}`);
}

/**
 * A double-quoted string as JSON (RFC 8259 §7) writes it, ASCII only: JSON.stringify's escapes,
 * then every other character as `\uXXXX` (astral code points as a surrogate pair; a lone
 * surrogate, which JSON allows, stays an escape).
 */
export function jsonAscii(text: string): string {
  return asciiJson(JSON.stringify(text));
}

/** A Cedar string literal (Cedar language reference, "String literals": `\"`, `\\`, `\u{…}`). */
export function cedarString(text: string): string {
  return `"${escapeWith(text, QUOTE_BACKSLASH, (cp) => `\\u{${hex(cp, 1).toLowerCase()}}`)}"`;
}

/** A CEL string literal (CEL spec, "String and bytes values": `\uXXXX`, `\UXXXXXXXX`). */
export function celString(text: string): string {
  return `"${escapeWith(text, QUOTE_BACKSLASH, (cp) => (cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`))}"`;
}

/** A TOML basic string (TOML 1.0, "String": `\uXXXX`, `\UXXXXXXXX`). */
export function tomlString(text: string): string {
  return celString(text);
}

/** A TOML key: bare when it is `A-Za-z0-9_-` (TOML 1.0, "Keys"), else a basic string. */
export function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

/** A name inside a comment or a message: JSON-quoted, ASCII only, so it cannot end the comment. */
export function quoted(text: string): string {
  return jsonAscii(text);
}

/**
 * A shell word for a comment line: bare when plainly safe, single-quoted when printable ASCII,
 * else bash's `$'…'` with every other character escaped (so no name can end the comment line:
 * YAML 1.1 readers also break lines at U+0085, U+2028 and U+2029).
 */
export function shellWord(s: string): string {
  if (/^[A-Za-z0-9_./:@=+-]+$/.test(s)) return s;
  if (/^[\x20-\x7e]*$/.test(s)) return `'${s.replaceAll("'", `'\\''`)}'`;
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === "'" || ch === '\\') out += `\\${ch}`;
    else if (cp >= 0x20 && cp <= 0x7e) out += ch;
    else out += cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  }
  return `$'${out}'`;
}
