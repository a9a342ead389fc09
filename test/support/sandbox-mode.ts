/** Switching the sandbox off for one test (a run's sandbox state reads it when it first looks). */
import { onTestFinished } from 'vitest';

/**
 * For the running test, servers run as on a machine without the sandbox (`reason` is what
 * `server-unsandboxed` will say); a run started after the test sees the sandbox again.
 */
export function withoutSandboxForThisTest(reason: string): void {
  process.env.TOOLGATE_SANDBOX_UNAVAILABLE = reason;
  onTestFinished(() => {
    delete process.env.TOOLGATE_SANDBOX_UNAVAILABLE;
  });
}
