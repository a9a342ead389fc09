/**
 * The sandbox probe (sources/sandbox.ts) runs beside the policy's read. A run that stops on a
 * configuration error lets go of it (`abandonSandboxProbe`: no wait for bwrap's end before the
 * process exits), and whoever waits for the probe after that holds the process for it again: an
 * awaited promise alone does not keep Node running, so without that a run could end mid-way with
 * exit code 0. Each case runs in a Node process of its own (from source, through tsx), where
 * nothing else keeps the event loop alive.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { ROOT } from '../support/mcp-fixtures.js';
import { resetSandboxSupport, sandboxSupport } from '../../src/sources/sandbox.js';

const SANDBOX = pathToFileURL(join(ROOT, 'src/sources/sandbox.ts')).href;

function run(body: string): { code: number | null; stdout: string } {
  const script = `import { abandonSandboxProbe, sandboxSupportAsync } from ${JSON.stringify(SANDBOX)};\n${body}`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout };
}

resetSandboxSupport();
const AVAILABLE = sandboxSupport().available;

describe.skipIf(!AVAILABLE)('sandbox probe', () => {
  it('a probe waited for after it was let go still answers: the process lives until it does', () => {
    const r = run(`void sandboxSupportAsync(); abandonSandboxProbe(); const s = await sandboxSupportAsync(); console.log('answered', s.available);`);
    expect(r.stdout).toContain('answered true');
    expect(r.code).toBe(0);
  });

  it('a probe let go and not waited for does not hold the process', () => {
    // bwrap's start takes ~15 ms; a held probe would print 'held' from its own callback first.
    const r = run(`void sandboxSupportAsync().then(() => console.log('held')); abandonSandboxProbe();`);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('held');
  });
});
