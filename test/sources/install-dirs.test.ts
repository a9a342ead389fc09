/**
 * What the sandbox shows of a command's install (src/sources/launch/install-dirs.ts), on real
 * files: the prefix of `<prefix>/bin/<name>`, the `#!` interpreter through `env`, never a home
 * directory or its dot directories whole, and nothing for a `#!` line (written by the pull
 * request) that names what the kernel would not run: a directory, a file without execute bits.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installDirs, interpreterOf } from '../../src/sources/launch/install-dirs.js';
import { tempDir } from '../support/mcp-fixtures.js';

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.splice(0).forEach((c) => c()));

/** A fake home with a key and an nvm-like node, and a repository outside it. */
function machine() {
  const t = tempDir('tg-install-dirs-');
  cleanups.push(t.cleanup);
  const home = join(t.path, 'home');
  const repo = join(t.path, 'repo');
  const nodeBin = join(home, '.nvm/versions/node/v22.0.0/bin');
  mkdirSync(nodeBin, { recursive: true });
  mkdirSync(join(home, '.ssh'));
  mkdirSync(repo);
  writeFileSync(join(home, '.ssh/id_rsa'), 'key', { mode: 0o600 });
  writeFileSync(join(nodeBin, 'node'), '', { mode: 0o755 });
  const script = (name: string, line: string) => writeFileSync(join(repo, name), `${line}\nconsole.log(1)\n`, { mode: 0o755 });
  const view = (command: string, extraPath = '') =>
    installDirs({
      command,
      path: `${extraPath}${nodeBin}:/usr/bin:/bin`,
      cwd: repo,
      homes: [home],
      visible: (p) => p.startsWith(repo) || /^\/(usr|bin|sbin|lib)(\/|$)/.test(p),
    });
  return { home, repo, nodeBin, script, view };
}

describe('installDirs', () => {
  it('a script run through `#!/usr/bin/env node`: the prefix of the node PATH finds', () => {
    const m = machine();
    m.script('server.mjs', '#!/usr/bin/env node');
    expect(m.view('./server.mjs')).toEqual({ paths: [join(m.home, '.nvm/versions/node/v22.0.0')], links: [] });
  });

  it('a `#!` line naming a directory or an unexecutable file in the home shows nothing of it', () => {
    const m = machine();
    m.script('dir.sh', `#!${join(m.home, '.ssh')}`);
    m.script('key.sh', `#!${join(m.home, '.ssh/id_rsa')}`);
    m.script('env-dir.sh', `#!/usr/bin/env ${join(m.home, '.ssh')}/`);
    for (const s of ['./dir.sh', './key.sh', './env-dir.sh']) expect(m.view(s), s).toEqual({ paths: [], links: [] });
    // The same key made executable is what the kernel would run: then it is the one file shown, never its directory.
    chmodSync(join(m.home, '.ssh/id_rsa'), 0o755);
    expect(m.view('./key.sh')).toEqual({ paths: [join(m.home, '.ssh/id_rsa')], links: [] });
  });

  it("a directory on PATH with the command's name is skipped, as execvp skips it", () => {
    const m = machine();
    const shadow = join(m.home, 'tools/bin');
    mkdirSync(join(shadow, 'node'), { recursive: true });
    expect(m.view('node', `${shadow}:`)).toEqual({ paths: [join(m.home, '.nvm/versions/node/v22.0.0')], links: [] });
  });

  it('an executable directly in a dot directory of the home: only the file; a lone link stays a link', () => {
    const m = machine();
    const local = join(m.home, '.local/bin');
    mkdirSync(local, { recursive: true });
    writeFileSync(join(local, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
    symlinkSync('tool', join(local, 'alias'));
    expect(m.view('tool', `${local}:`)).toEqual({ paths: [join(local, 'tool')], links: [] });
    expect(m.view('alias', `${local}:`)).toEqual({ paths: [join(local, 'tool')], links: [{ path: join(local, 'alias'), target: 'tool' }] });
  });
});

describe('interpreterOf', () => {
  it('reads the interpreter, through env and its options', () => {
    const m = machine();
    const cases: [string, string | undefined][] = [
      ['#!/bin/sh', '/bin/sh'],
      ['#!/usr/bin/env node', 'node'],
      ['#!/usr/bin/env -S node --experimental-vm-modules', 'node'],
      ['#!/usr/bin/env -u HOME -C /tmp FOO=1 python3', 'python3'],
      ['console.log(1)', undefined],
    ];
    for (const [line, want] of cases) {
      m.script('s', line);
      expect(interpreterOf(join(m.repo, 's')), line).toBe(want);
    }
  });
});
