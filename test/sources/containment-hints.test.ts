/**
 * A sandboxed server's own error output, turned into the policy key that would allow what failed
 * (src/sources/launch/hints.ts). The texts are what the real programs printed inside toolgate's
 * sandbox on this machine: npm 11's blocked install and its ENOTCACHED on a read-only cache (npx
 * 11.19.1), and server-memory 2026.8.31's answer to a write; the ENOENT line is Node's own format.
 */
import { describe, expect, it } from 'vitest';
import { blockedHosts, containmentHints, HintWatch, withoutScratchHome } from '../../src/sources/launch/hints.js';

const ROOT = '/home/runner/work/app/app';
const HOME = '/tmp/toolgate-home-4242-AbCdEf';

const NPM_BLOCKED = `npm error code EAI_AGAIN
npm error syscall getaddrinfo
npm error errno EAI_AGAIN
npm error request to https://registry.npmjs.org/@modelcontextprotocol%2fserver-memory failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org
npm error A complete log of this run can be found in: ${HOME}/.npm/_logs/2026-12-06T22_28_55_857Z-debug-0.log
`;
const NPM_NOT_CACHED = `npm error code ENOTCACHED
npm error request to https://registry.npmjs.org/toolgate-reader-server failed: cache mode is 'only-if-cached' but no cached response is available.
npm error Log files were not written due to an error writing to the directory: ${ROOT}/.npm-cache/_logs
npm error You can rerun the command with \`--loglevel=verbose\` to see the logs in your terminal
`;
const MEMORY_EROFS = `EROFS: read-only file system, open '/home/runner/work/app/app/node_modules/@modelcontextprotocol/server-memory/dist/memory.jsonl.c295f56306deaf03537cb95160976adb.tmp'`;

const hints = (text: string, exists = () => false) => containmentHints(text, { root: ROOT, home: HOME, blocked: blockedHosts(text), existsOnHost: exists });

describe('containmentHints', () => {
  it("npm's blocked install: the registry, the npm cache recipe and `network: open`", () => {
    expect(hints(NPM_BLOCKED)).toEqual([
      {
        key: 'network',
        registries: ['registry.npmjs.org'],
        text: 'the sandbox has no network, so registry.npmjs.org cannot be reached: use the npm cache recipe (README, "A server published on npm"), or give the source `network: open`',
      },
    ]);
  });

  it("npm's ENOTCACHED on a cache it may not write: `writable:` for the cache, and the recipe", () => {
    expect(hints(NPM_NOT_CACHED).map((h) => [h.key, h.text])).toEqual([
      [
        'writable',
        'the sandbox keeps the repository read-only: to let the server write .npm-cache/_logs, name it (or its directory) in `writable:` (it must exist)',
      ],
      ['npm-cache', 'npm found no cached copy of the package: fill the npm cache before toolgate runs (README, "A server published on npm")'],
    ]);
  });

  it('a write into the repository (server-memory next to its code) names `writable:` and the path', () => {
    const [h] = hints(MEMORY_EROFS);
    expect(h?.key).toBe('writable');
    expect(h?.text).toMatch(
      /^the sandbox keeps the repository read-only: to let the server write node_modules\/@modelcontextprotocol\/server-memory\/dist\/memory\.jsonl\./,
    );
  });

  it('a write outside the repository, and a file the sandbox does not show that exists on the host', () => {
    expect(hints(`EACCES: permission denied, mkdir '/opt/tool/cache'`)[0]?.text).toBe(
      'the server writes /opt/tool/cache, which the sandbox keeps read-only; point it at a directory of the repository named in `writable:`, or at its HOME',
    );
    const enoent = `Error: ENOENT: no such file or directory, open '/opt/android-sdk/platforms/android-34/android.jar'`;
    expect(hints(enoent, () => true)).toEqual([
      {
        key: 'readable',
        text: 'the sandbox does not show /opt/android-sdk/platforms/android-34/android.jar: if the server needs it, name it (or its directory) in `readable:`',
      },
    ]);
    // A file that does not exist on the host either is the server's own problem.
    expect(hints(enoent, () => false)).toEqual([]);
  });

  it('nothing for a path in the scratch HOME (the server may write there), nor for output that names no containment', () => {
    expect(hints(`EROFS: read-only file system, open '${HOME}/.cache/x'`)).toEqual([]);
    expect(hints('listening on stdio\nready')).toEqual([]);
  });
});

describe('HintWatch (the proxy: a running server, hints once per kind)', () => {
  it('says each kind once, whatever repeats', () => {
    const watch = new HintWatch({ root: ROOT, home: HOME });
    expect(watch.feed(MEMORY_EROFS).map((h) => h.key)).toEqual(['writable']);
    expect(watch.feed(MEMORY_EROFS)).toEqual([]);
    expect(watch.feed(NPM_BLOCKED).map((h) => h.key)).toEqual(['network']);
  });
});

describe('withoutScratchHome', () => {
  it("writes the deleted scratch HOME as $HOME (npm's log path leads nowhere after the run)", () => {
    expect(withoutScratchHome(NPM_BLOCKED, HOME)).toContain('can be found in: $HOME/.npm/_logs/');
    expect(withoutScratchHome(NPM_BLOCKED, HOME)).not.toContain(HOME);
    expect(withoutScratchHome('x', undefined)).toBe('x');
  });
});
