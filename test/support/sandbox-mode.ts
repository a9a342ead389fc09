/** Switching the sandbox off for one test or one test file (a run's sandbox state reads it when it first looks). */
import { afterAll, onTestFinished } from 'vitest';

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

/**
 * Called at the top of a test file about the process handling toolgate has everywhere (process
 * groups, pid files a fixture writes under /tmp, the stderr tail, timeouts): its servers run as on
 * a machine without the sandbox (inside it, /tmp is private and pids are those of the sandbox's PID
 * namespace), in this process and in the CLI runs it starts (`runNode`, and `spawn` with
 * `process.env`). The setting is taken back after the file's last test, so the file shares its
 * worker with the files after it. The sandbox itself is tested in test/hostile/sandbox.test.ts.
 */
export function withoutSandboxForThisFile(): void {
  const before = process.env.TOOLGATE_SANDBOX_UNAVAILABLE;
  process.env.TOOLGATE_SANDBOX_UNAVAILABLE = 'this test file checks the process handling of unsandboxed servers';
  afterAll(() => {
    if (before === undefined) delete process.env.TOOLGATE_SANDBOX_UNAVAILABLE;
    else process.env.TOOLGATE_SANDBOX_UNAVAILABLE = before;
  });
}
