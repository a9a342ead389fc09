/**
 * Paths and files a repository controls, turned against the run, on
 * real temp directories with real symbolic links, named pipes (mkfifo) and sparse files:
 *
 * - `update` never writes outside the repository: not through an absolute contract path, `..`, a
 *   symbolic link to a directory outside, or a contract that is itself a link out; never over the
 *   policy or another input of the run; the file outside is byte-identical afterwards.
 * - A contract or policy that is a named pipe fails at once (each test is bounded at 10 s; a read
 *   of a FIFO would block forever), and so does a report path that is one.
 * - A 1.1 GB (sparse) policy or contract is refused by its size before it is read, naming the limit.
 * - A contract with a duplicate key is refused at the line of the second occurrence.
 * - A policy path that is a directory says how to fix it.
 * - A policy with 100,000 unknown keys is refused in seconds (it took minutes: the YAML duplicate-key
 *   check and the line lookups were quadratic).
 * - Report and SARIF paths (`resolveInside`, as the Action and `snapshot -o` use it): inside the
 *   workspace or RUNNER_TEMP, links resolved, never onto an input.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { policyInputs } from '../../src/config/policy.js';
import { loadPolicy } from '../../src/config/policy-file.js';
import { readContract, writeContract } from '../../src/contract/store.js';
import { runCheck } from '../../src/run-check.js';
import { ConfigError } from '../../src/util/errors.js';
import { silentLogger } from '../../src/util/logger.js';
import { FILE_LIMITS, readBounded, resolveInside } from '../../src/util/safe-path.js';
import { ROOT } from '../support/mcp-fixtures.js';
import { mcpSurface, readTool } from '../support/surface-builders.js';

/** "Did you mean" computations: each costs an edit distance to every allowed key. */
const suggestions = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/util/suggest.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/util/suggest.js')>();
  return {
    ...real,
    didYouMean: (input: string, candidates: readonly string[]) => {
      suggestions.count++;
      return real.didYouMean(input, candidates);
    },
  };
});

const T = 10_000;
const TOOLS = JSON.stringify({ tools: [{ name: 'ping', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] });
const PRECIOUS = '{"precious": true}\n';

const cleanups: (() => void)[] = [];
const fifos: string[] = [];
afterEach(() => {
  // A reader blocked on a FIFO (the bug this guards against) is released by a writer opening it.
  for (const f of fifos.splice(0)) {
    try {
      closeSync(openSync(f, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody is reading it, as it should be.
    }
  }
  for (const c of cleanups.splice(0)) c();
});

/** `<tmp>/repo` with toolgate.yml and tools.json, and `<tmp>/outside/target.json` holding PRECIOUS. */
function world(policy: string): { repo: string; outside: string; target: string } {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'tg-paths-')));
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  const repo = join(parent, 'repo');
  const outside = join(parent, 'outside');
  mkdirSync(repo);
  mkdirSync(outside);
  writeFileSync(join(repo, 'toolgate.yml'), policy);
  writeFileSync(join(repo, 'tools.json'), TOOLS);
  const target = join(outside, 'target.json');
  writeFileSync(target, PRECIOUS);
  return { repo, outside, target };
}

function mkfifo(path: string): string {
  execFileSync('mkfifo', [path]);
  fifos.push(path);
  return path;
}

/** Every entry under `dir` (links not followed, FIFOs not opened): path → content hash, link target or kind. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      const key = relative(dir, p);
      if (st.isSymbolicLink()) out[key] = `link → ${readlinkSync(p)}`;
      else if (st.isDirectory()) walk(p);
      else if (st.isFile()) out[key] = createHash('sha256').update(readFileSync(p)).digest('hex');
      else out[key] = 'special';
    }
  };
  walk(dir);
  return out;
}

/** What `toolgate update` does: load the policy, snapshot, write the contracts. */
async function update(repo: string) {
  const policy = await loadPolicy(join(repo, 'toolgate.yml'));
  return runCheck({ policy, mode: 'update', root: repo, logger: silentLogger });
}

async function refused(p: Promise<unknown>): Promise<ConfigError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e, 'expected a ConfigError').toBeInstanceOf(ConfigError);
  return e as ConfigError;
}

