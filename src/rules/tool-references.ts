/**
 * Tool names as prose mentions them: which words of a text may name a tool, and which tool a
 * prefixed spelling means. Shared by `tool-shadowed` (a text naming another source's tool) and
 * `suspicious-text` (a directive naming a tool this surface does not serve). Pure.
 */

/** A name specific enough that naming it in prose means that tool: an identifier with `_`, `-` or `.`, or camelCase. */
export const identifierLike = (n: string): boolean => n.length >= 4 && /^[A-Za-z][A-Za-z0-9_.-]*$/.test(n) && (/[_.-]/.test(n) || /[a-z][A-Z]/.test(n));

/** The identifier-like words of a text. */
export const words = (text: string): string[] => text.match(/[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9]/g) ?? [];

/**
 * The tool names a word may mean, folded to lower case: itself, and what follows a client's or a
 * server's prefix (`mcp__fs__read_file` as Claude Code names a tool, `fs.read_file`).
 */
export const meant = (w: string): string[] => [
  ...new Set([w, w.slice(w.lastIndexOf('__') + 2), w.slice(w.lastIndexOf('.') + 1)].filter((x) => x.length > 0).map((x) => x.toLowerCase())),
];

/**
 * Words before "tool" that name no tool ("this tool", "any tool", "the right tool"), and the kinds
 * of tool MCP's annotations describe ("calling mutating tools", "the read-only tools"): a phrase
 * "X tool" names a tool only when X is none of these. `read` and `write` stay names: clients have
 * tools called that (Claude Code's Read and Write).
 */
const NOT_A_NAME = new Set(
  (
    'a an the this that these those its it any each every all some no same other another which what whichever your our their my ' +
    'following previous next first last appropriate right relevant correct proper specific given said selected corresponding ' +
    'matching dedicated separate single new mcp ai llm model external individual respective one two three multiple several ' +
    'underlying current existing available target ' +
    'mutating modifying destructive non-destructive read-only readonly side-effecting state-changing idempotent non-idempotent'
  ).split(' '),
);

/** A name as prose writes it: in backticks or quotes, or bare. */
const NAME = '(?:`([^`]{1,64})`|\'([^\'\\n]{1,64})\'|"([^"\\n]{1,64})"|([A-Za-z][\\w.-]{0,63}[A-Za-z0-9]))';

