/**
 * setup-sandbox/setup.sh, the sub-action that makes a runner ready for the sandbox, run for real
 * (bash) against a machine made of stubs: `apt-get`, `apparmor_parser`, `sudo` and `sysctl` on
 * PATH record what they are asked; a fake proc root holds
 * `kernel.apparmor_restrict_unprivileged_userns`; a fake bwrap behaves as bubblewrap does under
 * the restriction (`loopback: Failed RTM_NEWADDR` until AppArmor's profile is loaded). What this
 * cannot show, a real Ubuntu 24.04 with AppArmor, is said in the README ("GitHub Action").
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../support/run-dist.js';
import { tempDir } from '../support/mcp-fixtures.js';

const SCRIPT = join(REPO, 'setup-sandbox/setup.sh');
const cleanups: (() => void)[] = [];
afterAll(() => cleanups.splice(0).forEach((c) => c()));

/**
 * A profile shaped as AppArmor's bwrap-userns-restrict is (written for this test): bwrap may
 * make user namespaces, what it starts is stacked with unpriv_bwrap, which has no capabilities.
 */
const RESTRICTIVE = `abi <abi/4.0>,
include <tunables/global>
profile bwrap /usr/bin/bwrap flags=(attach_disconnected) {
  allow userns,
  allow px /** -> bwrap//&unpriv_bwrap,
}
profile unpriv_bwrap flags=(attach_disconnected) {
  allow userns,
  audit deny capability,
}
`;
/** What the script must never load: bwrap unconfined lifts the restriction for all it starts. */
const UNCONFINED = `abi <abi/4.0>,
profile bwrap-userns-restrict /usr/bin/bwrap flags=(unconfined) {
  userns,
}
`;

interface Machine {
  dir: string;
  env: Record<string, string>;
  calls: () => string[];
  output: () => Record<string, string>;
  summary: () => string;
}

/**
 * A fake machine: `restricted` is the sysctl's value ('' for none), `bwrap` whether
 * /usr/bin/bwrap is installed, `shipped` the text apparmor-profiles installs (none: the package
 * does not ship the profile), `loads` whether apparmor_parser really loads a profile.
 */
function machine(o: { restricted: string; bwrap: boolean; shipped?: string; installed?: string; loads?: boolean }): Machine {
  const t = tempDir('tg-setup-sandbox-');
  cleanups.push(t.cleanup);
  const d = (...p: string[]) => join(t.path, ...p);
  for (const sub of ['bin', 'proc/sys/kernel', 'apparmor.d', 'extra-profiles', 'usr/bin', 'state']) mkdirSync(d(sub), { recursive: true });
  if (o.restricted !== '') writeFileSync(d('proc/sys/kernel/apparmor_restrict_unprivileged_userns'), `${o.restricted}\n`);
  if (o.installed !== undefined) writeFileSync(d('apparmor.d/bwrap-userns-restrict'), o.installed);
  const log = d('state/calls');
  writeFileSync(log, '');
  const stub = (name: string, body: string) => {
    writeFileSync(d('bin', name), `#!/bin/bash\necho "${name} $*" >> ${JSON.stringify(log)}\n${body}\n`);
    chmodSync(d('bin', name), 0o755);
  };
  // bwrap as it behaves under the restriction: refused until the profile is loaded.
  const fakeBwrap = `#!/bin/bash
if [ "$1" = --version ]; then echo "bubblewrap 0.9.0"; exit 0; fi
echo "bwrap $*" >> ${JSON.stringify(log)}
if [ "${o.restricted}" = 1 ] && [ ! -e ${JSON.stringify(d('state/loaded'))} ]; then
  echo "bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted" >&2; exit 1
fi
exit 0
`;
  const installBwrap = () => {
    writeFileSync(d('usr/bin/bwrap'), fakeBwrap);
    chmodSync(d('usr/bin/bwrap'), 0o755);
  };
  if (o.bwrap) installBwrap();
  stub(
    'apt-get',
    `for a in "$@"; do
  case "$a" in
    bubblewrap) cp ${JSON.stringify(d('state/bwrap'))} ${JSON.stringify(d('usr/bin/bwrap'))}; chmod +x ${JSON.stringify(d('usr/bin/bwrap'))} ;;
    apparmor-profiles) ${o.shipped === undefined ? ':' : `cp ${JSON.stringify(d('state/shipped'))} ${JSON.stringify(d('extra-profiles/bwrap-userns-restrict'))}`} ;;
  esac
done`,
  );
  writeFileSync(d('state/bwrap'), fakeBwrap);
  if (o.shipped !== undefined) writeFileSync(d('state/shipped'), o.shipped);
  stub('apparmor_parser', o.loads === false ? 'exit 0' : `touch ${JSON.stringify(d('state/loaded'))}`);
  stub('sudo', 'exec "$@"');
  stub('sysctl', 'exit 0');
  const env = {
    PATH: `${d('bin')}:/usr/bin:/bin`,
    TOOLGATE_PROC_ROOT: d('proc'),
    TOOLGATE_APPARMOR_DIR: d('apparmor.d'),
    TOOLGATE_EXTRA_PROFILES: d('extra-profiles'),
    TOOLGATE_BWRAP: d('usr/bin/bwrap'),
    GITHUB_OUTPUT: d('state/output'),
    GITHUB_STEP_SUMMARY: d('state/summary'),
  };
  return {
    dir: t.path,
    env,
    calls: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.replace(t.path, '<m>')),
    output: () =>
      Object.fromEntries(
        (existsSync(env.GITHUB_OUTPUT) ? readFileSync(env.GITHUB_OUTPUT, 'utf8') : '')
          .split('\n')
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      ),
    summary: () => (existsSync(env.GITHUB_STEP_SUMMARY) ? readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8') : ''),
  };
}