describe('update writes inside the repository only', () => {
  it(
    'an absolute contract path outside: refused on its line, nothing written',
    async () => {
      const w = world('');
      writeFileSync(join(w.repo, 'toolgate.yml'), `sources:\n  - id: s\n    recorded: tools.json\n    contract: ${w.target}\n`);
      const before = tree(w.outside);
      const e = await refused(update(w.repo));
      expect(e.message).toBe(`cannot use ${w.target} as the contract of source "s": it is outside ${w.repo}`);
      expect(e.location).toMatchObject({ file: join(w.repo, 'toolgate.yml'), line: 4, pointer: '/sources/0/contract' });
      expect(e.fix).toMatch(/inside the directory of toolgate\.yml/);
      expect(tree(w.outside)).toEqual(before);
      expect(readFileSync(w.target, 'utf8')).toBe(PRECIOUS);
    },
    T,
  );

  it(
    'a contract path with `..`: refused, nothing written',
    async () => {
      const w = world('sources:\n  - id: s\n    recorded: tools.json\n    contract: ../outside/target.json\n');
      const before = tree(w.outside);
      const e = await refused(update(w.repo));
      // Named as it resolves (the line shows what was written).
      expect(e.message).toBe(`cannot use ${w.target} as the contract of source "s": it is outside ${w.repo}`);
      expect(e.location?.line).toBe(4);
      expect(tree(w.outside)).toEqual(before);
    },
    T,
  );

  it(
    '.toolgate a symbolic link to a directory outside (the default contract path): refused on the id line',
    async () => {
      const w = world('sources:\n  - id: s\n    recorded: tools.json\n');
      symlinkSync(w.outside, join(w.repo, '.toolgate'));
      const before = tree(w.outside);
      const e = await refused(update(w.repo));
      expect(e.message).toBe(
        `cannot use .toolgate/s.surface.json as the contract of source "s": it is outside ${w.repo}: .toolgate is a symbolic link to ${w.outside}`,
      );
      expect(e.location).toMatchObject({ line: 2, pointer: '/sources/0/id' });
      expect(tree(w.outside)).toEqual(before);
      expect(readdirSync(w.outside)).toEqual(['target.json']);
    },
    T,
  );

  it(
    'a nested directory link outside, two levels down: refused',
    async () => {
      const w = world('sources:\n  - id: s\n    recorded: tools.json\n    contract: contracts/deep/s.json\n');
      mkdirSync(join(w.repo, 'contracts'));
      symlinkSync('../../outside', join(w.repo, 'contracts', 'deep'));
      const before = tree(w.outside);
      const e = await refused(update(w.repo));
      expect(e.message).toBe(
        `cannot use contracts/deep/s.json as the contract of source "s": it is outside ${w.repo}: contracts/deep is a symbolic link to ../../outside`,
      );
      expect(tree(w.outside)).toEqual(before);
    },
    T,
  );

  it(
    'a contract that is a symbolic link to a file outside: refused, the file outside untouched',
    async () => {
      const w = world('sources:\n  - id: s\n    recorded: tools.json\n');
      mkdirSync(join(w.repo, '.toolgate'));
      symlinkSync(w.target, join(w.repo, '.toolgate', 's.surface.json'));
      const before = tree(w.outside);
      const e = await refused(update(w.repo));
      expect(e.message).toBe(
        `cannot use .toolgate/s.surface.json as the contract of source "s": it is outside ${w.repo}: .toolgate/s.surface.json is a symbolic link to ${w.target}`,
      );
      expect(tree(w.outside)).toEqual(before);
    },
    T,
  );

  it(
    'a contract that is a symbolic link inside the repository: check reads it, update refuses to replace the link',
    async () => {
      const w = world('sources:\n  - id: s\n    recorded: tools.json\n');
      expect((await update(w.repo)).sources[0]?.wrote).toBe(true);
      mkdirSync(join(w.repo, 'pinned'));
      const real = join(w.repo, 'pinned', 's.json');
      writeFileSync(real, readFileSync(join(w.repo, '.toolgate', 's.surface.json')));
      rmSync(join(w.repo, '.toolgate', 's.surface.json'));
      symlinkSync('../pinned/s.json', join(w.repo, '.toolgate', 's.surface.json'));
      const policy = await loadPolicy(join(w.repo, 'toolgate.yml'));
      const checked = await runCheck({ policy, mode: 'check', root: w.repo, logger: silentLogger });
      expect(checked.exitCode).toBe(0);
      writeFileSync(join(w.repo, 'tools.json'), TOOLS.replace('ping', 'pong'));
      const e = await refused(update(w.repo));
      expect(e.message).toBe('cannot write the contract: it is a symbolic link (to ../pinned/s.json); toolgate does not write through links');
      expect(lstatSync(join(w.repo, '.toolgate', 's.surface.json')).isSymbolicLink()).toBe(true);
    },
    T,
  );

  it(
    'a symbolic link to a directory inside the repository still works (contracts moved behind a link)',
    async () => {
      const w = world('sources:\n  - id: s\n    recorded: tools.json\n');
      mkdirSync(join(w.repo, 'contracts'));
      symlinkSync('contracts', join(w.repo, '.toolgate'));
      const r = await update(w.repo);
      expect(r.sources[0]?.wrote).toBe(true);
      await expect(readContract(join(w.repo, 'contracts', 's.surface.json'))).resolves.toMatchObject({ surface: { source: { id: 's' } } });
      expect(lstatSync(join(w.repo, '.toolgate')).isSymbolicLink()).toBe(true);
    },
    T,
  );

  it(
    'writeContract with root refuses the same paths (for callers that build the policy themselves)',
    async () => {
      const w = world('');
      symlinkSync(w.outside, join(w.repo, 'out'));
      const surface = mcpSurface([readTool('ping')]);
      for (const file of [w.target, join(w.repo, '..', 'outside', 'x.json'), join(w.repo, 'out', 'x.json'), join(w.repo, 'out', 'target.json')]) {
        const e = await refused(writeContract(file, surface, { root: w.repo }));
        expect(e.message).toMatch(/^cannot write the contract: it is outside /);
      }
      expect(readdirSync(w.outside)).toEqual(['target.json']);
      expect(readFileSync(w.target, 'utf8')).toBe(PRECIOUS);
    },
    T,
  );
});

