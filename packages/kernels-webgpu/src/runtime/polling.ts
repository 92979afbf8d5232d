/**
 * Note [Dawn's polling on a software adapter]
 * Dawn's Node binding settles its promises (mapAsync, onSubmittedWorkDone, popErrorScope) by
 * polling: while any is pending it calls `wgpuInstanceProcessEvents` from a `setImmediate`
 * callback that schedules itself again, so the JS thread runs flat out for as long as the
 * device works. On a GPU that costs one idle core. On a software adapter the device's work
 * runs on the same CPUs, and the loop takes a core from it: on the 2-core CI machine a 4M
 * add took about 60 ms with the loop and 40 ms without it.
 *
 * So when torch-ts drives a software adapter through Dawn in Node, `setImmediate` is wrapped
 * once, at init: a callback that is the binding's (a native function with no name and a
 * `prototype`, which neither JS functions, bound functions nor built-ins are) is passed on at
 * once for the first SPIN_MS of a polling chain, so that short waits stay short, and after
 * that through `setTimeout`, so that the thread sleeps about a millisecond between polls. A
 * chain starts when the binding schedules a poll from outside its own callback (a promise
 * became pending with none before). Every other caller's callbacks are passed on untouched.
 *
 * The binding schedules its other deferred work the same way (it settles some promises, such
 * as a rejected mapAsync, from a callback of its own passed to `setImmediate`), and the test
 * above cannot tell those from polls, nor need it: each is delayed alike. On any Dawn adapter
 * (hardware too) the wrapper also keeps the binding's callbacks that have not run yet, so
 * that `runPendingDawnCallbacks()` can run them synchronously, each at most once (running a
 * rejection twice crashes the binding): the device teardown at exit needs that to settle the
 * binding's pending promises (Note [Exiting with work in flight] in device.ts). Without a
 * software adapter the callbacks are passed on at once, only through that bookkeeping.
 */
const SPIN_MS = 1;

let installed = false;
let throttling = false;
/** The binding's callbacks scheduled and not run yet (see the Note). */
const pending = new Set<() => void>();
const counts = { immediate: 0, delayed: 0 };

/** Dawn's polls since init: passed on at once, and delayed by the wrapper (for tests and diagnostics). */
export function dawnPollCounts(): { immediate: number; delayed: number } {
  return { ...counts };
}

/** Whether `cb` is the binding's poll callback (see the Note); exported for its test. */
export function isDawnPoll(cb: unknown): cb is (...args: unknown[]) => void {
  return (
    typeof cb === 'function' &&
    cb.name === '' &&
    Object.prototype.hasOwnProperty.call(cb, 'prototype') &&
    Function.prototype.toString.call(cb).includes('[native code]')
  );
}

type Schedule = (cb: unknown, ...args: unknown[]) => unknown;

/**
 * Wraps `setImmediate` as the Note says, once: the binding's callbacks are tracked until
 * they run and, when `throttle` (a software adapter), delayed after SPIN_MS. A later call may
 * turn throttling on, never off. A no-op where there is no `setImmediate`.
 */
export function watchDawnPolling(throttle: boolean): void {
  if (throttle) throttling = true;
  const g = globalThis as { setImmediate?: Schedule };
  const original = g.setImmediate;
  if (installed || typeof original !== 'function') return;
  installed = true;
  let inPoll = false;
  let chainStart = 0;
  const wrapped = function (this: unknown, cb: unknown, ...args: unknown[]) {
    if (!isDawnPoll(cb)) return original.call(this, cb, ...args);
    const now = performance.now();
    if (!inPoll) chainStart = now;
    let done = false;
    const run = (): void => {
      if (done) return;
      done = true;
      pending.delete(run);
      inPoll = true;
      try {
        cb(...args);
      } finally {
        inPoll = false;
      }
    };
    pending.add(run);
    if (!throttling || now - chainStart < SPIN_MS) {
      counts.immediate++;
      return original(run);
    }
    counts.delayed++;
    return setTimeout(run, 1);
  };
  g.setImmediate = Object.assign(wrapped, original);
}

/**
 * Runs, now, the binding's callbacks that were scheduled and have not run (each once; the
 * timer that was to run it later then does nothing), and those they schedule in turn, for at
 * most `MAX_ROUNDS` rounds (a poll schedules itself again while any promise is pending).
 */
export function runPendingDawnCallbacks(): void {
  for (let round = 0; round < MAX_ROUNDS && pending.size > 0; round++) {
    for (const run of [...pending]) run();
  }
}

const MAX_ROUNDS = 64;