function setup(m: Machine) {
  const r = spawnSync('bash', [SCRIPT], { env: m.env, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('setup-sandbox/setup.sh', () => {
  it("Ubuntu 24.04 as GitHub runs it: installs bubblewrap and apparmor-profiles, loads AppArmor's profile, and the probe passes", () => {
    const m = machine({ restricted: '1', bwrap: false, shipped: RESTRICTIVE });
    const r = setup(m);
    expect(r.code).toBe(0);
    const calls = m.calls();
    expect(calls[0]).toBe('apt-get update -qq');
    expect(calls.filter((c) => c.startsWith('apt-get install'))).toEqual([expect.stringMatching(/ bubblewrap$/), expect.stringMatching(/ apparmor-profiles$/)]);
    expect(calls.filter((c) => c === 'apt-get update -qq')).toHaveLength(1);
    expect(calls).toContain('apparmor_parser -r <m>/apparmor.d/bwrap-userns-restrict');
    expect(readFileSync(join(m.dir, 'apparmor.d/bwrap-userns-restrict'), 'utf8')).toBe(RESTRICTIVE);
    // The probe gives bwrap a network namespace of its own, where the restriction shows.
    expect(calls.find((c) => c.startsWith('bwrap '))).toMatch(/--unshare-all .*-- true$/);
    expect(calls.some((c) => c.startsWith('sysctl'))).toBe(false);
    expect(m.output()).toEqual({ sandboxed: 'true', reason: "bubblewrap 0.9.0 with AppArmor's bwrap-userns-restrict profile" });
    expect(m.summary()).toMatch(/servers will run sandboxed/);
    expect(r.out).toMatch(/AppArmor restricts unprivileged user namespaces/);
  });

  it('no restriction and bubblewrap installed: nothing to install or load', () => {
    const m = machine({ restricted: '0', bwrap: true });
    expect(setup(m).code).toBe(0);
    expect(m.calls().filter((c) => !c.startsWith('bwrap '))).toEqual([]);
    expect(m.output().sandboxed).toBe('true');
  });

  it('a kernel without the AppArmor setting (Debian, older Ubuntu): bubblewrap only', () => {
    const m = machine({ restricted: '', bwrap: false });
    expect(setup(m).code).toBe(0);
    expect(m.calls().filter((c) => c.startsWith('apt-get install'))).toEqual([expect.stringMatching(/ bubblewrap$/)]);
    expect(m.calls().some((c) => c.startsWith('apparmor_parser'))).toBe(false);
    expect(m.output().sandboxed).toBe('true');
  });

  it('a profile already in /etc/apparmor.d is loaded without installing anything', () => {
    const m = machine({ restricted: '1', bwrap: true, installed: RESTRICTIVE });
    expect(setup(m).code).toBe(0);
    expect(m.calls().filter((c) => c.startsWith('apt-get'))).toEqual([]);
    expect(m.calls()).toContain('apparmor_parser -r <m>/apparmor.d/bwrap-userns-restrict');
    expect(m.output().sandboxed).toBe('true');
  });

  it("the probe still fails (the profile did not take): says so with bwrap's own words, as a warning, and does not fail the step", () => {
    const m = machine({ restricted: '1', bwrap: true, shipped: RESTRICTIVE, loads: false });
    const r = setup(m);
    expect(r.code).toBe(0);
    expect(m.output().sandboxed).toBe('false');
    expect(m.output().reason).toMatch(/loopback: Failed RTM_NEWADDR: Operation not permitted.*although AppArmor's bwrap-userns-restrict profile is loaded/);
    expect(r.out).toMatch(/^::warning title=toolgate sandbox::servers will not run sandboxed: /m);
    expect(m.summary()).toMatch(/servers will NOT run sandboxed/);
  });

  it('never loads an unconfined profile, never touches the global sysctl', () => {
    const m = machine({ restricted: '1', bwrap: true, shipped: UNCONFINED });
    const r = setup(m);
    expect(r.code).toBe(0);
    expect(m.calls().some((c) => c.startsWith('apparmor_parser') || c.startsWith('sysctl'))).toBe(false);
    // Not even copied: /etc/apparmor.d is loaded again at boot.
    expect(existsSync(join(m.dir, 'apparmor.d/bwrap-userns-restrict'))).toBe(false);
    expect(m.output().sandboxed).toBe('false');
    expect(m.output().reason).toMatch(/is not AppArmor's restrictive bwrap-userns-restrict profile/);
  });

  it('apparmor-profiles without the profile: not sandboxed, and why', () => {
    const m = machine({ restricted: '1', bwrap: true });
    setup(m);
    expect(m.output().sandboxed).toBe('false');
    expect(m.output().reason).toMatch(/its bwrap-userns-restrict profile is not in .*extra-profiles \(package apparmor-profiles\)/);
    expect(m.calls().some((c) => c.startsWith('apparmor_parser'))).toBe(false);
  });
});

describe('setup-sandbox/action.yml', () => {
  it('is a composite action that runs setup.sh and exposes its outputs', async () => {
    const { parse } = await import('yaml');
    const action = parse(readFileSync(join(REPO, 'setup-sandbox/action.yml'), 'utf8')) as {
      runs: { using: string; steps: { id?: string; run?: string; shell?: string }[] };
      outputs: Record<string, { value: string }>;
    };
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps[0]).toMatchObject({ id: 'setup', shell: 'bash', run: 'bash "$GITHUB_ACTION_PATH/setup.sh"' });
    expect(action.outputs.sandboxed!.value).toBe('${{ steps.setup.outputs.sandboxed }}');
    expect(action.outputs.reason!.value).toBe('${{ steps.setup.outputs.reason }}');
  });
});
