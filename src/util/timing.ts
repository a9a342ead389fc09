/**
 * Opt-in phase timings (`TOOLGATE_TIMING=1`, or `live` to also print each mark as it is made): where a run's wall time goes, printed to stderr at
 * exit as `ms since process start` per mark, plus the step from the previous mark, and the
 * process's CPU time at each mark as a second JSON line. Used by
 * `bench/` and to explain a slow run; off by default, and then each {@link mark} is one branch.
 *
 * Times are `performance.now()`, whose origin is the start of the Node process, so the first
 * mark also shows how long Node took to load and evaluate the bundle.
 */
const setting = typeof process !== 'undefined' ? process.env.TOOLGATE_TIMING : undefined;
const enabled = setting === '1' || setting === 'live';
/** `TOOLGATE_TIMING=live` also prints each mark the moment it is made (to watch a long run, or to signal it mid-phase). */
const live = setting === 'live';
const marks: Array<[string, number]> = [];
/** CPU time (user + system, ms) of the whole process at each mark: on a shared machine, wall time measures the neighbours too. */
const cpu: number[] = [];

/** Records that phase `name` ended now (no-op unless `TOOLGATE_TIMING=1`). */
export function mark(name: string): void {
  if (!enabled) return;
  if (marks.length === 0) process.once('exit', report);
  marks.push([name, performance.now()]);
  const c = process.cpuUsage();
  cpu.push((c.user + c.system) / 1000);
  if (live) process.stderr.write(`toolgate-mark ${name}\n`);
}

function report(): void {
  mark('exit');
  let prev = 0;
  const lines = marks.map(([name, t]) => {
    const line = `toolgate-timing ${t.toFixed(1).padStart(8)} ms  +${(t - prev).toFixed(1).padStart(7)} ms  ${name}`;
    prev = t;
    return line;
  });
  // The JSON lines are for scripts (bench/run.mjs, bench/poison/run.mjs); the table is for people.
  process.stderr.write(
    `${lines.join('\n')}\ntoolgate-timing-json ${JSON.stringify(Object.fromEntries(marks.map(([n, t]) => [n, Math.round(t * 10) / 10])))}\n` +
      `toolgate-timing-cpu-json ${JSON.stringify(Object.fromEntries(marks.map(([n], i) => [n, Math.round((cpu[i] as number) * 10) / 10])))}\n`,
  );
}