describe('a contract never overwrites another input of the run', () => {
  it(
    'contract: toolgate.yml (the policy itself): refused on its line, the policy unchanged',
    async () => {
      const policy = 'sources:\n  - id: s\n    recorded: tools.json\n    contract: toolgate.yml\n';
      const w = world(policy);
      const e = await refused(update(w.repo));
      expect(e.message).toBe(
        `cannot use toolgate.yml as the contract of source "s": it is the policy file (${join(w.repo, 'toolgate.yml')}), an input of this run: writing it would overwrite that file`,
      );
      expect(e.location).toMatchObject({ line: 4, pointer: '/sources/0/contract' });
      expect(readFileSync(join(w.repo, 'toolgate.yml'), 'utf8')).toBe(policy);
    },
    T,
  );

  it(
    'the policy reached through a directory link (alias → .), another source’s recording or integration config: refused on the line',
    async () => {
      const w = world('');
      symlinkSync('.', join(w.repo, 'alias'));
      writeFileSync(join(w.repo, 'integration.json'), '{}');
      const cases: [string, RegExp][] = [
        ['contract: alias/toolgate.yml', /it is the policy file/],
        ['contract: ./alias/integration.json', /it is the integration config of source "api"/],
        ['contract: other.json', /it is the recorded tools\/list file of source "rec"/],
      ];
      for (const [line, says] of cases) {
        const policy = `sources:\n  - id: s\n    recorded: tools.json\n    ${line}\n  - id: api\n    openapi: integration.json\n  - id: rec\n    recorded: other.json\n`;
        writeFileSync(join(w.repo, 'toolgate.yml'), policy);
        const before = tree(w.repo);
        const e = await refused(update(w.repo));
        expect(e.message).toMatch(says);
        expect(e.location?.line).toBe(4);
        expect(tree(w.repo)).toEqual(before);
      }
    },
    T,
  );

  it(
    'the source’s own recording as its contract: check reads it as what it is, update never overwrites it',
    async () => {
      const w = world('sources:\n  - id: s\n    recorded: tools.json\n    contract: tools.json\n');
      const policy = await loadPolicy(join(w.repo, 'toolgate.yml'));
      const c = await refused(runCheck({ policy, mode: 'check', root: w.repo, logger: silentLogger }));
      expect(c.message).toBe('not a toolgate contract: it looks like a saved `tools/list` result (a `tools` array without `formatVersion`)');
      const before = tree(w.repo);
      const u = await refused(update(w.repo));
      expect(u.message).toBe(
        'cannot write the contract: the file there is not a toolgate contract (it looks like a saved `tools/list` result); `update` replaces contracts only, never another file',
      );
      expect(u.fix).toMatch(/toolgate snapshot --tools-json/);
      expect(tree(w.repo)).toEqual(before);
    },
    T,
  );

  it(
    'any other JSON document at the contract path is not replaced; a broken contract is (update repairs it)',
    async () => {
      const w = world('sources:\n  - id: s\n    recorded: tools.json\n    contract: package.json\n');
      writeFileSync(join(w.repo, 'package.json'), '{"name": "server", "version": "1.0.0"}\n');
      const e = await refused(update(w.repo));
      expect(e.message).toBe('cannot write the contract: the file there is not a toolgate contract; `update` replaces contracts only, never another file');
      expect(readFileSync(join(w.repo, 'package.json'), 'utf8')).toBe('{"name": "server", "version": "1.0.0"}\n');
      writeFileSync(join(w.repo, 'toolgate.yml'), 'sources:\n  - id: s\n    recorded: tools.json\n');
      mkdirSync(join(w.repo, '.toolgate'));
      for (const broken of ['<<<<<<< HEAD\n{"formatVersion": 1,\n', '', '{}', '{"formatVersion": 1, "source": {"id": "s"}}']) {
        writeFileSync(join(w.repo, '.toolgate', 's.surface.json'), broken);
        expect((await update(w.repo)).sources[0]?.wrote).toBe(true);
      }
    },
    T,
  );

  it(
    'two sources whose contracts are one file through a link: refused',
    async () => {
      const w = world('sources:\n  - id: a\n    recorded: tools.json\n  - id: b\n    recorded: tools.json\n    contract: alias/a.surface.json\n');
      mkdirSync(join(w.repo, '.toolgate'));
      symlinkSync('.toolgate', join(w.repo, 'alias'));
      const e = await refused(update(w.repo));
      expect(e.message).toMatch(/^cannot use alias\/a\.surface\.json as the contract of source "b": it is the contract of source "a"/);
      expect(e.location).toMatchObject({ line: 6, pointer: '/sources/1/contract' });
    },
    T,
  );
});

