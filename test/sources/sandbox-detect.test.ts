/**
 * What toolgate tells from a machine's /proc when bubblewrap is refused: a fake proc root (a
 * directory standing for /proc) holds the settings of Ubuntu 24.04 (GitHub's ubuntu-latest, where
 * AppArmor restricts unprivileged user namespaces), of Debian with them switched off, and of a
 * machine without either.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { namespacesInDoubt, procReader, refusalReason } from '../../src/sources/launch/state.js';
import { tempDir } from '../support/mcp-fixtures.js';

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.splice(0).forEach((c) => c()));

/** A proc root with `files` (paths relative to it, e.g. `sys/kernel/…`). */
function procRoot(files: Record<string, string>): string {
  const t = tempDir('tg-proc-');
  cleanups.push(t.cleanup);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(t.path, rel, '..'), { recursive: true });
    writeFileSync(join(t.path, rel), `${text}\n`);
  }
  return t.path;
}

const RTM = 'bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted';

describe('detection from /proc/sys, under a configurable proc root', () => {
  it("Ubuntu 24.04's AppArmor restriction: the probe runs first, and the refusal names the profile and the setup step", () => {
    const root = procRoot({ 'sys/kernel/apparmor_restrict_unprivileged_userns': '1', 'sys/user/max_user_namespaces': '63704', 'self/status': 'Seccomp:\t0' });
    const read = procReader(root);
    expect(read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns')).toBe('1');
    expect(namespacesInDoubt(read)).toBe(true);
    const why = refusalReason(RTM, read);
    expect(why).toContain('(bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted)');
    expect(why).toMatch(/AppArmor restricts unprivileged user namespaces \(kernel.apparmor_restrict_unprivileged_userns = 1\)/);
    expect(why).toContain("AppArmor's bwrap-userns-restrict profile");
    expect(why).toContain('uses: toolgate/toolgate/setup-sandbox@v0');
  });

  it('the restriction off (0), or a kernel without it: no AppArmor advice', () => {
    for (const files of [{ 'sys/kernel/apparmor_restrict_unprivileged_userns': '0' }, {}] as Record<string, string>[]) {
      const read = procReader(procRoot(files));
      expect(namespacesInDoubt(read)).toBe(false);
      expect(refusalReason('bwrap: setting up uid map: Permission denied', read)).not.toContain('AppArmor restricts');
    }
  });

  it("Debian's switch and a zero namespace limit are named as such", () => {
    expect(refusalReason('x', procReader(procRoot({ 'sys/kernel/unprivileged_userns_clone': '0' })))).toMatch(
      /switched off \(kernel.unprivileged_userns_clone = 0\)/,
    );
    expect(refusalReason('x', procReader(procRoot({ 'sys/user/max_user_namespaces': '0' })))).toMatch(/switched off \(user.max_user_namespaces = 0\)/);
  });
});
