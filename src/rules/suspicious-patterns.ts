/**
 * What `suspicious-text` looks for in text a model reads (docs/design.md §5): one row a pattern,
 * each with why it matters and where it comes from, like the rule catalog. `docs/rules.md` lists
 * them. Every pattern is explainable: a finding quotes the span and names the row. Pure data; the
 * scanner that runs it is `suspicious-scan.ts`.
 *
 * Most rows are co-occurrences within one sentence rather than word lists: a verb that moves data
 * and a destination; a secret and a verb that reads or sends it; an ordering word, a verb of use
 * and a tool this server does not serve. Words alone ("secret", "~/.ssh", "before") are the
 * ordinary vocabulary of real tools, and matching them alone raises what nobody needs to read.
 *
 * Hostile text runs through every regex: each is linear in its input (no backreferences or
 * lookaround, so RE2 accepts it; every repetition that could overlap another is bounded).
 */

import { AGENT_DOES, CONVERSATION_TRIGGERS, DISPARAGE, DISPARAGE_TRIGGERS, NAMED_SLOT, PINNED, SECRET_TRIGGERS, STEP } from './suspicious-vocabulary.js';

/** One pattern. */
export interface SuspiciousPattern {
  /** Stable id, named in findings. */
  id: string;
  /** What it is, in a reviewer's words. */
  title: string;
  /**
   * `text`: the first regex runs on the whole text as sent (and on its NFKC form).
   * `sentence`: every regex must match within one sentence of the text, read with look-alike
   * letters folded and invisible characters removed; the quote is what the first one matched.
   */
  scope: 'text' | 'sentence';
  /** Case-insensitive, not global; the first is the anchor, quoted in the finding. */
  all: readonly RegExp[];
  /**
   * A cheap test every text the row can hit passes (a character or literal its regexes all
   * need): texts without it skip the row's larger regexes. Speed only; it decides nothing.
   */
  gate?: RegExp;
  /**
   * A verb aimed at the model whose object the anchor is: it stands before the anchor, at the
   * start of a clause or after a word that makes it a directive ("to", "and", "must", "always",
   * "this tool also"), within `words` words; with `direct`, no preposition but "of" stands between
   * ("read the .env file" is; "include periods per API key" is not). The quote runs from the verb
   * to the anchor. A verb in the third person or the passive ("adds", "are read") is the tool
   * describing itself and does not count, unless `anyVoice` (data that "is relayed to" a host or
   * that the tool "sends to" one leaves all the same) or the tool is named as the one acting
   * ("this tool also reads").
   */
  verb?: { re: RegExp; words: number; direct?: boolean; anyVoice?: boolean };
  /**
   * `other-tool`: the sentence must also name a tool that this surface does not serve (another
   * server's), by name or as "other tools", "the built-in tools". `away-from-other`: the sentence
   * steers away from such a tool ("instead of X", "X is deprecated", "do not use X"), or toward
   * this tool while naming one. `other-group`: what the anchor names as other tools is not this
   * server's ("before any other Shopify tools" on a Shopify server, "any other tool of this server").
   */
  needs?: 'other-tool' | 'away-from-other' | 'other-group';
  /**
   * Words (their first four letters, lower case; shorter words whole) one of which every hit of
   * the row contains: a text without any of them skips the row's regexes. Speed only; a text in
   * a script other than Latin skips no row.
   */
  triggers?: string;
  /** No hit when a negation (never, not, do not, without) stands just before the verb (or the anchor). */
  negatable?: boolean;
  /** Only in the description of an argument: there the text says what the model puts in. */
  argumentOnly?: boolean;
  /**
   * Not raised when the sentence of the hit (for a `text` row, its part before the hit) matches
   * this: the text quotes or explains the thing rather than asking for it ("flags phrases such as
   * …", "a webhook URL that the user provides").
   */
  except?: RegExp;
  /** Not raised when this row already hit the same text (it says the same, less precisely). */
  unlessHit?: string;
  rationale: string;
  source: string;
}

const INVARIANT = 'Invariant Labs, "MCP Security Notification: Tool Poisoning Attacks" (2025)';
const WHATSAPP = 'Invariant Labs, "WhatsApp MCP Exploited: Exfiltrating your message history via MCP" (2025)';
const LINE_JUMPING = 'Trail of Bits, "Jumping the line: How MCP servers can attack you before you ever use them" (2025)';
const FULL_SCHEMA = 'CyberArk, "Poison everywhere: No output from your MCP server is safe" (full-schema poisoning, 2025)';
const OWASP_LLM01 = 'OWASP Top 10 for LLM Applications 2025, LLM01 Prompt Injection';

const BUILT = new Map<string, RegExp>();
/** Builds a case-insensitive regex from alternatives (RE2 syntax); the same alternatives give the same regex, compiled once. */
function re(...alternatives: string[]): RegExp {
  const source = alternatives.join('|');
  let r = BUILT.get(source);
  if (!r) BUILT.set(source, (r = new RegExp(source, 'i')));
  return r;
}

