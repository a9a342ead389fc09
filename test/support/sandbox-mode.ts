/** Switching the sandbox off for one test (sources/sandbox.ts reads it per probe). */
import { onTestFinished } from 'vitest';
import { resetSandboxSupport } from '../../src/sources/sandbox.js';

/**
 * For the running test, servers run as on a machine without the sandbox (`reason` is what
 * `server-unsandboxed` will say); the probe is forgotten before and after, so the next test
 * probes again.
 */
export function withoutSandboxForThisTest(reason: string): void {
  process.env.TOOLGATE_SANDBOX_UNAVAILABLE = reason;
  resetSandboxSupport();
  onTestFinished(() => {
    delete process.env.TOOLGATE_SANDBOX_UNAVAILABLE;
    resetSandboxSupport();
  });
}
