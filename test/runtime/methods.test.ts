/**
 * The proxy's method table and gate (src/runtime/methods.ts): which client methods pass in which
 * protocol version, and that no spelling of a judged method ever passes. The 2025-11-25 table is
 * checked against the real SDK 1.x client's own unions of client requests and notifications.
 */
import { ClientNotificationSchema, ClientRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { CLIENT_METHODS, JUDGED_METHODS, MethodGate, judgedLookAlike } from '../../src/runtime/methods.js';

/** Spellings a lenient server might read as `tools/call` or `tools/list`. */
const VARIANTS = [
  'TOOLS/CALL',
  'Tools/Call',
  'tools/call ',
  ' tools/call',
  'tools/call\n',
  'tools/call\t',
  'tools / call',
  'tools/\u200bcall',
  'tools/call\u00a0',
  '\ufefftools/call',
  'ｔｏｏｌｓ/ｃａｌｌ',
  'tools／call',
  't\u043eols/call',
  'tools\u2215call',
  'tools/cal\u217c',
  'TOOLS/LIST',
  'tools/list ',
  'tools/l\u0131st',
];

const literals = (schema: { options: readonly { shape: { method: { value: string } } }[] }) => schema.options.map((o) => o.shape.method.value);

describe('the method table', () => {
  it('2025-11-25 has exactly the client requests and notifications of the SDK 1.x client (which speaks 2025-11-25)', () => {
    expect([...CLIENT_METHODS['2025-11-25']!.requests].sort()).toEqual(literals(ClientRequestSchema as never).sort());
    expect([...CLIENT_METHODS['2025-11-25']!.notifications].sort()).toEqual(literals(ClientNotificationSchema as never).sort());
  });

  it('2026-07-28 has server/discover and subscriptions/listen, and none of initialize, ping, logging/setLevel, resources/subscribe', () => {
    const modern = CLIENT_METHODS['2026-07-28']!;
    expect(modern.requests).toEqual(
      expect.arrayContaining(['server/discover', 'subscriptions/listen', 'tools/call', 'tools/list', 'tasks/get', 'tasks/update']),
    );
    for (const gone of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'tasks/result', 'tasks/list'])
      expect(modern.requests).not.toContain(gone);
    expect(modern.notifications).toEqual(['notifications/cancelled']);
  });

  it('every era has the judged methods', () => {
    for (const [era, m] of Object.entries(CLIENT_METHODS)) for (const j of JUDGED_METHODS) expect(m.requests, era).toContain(j);
  });
});

describe('MethodGate', () => {
  const gate = new MethodGate([]);

  it("passes each era's own methods in that era, and every era's before a version is agreed", () => {
    for (const [era, m] of Object.entries(CLIENT_METHODS)) {
      for (const r of m.requests) expect(gate.judge(r, true, era), `${era} ${r}`).toBeUndefined();
      for (const n of m.notifications) expect(gate.judge(n, false, era), `${era} ${n}`).toBeUndefined();
    }
    for (const r of ['server/discover', 'initialize', 'tasks/update', 'tasks/result']) expect(gate.judge(r, true, undefined)).toBeUndefined();
    // A version the table does not have is judged by every known one.
    expect(gate.judge('ping', true, '2099-01-01')).toBeUndefined();
  });

  it("refuses what the session's version does not have, naming the version and runtime.pass-methods", () => {
    expect(gate.judge('tasks/get', true, '2025-06-18')).toEqual({
      reason: 'unknown-method',
      message:
        'method "tasks/get" is not an MCP client request of protocol 2025-06-18, so it is not forwarded; name it in runtime.pass-methods to let it through',
    });
    expect(gate.judge('ping', true, '2026-07-28')?.reason).toBe('unknown-method');
    expect(gate.judge('vendor/run', true, undefined)?.message).toContain('of any protocol version the proxy knows');
    // A request's method sent as a notification, and the other way round, are not known.
    expect(gate.judge('notifications/cancelled', true, undefined)?.reason).toBe('unknown-method');
    expect(gate.judge('resources/read', false, undefined)?.message).toContain('is not an MCP client notification');
  });

  it('refuses every spelling that reads as tools/call or tools/list, whatever runtime.pass-methods says', () => {
    for (const v of VARIANTS) {
      expect(judgedLookAlike(v), JSON.stringify(v)).toMatch(/^tools\/(call|list)$/);
      expect(gate.judge(v, true, undefined)?.reason, JSON.stringify(v)).toBe('judged-method-variant');
      expect(gate.judge(v, false, '2025-06-18')?.reason, JSON.stringify(v)).toBe('judged-method-variant');
    }
    for (const v of VARIANTS) expect(() => new MethodGate([v]), JSON.stringify(v)).toThrow(/reads as tools\/(call|list)/);
    expect(() => new MethodGate(['tools/call'])).toThrow(/judges that method itself/);
    // Neighbours that do not read as a judged method stay unknown, not variants.
    for (const other of ['tools/callback', 'tools/calls', 'tool/call', 'tools.call', 'resources/READ']) expect(judgedLookAlike(other), other).toBeUndefined();
  });

  it('passes what runtime.pass-methods names, exactly as named', () => {
    const g = new MethodGate(['vendor/run', 'notifications/vendor']);
    expect(g.judge('vendor/run', true, '2025-06-18')).toBeUndefined();
    expect(g.judge('notifications/vendor', false, undefined)).toBeUndefined();
    expect(g.judge('Vendor/Run', true, undefined)?.reason).toBe('unknown-method');
  });

  it('says a long method in short', () => {
    const r = gate.judge(`x${'y'.repeat(100_000)}`, true, undefined);
    expect(r?.message.length).toBeLessThan(400);
  });
});