/** `call read_file`, `each use of send_email`, `after every call to query_database`: a name after a verb of use. */
const AFTER_VERB = new RegExp(
  `(?:^|[\\s("'\\x60])(?:use of|uses of|call to|calls to|call|calls|calling|called|use|uses|using|used|invoke|invokes|invoking|invoked|run|runs|running|execute|executes|executing|executed|trigger|triggering)\\s+(?:the\\s+)?${NAME}`,
  'gi',
);
/** `prior to 'Query Documentation'`, `instead of git_push`, `through brave_web_search`: a name after an ordering word or a route (a verb may stand between). */
const AFTER_ORDER = new RegExp(
  `(?:^|[\\s("'\\x60])(?:before|after|prior to|instead of|rather than|in place of|than|over|through|via)\\s+(?:(?:using|calling|invoking|running)\\s+)?(?:the\\s+)?${NAME}`,
  'gi',
);
/** `the check tool`, `using check tool`, `read_file tool`, `'Query Documentation' tool`: a name written as a tool. */
const AS_TOOL = new RegExp(`(?:\\b(?:the|using|use|call|calling|invoke|run)\\s+)?${NAME}\\s+(tools?|functions?)\\b`, 'gi');
/** `execute minus operation`: a verb of use, one word, and what it names. */
const VERB_NOUN =
  /(?:^|[\s(])(?:call|use|invoke|run|execute|executing|calling|using|running)\s+([A-Za-z][\w-]{0,40})\s+(?:operations?|functions?|tools?|commands?)\b/gi;
/**
 * Another server's tools as a group, by the server's name: `the auth server's tools`, `the identity
 * server's login tool`, `tools of the billing server`, `from the vault server`.
 */
const SERVER_TOOLS =
  /\b([A-Za-z][\w-]{1,30})\s+(?:mcp\s+)?(?:server|integration|connector|plugin|extension)['’]s\s+(?:[\w-]{1,30}\s+)?(?:tools?|functions?)\b|\b(?:tools?|functions?)\s+(?:of|from)\s+the\s+([A-Za-z][\w-]{1,30})\s+(?:mcp\s+)?(?:server|integration|connector|plugin|extension)\b|\b(?:from|using|via|through|with|by)\s+the\s+([A-Za-z][\w-]{1,30})\s+(?:mcp\s+)?(?:server|integration|connector|plugin|extension)\b/gi;
/** What every {@link SERVER_TOOLS} match contains: sentences without it skip that regex. */
const SERVER_WORD = /server|integration|connector|plugin|extension/i;
/** Words before "server" that say what kind of server, not which one ("the remote server"). */
const NOT_A_SERVER = new Set(
  'remote local target web http https api proxy upstream backend origin database db mail smtp sql main primary default same this that other own'.split(' '),
);
/** `get_user(`: a call written out. */
const CALLED = /\b([A-Za-z][\w.-]{0,63}[A-Za-z0-9])\(/g;

/**
 * Words that may follow a tool's name in a sentence. A bare identifier followed by another word
 * ("eventType filters", "fetch_all=True") is a field or a value, not a tool.
 */
const FOLLOWS_A_NAME = new Set(
  (
    'to with for and or instead first before after when whenever if on in rather once again directly because since which that ' +
    'so as then tool tools function functions is are was were will would must should can may might has have had does do ' +
    'every each any all this these its it from by at otherwise until unless but nor'
  ).split(' '),
);

/** One tool a sentence names. */
export interface ToolMention {
  /** The name as written. */
  name: string;
  /** Where it starts in the sentence. */
  index: number;
  /** Written as a group, "X tools" ("the Shopify tools"): a vendor or server, not one tool. */
  group: boolean;
}

/** The word after position `end` of `text`, lower case ('' at punctuation or the end). */
const nextWord = (text: string, end: number) => /^\s+([A-Za-z]+)/.exec(text.slice(end, end + 40))?.[1]?.toLowerCase() ?? '';

/**
 * The tools a sentence names: identifiers or quoted identifiers after a verb of use or an ordering
 * word (`call read_file`, `prior to 'Query Documentation'`), what is written as a tool ("the
 * check tool", "`x` tool"), a verb and one word before "operation" ("execute minus operation"),
 * another server's tools by the server's name ("the auth server's tools", "from the vault server", a
 * group), and calls written `name(`. A bare identifier followed by another content word is a field or a
 * value ("use eventType filters"), and a plain word is not a name ("use caution").
 */
export function toolMentions(sentence: string): ToolMention[] {
  const out = new Map<string, ToolMention>();
  const add = (name: string | undefined, index: number, group = false) => {
    const n = name?.trim();
    if (n && !NOT_A_NAME.has(n.toLowerCase()) && !out.has(n.toLowerCase())) out.set(n.toLowerCase(), { name: n, index, group });
  };
  const at = (m: RegExpExecArray, g: number) => m.index + m[0].lastIndexOf(m[g] as string);
  for (const re of [AFTER_VERB, AFTER_ORDER])
    for (const m of sentence.matchAll(re)) {
      const g = [1, 2, 3, 4].find((i) => m[i] !== undefined) as number;
      const name = m[g] as string;
      const end = m.index + m[0].length;
      // `fetch_all=True` is an argument; `eventType filters` a field.
      const followedOk = g !== 4 || (sentence[end] !== '=' && (FOLLOWS_A_NAME.has(nextWord(sentence, end)) || nextWord(sentence, end) === ''));
      if (identifierLike(name) && followedOk) add(name, at(m, g));
    }
  for (const m of sentence.matchAll(AS_TOOL)) {
    const g = [1, 2, 3, 4].find((i) => m[i] !== undefined) as number;
    const name = m[g] as string;
    const group = /s$/i.test(m[5] as string);
    // "the check tool" names a tool; ", CLI tool" is a kind of tool.
    if (g !== 4 || identifierLike(name) || /^(?:the|using|use|call|calling|invoke|run)\s/i.test(m[0])) add(name, at(m, g), group);
  }
  for (const m of sentence.matchAll(VERB_NOUN)) add(m[1], at(m, 1));
  if (SERVER_WORD.test(sentence))
    for (const m of sentence.matchAll(SERVER_TOOLS)) {
      const g = [1, 2, 3].find((i) => m[i] !== undefined) as number;
      if (!NOT_A_SERVER.has((m[g] as string).toLowerCase())) add(m[g], at(m, g), true);
    }
  for (const m of sentence.matchAll(CALLED)) if (identifierLike(m[1] as string)) add(m[1], m.index);
  return [...out.values()];
}

/**
 * What in a sentence is not a name: URLs, e-mail addresses, host names, file paths and file names
 * (`~/.ssh/id_rsa`, `.env`, `config.json`). Each is blanked before a sentence's identifiers are read.
 */
const NOT_NAMES =
  /\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s"'<>`)\]]{0,500}|[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}|(?:~|\.{1,2})?\/[\w.~/-]{1,300}|\b[\w-]{1,63}(?:\.[\w-]{1,63}){0,8}\.(?:com|net|org|io|dev|sh|co|xyz|app|ai|cloud|site|info|biz|me|ru|cn|tk|top|link|click|online|to|cc|pw|ws|json|ya?ml|toml|md|txt|py|js|ts|mjs|cjs|env|pem|db|plist|lock|csv|html?|xml|log|dat|ini|cfg|conf|sql|zip|gz|tar|png|jpe?g|gif|svg|pdf|docx?|xlsx?|rb|go|rs|java|kt|swift|c|h|cpp|cs|php)\b|\.env(?:\.\w+)?\b|\b(?:e\.g|i\.e|etc|vs)\b/gi;

/** A word written as code: in backticks or quotes (one word, no blank). */
const QUOTED_WORD = /[`'"]([A-Za-z][\w.-]{2,63})[`'"]/g;
/** A bare identifier: snake_case, camelCase or dotted (`github.push_files`). */
const BARE_IDENTIFIER = /(?:^|[^\w.$@/-])([A-Za-z][A-Za-z0-9]*(?:(?:[_.]|__)[A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*)(?![\w=-])/g;

/** What makes an identifier a field, an option or a value rather than a tool. */
const FIELD_AFTER =
  /^[`'"]?\s*(?:fields?|options?|parameters?|params?|arguments?|args?|propert(?:y|ies)|keys?|attributes?|values?|columns?|flags?|settings?|=|:)/i;
const FIELD_BEFORE =
  /\b(?:fields?|options?|parameters?|params?|arguments?|args?|propert(?:y|ies)|keys?|attributes?|columns?|flags?|returned|response)\s+[`'"]?$/i;

/**
 * Verbs tools are named for (`read_file`, `github_list_secrets`, `getUser`): a snake_case or
 * camelCase word with one of these is shaped like a tool; one without (`project_id`,
 * `createdAt`, `version_threshold`) like a field a text explains.
 */
const TOOL_VERBS = new Set(
  (
    'get list read write send fetch search query run exec execute post put patch delete remove create update upload download set add call ' +
    'open find check validate verify init initialize authenticate auth login logout export import sync transfer sign make browse scan load ' +
    'save store generate dump clear show start stop reset dump log notify push pull commit clone deploy install invoke trigger refresh ' +
    'lookup resolve navigate click copy move rename edit insert submit share forward publish tweet pay charge process ' +
    'approve grant revoke encrypt decrypt backup restore analyze summarize translate convert extract parse describe inspect monitor track ' +
    'collect gather harvest grab steal leak audit diagnose authorize register capture calculate compute prepare ' +
    // German, Spanish and French, the languages suspicious-text reads: `lese_passwoerter`, `obtener_tokens`.
    'lese lies sende schicke sammle exportiere lade schreibe suche liste erstelle loesche pruefe hole kopiere zeige ' +
    'leer obtener enviar exportar listar buscar crear borrar recopilar subir volcar copiar descargar lire obtenir envoyer exporter lister chercher supprimer collecter copier recuperer'
  ).split(' '),
);

/**
 * Whether an identifier is shaped like a tool's name: snake_case (camelCase and kebab-case are
 * mostly fields and English), and one of its words a verb tools are named for, or, when the
 * sentence calls it a tool or calls it (`cued`), its last word not one fields end with
 * (`session_manager`, not `project_id`).
 */
export function toolShaped(name: string, cued = false): boolean {
  const w = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.-]+/);
  // Dotted names are tools under a prefix (`github.push_files`); `outcome.result` is a field. A
  // camelCase or kebab-case word is a tool only where the sentence calls it one (`getAuthToken`).
  if (!name.includes('_')) return cued && /[a-z][A-Z]|-/.test(name) && !name.includes('.') && w.some((x) => TOOL_VERBS.has(x));
  // `process_payment` is a tool; `process_name`, whose only verb is a noun too, a field.
  const verbs = w.filter((x) => TOOL_VERBS.has(x));
  if (verbs.length > 0 && verbs.every((x) => NOUN_VERBS.has(x)) && FIELD_WORDS.has(w[w.length - 1] as string)) return false;
  return verbs.length > 0 || (cued && w.length > 1 && !FIELD_WORDS.has(w[w.length - 1] as string) && !/\d/.test(name));
}

/** Verbs of {@link TOOL_VERBS} that are nouns as often (`process_id`): with a field's last word, a name of them alone is a field. */
const NOUN_VERBS = new Set(['process']);

/** What makes the identifier next to it a tool whatever its words: a verb of calling before it, "tool" or a German verb of calling after it ("`x` ausführen"). */
const CALL_BEFORE =
  /\b(?:call|calls|calling|called|invoke|invokes|invoking|invoked|use|uses|using|execute|executing|trigger|triggering|call to|calls to)\s+(?:the\s+)?[`'"]?$/i;
const TOOL_AFTER = /^[`'"]?\s+(?:tools?|functions?|ausf[üu]hren|aufrufen)\b/i;

/** Last words of fields, not tools: `project_id`, `created_at`, `root_configuration_schema`. */
const FIELD_WORDS = new Set(
  (
    'id ids at on by url uri urls name names type types date time timestamp count size limit offset page cursor number num code status ' +
    'level mode format version value values dir file path field fields schema config configuration settings options params data key keys ' +
    'token tokens email address label title text body content description flag enabled hash ref'
  ).split(' '),
);

/**
 * Every word of a sentence shaped like a tool's name, wherever it stands: an identifier in
 * backticks or quotes, or a bare snake_case, camelCase or dotted one (`read_file`, `getUser`,
 * `github.push_files`), one of whose words is a verb tools are named for ({@link TOOL_VERBS}).
 * URLs, addresses, paths, file names and CONSTANTS are not names; a kebab-case word outside quotes
 * is ordinary English (`read-only`). Wider than {@link toolMentions}: callers pair it with words
 * that make a sentence about tools.
 */
export function identifierMentions(sentence: string): ToolMention[] {
  const text = sentence.replace(NOT_NAMES, (m) => ' '.repeat(m.length));
  const out = new Map<string, ToolMention>();
  const add = (name: string, index: number) => {
    const cued = CALL_BEFORE.test(text.slice(Math.max(0, index - 25), index)) || TOOL_AFTER.test(text.slice(index + name.length, index + name.length + 12));
    if (!identifierLike(name) || !toolShaped(name, cued) || name === name.toUpperCase() || out.has(name.toLowerCase())) return;
    out.set(name.toLowerCase(), { name, index, group: false });
  };
  const scan = (re: RegExp, quoted: boolean) => {
    for (const m of text.matchAll(re)) {
      const name = m[1] as string;
      const at = m.index + m[0].length - name.length - (quoted ? 1 : 0);
      const end = at + name.length + (quoted ? 1 : 0);
      // A field or an option the text explains ("the `uploadRef` field", "fetch_all option").
      if (FIELD_AFTER.test(text.slice(end, end + 20)) || FIELD_BEFORE.test(text.slice(Math.max(0, at - 21), at - (quoted ? 1 : 0)))) continue;
      add(name, quoted ? at : at);
    }
  };
  scan(QUOTED_WORD, true);
  scan(BARE_IDENTIFIER, false);
  return [...out.values()];
}