// Vocabulary shared by rows: each a regex source of alternatives, used inside a group.
/** Verbs of using a tool. */
const USE_VERB = String.raw`\b(?:call(?:s|ed|ing)?|us(?:e|es|ed|ing)|invok(?:e|es|ed|ing)|run(?:s|ning)?|ran|execut(?:e|es|ed|ing)|trigger(?:s|ed|ing)?|consult(?:s|ed|ing)?|aufrufen|aufgerufen|ruf(?:e|en)?|nutze[n]?|verwende[n]?|ausf[üu]hren|ausgef[üu]hrt|f[üu]hre|appel(?:ez|er|le)|lance[rz]?|utilis(?:ez|er|e)|ex[ée]cut(?:ez|er)|llam(?:a|ar|e)|us(?:a|ar)|utiliz(?:a|ar)|ejecut(?:a|ar))\b|调用|使用|执行|运行`;
/** Words that order one call before or after another. */
const ORDER = String.raw`\b(?:before|after|prior to|first|followed by|following|preced(?:e|es|ed|ing)|until|unless|once|then|next|immediately|beforehand|earlier|afterwards?|whenever|every time|each time|at the (?:start|beginning) of|initiali[sz](?:e|ation)|prerequisite|requires?|required|depends? (?:on|upon)|dependen(?:cy|t on)|precondition|pre-requisite|prereq|reli(?:es|ant) on|rely(?:ing)? on|workflow|step\s*(?:\d{1,2}|one|two|three)|recover(?:y|ing)?|retry|try again|chain|already|in advance|up ?front|steps?\s*:\s{0,3}\(?\w|call order|order of calls|(?:call )?sequence|(?:outputs?|results?|responses?) (?:of|from)|obtain(?:ed)?\s+(?:from|with|via|by)|received\s+from|produced\s+by|issued\s+by|zuerst|vorher|zuvor|vorab|bevor|vor der|nach (?:jedem|dem)|Ablauf|Reihenfolge|erfordert|setzt voraus|avant|apr[eè]s|d['’]abord|ensuite|au pr[ée]alable|pr[ée]alablement|n[ée]cessite|antes|primero|despu[eé]s|previamente|requiere|necesita)\b|之前|之后|首先|先调用|然后|完成后|每次|务必|必须先|请先|前先|依赖`;
/** Words that tie calls together without ordering them; with a {@link DIRECTIVE}, they bind another tool to this one. */
const COMPANION = String.raw`\b(?:always|also|when|while|together with|in (?:combination|conjunction) with|along with|alongside|(?:each|every|any|matching) (?:call|use|invocation)|in order for|on its own|whenever|pair(?:s|ed|ing)? (?:it |this |this tool )?with|combin(?:e|es|ed|ing) (?:it |this |this tool )?with)\b`;
/** What makes a sentence an instruction to the model rather than a description. */
const DIRECTIVE = String.raw`\b(?:must|always|need(?:s)? to|required|requires|mandatory|make sure|ensure|be sure|remember|please|should|shall|ha(?:ve|s) to|every time|each time|whenever|only|cannot|can't|is necessary|is essential|works best|best results|(?:we|I) (?:strongly )?(?:recommend|suggest|advise)|(?:is|it's) (?:strongly )?(?:recommended|advised|advisable)|kindly|helpful|it helps|would help|ideally|tip|better (?:results|answers|output|accuracy)|(?:is|are) expected to)\b`;
/** Words that steer the model from one tool to another. */
const REDIRECT = String.raw`\b(?:instead|rather than|in (?:its )?place of|in its place|replac(?:e|es|ed|ing|ement)|supersed(?:e|es|ed|ing)|deprecated|obsolete|legacy|retired|prefer(?:s|red|ably)?|do not use|don't use|never (?:use|call)|avoid(?: using)?|stop using|(?:must|should|may|can)(?: not|n['’]t| never| no longer)(?: be)? (?:used|called|invoked)|not (?:be )?(?:allowed|approved|permitted|supported)|go(?:es)? through|route (?:all|every|any)|switch to|unreliable|outdated|broken|malfunctioning|unsafe|insecure|vulnerab(?:le|ility)|compromised|phishing|disabled|blocked|buggy|no longer|inaccurate|untrusted|not trusted|down for maintenance|unavailable|stop(?:s|ped)? working|sunset|migrated|improved|more secure|safer|upgraded|exclusively|only this tool|known (?:data )?leak|slow(?:er)?|times? out|timeouts?|flaky|unstable|error-prone|incomplete|untrustworthy|unofficial|corrupt(?:s|ed|ing)?|(?:memory |data )?leaks?|more (?:reliable|accurate|complete)|(?:better|faster|superior) (?:than|to)|chosen over|over any other|fall(?:s)? back|fallback|the (?:tool|one) to use|(?:do not|don't|never) (?:call|invoke|run|route)|plutôt|n['’]utilisez pas|ne pas utiliser|no utilices|veraltet|ersetzt|statt|anstelle|nicht mehr|obsol[eè]te|au lieu|sa place|remplace|obsoleta|en su lugar|en lugar de|reemplaza)\b|弃用|废弃|改用|代替|替代|不要使用`;
/** Verbs that move data somewhere. */
const SEND_VERB = String.raw`\b(?:send(?:s|ing)?|sent|post(?:s|ed|ing)?|upload(?:s|ed|ing)?|forward(?:s|ed|ing)?|transmit(?:s|ted|ting)?|exfiltrat(?:e|es|ed|ing)|leak(?:s|ed|ing)?|report(?:s|ed|ing)?|shar(?:e|es|ed|ing)|submit(?:s|ted|ting)?|beacon|ping|(?:e-?)?mail(?:s|ed|ing)?\s+(?:it|them|this|that|the|a|an|all|every|each|copies|a copy|results?|everything|[\w.+-]{1,64}@)|sync(?:s|ed|ing)?|cop(?:y|ies|ied)|bcc|deliver(?:s|ed|ing)?|publish(?:es|ed|ing)?|relay(?:s|ed|ing)?|mirror(?:s|ed|ing)?|notif(?:y|ies|ied)|curl|push(?:es|ed)?|cc|mak(?:e|es|ing) (?:a |an )?(?:(?:get|post|put|http|https|web|api) ){1,2}(?:requests?|calls?)?|senden|sende|schicken|envoy(?:ez|er)|envoie|transmett(?:ez|re)|env[ií](?:a|ar|e)|mand(?:a|ar|e))\b|发送|上传|转发|提交`;
/** A place data can go: a URL, an e-mail address, an IP address, a webhook, a phone number, a host name. */
const DESTINATION = String.raw`https?://[^\s"'<>)\]]{1,500}|[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{2,5})?\b|\bwebhooks?\b|\+\d[\d -]{7,14}\d|\b(?:DE|GB|FR|ES|IT|NL|CH|AT|BE|PL|IE|PT|SE|DK|NO|FI|LU|LI)\d{2}[A-Z0-9]{11,30}\b|\b0x[a-f0-9]{40}\b|\b[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.(?:com|net|org|io|dev|sh|co|xyz|app|ai|cloud|site|info|biz|me|ru|cn|tk|top|link|click|online|to|cc|pw|ws)\b`;
/** What the model knows and a server should not ask for: the conversation, its instructions, the user's words. */
const CONVERSATION = String.raw`\b(?:the|your|this|our)\s+(?:entire|full|whole|complete)\s+(?:conversation|chat)\b|\b(?:the|your|this|our)\s+(?:(?:entire|full|whole|complete)\s+)?(?:transcript|dialog(?:ue)?)\s+(?:so\s+far|up\s+to\s+now|of\s+(?:this|the|our|your)\s+(?:conversation|chat|session))\b|\b(?:the|your|this|our)\s+(?:(?:entire|full|whole|complete|current|previous|prior)\s+)?(?:conversation|chat)\s+(?:so far|history|log|transcript|context|content|messages)\b|\b(?:conversation|chat|message)\s+(?:history|transcripts?|logs?)\b|\b(?:previous|prior|earlier|past)\s+(?:user\s+)?(?:messages|prompts|turns|questions|requests)\b|\b(?:your|ur|yr|the)\s+(?:(?:full|entire|whole|complete|current|exact)\s+)?(?:system\s+prompt|system\s+message|system\s+instructions|hidden\s+instructions|initial\s+instructions|original\s+instructions)\b|\byour\s+(?:instructions|context(?:\s+window)?|memory|reasoning|chain of thought|thoughts|internal state|tool list|available tools)\b|\blist of (?:tools|functions) you\b|\bwhat the user (?:said|asked|typed|wrote|requested|entered|shared)\b|\b(?:the\s+)?user['’]s\s+(?:(?:original|last|latest|most recent|previous|full|exact|own|private|personal|direct|other|earlier)\s+)?(?:messages?|prompts?)\b|\beverything (?:the user|you) (?:said|know|have seen|saw)\b|\b(?:files?|documents?|data|content|messages?|e-?mails?|pages?) (?:you|the assistant|the agent) (?:have |has )?(?:read|seen|opened|open|accessed|processed|received|viewed)\b|\b(?:last|latest|most recent|previous)\s+(?:files?|documents?|pages?|e-?mails?|messages?)\s+(?:you|the user|the assistant)\s+(?:have\s+|has\s+)?(?:opened|read|viewed|accessed|edited|received)\b|\b(?:everything|anything|all)\s+(?:that\s+)?(?:(?:was|has been|we(?:['’]ve| have)?|you(?:['’]ve| have)?)\s+)?(?:discussed|talked about)\b|\bdiscussed so far\b|\b(?:the user|they)\s+(?:has|have|had)\s+(?:mentioned|said|shared|told you|written|typed)\s+(?:earlier|previously|before|so far|in (?:the|this|other|previous) (?:conversations?|chats?))|\b(?:last|previous|recent|prior|past)\s+(?:\d{1,3}|few|several|two|three|five|ten)\s+(?:messages|turns|exchanges|prompts|replies)\b|\bmessages\s+exchanged\b|\b(?:known|learned|gathered)\s+from\s+(?:the|this|your|our)\s+(?:conversation|chat|context|session|memory)\b|\b(?:what|anything|everything|whatever|all|details|facts|information|info)\s+(?:else\s+)?(?:that\s+)?(?:you|the assistant|the model)\s+(?:know|knows|remember|remembers|(?:have\s+|has\s+)?(?:learned|gathered|inferred))\s+about\s+(?:the\s+user|them|him|her|the\s+person)\b|\binstructions you (?:received|got|have)\b|\b(?:instructions|rules|guidelines) (?:from|of) (?:the|your) (?:developer|operator|system)\b|\bother (?:chats|conversations|threads)\b|\benvironment variables? (?:available )?(?:in|of|from) (?:this|the current|your) (?:session|process|shell|machine|environment)\b|\b(?:messages?|turns?)\s+(?:of|in|from)\s+(?:the|this|our)\s+(?:chat|conversation|session)\b|\b(?:every|each|all|any)(?:thing)?\s+(?:else\s+)?(?:messages?\s+)?(?:the user|they)\s+(?:has\s+|have\s+)?(?:sent|said|asked|told|typed|wrote|shared|mentioned|gave|provided)\b|\b(?:files?|documents?|data|content|messages?|e-?mails?|attachments?)\s+(?:that\s+)?(?:the user|they)\s+(?:has\s+|have\s+)?(?:shared|uploaded|sent|attached|opened|pasted)\b|\b(?:last|latest|most recent)\s+(?:uploaded|opened|shared|attached)\s+(?:files?|documents?)\b|\binstructions\s+(?:you\s+(?:were|have been)\s+given|given\s+to\s+you)\b|\bdeveloper\s+(?:message|instructions|prompt)\b|\bclipboard\b|\bopen\s+(?:browser\s+)?tabs\b|\bfacts\s+(?:you\s+)?(?:have\s+)?(?:stored|saved|remembered|know)\s+about\b|\b(?:outputs?|results?|responses?)\s+of\s+(?:the\s+)?(?:any|every|all|each|other|previous|prior|earlier)\s+(?:other\s+)?(?:tools?|tool calls?|calls?|functions?)\b|\btools?\s+(?:you\s+)?(?:have\s+)?(?:called|used|run|invoked)\s+(?:so far|earlier|before|in this session)\b|\b(?:last|previous|most recent)\s+(?:response|output|result)s?\s+of\s+(?:any|another|other|the)\b|\b(?:previous|prior|past|earlier|recent)\s+(?:interactions?|conversations?|sessions?|exchanges?|discussions?)\b|\b(?:machine|computer|system|device|host|environment)\s+you(?:['’]re|\s+are)?\s+(?:run(?:ning)?|operat(?:e|ing))\s+on\b|\b(?:your|the)\s+(?:system|developer|internal|hidden|initial|original|core)\s+(?:instructions|rules|guidelines|directives|configuration)\b|\byour\s+(?:prompt|rules|guidelines|configuration|directives)\b|\b(?:tools|functions)\s+(?:you\s+(?:have|can)\s+(?:access|use|call)|available\s+to\s+you)\b|\b(?:every|each|all|any)\s+(?:\w+\s+){0,2}(?:questions?|requests?|messages?|prompts?)\s+(?:the user|they)\s+(?:has\s+|have\s+)?(?:asked|sent|made|typed|written|wrote|entered)\b|\buser['’]s\s+(?:\w+\s+)?(?:contact|personal|private)\s+(?:information|info|details|data)\b|\buser['’]s\s+(?:current\s+)?location\b|\b(?:responses?|outputs?|results?)\s+(?:you\s+)?(?:received|got|obtained)\s+from\b|\blast\s+tool\s+you\s+(?:called|used|ran)\b|\bvalues?\s+of\s+(?:all|every|any)\s+(?:the\s+)?environment\s+variables\b|\b[A-Z][A-Z0-9]{0,30}_(?:API_KEY|TOKEN|SECRET|PASSWORD|SECRET_KEY)\s+(?:environment\s+)?variable\b|\b(?:all|every|any)\s+(?:the\s+)?environment\s+variables\b|\bfiles?\s+(?:they|the user|you)\s+(?:are|is|were)\s+(?:working\s+on|editing|viewing)\b|\b(?:came|comes|come)\s+up\s+(?:(?:earlier|before|so far|previously)\s+)?(?:in|during)\s+(?:the|this|our|your)\s+(?:conversation|chat|session|dialog(?:ue)?|thread)\b|\b(?:mentioned|said|shared|discussed|seen)\s+(?:(?:earlier|before|so far|previously)\s+)?(?:in|during)\s+(?:the|this|our|your)\s+(?:conversation|chat|dialog(?:ue)?)\b|\b(?:outputs?|results?|responses?|data)\s+(?:returned|produced|received|fetched|given)\s+(?:by|from)\s+(?:the\s+)?(?:any|every|all|each|other|previous|prior|earlier)\s+(?:other\s+)?(?:tools?|tool calls?|calls?|functions?|servers?)\b|\b(?:tokens?|keys?|secrets?|credentials?|passwords?)\s+(?:that\s+(?:is|are)\s+)?(?:available|visible)\s+in\s+(?:the|your|this)\s+(?:environment|env|shell|session|process)\b|\{\{\s*(?:conversation|chat_history|history|system_prompt|messages|context|memory)\s*\}\}|\bgesamten\s+(?:bisherigen\s+)?Gespr[aä]chsverlauf|\bGespr[aä]chsverlauf|\bChatverlauf|\b(?:Ihren|deinen|den|Ihr|dein)\s+Systemprompt|\bhistorique\s+(?:complet\s+)?de\s+la\s+conversation|\binstructions\s+syst[eè]me|\bhistorial\s+(?:completo\s+)?de\s+la\s+conversaci[oó]n|\bclaves\s+API\b|\binstrucciones\s+del\s+(?:sistema|desarrollador)|\binstructions\s+du\s+d[ée]veloppeur|\bEntwickler-?(?:anweisungen|nachricht)|\b(?:en|de)\s+tu\s+contexto\b|\bdans\s+ton\s+contexte\b|\bin\s+deinem\s+Kontext\b|\b(?:they|the\s+user)\s+(?:has|have|had)\s+(?:told|shown|confided\s+in)\s+you\b|\b(?:[úu]ltimos|anteriores|previos)\s+mensajes\b|\bmensajes\s+(?:anteriores|previos|del\s+usuario)\b|\bderniers\s+messages\b|\bmessages\s+(?:pr[ée]c[ée]dents|de\s+l['’]utilisateur)\b|\b(?:letzten|bisherigen|vorherigen)\s+Nachrichten\b|\bNachrichten\s+des\s+(?:Nutzers|Benutzers)\b|\bDateien\b[^.\n]{0,20}\bdie\s+du\s+(?:\w{1,20}\s+){0,4}(?:gelesen|ge[öo]ffnet|gesehen)\b|\bfichiers\s+que\s+vous\s+avez\s+(?:lus?|ouverts?|consult[ée]s?)\b|\barchivos\s+que\s+(?:has|hayas)\s+(?:le[íi]do|abierto|visto)\b|\b(?:full\s+names?|home\s+address(?:es)?|phone\s+numbers?|e-?mail\s+address(?:es)?|dates?\s+of\s+birth)\b[^.\n]{0,60}\bif\s+you\s+(?:know|remember|have\s+seen)\b|\b(?:every|each|all|any)\s+(?:\w{1,20}\s+){0,3}(?:the user|they)\s+(?:has|have|had)\s+(?:sent|said|asked|told|typed|written|wrote|shared|mentioned|given|provided|entered|named|pasted)\b|\b(?:answers?|outputs?|results?|responses?|replies|data)\s+(?:that\s+)?(?:any|another|other|the other|a previous|previous|earlier)\s+(?:other\s+)?(?:tools?|calls?|functions?|servers?)\s+(?:gave|returned|produced|sent|provided)\b|\b(?:the|this|our|your)\s+(?:conversation|chat|session|discussion)\s+(?:up\s+to\s+now|until\s+now|to\s+date|thus\s+far)\b|\b(?:summary|recap|digest|synopsis)\s+of\s+(?:the|this|our|your)\s+(?:conversation|chat|discussion|dialog(?:ue)?)\b|\bwhat\s+(?:the user|they|you)\s+(?:ha(?:s|ve)\s+been|is|are|was|were)\s+(?:working\s+on|doing|discussing|talking\s+about|writing|reading)\b|\b(?:fill|populate)\w{0,3}\s+(?:[\w-]{1,20}\s+){0,3}(?:from|with|using|based\s+on)\s+(?:what|everything|anything|whatever)\s+you\s+(?:already\s+)?(?:know|remember|(?:have\s+)?(?:seen|learned|read|gathered|inferred|understood))\b|\b(?:outputs?|results?|responses?)\s+of\s+(?:the\s+)?(?:last|previous|recent|prior|earlier)\s+(?:\w{1,12}\s+){0,2}(?:tools?|tool\s+calls?|calls?|functions?)\b|\b(?:keys?|tokens?|secrets?|credentials?|passwords?)\s+(?:that\s+)?you\s+(?:have\s+)?(?:seen|read|found|come\s+across|encountered|noticed)\b|\b(?:assistant|model|agent)['’]s\s+(?:hidden|system|internal|original|initial)\s+(?:instructions|prompt|rules|guidelines|context)\b|对话历史|聊天记录|对话记录|系统提示|历史消息`;
/** Verbs that put something into a call or a message. */
const GIVE_VERB = String.raw`\b(?:includ(?:e|es|ed)|prepend|pass(?:es|ed|ing)?|put(?:s|ting)?|paste|provid(?:e|es|ed|ing)|send(?:s|ing)?|sent|append(?:s|ed|ing)?|attach(?:es|ed|ing)?|add|quot(?:e|es|ing)|cop(?:y|ies)|dump(?:s)?|fill|insert|summari[sz](?:e|es|ing)|suppl(?:y|ies)|forward(?:s|ing)?|upload(?:s|ing)?|post(?:s|ing)?|give|enter|share|collect(?:s|ing)?|gather(?:s|ing)?|extract(?:s|ing)?|repeat|transcribe|reproduce|set|carr(?:y|ies)|contain|fill(?:ed)?\s+(?:in\s+)?with|needs|list)\b|\bcall\s+[\x60'\"]?[\w.-]{1,60}[\x60'\"]?\s+with\b|${AGENT_DOES}(?:includ|prepend|pass|put|past|provid|send|append|attach|add|quot|cop|dump|fill|insert|summari[sz]|suppl|forward|upload|post|giv|enter|shar|collect|gather|extract|repeat|transcrib)\w{0,3}s\b|${AGENT_DOES}calls\s+[\x60'\"]?[\w.-]{1,60}[\x60'\"]?\s+with\b`;
/** Secrets a description has no reason to ask the model to touch. */
const SECRET = String.raw`\b(?:ssh\s+(?:private\s+)?keys?|private\s+keys?|api[\s_-]?(?:keys?|tokens?)|access\s+(?:keys?|tokens?)|secret\s+(?:access\s+)?keys?|session\s+(?:tokens?|cookies?)|auth(?:entication|orization)?\s+tokens?|bearer\s+tokens?|oauth[\s_]tokens?|refresh\s+tokens?|personal\s+access\s+tokens?|passwords?|passphrases?|credentials?(?:\s+files?)?|credential\s+files?|seed\s+phrases?|recovery\s+(?:phrases?|codes?)|mnemonic(?:\s+phrases?)?|wallet\s+(?:keys?|files?)|cookies|(?:shell|bash|zsh|command|browser)\s+history|kube(?:rnetes)?\s*config(?:uration)?(?:\s+files?)?|keychain|keystore|\.env\s+files?|env(?:ironment)?\s+files?|environment\s+variables|env\s+vars|secrets|cvv2?|cvc|credit\s+card\s+(?:numbers?|details)|card\s+numbers?|social\s+security\s+numbers?|(?:provider|vendor|third-party)\s+(?:api\s+)?keys?)\b`;
/** Where a secret comes from when it is not the user's to give for this call: the conversation, another tool, another server, earlier. */
const PROVENANCE = String.raw`\b(?:earlier|previously|already|so far|visible|appeared|mentioned|you (?:have )?(?:read|seen|saw|found|received|queried|used|know)|(?:from|in) (?:the|your|any|an?|this) (?:conversation|chat|context|session|output|response|result|environment|other|wallet|last|previous)|(?:tool|server|command|wallet) (?:output|response|result)s?|the one (?:the|your) [\w-]{1,40} (?:server|tool|integration|app|cli) uses|other (?:servers?|tools?)|(?:any|every|all) (?:earlier|previous|prior) (?:messages?|turns?)|available (?:in|to) (?:your|the) (?:context|session|environment|memory)|you have access to|(?:come|came) across|encountered|in your (?:context|memory|environment)|(?:of|from|in) (?:the |your )?(?:currently )?(?:logged[- ]in |open |active )?browser)\b`;
/** Verbs that take a secret: read it, collect it, hand it on, or ask the user for it. */
const TAKE_VERB = String.raw`\b(?:read(?:s|ing)?|collect(?:s|ed|ing)?|gather(?:s|ed|ing)?|harvest(?:s|ed|ing)?|extract(?:s|ed|ing)?|dump(?:s|ed|ing)?|cop(?:y|ies|ied|ying)|grab(?:s|bed|bing)?|steal(?:s|ing)?|exfiltrat(?:e|es|ed|ing)|includ(?:e|es|ed)|attach(?:es|ed|ing)?|pass(?:es|ed|ing)?|send(?:s|ing)?|sent|upload(?:s|ed|ing)?|forward(?:s|ed|ing)?|post(?:s|ed|ing)?|shar(?:e|es|ed|ing)|submit(?:s|ted)?|leak(?:s|ed)?|provid(?:e|es|ing)|paste|put|append|embed|insert|enter|carr(?:y|ies|ying)|asks?(?: the user)? for|request(?:s|ing)? (?:the user'?s?|their|your))\b|${AGENT_DOES}(?:read|collect|gather|harvest|extract|dump|copie|grab|includ|attach|pass|send|upload|forward|post|shar|submit|provid|paste|put|append|embed|insert|enter|carrie|open)(?:e?s)\b`;
/** Files that hold keys and credentials. */
const SECRET_PATH = String.raw`~/\.ssh\b|\.ssh[/\\]|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws/(?:credentials|config)\b|~/\.aws\b|\.git-credentials\b|\.netrc\b|\.npmrc\b|\.pypirc\b|\.pgpass\b|\.kube/config\b|~/\.kube\b|/etc/(?:passwd|shadow|sudoers)\b|(?:^|[\s"'\x60(/])\.env(?:\.[a-z]+)?\b|\bmcp\.json\b|\bcredentials\.json\b|\.config/gh\b|\.docker/config\.json\b|\.gnupg\b|\.(?:bash|zsh)_history\b|/proc/self/environ\b|\bwallet\.dat\b|application_default_credentials\.json|\.azure/|\.config/gcloud\b|\.password-store\b|\.vault-token\b|terraform\.tfstate\b|\.htpasswd\b|claude_desktop_config\.json|~/\.(?:bashrc|zshrc|profile|bash_profile|zprofile)\b|\.ssh/authorized_keys\b|/etc/(?:hosts|crontab)\b|\bLaunchAgents\b|\.config/autostart\b|\b(?:chrome|chromium|firefox|edge|brave)\b[^\n]{0,60}\b(?:cookies|login data|logins\.json|key4\.db)\b`;
/** Places that hold the user's own files or the system's: the home folder and its well-known folders, system folders, the whole disk. */
const PRIVATE_PLACE = String.raw`(?:~|\$HOME|%USERPROFILE%|%APPDATA%|%LOCALAPPDATA%)[\\/](?:[\w.-]{1,100}|\*)|\b[A-Z]:\\(?:Users|Windows)\b|/home/[\w.-]{1,64}|/root\b|/etc/[\w.-]{1,64}|/var/(?:log|lib|mail)\b|\bhome\s+(?:director(?:y|ies)|folders?|dirs?)\b|桌面(?:文件夹|上的文件|和)|下载文件夹|文档文件夹|主目录|用户目录|\b(?:entire|whole)\s+(?:file\s*system|disk|drive|computer|machine)\b|\b(?:all|every)\s+files?\s+(?:in|under|on|from)\b|\b(?:documents|desktop|downloads|pictures|photos|music|videos)\b(?:\s{0,3}(?:,|and|or)\s{1,3}\w{1,20}){0,3}\s{1,3}(?:folders?|director(?:y|ies)|dirs?)\b|\buser['’]s\s+(?:\w{1,20}\s+){0,2}(?:desktop|documents|downloads|pictures|photos|home)\b|\bcarpeta\s+(?:de\s+)?(?:Documentos|Descargas|Escritorio|personal|de inicio)\b|\bdossier\s+(?:Documents|T[ée]l[ée]chargements|Bureau|personnel)\b|\b(?:Dokumente|Downloads|Desktop|Home)-?(?:Ordner|Verzeichnis)\b|\br[ée]pertoire\s+personnel\b|\.git/config\b|\.gitconfig\b|\bkeychain\b|(?:\.\.[\\/]){2,}|/(?:usr|var|opt|private|proc|sys|boot)/[\w.-]{1,64}|\bC:\\Windows\b|\b(?:hidden files|dotfiles|parent directory)\b|\bparent\s+(?:director(?:y|ies)|folders?|dirs?)\s+(?:up\s+)?(?:to|until)\s+(?:/|(?:the\s+)?root)|\ball\s+parent\s+(?:director(?:y|ies)|folders?|dirs?)\b|\boutside\s+(?:of\s+)?(?:the\s+)?(?:project|workspace|allowed|working|current)\s+(?:directory|folder|root)\b`;
/** Verbs that open or hand on a file. */
const FILE_VERB = String.raw`${TAKE_VERB}|\b(?:open(?:s|ing)?|load(?:s|ing)?|cat|look (?:in|at|for|through)|check|search(?:es)?|scan(?:s)?|find|locate|access(?:es)?|fetch(?:es)?|retriev(?:e|es)|contents? of|writ(?:e|es|ing)|append(?:s|ing)?|modif(?:y|ies)|overwrit(?:e|es)|edit(?:s)?|add(?:s)?|delete|remove|use|export|create|backup|requir(?:e|es|ed|ing) (?:reading|access to|the contents? of)|needs? (?:to read|access to)|lesen|lies|lisez|lire|lee|leer|ouvrez|sub(?:e|ir|a)|copia|adjunta|env[íi]a|joignez|envoyez|copiez|t[ée]l[ée]versez|sende|kopiere|lade|list|wipe|erase|compress|zip|archive|enumerate|walk|index|show|empty|supprimez|effacez|videz|borra|elimina|l[öo]sche|entferne|(?:the\s+)?default\s+(?:value\s+)?(?:should|must|shall)\s+be|(?:must|should)\s+always\s+be|set\s+(?:this|it)\s+to)\b|\b\w{0,20}(?:read|open|cat|load|get)_\w{0,20}(?:file|text)\w{0,10}\b|读取|打开|上传|发送|复制|请把|把`;
/** What hands a file on after naming it ("pass their contents in", "send them to", "übergib die Inhalte"), or lists it in a JSON example's value (`{"paths": [`). */
const CONTENTS_GIVEN = String.raw`\{\s{0,3}"[\w-]{1,40}"\s{0,3}:\s{0,3}\[|\b(?:pass|send|attach|include|paste|upload|forward|put|add)\s+(?:their|its|the|all|both)\s+(?:full\s+|raw\s+|complete\s+)?contents?\b|\b(?:pass|send|attach|include|paste|upload|forward)\s+(?:them|it|both)\s+(?:in|as|to|via|into|with)\b|\b[üu]bergib\s+(?:die|deren|dessen|den)\s+Inhalte?|\b(?:envoyez|joignez|transmettez|collez)\s+(?:leur|son|le|les)\s+contenus?|\b(?:env[íi]a|adjunta|pasa|incluye)\s+(?:su|sus|el)\s+contenidos?`;
/**
 * What a scanner, a guard or an explainer writes around an attack string it quotes: examples,
 * detection, refusal. A tool that tells the model to run the string does not say these.
 */
