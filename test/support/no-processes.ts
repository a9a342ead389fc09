/**
 * Setup of `npm run test:fast`: the fast subset starts no process, and this holds it to that. Every
 * way node:child_process starts one throws, so a test that needs a server, git or the built CLI
 * fails here and belongs to the full suite (`npx vitest run`), not to the fast list.
 */
import { vi } from 'vitest';

vi.mock('node:child_process', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:child_process')>();
  const refuse = (name: string) => () => {
    throw new Error(`test:fast starts no process (child_process.${name}): move this test file out of the fast list in vitest.fast.config.ts`);
  };
  return {
    ...real,
    spawn: refuse('spawn'),
    spawnSync: refuse('spawnSync'),
    exec: refuse('exec'),
    execSync: refuse('execSync'),
    execFile: refuse('execFile'),
    execFileSync: refuse('execFileSync'),
    fork: refuse('fork'),
  };
});