describe('special files never block the run', () => {
  it(
    'a contract that is a named pipe: check fails at once, update does not replace it',
    async () => {
      const w = world('sources:\n  - id: s\n    recorded: tools.json\n');
      mkdirSync(join(w.repo, '.toolgate'));
      const fifo = mkfifo(join(w.repo, '.toolgate', 's.surface.json'));
      const policy = await loadPolicy(join(w.repo, 'toolgate.yml'));
      const started = Date.now();
      const e = await refused(runCheck({ policy, mode: 'check', root: w.repo, logger: silentLogger }));
      expect(e.message).toBe('cannot read the contract: it is a named pipe (FIFO)');
      expect(e.location?.file).toBe('.toolgate/s.surface.json');
      expect(e.fix).toMatch(/regular file/);
      const u = await refused(update(w.repo));
      expect(u.message).toBe('cannot write the contract: it is a named pipe (FIFO)');
      expect(Date.now() - started).toBeLessThan(5000);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    },
    T,
  );

  it(
    'readContract of a FIFO, a directory and a character device: refused without opening them',
    async () => {
      const w = world('');
      const fifo = mkfifo(join(w.repo, 'c.json'));
      expect((await refused(readContract(fifo, 'c.json'))).message).toBe('cannot read the contract: it is a named pipe (FIFO)');
      expect((await refused(readContract(w.repo, 'dir'))).message).toBe('cannot read the contract: it is a directory');
      expect((await refused(readContract('/dev/zero', 'zero'))).message).toBe('cannot read the contract: it is a device');
      symlinkSync('/dev/zero', join(w.repo, 'z.json'));
      expect((await refused(readContract(join(w.repo, 'z.json'), 'z.json'))).message).toBe('cannot read the contract: it is a device');
    },
    T,
  );

  it(
    'a policy that is a named pipe: refused at once with a fix',
    async () => {
      const w = world('');
      rmSync(join(w.repo, 'toolgate.yml'));
      mkfifo(join(w.repo, 'toolgate.yml'));
      const e = await refused(loadPolicy(join(w.repo, 'toolgate.yml')));
      expect(e.message).toBe('cannot read the policy file: it is a named pipe (FIFO)');
      expect(e.fix).toMatch(/regular file/);
    },
    T,
  );

  it(
    'a policy path that is a directory: the error has a fix',
    async () => {
      const w = world('');
      const e = await refused(loadPolicy(w.repo));
      expect(e.message).toBe('cannot read the policy file: it is a directory');
      expect(e.location?.file).toBe(w.repo);
      expect(e.fix).toBe(`Pass the policy file, not its directory: --config ${join(w.repo, 'toolgate.yml')} (in the Action, the \`config\` input).`);
      expect(e.describe()).toContain('\n  fix: Pass the policy file');
    },
    T,
  );
});