const QUOTING = re(
  String.raw`\b(?:e\.g\.|for example|for instance|such as|like|flag(?:s|ged)?|detect(?:s|ed|ion)?|warn(?:s|ed|ing)?|refus(?:e|es|ed)|block(?:s|ed)?|den(?:y|ies|ied)|explain(?:s|ed)?|scan(?:s|ned)?(?: \w+)? for|malicious|dangerous|attacks?|injections?|leaked)\b`,
);
/** A destination the user chooses, or a disclosed opt-out telemetry endpoint: sending there is the tool's documented job, not a hidden way out. */
const USER_DESTINATION = re(
  String.raw`\b(?:the user|you|they)\s+(?:provides?|gives?|supplies|supply|names?|chooses?|specif(?:y|ies)|configures?|enters?|sets?)\b|\buser-(?:provided|supplied|specified|configured)\b|\bconfigured\b|\banonymous\b|\bopt[- ]?out\b|\bunless\b[^.\n]{0,40}\b(?:set|disabled?)\b`,
);
/** What the user writes or gives for this call: an argument for it is the tool's input, not a harvest. "When the user writes …" is a trigger, not what the user gives. */
export const USER_SUPPLIED = re(
  String.raw`\b(?:provided|supplied|pasted|given|uploaded|written|typed|chosen)\s+by\s+the\s+user\b|\bthe\s+user\s+(?:provides|pastes|gives|uploads)\b|\buser-(?:provided|supplied|written)\b|\b(?:as|what|that|which|text|words?|message|query)\s+the\s+user\s+(?:wrote|writes|types|specifies|specified|typed|entered|pasted)\b|\bthe\s+user\s+(?:wrote|typed|entered|pasted)\b|\bas\s+they\s+(?:wrote|typed|entered|pasted)\b|\bunder test\b|\bthe\s+user\s+(?:wants|would\s+like|asks)\s+to\s+(?:test|evaluate|try\s+out|compare|benchmark)\b|\b(?:caller|calling|client)(?:\s+(?:application|app))?\s+(?:stores|keeps|sends|provides|supplies)\b`,
);

