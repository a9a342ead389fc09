/**
 * What `suspicious-text` looks for in text a model reads (docs/design.md §5; issue 16): one row a pattern,
 * each with why it matters and where it comes from, like the rule catalog. `docs/rules.md` lists
 * them. Every pattern is explainable: a finding quotes the span and names the row. Pure data.
 */

/** One pattern. */
export interface SuspiciousPattern {
  /** Stable id, named in findings. */
  id: string;
  /** What it is, in a reviewer's words. */
  title: string;
  /** Global, case-insensitive where words are matched; run on each text alone. */
  regex: RegExp;
  rationale: string;
  source: string;
}

const INVARIANT = 'Invariant Labs, "MCP Security Notification: Tool Poisoning Attacks" (2025)';

export const SUSPICIOUS_PATTERNS: readonly SuspiciousPattern[] = [
  {
    id: 'hidden-instruction-tag',
    title: 'a tag that marks instructions for the model',
    regex: /<\s*\/?\s*(important|system|instructions?|secret|hidden|admin|critical|system[-_ ]?prompt)\b[^>]{0,40}>/gi,
    rationale:
      'Tool-poisoning payloads wrap instructions in tags such as <IMPORTANT> or <system> so the model treats them as higher-priority guidance; tool documentation has no use for them.',
    source: INVARIANT,
  },
  {
    id: 'concealment',
    title: 'an instruction to keep something from the user',
    regex:
      /\b(do\s+not|don['’]t|never|without)\s+(tell(ing)?|inform(ing)?|mention(ing)?|reveal(ing)?|show(ing)?|disclos(e|ing)|notify(ing)?|alert(ing)?)\b[^.\n]{0,40}?\b(the\s+)?(user|human|operator)s?\b/gi,
    rationale:
      'A tool has no reason to ask the model to hide what it does from the person it works for; "do not tell the user" is the most common payload found in published tool descriptions.',
    source: 'Audit of 140k registry tool descriptions (2026), as cited in toolgate issue 16; MCP spec, Security considerations (user consent)',
  },
  {
    id: 'instruction-override',
    title: 'an instruction to ignore earlier instructions',
    regex:
      /\b(ignore|disregard|forget|override)\s+(?:(?:all|any|of|the|your|my|these|those)\s+){0,4}(previous|prior|above|earlier|preceding|other|system)\s+(instructions?|prompts?|rules|directions|guidelines)\b/gi,
    rationale: 'The classic prompt-injection phrase: text in a tool description that tries to replace the instructions the model already has.',
    source: 'OWASP Top 10 for LLM Applications 2025, LLM01 Prompt Injection',
  },
  {
    id: 'other-tool-directive',
    title: 'a directive about when to use other tools',
    regex:
      /\b(before|after|instead\s+of|prior\s+to)\s+(using|calling|invoking|running)\s+(any|every|all|each|the\s+other|other)\s+(other\s+)?(tools?|functions?)\b|\b(always|must)\s+(call|use|invoke|run)\s+this\s+tool\s+(first|before)\b/gi,
    rationale:
      'One server\'s description steering how the model uses every tool ("before using any other tool, call …") is how a malicious server shadows the tools of trusted ones.',
    source: `${INVARIANT} (cross-server shadowing)`,
  },
  {
    id: 'sensitive-path',
    title: 'a path to secrets or credentials',
    regex:
      /(~\/\.ssh\b|\.ssh\/|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws\/credentials|\.git-credentials|\.netrc\b|\.npmrc\b|\.kube\/config|\/etc\/(passwd|shadow)\b|(^|[\s"'`(/])\.env(\.[a-z]+)?\b|\bmcp\.json\b|\bcredentials\.json\b)/gi,
    rationale:
      'Poisoning payloads ask the model to read keys and credentials (~/.ssh/id_rsa, .env, ~/.cursor/mcp.json) and pass them on as an argument; a tool description rarely needs to name such files.',
    source: INVARIANT,
  },
  {
    id: 'invisible-character',
    title: 'an invisible or direction-changing character',
    // A class of single code points on purpose (U+034F and the selectors are matched alone).
    regex:
      // eslint-disable-next-line no-misleading-character-class
      /[\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u034F\u115F\u1160\u3164\uFFA0]|[\uFE00-\uFE0F]{2,}/gu,
    rationale:
      'Unicode tag characters (U+E0000–E007F) and variation selectors (U+E0100–E01EF, or a run of U+FE00–FE0F) carry text a model reads and a person does not see ("ASCII smuggling"); bidi controls reorder what a reviewer sees; zero-width characters, the combining grapheme joiner and Hangul fillers hide words from review and from pattern matching. One U+FE0F after an emoji is ordinary text and is not matched.',
    source: 'Unicode Technical Report #36, Unicode Security Considerations; Trojan Source (CVE-2021-42574)',
  },
  {
    id: 'image',
    title: 'an image in text a model reads',
    regex: /!\[[^\]\n]{0,200}\]\([^)\s]{1,500}\)|<\s*img\b[^>]{0,500}>/gi,
    rationale: 'A client that renders a description fetches its images: an image URL carrying data is a way out, and a tool description has no use for one.',
    source: 'Embrace The Red, "Markdown image exfiltration" (2023-2025); OWASP LLM02 Sensitive Information Disclosure',
  },
  {
    id: 'link',
    title: 'a link that carries data out',
    regex: /\[[^\]\n]{1,200}\]\(\s*[a-z][a-z0-9+.-]*:[^)\s]*([{}$<>]|\?[^)\s]*=)[^)\s]*\)|<\s*a\s[^>]{0,500}href\s*=/gi,
    rationale:
      'A Markdown link whose URL has a placeholder or a query string ({data}, ?q=…) asks the model to put data into a URL that it or the client then fetches; an HTML link in a description has no place either. Plain links to documentation are not raised: published servers link their docs (Notion, Brave).',
    source: 'OWASP LLM02 Sensitive Information Disclosure; MCP spec, Security considerations',
  },
];

/**
 * Names of arguments that invite a model to pass along what it knows (the conversation, its
 * reasoning, secrets it saw): a classic exfiltration channel when added to an existing tool.
 */
export const EXFILTRATION_ARGUMENT =
  /^(notes?|context|feedback|debug(_?info)?|summary|conversation(_?history)?|chat(_?history)?|history|reasoning|thoughts?|side_?notes?|memo|remarks?|comments?|extra(_?info)?|additional(_?info|_?context)?|sidenote|user_?info)$/i;

/** A hit: which pattern, where in the text, and the text matched. */
export interface SuspiciousHit {
  pattern: string;
  index: number;
  span: string;
}

/**
 * Every pattern's first hit in `text` (one per pattern: a finding names each once). Text a model
 * reads the same way is matched the same way: each pattern also runs on the NFKC form
 * (full-width `＜IMPORTANT＞` is `<IMPORTANT>`); a hit there quotes the NFKC span and its index.
 */
export function findSuspicious(text: string): SuspiciousHit[] {
  const hits: SuspiciousHit[] = [];
  const folded = text.normalize('NFKC');
  for (const p of SUSPICIOUS_PATTERNS) {
    for (const variant of folded === text ? [text] : [text, folded]) {
      p.regex.lastIndex = 0;
      const m = p.regex.exec(variant);
      if (m) {
        hits.push({ pattern: p.id, index: m.index, span: m[0] });
        break;
      }
    }
  }
  return hits;
}