describe('files over the size limit are refused before they are read', () => {
  it(
    'a 1.1 GB policy (sparse): refused at once, naming the 1 MiB limit',
    async () => {
      const w = world('');
      truncateSync(join(w.repo, 'toolgate.yml'), 1_100_000_000);
      const started = Date.now();
      const e = await refused(loadPolicy(join(w.repo, 'toolgate.yml')));
      expect(Date.now() - started).toBeLessThan(2000);
      expect(e.message).toBe('cannot read the policy file: it is 1.0 GiB (1100000000 bytes), over the limit of 1 MiB');
      expect(e.fix).toMatch(/limited to 1 MiB \(docs\/security\.md\)/);
      expect(FILE_LIMITS.policy).toBe(1024 * 1024);
    },
    T,
  );

  it(
    'a 1.1 GB contract and a 1.1 GB integration config (sparse): refused, naming their limits',
    async () => {
      const w = world('');
      const big = join(w.repo, 'big.json');
      writeFileSync(big, '');
      truncateSync(big, 1_100_000_000);
      const started = Date.now();
      const c = await refused(readContract(big, 'big.json'));
      expect(c.message).toBe('cannot read the contract: it is 1.0 GiB (1100000000 bytes), over the limit of 128 MiB');
      expect(c.location?.file).toBe('big.json');
      const i = await refused(readBounded(big, FILE_LIMITS.integrationConfig, 'the integration config'));
      expect(i.message).toBe('cannot read the integration config: it is 1.0 GiB (1100000000 bytes), over the limit of 1 MiB');
      expect(Date.now() - started).toBeLessThan(2000);
    },
    T,
  );

  it(
    'a file exactly at the limit is read; one byte more is not',
    async () => {
      const w = world('');
      const f = join(w.repo, 'f');
      writeFileSync(f, 'x'.repeat(1000));
      expect((await readBounded(f, 1000, 'the file')).length).toBe(1000);
      expect((await refused(readBounded(f, 999, 'the file'))).message).toBe('cannot read the file: it is 1000 bytes (1000 bytes), over the limit of 999 bytes');
    },
    T,
  );
});

