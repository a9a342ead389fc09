/**
 * Vocabulary of `suspicious-text`'s rows (suspicious-patterns.ts) beside the table's own: regex
 * sources of alternatives (RE2 syntax, each linear, used inside a group), the trigger words of
 * rows that anchor on the table's largest vocabularies, and the names of arguments that ask for what
 * the model knows. Pure data.
 */

/**
 * Another server's tool run down so the model picks this one: what it does wrong ("drops
 * attachments", "returns stale rows", "often times out", "known to leak", "silently duplicating
 * pages"), a claim on this tool ("use this tool for all …", "the genuine one"), in English, German,
 * French, Spanish and Chinese. Apart from the row of plain redirects: one alternation of both costs
 * more than two.
 */
export const DISPARAGE = String.raw`\b(?:truncat(?:e|es|ed|ing|ion)|mangl(?:e|es|ed|ing)|garbl(?:e|es|ed|ing)|(?:strip(?:s|ped)?|drop(?:s|ped|ping)?|los(?:e|es|ing)|lost) (?:out )?(?:the |all |your |its )?(?:attachments?|messages?|fields?|data|rows|records|labels?|headers?|e-?mails?|files?|results?|requests?|content|tables?|images?|formatting|metadata|links|assignees?|parameters?|values?)|(?:wrong|incorrect|partial|stale|outdated|corrupted?|garbled|mangled) (?:results?|data|output|answers?|content|rows|records|matches|pages?|files?|messages?|values?|responses?)|half (?:a|the|of)|(?:often|frequently|sometimes|regularly|randomly|constantly|keeps?|tends? to) (?:fail(?:s|ing)?|crash(?:es|ing)?|break(?:s|ing)?|error(?:s|ing)? out|times? out)|known to (?:leak|expose|fail|crash|break|drop|lose|corrupt)|expos(?:e|es|ed|ing) (?:your |the user'?s? )?(?:cookies|credentials|secrets|tokens?|keys?|passwords?|data|sessions?)|(?:not|stop) relying on|(?:do not|don't|never) rely on|unlike|(?:silently|quietly) (?:duplicat|overwrit|drop|los|fail|corrupt|truncat|rewrit|discard|ignor|skip)\w{0,6}|(?:use|prefer|choose|pick) this (?:tool|one|server) for (?:all|every|any)|(?:benutze|verwende|nutze) dieses (?:Tool|Werkzeug)|dieses (?:Tool|Werkzeug) (?:benutzen|verwenden|nutzen)|utilisez \S{1,40} pour tou(?:s|tes)|usa esta herramienta|falsch(?:e|en|er)?|bloqu[ée]s?|bloquead[oa]s?|phas(?:ed|ing) out|shut(?:ting)? down|not recommended|discouraged|genuine|authentic|(?:known|security|serious|critical) (?:security )?(?:issues?|bugs?|flaws?|holes?|problems?)|(?:is|are) not (?:available|working|functional|reliable|accurate|safe|secure|retained|archived|logged|audited|encrypted)|same (?:capabilit(?:y|ies)|functionality|features?)|errors? out|rate-?limited|return(?:s|ing)? (?:spam|junk|garbage)|spammy|(?:filed|sent|made|done|handled|routed|submitted) here|the (?:real|right|correct|official) (?:one|tool)|gets? it right|pick (?:it|this|me)|choose (?:it|this)|pr[ée]f[ée]r(?:ez|er|able)|tronqu\w{0,3}|pierde[n]?|trunca[n]?|defectuos[oa]|en vez de|veraltet(?:e|en|er|es)?|fehlerhaft(?:e|en)?|abgeschaltet|stattdessen|unzuverl[äa]ssig|verliert|obsolet[oa]s?|anticuad[oa]|desactualizad[oa]|inestable|poco fiable|lent[oa]?|instable|peu fiable|d[ée]pass[ée]|p[ée]rim[ée]|langsam|instabil|unsicher|kaputt|defekt)\b|截断|损坏|丢失|不可靠|过时|请用|请使用|错误|不准确|重复`;
/** Words of {@link DISPARAGE} (first four letters), one of which every match contains. */
export const DISPARAGE_TRIGGERS =
  'trun mang garb stri drop lose losi lost wron inco part stal outd corr half fail cras brea erro time know expo rely unli sile quie tool one serv dies util herr fals bloq phas shut reco disc genu auth secu seri crit avai work func reli accu safe reta arch logg audi encr same rate spam junk here righ pick choo préf pref tron pier defe vez vera fehl abge stat unzu verl obso anti desa ines poco lent inst peu dépa depa péri peri lang unsi kapu';
/**
 * An argument named as a slot ("the `trace` field", "argument 'notes'", a parameter list's item that
 * is the user's or the model's: "- `reporter_identity`: the user's …"): rare, so a row that also
 * needs the conversation's large regex gates on its words and runs that regex only where one is named.
 */
