/**
 * Which JSON-RPC methods a client may send through `toolgate proxy` (docs/design.md §11). A
 * request or notification passes only when its method is one the client may send in the
 * protocol version the session speaks, or one `runtime.pass-methods` names; everything else is
 * refused (a request) or dropped (a notification), so no method the proxy does not know reaches
 * the server unjudged. A method that only reads like one the proxy judges itself (`TOOLS/CALL`,
 * `tools/call `, full-width or look-alike letters, invisible characters) is never forwarded,
 * whatever the policy says: a server that tidies method names would otherwise run a tool call
 * nobody checked, or answer a tool list nobody filtered.
 *
 * Sources: the `ClientRequest` and `ClientNotification` unions of the MCP schema of each version
 * (modelcontextprotocol/modelcontextprotocol, `schema/<version>/schema.ts`) and, for
 * 2026-07-28, the tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663: `tasks/get`,
 * `tasks/update`, `tasks/cancel`).
 */
import { foldName } from '../rules/name-fold.js';

/** The methods a client may send in one protocol version. */
interface ClientMethods {
  requests: readonly string[];
  notifications: readonly string[];
}

/** 2024-11-05; unchanged in 2025-03-26 and 2025-06-18 (elicitation is a server request). */
const SESSION_ERA: ClientMethods = {
  requests: [
    'initialize',
    'ping',
    'completion/complete',
    'logging/setLevel',
    'prompts/get',
    'prompts/list',
    'resources/list',
    'resources/templates/list',
    'resources/read',
    'resources/subscribe',
    'resources/unsubscribe',
    'tools/call',
    'tools/list',
  ],
  notifications: ['notifications/cancelled', 'notifications/progress', 'notifications/initialized', 'notifications/roots/list_changed'],
};

/**
 * The client's methods per protocol version. 2026-07-28 drops `initialize`, `ping`,
 * `logging/setLevel`, resource subscriptions and every client notification but
 * `notifications/cancelled`, and adds `server/discover` and `subscriptions/listen`.
 */
export const CLIENT_METHODS: Readonly<Record<string, ClientMethods>> = {
  '2024-11-05': SESSION_ERA,
  '2025-03-26': SESSION_ERA,
  '2025-06-18': SESSION_ERA,
  '2025-11-25': {
    requests: [...SESSION_ERA.requests, 'tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel'],
    notifications: [...SESSION_ERA.notifications, 'notifications/tasks/status'],
  },
  '2026-07-28': {
    requests: [
      'server/discover',
      'completion/complete',
      'prompts/get',
      'prompts/list',
      'resources/list',
      'resources/templates/list',
      'resources/read',
      'subscriptions/listen',
      'tools/call',
      'tools/list',
      'tasks/get',
      'tasks/update',
      'tasks/cancel',
    ],
    notifications: ['notifications/cancelled'],
  },
};

/** The methods the proxy answers or judges itself: never forwarded in any other spelling. */
export const JUDGED_METHODS: readonly string[] = ['tools/call', 'tools/list'];

/**
 * A method name as a server that tidies names might read it: {@link foldName} (NFKC, invisible
 * characters removed, look-alike letters folded, lower case) after a round trip through upper
 * case (`ı` reads `i`), with all white space removed and slash look-alikes (`⁄ ∕ ⧸ ╱`) read as `/`.
 */
export function foldMethod(method: string): string {
  return foldName(method.toUpperCase())
    .replace(/\s+/gu, '')
    .replace(/[\u2044\u2215\u2571\u29f8]/gu, '/');
}

const FOLDED_JUDGED = new Map(JUDGED_METHODS.map((m) => [foldMethod(m), m]));

/** The judged method that `method` reads as without being it, if any (`TOOLS/CALL` → `tools/call`). */
export function judgedLookAlike(method: string): string | undefined {
  if (JUDGED_METHODS.includes(method)) return undefined;
  return FOLDED_JUDGED.get(foldMethod(method));
}

/** Why a method does not pass. */
export interface MethodRefusal {
  reason: 'unknown-method' | 'judged-method-variant';
  /** One sentence for the client and the log. */
  message: string;
}

interface MethodSets {
  requests: ReadonlySet<string>;
  notifications: ReadonlySet<string>;
}

/**
 * Decides whether a client's method passes, per protocol version. The exact string is looked up
 * first (one Set lookup per message); folding runs only for a method that is not known.
 */
export class MethodGate {
  private readonly byEra = new Map<string, MethodSets>();
  /** Every version's methods: before a version is agreed, or when the server speaks one not in the table. */
  private readonly anyEra: MethodSets;
  private readonly pass: ReadonlySet<string>;

  /**
   * @param passMethods `runtime.pass-methods`: methods passed on as requests or notifications.
   * @throws Error when one of them reads as a judged method (see {@link judgedLookAlike}).
   */
  constructor(passMethods: readonly string[]) {
    for (const m of passMethods) {
      const judged = judgedLookAlike(m);
      if (judged !== undefined || JUDGED_METHODS.includes(m))
        throw new Error(`runtime.pass-methods names ${JSON.stringify(m)}, which reads as ${judged ?? m}: the proxy judges that method itself`);
    }
    this.pass = new Set(passMethods);
    for (const [era, m] of Object.entries(CLIENT_METHODS)) this.byEra.set(era, { requests: new Set(m.requests), notifications: new Set(m.notifications) });
    const all = [...this.byEra.values()];
    this.anyEra = { requests: new Set(all.flatMap((s) => [...s.requests])), notifications: new Set(all.flatMap((s) => [...s.notifications])) };
  }

  /**
   * @param method the message's method, as sent.
   * @param request true for a request (it has an id), false for a notification.
   * @param era the protocol version the server answered `initialize` with, if any.
   * @returns undefined when the method passes, else why not.
   */
  judge(method: string, request: boolean, era: string | undefined): MethodRefusal | undefined {
    const sets = (era !== undefined ? this.byEra.get(era) : undefined) ?? this.anyEra;
    if ((request ? sets.requests : sets.notifications).has(method) || this.pass.has(method)) return undefined;
    const judged = judgedLookAlike(method);
    const shown = JSON.stringify(method.length > 200 ? `${method.slice(0, 200)}…` : method);
    if (judged !== undefined)
      return {
        reason: 'judged-method-variant',
        message: `method ${shown} is not "${judged}" (methods are exact, case-sensitive names), and a variant of a method the proxy judges is never forwarded`,
      };
    const where = era !== undefined && this.byEra.has(era) ? `of protocol ${era}` : 'of any protocol version the proxy knows';
    return {
      reason: 'unknown-method',
      message: `method ${shown} is not an MCP client ${request ? 'request' : 'notification'} ${where}, so it is not forwarded; name it in runtime.pass-methods to let it through`,
    };
  }
}