describe('a contract with a duplicate key is refused at the line', () => {
  const FIXTURE = readFileSync(join(ROOT, 'test/fixtures/contracts/notes.surface.json'), 'utf8');
  const insertAfter = (n: number, line: string) => {
    const lines = FIXTURE.split('\n');
    lines.splice(n, 0, line);
    return lines.join('\n');
  };

  it.each([
    // A hint given twice: JSON.parse keeps the last (true), a first-wins reader sees false.
    {
      what: 'a hint',
      text: insertAfter(30, '        "readOnlyHint": false,'),
      line: 35,
      column: 9,
      key: 'readOnlyHint',
      first: 31,
      pointer: '/tools/0/annotations/readOnlyHint',
    },
    { what: 'the digest', text: insertAfter(24, '  "digest": "0000",'), line: 25, column: 3, key: 'digest', first: 24, pointer: '/digest' },
    {
      what: 'a key spelt with an escape',
      text: insertAfter(27, '      "n\\u0061me": "other",'),
      line: 28,
      column: 7,
      key: 'name',
      first: 27,
      pointer: '/tools/0/name',
    },
  ])(
    '$what',
    async ({ text, line, column, key, first, pointer }) => {
      const w = world('');
      const file = join(w.repo, 'notes.surface.json');
      writeFileSync(file, text);
      expect(() => JSON.parse(text)).not.toThrow();
      const e = await refused(readContract(file, 'notes.surface.json'));
      expect(e.message).toBe(`contract has a duplicate key "${key}" (first on line ${first})`);
      expect(e.location).toEqual({ file: 'notes.surface.json', line, column, pointer });
      expect(e.fix).toMatch(/^Do not edit the contract by hand/);
    },
    T,
  );

  it(
    'the fixture itself (no duplicate) is accepted',
    async () => {
      const w = world('');
      writeFileSync(join(w.repo, 'c.json'), FIXTURE);
      expect(await readContract(join(w.repo, 'c.json'))).toBeDefined();
    },
    T,
  );
});

describe('a policy with 100,000 unknown keys', () => {
  // About 5 s on an idle 2-core runner (mostly the YAML parser itself, linear), 13 s on one
  // loaded 5-fold; the code before took about 10 minutes (32,000 keys: 32 s, quadratic). The
  // bound is half the 60 s, so a loaded runner does not fail it; the suggestion count
  // is the exact check.
  it('is refused in seconds, with the first problems and a count of the rest; only those get a suggestion', async () => {
    let text = 'sources:\n  - id: s\n    recorded: tools.json\n';
    for (let i = 0; i < 100_000; i++) text += `k${i.toString(36)}: 0\n`;
    expect(text.length).toBeLessThan(FILE_LIMITS.policy);
    const w = world(text);
    suggestions.count = 0;
    const started = Date.now();
    const e = await refused(loadPolicy(join(w.repo, 'toolgate.yml')));
    const ms = Date.now() - started;
    console.log(`repo-paths: 100,000 unknown keys refused in ${ms} ms`);
    expect(ms).toBeLessThan(30_000);
    expect(suggestions.count).toBe(20);
    expect(e.message).toBe('unknown key "k0"');
    expect(e.location).toMatchObject({ line: 4, pointer: '/k0' });
    expect(e.others).toHaveLength(19);
    expect(e.others[18]?.location).toMatchObject({ line: 23, pointer: '/kj' });
    expect(e.othersOmitted).toBe(99_980);
  }, 60_000);

  it('a misspelt key among them still gets its suggestion', async () => {
    let text = 'sorces:\n  - id: s\n';
    for (let i = 0; i < 20_000; i++) text += `k${i.toString(36)}: 0\n`;
    const w = world(text);
    const e = await refused(loadPolicy(join(w.repo, 'toolgate.yml')));
    expect(e.message).toBe('missing required key "sources"');
    expect(e.others[0]?.message).toBe('unknown key "sorces"; did you mean "sources"?');
  }, 30_000);

  it('a duplicate key among many is found at its line (linear check, same message as before)', async () => {
    let text = 'sources:\n  - id: s\n    recorded: tools.json\n';
    for (let i = 0; i < 50_000; i++) text += `k${i}: 0\n`;
    text += 'k7: 1\n';
    const w = world(text);
    const e = await refused(loadPolicy(join(w.repo, 'toolgate.yml')));
    expect(e.message).toBe('YAML syntax error: Map keys must be unique');
    expect(e.location).toMatchObject({ line: 50_004, column: 1 });
  }, 30_000);
});

