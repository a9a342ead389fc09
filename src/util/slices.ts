/**
 * Long pure computations written once, run two ways, so that an interrupt ends the run
 * within a second, whatever it is doing. A computation is a generator that `yield`s between
 * units of work (a tool, a check); {@link runToEnd} drives it synchronously (pure callers,
 * tests), {@link runInSlices} lets the event loop poll whenever a slice of {@link SLICE_MS} has
 * passed, so a pending SIGINT/SIGTERM is handled there (see `yieldToSignals`).
 */
import { timeSlicer, yieldToSignals } from './cleanup.js';

/** A computation that yields between units of work and returns `T`. */
export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to the end without pausing. Pure when the steps are. */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs `steps`, letting the event loop poll (signals) every time a slice of time has passed. */
export async function runInSlices<T>(steps: Steps<T>, due: () => boolean = timeSlicer()): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (due()) await yieldToSignals();
  }
}
