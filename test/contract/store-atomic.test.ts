/**
 * writeContract is atomic: a failure after the temp file was written (injected into `rename`,
 * since the tests may run as root where a read-only directory does not stop writes) leaves the
 * old contract byte-identical and removes the temp file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const failures = vi.hoisted(() => ({ rename: 0, seenTemp: [] as string[] }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    rename: async (from: string, to: string) => {
      failures.seenTemp.push(from);
      if (failures.rename > 0) {
        failures.rename--;
        throw Object.assign(new Error('EIO: injected rename failure'), { code: 'EIO' });
      }
      return real.rename(from, to);
    },
  };
});

const { writeContract } = await import('../../src/contract/store.js');
const { tempDir } = await import('../support/mcp-fixtures.js');
const { mcpSurface, readTool, writeTool } = await import('../support/surface-builders.js');

describe('writeContract (injected failure)', () => {
  const dir = tempDir('tg-atomic-');
  afterAll(() => dir.cleanup());
  const file = join(dir.path, 'notes.surface.json');
  const v1 = mcpSurface([readTool('list_notes')]);
  const v2 = mcpSurface([readTool('list_notes'), writeTool('save_note')]);

  it('writes through a temp file in the same directory, then renames', async () => {
    await writeContract(file, v1);
    const temp = failures.seenTemp.at(-1) as string;
    expect(temp.startsWith(join(dir.path, '.notes.surface.json.'))).toBe(true);
    expect(temp.endsWith('.tmp')).toBe(true);
    expect(readdirSync(dir.path)).toEqual(['notes.surface.json']);
  });

  it('a failing rename leaves the old contract byte-identical and no temp file', async () => {
    const before = readFileSync(file);
    failures.rename = 1;
    await expect(writeContract(file, v2)).rejects.toThrow(/injected rename failure/);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(dir.path)).toEqual(['notes.surface.json']);
  });

  it('the next write succeeds', async () => {
    await writeContract(file, v2);
    expect(readFileSync(file, 'utf8')).toContain('"save_note"');
  });
});