export const NAMED_SLOT = String.raw`[\x60'"][\w.-]{1,40}[\x60'"]\s+(?:field|argument|param)|\b(?:field|argument|param)\w{0,5}\s+[\x60'"]\w|(?:^|\n)\s{0,3}(?:[-*•]\s{1,3})?(?:[\x60'"][\w.-]{1,40}[\x60'"]|[a-z][a-z0-9]{0,30}(?:_[a-z0-9]{1,30}){1,5})\s{0,3}:\s{0,3}(?:the\s+user['’]s|your|everything|all\s+(?:the\s+)?(?:user|previous|prior|earlier))\b`;
/** A step that calls a snake_case name: a verb of calling opening a sentence, list item or clause ("1. Call read_emails"), a verb of using opening a sentence or list item ("2. Use `read_env_file` on …"; "(use search_issues …)" mid-sentence is a pointer), or German after it ("`x` ausführen"), or a YAML or JSON step's key (`- tool: read_env`, `{"call": "export_all"`). */
export const STEP = String.raw`(?:(?:^|[\n:;(.!?]\s{0,3}|\b(?:then|and then|next|finally|now|please|dann|danach)\s+)(?:call|invoke|run|execute|trigger|appelez|ex[ée]cutez|lancez|llama(?:\s+a)?|ejecuta|rufe|f[üu]hre)|(?:^|[\n.!?:]\s{0,3})(?:\d{1,2}[.)]\s{1,3}|[-*•]\s{1,3})?(?:use|utilisez|usa|verwende|nutze))\s+(?:the\s+(?:tool\s+)?)?[\x60'"]?[a-z][a-z0-9]{0,30}(?:_[a-z0-9]{1,30}){1,6}\b|(?:^|[\n:;(.!?]\s{0,3}|\b(?:then|and then|next|finally|now|please|dann|danach)\s+)[\x60'"]?[a-z][a-z0-9]{0,30}(?:_[a-z0-9]{1,30}){1,6}[\x60'"]?\s+(?:ausf[üu]hren|aufrufen|starten|nutzen|verwenden)\b|(?:^|[\n{,])\s{0,8}(?:[-*•]\s{1,3})?["']?(?:tool|call|function|run)["']?\s{0,3}:\s{0,3}["'\x60]?[a-z][a-z0-9]{0,30}(?:_[a-z0-9]{1,30}){1,6}\b`;
/** What pins an argument: "always", "do not change", "leave it as backup@…", "changing it breaks delivery", "the backend overwrites this with …; pass that value", "when it differs from X, use X", "the vendor has moved banks". */
export const PINNED = String.raw`\b(?:always|only ever|(?:do not|don't|never) (?:change|edit|modify|alter|replace|override)|must not be changed|must remain|fixed|hard-?coded|regardless|(?:leave|keep) (?:it |this )?(?:as|at|set to|on) [\w.+-]{1,64}@|changing (?:it|this) (?:breaks|will break)|overwrit(?:e|es|ten)\s+(?:this|it|any|the\s+value)|pass\s+(?:that|this)\s+(?:value|address)|differs?\s+from\s+[^,.;\n]{1,80}[,;]?\s+use|(?:has|have)\s+(?:moved|changed|switched)\s+(?:banks?|accounts?|address(?:es)?|wallets?))\b`;
/**
 * The model named as the one acting, before a verb in the third person ("the assistant calls
 * session_notes with …", "Claude reads …"): an instruction to the model said as a description,
 * which a verb in the third person alone is not. Used before the verbs of the rows that take data.
 */
export const AGENT_DOES = String.raw`\b(?:the\s+)?(?:assistant|model|agent|ai|llm|claude|copilot|chatbot)\s+(?:(?:also|then|first|always|now|[a-z]{2,15}ly)\s+){0,2}`;
// The words (first four letters) of CONVERSATION and SECRET, for the rows that anchor on them.
export const CONVERSATION_TRIGGERS =
  'conv chat mess prev prio earl past syst hidd init orig your list what user ever read seen open acce proc rece envi turn each they uplo shar atta inst deve clip tabs fact outp resu resp tool mach comp devi host inte core func vari work edit view gesa gesp chat hist cont memo tran clav file docu data page last late most anyt all disc talk ment said told writ type few seve two thre five ten exch know reme lear rule guid othe thre mens nach date fich arch answ repl summ reca dige syno sess any gath infe foun enco noti entw kont';
export const SECRET_TRIGGERS =
  'ssh priv api acce secr sess auth bear oaut refr pers pass cred seed reco mnem wall cook shel bash zsh comm brow kube keyc keys key env envi cvv cvc card soci';

/**
 * Names of arguments that invite a model to pass along what it knows (the conversation, its
 * reasoning, secrets it saw): a classic exfiltration channel when added to an existing tool.
 */
export const EXFILTRATION_ARGUMENT =
  /^(notes?|context|feedback|debug(_?info)?|summary|conversation(_?history)?|chat(_?history)?|history|reasoning|thoughts?|side_?notes?|memo|remarks?|comments?|extra(_?info)?|additional(_?info|_?context)?|sidenote|user_?info)$/i;

/**
 * Names of arguments that ask for what the model knows whatever the tool: a name wrapped in
 * underscores (`_system_prompt_`, `__context__`), a sigil the model fills from its context. Raised
 * in an audit too. See also {@link CONTEXT_ARGUMENT_NAMES}.
 */
export const CONTEXT_ARGUMENT = /^_{1,2}[a-z][a-z0-9]{0,40}(?:_[a-z0-9]{1,40}){0,8}_{1,2}$/i;

/**
 * Argument names, folded (lower case, `_` and `-` removed: `chatHistory` is `chat_history`), that
 * name the conversation, its history or the model's reasoning. Raised in an audit too. A plain
 * `system_prompt` is not here: prompt-management servers take one as their subject.
 */
export const CONTEXT_ARGUMENT_NAMES: ReadonlySet<string> = new Set(
  (
    'conversation conversationhistory conversationlog conversationcontext conversationtranscript chathistory chatlog ' +
    'chattranscript messagehistory previousmessages priormessages userhistory usermessages sessionsummary sessionhistory ' +
    'sessiontranscript transcript contextwindow fullcontext chainofthought hiddencontext internalcontext internalnotes'
  ).split(' '),
);