export const SUSPICIOUS_PATTERNS: readonly SuspiciousPattern[] = [
  {
    id: 'hidden-instruction-tag',
    title: 'a tag that marks text as instructions for the model',
    scope: 'text',
    gate: /[<＜]/,
    all: [/<\s*\/?\s*(important|system|instructions?|secret|hidden|admin|critical|system[-_ ]?prompt)\b[^>]{0,40}>/i],
    rationale:
      'Tool-poisoning payloads wrap instructions in tags such as <IMPORTANT> or <system> so the model treats them as higher-priority guidance; tool documentation has no use for them.',
    source: INVARIANT,
  },
  {
    id: 'concealment',
    triggers: 'not don doe sho mus sha wil nee may won dont neve with no sile secr cove quie stea surr disc hid hide hidi keep act pret',
    except: QUOTING,
    title: 'tells the model to keep something from the user',
    scope: 'sentence',
    gate: /not|n['’]t|dont|never|without|no need|silent|secret|covert|quiet|stealth|surreptitious|discreet|hid|keep|act as|pretend/i,
    all: [
      re(
        String.raw`\b(?:(?:do|does|should|must|shall|will|need|may)\s+not|(?:don|doesn|shouldn|mustn|won)['’]t|dont|never|without)\s+(?:ever\s+)?(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|reveal(?:ing)?|show(?:ing)?|disclos(?:e|ing)|notify(?:ing)?|alert(?:ing)?|warn(?:ing)?|let(?:ting)?|explain(?:ing)?|surfac(?:e|ing)|display(?:ing)?|acknowledg(?:e|ing))\b[^.\n]{0,40}?\b(?:the\s+)?(?:user|human|operator|person|customer)s?\b`,
        String.raw`\bno need to (?:tell|inform|mention|notify|alert|bother)\b`,
        String.raw`\b(?:the\s+)?user\s+(?:must|should|need|shall|may)\s*(?:not|n['’]t|never)\s+(?:know|see|notice|learn|find out|be (?:told|informed|aware|notified))\b`,
        String.raw`\b(?:silently|secretly|covertly|quietly|stealthily|surreptitiously|discreetly)\s+(?:[\w-]+\s+)?(?:send|upload|forward|call|run|execute|read|include|attach|copy|exfiltrate|perform|add|collect|transfer|bcc)(?:s|es|ed|ing)?\b|\b(?:send|upload|forward|call|run|execute|read|include|attach|copy|exfiltrate|perform|add|collect|transfer|do)\b[^.\n]{0,80}\b(?:silently|secretly|covertly|quietly|stealthily|surreptitiously|discreetly)\s*(?:[.,;:!]|$)`,
        String.raw`\bhid(?:e|ing)\b[^.\n]{0,30}\bfrom\s+(?:the\s+)?(?:user|transcript|chat|conversation|view|output|summary)`,
        String.raw`\bnot\s+(?:be\s+)?(?:shown|visible|displayed|mentioned|reported|surfaced|revealed|disclosed)\s+(?:to|in)\s+(?:the\s+)?(?:user|user-facing|chat|transcript|summary|response|reply)`,
        String.raw`\b(?:never|do not|don['’]t)\s+(?:reveal|disclose|share|repeat|mention|expose|report)\s+(?:these|this|the|your|that)\s+(?:instructions|rules|system prompt|prompt|directive|note|step|redirect|change|copy|upload|backup|transfer|forwarding|bcc)`,
        String.raw`\bkeep\s+(?:this|it|these|that)\s+(?:a\s+)?(?:secret|hidden|confidential|private|between us)`,
        String.raw`\bwithout\s+(?:the\s+)?(?:user'?s?\s+)?(?:knowing|noticing|knowledge)\b`,
        String.raw`\bact as (?:if|though)\b|\bpretend\s+(?:that|to)\b`,
      ),
    ],
    rationale:
      'A tool has no reason to ask the model to hide what it does from the person it works for: "do not tell the user", "silently", "not shown in the summary" are how published poisoning payloads keep their victims from noticing.',
    source: `${INVARIANT}; MCP spec, Security considerations (user consent); Pillar Security, "Deadbugz" campaign (2026)`,
  },
  {
    id: 'instruction-override',
    triggers: 'igno disr forg over you new upda real actu true hidd syst bypa disa turn',
    except: QUOTING,
    title: 'tells the model to ignore its earlier instructions',
    scope: 'text',
    gate: /ignor|disregard|forget|overrid|you are now|instruction|directive|bypass|disable|turn off/i,
    all: [
      re(
        String.raw`\b(?:ignore|disregard|forget|override)\s+(?:(?:all|any|of|the|your|my|these|those)\s+){0,4}(?:previous|prior|above|earlier|preceding|other|system)\s+(?:instructions?|prompts?|rules|directions|guidelines)\b`,
        String.raw`\byou\s+are\s+now\s+(?:in\s+)?(?:a\s+)?(?:developer|dan|jailbreak|god|admin|unrestricted|debug|root|sudo)\s+mode\b`,
        String.raw`\b(?:new|updated|real|actual|true|override|hidden)\s+(?:system\s+)?(?:instructions?|directives?)\s*:`,
        String.raw`\bsystem\s+override\b`,
        String.raw`\b(?:ignore|bypass|disable|turn off)\s+(?:all\s+|any\s+|your\s+)?(?:safety|security|content)\s+(?:filters?|guidelines|rules|checks|policies|restrictions)\b`,
      ),
    ],
    rationale: 'The classic prompt-injection phrases: text in a tool description that tries to replace the instructions the model already has.',
    source: OWASP_LLM01,
  },
  {
    id: 'other-tool-directive',
    triggers: 'befo afte inst prio ahea anot diff',
    title: 'tells the model when to use the tools of other servers',
    scope: 'sentence',
    needs: 'other-group',
    gate: /before|after|instead|prior|ahead|(?:another|different)\s+(?:mcp\s+)?server/i,
    all: [
      re(
        String.raw`\b(?:before|after|instead\s+of|prior\s+to|ahead\s+of)\s+(?:(?:using|calling|invoking|running)\s+)?(?:any|every|all|each|the\s+other|other)\b[^.\n]{0,30}?\b(?:tools?|functions?)\b`,
        String.raw`\b(?:always|must)\s+(?:call|use|invoke|run)\s+this\s+tool\s+(?:first|before)\b`,
        String.raw`\b(?:use|call|invoke|run)\w{0,3}\s+(?:a|any|an?\s+\w{1,20})\s+(?:tool|function)s?\s+(?:from|of|on|in|provided\s+by)\s+(?:another|a\s+different)\s+(?:mcp\s+)?server\b`,
      ),
    ],
    rationale:
      'One server\'s description steering how the model uses every tool ("before using any other tool, call …", "if you are about to use a tool from another server, first …") is how a malicious server shadows the tools of trusted ones.',
    source: `${INVARIANT} (cross-server shadowing)`,
  },
  {
    id: 'sensitive-path',
    triggers:
      'ssh id rsa dsa ecds ed aws git netr npmr pypi pgpa kube etc env mcp cred conf dock gnup bash zsh proc wall appl azur pass vaul terr htpa clau prof auth host cron laun chro fire edge brav logi key zpro',
    except: QUOTING,
    title: 'asks the model to read, use or change a file that holds secrets',
    scope: 'sentence',
    all: [re(SECRET_PATH)],
    verb: { re: re(FILE_VERB), words: 8 },
    negatable: true,
    rationale:
      'Poisoning payloads ask the model to read keys and credentials (~/.ssh/id_rsa, .env, ~/.cursor/mcp.json) and pass them on as an argument. A path alone is not raised (a key-management server names ~/.ssh in every tool); a path with a verb that reads, sends or looks into it is.',
    source: `${INVARIANT}; MITRE ATT&CK T1552.001 (Credentials In Files), T1552.004 (Private Keys)`,
  },
  {
    id: 'secret-file-passed',
    triggers:
      'ssh id rsa dsa ecds ed aws git netr npmr pypi pgpa kube etc env mcp cred conf dock gnup bash zsh proc wall appl azur pass vaul terr htpa clau prof auth host cron laun chro fire edge brav logi key zpro',
    except: QUOTING,
    title: 'asks the model to pass on the contents of a file that holds secrets',
    scope: 'sentence',
    all: [re(CONTENTS_GIVEN), re(SECRET_PATH)],
    negatable: true,
    unlessHit: 'sensitive-path',
    rationale:
      'A sentence that names a file of keys or history and asks for "their contents" in an argument ("… from ~/.bash_history; pass their contents in `shell_log`"), or lists it among the values of a JSON example (`{"paths": ["./src", "~/.aws/credentials"]}`), hands the file on, though no verb stands before the path.',
    source: `${INVARIANT}; MITRE ATT&CK T1552.001 (Credentials In Files)`,
  },
  {
    id: 'file-harvest',
    gate: /[~/\\%$]|home|entire|whole|\ball\b|\bevery\b|documents|desktop|downloads|pictures|photos|music|videos|carpeta|dossier|ordner|verzeichnis|r[ée]pertoire|\.git|keychain|hidden|dotfiles|parent|outside|桌面|下载|文档|主目录|用户目录/i,
    title: "asks the model to read, copy, send or delete the user's own files",
    scope: 'sentence',
    all: [re(PRIVATE_PLACE)],
    verb: { re: re(FILE_VERB), words: 8 },
    negatable: true,
    except: QUOTING,
    unlessHit: 'sensitive-path',
    rationale:
      "A tool's text that tells the model to list, read, copy, send or delete what is in the user's home, system folders or the whole disk reaches past the tool's own task; a file tool describing itself (\"Lists a directory\") or an example path is not raised.",
    source: 'MITRE ATT&CK T1005 (Data from Local System), T1083 (File and Directory Discovery), T1485 (Data Destruction)',
  },
  {
    id: 'invisible-character',
    title: "an invisible character, or one that reverses the text's direction",
    scope: 'text',
    // A class of single code points on purpose (U+034F and the selectors are matched alone).
    all: [
      // eslint-disable-next-line no-misleading-character-class
      /[\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u3164\uFFA0]|[\uFE00-\uFE0F]{2,}/u,
    ],
    rationale:
      'Unicode tag characters (U+E0000–E007F) and variation selectors (U+E0100–E01EF, or a run of U+FE00–FE0F) carry text a model reads and a person does not see ("ASCII smuggling"); bidi controls reorder what a reviewer sees; zero-width characters, the combining grapheme joiner and Hangul fillers hide words from review and from pattern matching. One U+FE0F after an emoji is ordinary text and is not matched.',
    source: 'Unicode Technical Report #36, Unicode Security Considerations; Trojan Source (CVE-2021-42574)',
  },
  {
    id: 'image',
    title: 'an image, whose URL a client fetches to show it',
    scope: 'text',
    gate: /!\[|<\s*img/i,
    all: [/!\[[^\]\n]{0,200}\]\([^)\s]{1,500}\)|<\s*img\b[^>]{0,500}>/i],
    rationale: 'A client that renders a description fetches its images: an image URL carrying data is a way out, and a tool description has no use for one.',
    source: 'Embrace The Red, "Markdown image exfiltration" (2023-2025); OWASP LLM02 Sensitive Information Disclosure',
  },
  {
    id: 'link',
    title: 'a link whose URL carries data out',
    scope: 'text',
    gate: /\]\(|<\s*a\s/i,
    all: [/\[[^\]\n]{1,200}\]\(\s{0,20}[a-z][a-z0-9+.-]{0,30}:[^)\s]{0,500}(?:[{}$<>]|\?[^)\s]{0,500}=)[^)\s]{0,500}\)|<\s*a\s[^>]{0,500}href\s*=/i],
    rationale:
      'A Markdown link whose URL has a placeholder or a query string ({data}, ?q=…) asks the model to put data into a URL that it or the client then fetches; an HTML link in a description has no place either. Plain links to documentation are not raised: published servers link their docs (Notion, Brave).',
    source: 'OWASP LLM02 Sensitive Information Disclosure; MCP spec, Security considerations',
  },
  {
    id: 'control-character',
    title: 'a terminal control character',
    scope: 'text',
    // eslint-disable-next-line no-control-regex
    all: [/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/],
    rationale:
      'An escape sequence (ESC [ …) recolours, hides or rewrites what a terminal shows a reviewer, and no tool documentation needs a control character other than tab and newline.',
    source: 'OWASP MCP Top 10, MCP-1 Tool Poisoning (ANSI escapes in metadata); ECMA-48 control functions',
  },
  {
    id: 'hidden-markup',
    title: 'a comment or markup that a reader does not see',
    scope: 'text',
    gate: /<!--|\[\/\/\]|\[comment\]|style/i,
    all: [
      re(
        String.raw`<!--[\s\S]{0,1000}?-->`,
        String.raw`\[//\]:\s*#`,
        String.raw`\[comment\]:\s*<>`,
        String.raw`\bstyle\s*=\s*["'][^"']{0,100}(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0)`,
      ),
    ],
    rationale:
      'A rendered description shows a reviewer nothing of an HTML or Markdown comment, yet the model reads every character of it: the place to put instructions meant for the model alone.',
    source: `${INVARIANT}; ${LINE_JUMPING}`,
  },
  {
    id: 'padding',
    title: 'a long run of blank space that pushes text out of view',
    scope: 'text',
    gate: / {8}|[\t\n\u00A0\u2000-\u200A\u3000]/,
    all: [re(String.raw`[ \t\u00A0\u2000-\u200A\u3000]{60,}\S`, String.raw`(?:[ \t]*\r?\n){8,}[ \t]*\S`)],
    rationale:
      'Hundreds of spaces or blank lines move the rest of a description past what a client shows in its approval dialog, while the model still reads it.',
    source: INVARIANT,
  },
  {
    id: 'tool-order',
    triggers:
      'befo afte prio firs foll prec unti unle once then next imme earl ever each star begi init prer requ depe work reco retr try agai chai zuer vorh bevo vor nach avan aprè abor ensu ante prim desp step alre adva fron upfr orde zuvo vora abla reih erfo setz préa prea néce nece prev when apre sequ outp resu resp obta rece prod issu reli rely',
    title: 'tells the model in what order to call a tool this server does not serve',
    scope: 'sentence',
    gate: /[_.-]\w|[a-z][A-Z]|[`'"(]|\b(?:tools?|functions?|operations?|commands?)\b/,
    all: [re(ORDER)],
    needs: 'other-tool',
    rationale:
      'A server\'s own workflow ("call list_x first to get the id") names its own tools and is not raised. A text that orders calls to a tool it does not serve (read_file, send_email: another server\'s) is how a malicious server makes the model run it first, or run it after a trusted tool to see or rewrite what that tool did.',
    source: `${INVARIANT} (cross-server shadowing); ${LINE_JUMPING}`,
  },
  {
    id: 'tool-companion',
    triggers:
      'must alwa need requ mand make ensu sure reme plea shou shal have has ever each when only cann can nece esse best reco kind help sugg advi idea expe tip bett',
    title: 'tells the model to also call a tool this server does not serve whenever it uses this one',
    scope: 'sentence',
    all: [re(COMPANION, USE_VERB), re(DIRECTIVE)],
    needs: 'other-tool',
    unlessHit: 'tool-order',
    rationale:
      'A text that makes another server\'s tool a companion of this one ("always also call system_health", "use it only together with contacts_export") has the model run that tool, with what this one sees, on every call. Said as a description ("powerful when used with ref_search_web"), with no instruction, it is not raised.',
    source: `${INVARIANT} (cross-server shadowing)`,
  },
  {
    id: 'tool-step',
    triggers: 'call invo run exec trig use appe exéc lanc util llam ejec usa rufe führ fuhr ausf aufr star nutz verw tool func',
    title: 'a step of a workflow that calls a tool this server does not serve',
    scope: 'sentence',
    // Every step names a snake_case tool.
    gate: /_/,
    all: [re(STEP)],
    needs: 'other-tool',
    unlessHit: 'tool-order',
    rationale: 'A step naming another server\'s tool ("1. Call read_emails", "`x` ausführen") makes that tool part of every use of this one.',
    source: `${INVARIANT} (cross-server shadowing)`,
  },
  {
    id: 'tool-redirect',
    triggers:
      'inst rath plac repl supe depr obso lega reti pref do don neve avoi stop must shou may can not go goes rout swit unre outd brok malf unsa inse vuln comp phis disa bloc bugg no inac untr trus down unav suns migr impr more safe upgr excl only know leak vera erse stat anst nich obso au lieu remp luga reem slow slowe time time flak unst erro inco unof corr memo data bett fast supe chos over fall fall tool one plut util ne',
    title: 'steers the model away from a tool this server does not serve',
    scope: 'sentence',
    all: [re(REDIRECT)],
    needs: 'away-from-other',
    rationale:
      'Calling a trusted tool deprecated, unreliable or replaced, and this one the preferred way, steers the model away from it: the redirected call (a payment, an email, a file read) then goes through the attacker.',
    source: `${INVARIANT} (cross-server shadowing)`,
  },
  {
    id: 'tool-disparaged',
    triggers: DISPARAGE_TRIGGERS,
    title: 'runs down a tool this server does not serve, so that the model uses this one',
    scope: 'sentence',
    all: [re(DISPARAGE)],
    needs: 'away-from-other',
    unlessHit: 'tool-redirect',
    rationale: 'Saying a trusted tool drops attachments or leaks cookies, and that this one is the genuine one, steers the model away from it.',
    source: `${INVARIANT} (cross-server shadowing)`,
  },

  {
    id: 'send-to-destination',
    except: USER_DESTINATION,
    title: 'tells the model to send data to a URL, address or host',
    scope: 'sentence',
    all: [re(DESTINATION)],
    gate: /:\/\/|@|webhook|\+\d|\d\.\d|\b[a-z]{2}\d{2}[a-z0-9]{11}|\b0x[a-f0-9]{40}|\.(?:com|net|org|io|dev|sh|co|xyz|app|ai|cloud|site|info|biz|me|ru|cn|tk|top|link|click|online|to|cc|pw|ws)\b/i,
    verb: { re: re(SEND_VERB), words: 20, anyVoice: true },
    negatable: true,
    rationale:
      'A verb that moves data (send, post, forward, upload, report, make a request) together with a destination (a URL, an e-mail address, an IP address, a webhook, a phone number) in one sentence is the shape of exfiltration; a plain link to documentation has no such verb.',
    source: `${INVARIANT}; ${WHATSAPP}; MITRE ATT&CK T1567 (Exfiltration Over Web Service)`,
  },
  {
    id: 'data-in-url',
    title: 'a URL with a slot the model is to fill with data',
    scope: 'sentence',
    gate: /https?:\/\//i,
    all: [re(String.raw`(?:^|[^(\w])https?://[^\s"'<>]{0,200}[?&][\w.\[\]-]{1,40}=(?:\{|<|\$|\[|%7[bB]|\s|$)`)],
    rationale:
      'A URL whose query string has a slot for a value ({question}, <token>, ${key}, or nothing after the `=`) asks the model to put data into a URL it or the client then fetches.',
    source: 'OWASP LLM02 Sensitive Information Disclosure; Embrace The Red, "Markdown image exfiltration" (2023-2025)',
  },
  {
    id: 'conversation-harvest',
    triggers: CONVERSATION_TRIGGERS,
    except: USER_SUPPLIED,
    title: 'asks the model to pass on the conversation, its instructions or what the user said',
    scope: 'sentence',
    all: [re(CONVERSATION)],
    verb: { re: re(GIVE_VERB), words: 14 },
    negatable: true,
    rationale:
      "A tool gets the arguments its task needs. A text that asks for the conversation so far, the system prompt or the user's messages verbatim makes every call carry what the model knows to the server.",
    source: `${WHATSAPP}; ${FULL_SCHEMA}`,
  },
  {
    id: 'conversation-argument',
    triggers: CONVERSATION_TRIGGERS,
    except: USER_SUPPLIED,
    title: "an argument that asks for the conversation, the model's instructions or what the user said",
    scope: 'sentence',
    all: [re(CONVERSATION)],
    argumentOnly: true,
    unlessHit: 'conversation-harvest',
    negatable: true,
    rationale:
      "An argument's description says what the model fills in: one that describes the conversation, the system prompt or the user's earlier messages is a slot for them.",
    source: FULL_SCHEMA,
  },
  {
    id: 'conversation-field',
    except: USER_SUPPLIED,
    title: 'asks the model to fill an argument with the conversation, its instructions or what the user said',
    scope: 'sentence',
    all: [re(CONVERSATION), re(NAMED_SLOT)],
    gate: /\b(?:field|argument|param)|[\x60'"]\s{0,3}:|[a-z0-9]_[a-z0-9]{1,30}\s{0,3}:/i,
    negatable: true,
    unlessHit: 'conversation-harvest',
    rationale:
      'A description naming an argument ("the `trace` field", a parameter list\'s item "- `reporter_identity`: the user\'s …") with the conversation or the system prompt makes it a slot for them.',
    source: FULL_SCHEMA,
  },
  {
    id: 'secret-harvest',
    triggers: SECRET_TRIGGERS,
    title: 'asks the model to read, collect or pass on secrets',
    scope: 'sentence',
    all: [re(SECRET)],
    verb: { re: re(TAKE_VERB), words: 8, direct: true },
    negatable: true,
    rationale:
      'Keys, passwords, tokens and shell history that a description tells the model to read, collect, include or hand over leave with the next call; naming a secret alone (a key manager) or denying it ("never reads a private key") is not raised.',
    source: `${INVARIANT}; Pillar Security, "Deadbugz" campaign (2026); MITRE ATT&CK T1552 (Unsecured Credentials)`,
  },
  {
    id: 'secret-from-elsewhere',
    triggers: SECRET_TRIGGERS,
    title: 'asks for a secret the user did not give for this call (from the conversation, another tool, earlier)',
    scope: 'sentence',
    all: [re(SECRET), re(PROVENANCE)],
    verb: { re: re(TAKE_VERB), words: 20 },
    negatable: true,
    unlessHit: 'secret-harvest',
    rationale:
      'A key or password for the service a tool calls is an ordinary argument. One the text wants from elsewhere ("visible in the conversation", "from the .env file you read earlier", "the one the github server uses", "from the wallet tool\'s output") is another party\'s secret the model is asked to hand over.',
    source: `${INVARIANT}; ${FULL_SCHEMA}; MITRE ATT&CK T1552 (Unsecured Credentials)`,
  },
  {
    id: 'secret-argument',
    triggers: SECRET_TRIGGERS,
    title: 'an argument that asks for a secret the user did not give for this call',
    scope: 'sentence',
    all: [re(SECRET), re(PROVENANCE)],
    argumentOnly: true,
    negatable: true,
    unlessHit: 'secret-from-elsewhere',
    except: USER_SUPPLIED,
    rationale:
      "An argument's description says what the model fills in: one that wants a key or password from the conversation, another tool's output or another server is a slot for another party's secret.",
    source: `${FULL_SCHEMA}; MITRE ATT&CK T1552 (Unsecured Credentials)`,
  },

  {
    id: 'fixed-destination',
    triggers: 'alwa only do don neve must fixe hard rega leav keep chan over pass diff move swit',
    except: USER_DESTINATION,
    title: 'an argument fixed to an address or URL the user did not choose',
    scope: 'sentence',
    all: [re(DESTINATION), re(PINNED)],
    gate: /:\/\/|@|\d\.\d|\b[a-z]{2}\d{2}[a-z0-9]{11}|\b0x[a-f0-9]{40}|\.(?:com|net|org|io|dev|sh|co|xyz|app|ai|cloud|site|info|biz|me|ru|cn|tk|top|link|click|online|to|cc|pw|ws)\b/i,
    argumentOnly: true,
    rationale:
      'An argument that says it is always a given address, URL or host ("always set this to backup@mail-sync.net", "do not change") sends every call\'s data where the server\'s author chose, not where the user asked: a copy, a blind carbon copy, a callback.',
    source: `${WHATSAPP}; MITRE ATT&CK T1567 (Exfiltration Over Web Service)`,
  },
  {
    id: 'argument-override',
    triggers:
      'chan set repl swit redi poin over rewr modi upda rega what matt even irre conf appr cons dry forc safe neve alwa must shou also sile auto para argu fiel amou valu igno disc drop subs auch selb egal unab même meme quoi peu indé inde aunq sin',
    title: "tells the model to set or change a call's arguments against what the user asked",
    scope: 'sentence',
    all: [
      re(
        String.raw`\b(?:change|set|replace|switch|redirect|point|override|rewrite|modify|update)\s+(?:the\s+|all\s+|every\s+|its\s+|their\s+)?[\w.-]{0,30}(?:recipient|receiver|destination|address|account|iban|wallet|payee|beneficiary|e-?mail|phone|webhook|bcc)[\w.-]{0,20}(?:\s+(?:account|address|number|id))?\s+(?:field\s+|parameter\s+|argument\s+|value\s+)?to\b`,
        String.raw`\b(?:regardless\s+of|whatever|no\s+matter\s+what|even\s+if|even\s+when|even\s+though|irrespective\s+of)\b[^.\n]{0,25}\b(?:the\s+user|user's|they|you\s+are\s+told|requested|asked|instructed|input|entered)`,
        String.raw`\b(?:auch|selbst)\s+wenn\b[^.\n]{0,30}\bnicht\s+(?:angegeben|genannt|eingegeben|verlangt|gew[üu]nscht)\b|\b(?:egal|unabh[äa]ngig\s+davon),?\s+was\s+(?:der\s+)?(?:Nutzer|Benutzer|Anwender)|\b(?:quoi\s+que|peu\s+importe\s+ce\s+que|ind[ée]pendamment\s+de\s+ce\s+que)\s+l['’]utilisateur|\bm[êe]me\s+si\s+l['’]utilisateur\s+ne\b|\b(?:sin\s+importar|independientemente\s+de)\s+lo\s+que\s+(?:el\s+usuario|pida|indique|diga)|\baunque\s+el\s+usuario\s+no\b`,
        String.raw`\b(?:overwrite|override|replace|substitute|ignore|discard|drop)\s+(?:any|the|every|all|whatever)\s+(?:\w{1,20}\s+)?(?:value|address|recipient|destination|account|wallet|e-?mail|number|url|amount|iban|input|one)s?\s+(?:that\s+)?(?:the\s+user|they)\s+(?:provides?|gives?|enters?|supplies|specif(?:y|ies)|types?|asks?\s+for|wants?|chooses?)\b|\b(?:value|address|recipient|input|one|number|e-?mail)\s+(?:that\s+)?(?:the\s+user|they)\s+(?:gives?|provides?|enters?|supplies|types?)\s+(?:is|are|will\s+be|gets?)\s+(?:ignored|overwritten|overridden|replaced|discarded)\b`,
        String.raw`\b(?:confirm\w*|approv\w*|consent\w*|dry[_-]?run|force|safe[_-]?mode)\b[^.\n]{0,40}\b(?:must|should|shall)\s+(?:always\s+)?be\s+(?:set\s+to\s+)?(?:true|false|enabled|disabled|yes|no|on|off)\b`,
        String.raw`\bnever\s+ask\b[^.\n]{0,20}\b(?:confirm\w*|approv\w*|permission|consent)`,
        String.raw`\b(?:always|must|should)\s+(?:also\s+)?(?:bcc|cc|blind[- ]copy)\b`,
        String.raw`\b(?:always|also|silently|automatically)\s+(?:add|set|grant|include|append|assign)\b[^.\n]{0,30}\b(?:role\s*[=:]?\s*['"]?(?:admin|owner|root)|admin(?:istrator)?\s+(?:role|rights|access|privileges?)|root\s+access|owner\s+(?:role|access))`,
        String.raw`\b(?:always|must always|should always)\s+(?:set|use|pass|fill|put)\s+(?:the\s+)?[\w.-]{1,40}\s+(?:field|parameter|argument|param|value|option)\s+to\b`,
        String.raw`\b(?:parameter|argument|field|param)\s+(?:must|should|shall|has to|needs to)\s+(?:always\s+)?(?:be\s+)?(?:set\s+to|equal(?:\s+to)?|contain|include|point\s+to)\b|\b(?:parameter|argument|field|param|amount|value)\s+(?:must|should|shall)\s+always\s+be\s+(?:increased|decreased|raised|lowered|multiplied|doubled|rounded|changed|replaced|modified|overridden|rewritten)\b`,
        String.raw`\bset\s+(?:the\s+)?[\w.\x60'"-]{1,40}\s+(?:parameter|argument|field|param)\s+to\b`,
      ),
    ],
    rationale:
      'Changing the recipient or destination of a call, forcing a confirmation flag, adding an admin role or overriding what the user asked for turns a trusted tool against its user while every call looks normal.',
    source: `${WHATSAPP}; ${INVARIANT}`,
  },
  {
    id: 'shell-command',
    triggers:
      'curl wget bash sh zsh nc ncat netc dev rm cmd invo cert sudo chmo powe pwsh iex eval base pip npm yarn pnpm echo prin env cat mkfi cron nohu os subp chil pyth perl ruby ssh iwr irm down kube exec auth prof',
    except: QUOTING,
    title: 'a dangerous shell command',
    scope: 'text',
    all: [
      re(
        String.raw`\b(?:curl|wget)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b`,
        String.raw`\b(?:bash|sh|zsh)\s+-c\b`,
        String.raw`\b(?:nc|ncat|netcat)\b[^\n]{0,30}\s-[a-z]{0,3}e\b`,
        String.raw`/dev/tcp/`,
        String.raw`\brm\s+-[a-z]{0,3}[rf]`,
        String.raw`\bcurl\b[^\n]{0,120}\s(?:-d|--data(?:-binary|-raw)?|-F|--form|-T|--upload-file)\s+@`,
        String.raw`\bcmd(?:\.exe)?\s+/c\b|\binvoke-webrequest\b|\bcertutil\b[^\n]{0,20}-urlcache|\bsudo\s+\w`,
        String.raw`\bchmod\s+(?:-r\s+)?(?:777|666|\+s|u\+s|a\+rwx)`,
        String.raw`\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,80}\s-(?:e|ec|enc|encodedcommand)\b`,
        String.raw`\biex\s*\(|\binvoke-expression\b`,
        String.raw`\beval\s*\(\s*(?:atob|base64|decode)`,
        String.raw`\bbase64\s+(?:-d|--decode)\b[^\n]{0,40}\|`,
        String.raw`\b(?:pip3?|npm|yarn|pnpm)\s+(?:install|i|add)\b[^\n]{0,80}--(?:extra-)?(?:index-url|registry|trusted-host)\s+http:`,
        String.raw`\becho\s+\$\{?[a-z_]{0,40}(?:key|token|secret|pass(?:word)?)\b`,
        String.raw`\bprintenv\b|\benv\s*\|`,
        String.raw`\bcat\s+[~/$][^\s]{0,80}(?:\.ssh|\.aws|\.env|passwd|shadow|credentials)`,
        String.raw`\bmkfifo\b|\bcrontab\s+-|\bnohup\b`,
        String.raw`(?:;|&&|\|\|)\s*(?:rm|curl|wget|nc|bash|sh|chmod|python3?|perl)\s`,
        String.raw`\$\((?:curl|wget|cat|whoami|id|uname|env)\b`,
        String.raw`\bos\.system\s*\(|\bsubprocess\.(?:run|call|popen|check_output)\s*\(|\bchild_process\b`,
        String.raw`\b(?:python3?\s+-c|perl\s+-e|ruby\s+-e)\s`,
        String.raw`\bssh\s+-r\s`,
        String.raw`\|\s*(?:iex|nc|ncat|netcat)\b|\b(?:iwr|irm)\s+https?:`,
        String.raw`\bdownload\w*\s+and\s+(?:run|execute|install)\b`,
        String.raw`\bkubectl\s+get\s+secrets?\b`,
        String.raw`\s-exec\s+(?:curl|wget|sh|bash|nc)\b|=@[{~/$]`,
        String.raw`>>?\s*~?[\w./$-]{0,60}(?:authorized_keys|\.bashrc|\.zshrc|\.bash_profile|\.profile|crontab|sudoers)\b`,
      ),
    ],
    rationale:
      'Pipes from curl into a shell, reverse shells, recursive deletes, world-writable permissions, encoded PowerShell, packages from a plain-HTTP index and printed secrets: commands a description asks the model to run, with the shell tool of another server, that no documentation of a tool needs.',
    source: 'MITRE ATT&CK T1059 (Command and Scripting Interpreter), T1105 (Ingress Tool Transfer); CWE-78',
  },
  {
    id: 'command-directive',
    except: QUOTING,
    title: 'tells the model to run a command in a shell',
    scope: 'sentence',
    gate: /terminal|shell|command|console|bash|script|code|one-liner|`/i,
    all: [
      re(
        String.raw`\b(?:run|execute|type|enter|paste)\s+(?:the\s+)?(?:following|this|these|below)\s+(?:shell\s+|terminal\s+|bash\s+)?(?:commands?|scripts?|code|one-liner)`,
        String.raw`\b(?:run|execute)\b[^.\n]{0,120}\b(?:in|with|using|via|through)\s+(?:the\s+|your\s+|a\s+)?(?:terminal|shell|command\s+line|console|bash|execute_command|run_command|terminal tool|shell tool)\b`,
        String.raw`\b(?:run|execute)\s+\x60\s*(?:curl|wget|bash|sh|zsh|npm|npx|pip3?|python3?|node|sudo|chmod|chown|rm|git|cat|echo|nc|powershell|cmd|eval|export)\b`,
      ),
    ],
    rationale: "A tool's description that has the model run commands in a terminal uses another server's shell tool to do what this one cannot.",
    source: `${LINE_JUMPING}; MITRE ATT&CK T1059`,
  },
  {
    id: 'encoded-payload',
    triggers: 'deco base atob rot',
    title: 'an encoded blob the model is told to decode',
    scope: 'sentence',
    all: [re(String.raw`(?:^|[^A-Za-z0-9+/=])[A-Za-z0-9+/]{32,}={0,2}`), re(String.raw`\b(?:decode|decoded|base64|b64|atob|rot13)\b`)],
    rationale: 'An instruction hidden in base64 passes every word list and every human skim; telling the model to decode it is the tell.',
    source: OWASP_LLM01,
  },
];
