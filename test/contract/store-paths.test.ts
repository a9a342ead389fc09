/**
 * writeFileAtomic and writeContract against planted files: the temp file is created exclusively
 * (a symbolic link planted at its name, made predictable here by fixing `randomBytes`, cannot
 * redirect the write), and a target that is a symbolic link, a named pipe or a directory is
 * refused. The contract size limit holds on both sides (lowered here so the test stays small):
 * `update` never writes a contract that `check` would refuse to read.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const fixed = vi.hoisted(() => ({ bytes: undefined as Buffer | undefined }));

vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return { ...real, randomBytes: (n: number) => fixed.bytes ?? real.randomBytes(n) };
});

vi.mock('../../src/util/safe-path.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/util/safe-path.js')>();
  return { ...real, FILE_LIMITS: { ...real.FILE_LIMITS, contract: 4096 } };
});

const { readContract, writeContract, writeFileAtomic } = await import('../../src/contract/store.js');
const { ConfigError } = await import('../../src/util/errors.js');
const { mcpSurface, readTool } = await import('../support/surface-builders.js');

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tg-store-paths-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refused(p: Promise<unknown>): Promise<InstanceType<typeof ConfigError>> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ConfigError);
  return e as InstanceType<typeof ConfigError>;
}

describe('writeFileAtomic', () => {
  it('a symbolic link planted at the temp file name does not redirect the write', async () => {
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'precious');
    fixed.bytes = Buffer.from('deadbeef', 'hex');
    const planted = join(dir, `.report.json.${process.pid}.deadbeef.tmp`);
    symlinkSync(outside, planted);
    try {
      await expect(writeFileAtomic(join(dir, 'report.json'), 'new text')).rejects.toMatchObject({ code: 'EEXIST' });
    } finally {
      fixed.bytes = undefined;
    }
    expect(readFileSync(outside, 'utf8')).toBe('precious');
    // Not ours: left where it is (only files this writer created are removed).
    expect(lstatSync(planted).isSymbolicLink()).toBe(true);
    rmSync(planted);
    // With a fresh name it writes.
    await writeFileAtomic(join(dir, 'report.json'), 'new text');
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe('new text');
  });

  it('a target that is a symbolic link, a named pipe or a directory is refused and left as it is', async () => {
    writeFileSync(join(dir, 'real.json'), 'real');
    symlinkSync('real.json', join(dir, 'link.json'));
    const link = await refused(writeFileAtomic(join(dir, 'link.json'), 'x', { what: 'the report' }));
    expect(link.message).toBe('cannot write the report: it is a symbolic link (to real.json); toolgate does not write through links');
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.json'), 'utf8')).toBe('real');

    execFileSync('mkfifo', [join(dir, 'pipe.json')]);
    expect((await refused(writeFileAtomic(join(dir, 'pipe.json'), 'x'))).message).toBe('cannot write the file: it is a named pipe (FIFO)');
    expect(lstatSync(join(dir, 'pipe.json')).isFIFO()).toBe(true);

    const c = await refused(writeContract(dir, mcpSurface([readTool('ping')])));
    expect(c.message).toBe('cannot write the contract: it is a directory');
    expect(c.location?.file).toBe(dir);
  });
});

describe('the contract size limit (lowered to 4 KiB here)', () => {
  it('update refuses to write a contract that check could not read back', async () => {
    const file = join(dir, 'big.surface.json');
    const many = mcpSurface(Array.from({ length: 40 }, (_, i) => readTool(`tool_${i}`)));
    const e = await refused(writeContract(file, many));
    expect(e.message).toMatch(/^cannot write the contract: it would be \d+(\.\d)? KiB \(\d+ bytes\), over the limit of 4 KiB$/);
    expect(e.fix).toMatch(/Contracts are limited to 4 KiB \(docs\/security\.md\)/);
    expect(() => lstatSync(file)).toThrow();
    const small = mcpSurface([readTool('ping')]);
    await writeContract(file, small);
    expect((await readContract(file))?.surface.tools.map((t) => t.name)).toEqual(['ping']);
    writeFileSync(file, ' '.repeat(5000));
    expect((await refused(readContract(file, 'big.surface.json'))).message).toBe(
      'cannot read the contract: it is 4.9 KiB (5000 bytes), over the limit of 4 KiB',
    );
  });
});