describe('report and SARIF paths (resolveInside, as the Action and `snapshot -o` call it)', () => {
  const opts = (extra: object = {}) => ({ what: 'the report (report-path)', ...extra });

  it(
    'inside the workspace: the real path, missing directories allowed',
    async () => {
      const w = world('');
      expect(await resolveInside(w.repo, 'toolgate-report.json', opts())).toBe(join(w.repo, 'toolgate-report.json'));
      expect(await resolveInside(w.repo, 'out/deep/r.json', opts())).toBe(join(w.repo, 'out/deep/r.json'));
      mkdirSync(join(w.repo, 'reports'));
      symlinkSync('reports', join(w.repo, 'r'));
      expect(await resolveInside(w.repo, 'r/x.sarif', opts())).toBe(join(w.repo, 'reports', 'x.sarif'));
    },
    T,
  );

  it(
    'a symbolic link parent leading outside, `..`, an absolute path outside: refused',
    async () => {
      const w = world('');
      symlinkSync(w.outside, join(w.repo, 'reports'));
      const link = await refused(resolveInside(w.repo, 'reports/r.json', opts()));
      expect(link.message).toBe(`cannot write the report (report-path): it is outside ${w.repo}: reports is a symbolic link to ${w.outside}`);
      expect(link.location?.file).toBe('reports/r.json');
      expect((await refused(resolveInside(w.repo, '../outside/r.json', opts()))).message).toBe(
        `cannot write the report (report-path): it is outside ${w.repo}`,
      );
      expect((await refused(resolveInside(w.repo, w.target, opts()))).message).toBe(`cannot write the report (report-path): it is outside ${w.repo}`);
      expect(readdirSync(w.outside)).toEqual(['target.json']);
    },
    T,
  );

  it(
    'RUNNER_TEMP is allowed (absolute), and a link out of it is not',
    async () => {
      const w = world('');
      const runnerTemp = join(w.outside, 'runner-temp');
      mkdirSync(runnerTemp);
      const allowed = opts({ allowedRoots: [runnerTemp, undefined, ''] });
      expect(await resolveInside(w.repo, join(runnerTemp, 'report.json'), allowed)).toBe(join(runnerTemp, 'report.json'));
      symlinkSync('..', join(runnerTemp, 'up'));
      const e = await refused(resolveInside(w.repo, join(runnerTemp, 'up', 'target.json'), allowed));
      expect(e.message).toBe(
        `cannot write the report (report-path): it is outside ${w.repo} or ${runnerTemp}: ${join(runnerTemp, 'up')} is a symbolic link to ..`,
      );
    },
    T,
  );

  it(
    'onto the policy, a contract or a recording: refused; a FIFO, a directory or a link as the target: refused',
    async () => {
      const w = world('sources:\n  - id: s\n    recorded: tools.json\n');
      const policy = await loadPolicy(join(w.repo, 'toolgate.yml'));
      const notOnto = policyInputs(policy);
      expect(notOnto.map((x) => [relative(w.repo, x.path), x.what])).toEqual([
        ['toolgate.yml', 'the policy file'],
        ['.toolgate/s.surface.json', 'the contract of source "s"'],
        ['tools.json', 'the recorded tools/list file of source "s"'],
      ]);
      for (const [path, says] of [
        ['toolgate.yml', 'it is the policy file'],
        ['.toolgate/s.surface.json', 'it is the contract of source "s"'],
        ['./x/../tools.json', 'it is the recorded tools/list file of source "s"'],
      ] as const) {
        expect((await refused(resolveInside(w.repo, path, opts({ notOnto })))).message).toContain(says);
      }
      mkfifo(join(w.repo, 'fifo.json'));
      expect((await refused(resolveInside(w.repo, 'fifo.json', opts()))).message).toBe('cannot write the report (report-path): it is a named pipe (FIFO)');
      expect((await refused(resolveInside(w.repo, '.', opts()))).message).toBe('cannot write the report (report-path): it is a directory');
      symlinkSync('tools.json', join(w.repo, 'r.json'));
      expect((await refused(resolveInside(w.repo, 'r.json', opts()))).message).toBe(
        'cannot write the report (report-path): it is a symbolic link (to tools.json); toolgate does not write through links',
      );
      symlinkSync('missing-dir', join(w.repo, 'dangling'));
      expect((await refused(resolveInside(w.repo, 'dangling/r.json', opts()))).message).toBe(
        'cannot write the report (report-path): dangling is a symbolic link to missing-dir, which does not exist',
      );
      expect(readFileSync(join(w.repo, 'toolgate.yml'), 'utf8')).toBe('sources:\n  - id: s\n    recorded: tools.json\n');
    },
    T,
  );
});
