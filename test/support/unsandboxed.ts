/**
 * Imported (for its effect) by test files about the process handling toolgate has everywhere:
 * process groups, pid files a fixture writes under /tmp, the stderr tail, timeouts. Their servers
 * run as on a machine without the sandbox (inside it, /tmp is private and pids are those of the
 * sandbox's PID namespace): each run's sandbox state reads this when it first looks. The CLI runs
 * started by `runNode` and `spawn` inherit the setting. The sandbox itself is tested in
 * test/hostile/sandbox.test.ts.
 */
process.env.TOOLGATE_SANDBOX_UNAVAILABLE = 'this test file checks the process handling of unsandboxed servers';
