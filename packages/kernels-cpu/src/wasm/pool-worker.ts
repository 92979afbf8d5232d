/**
 * The source of a pool worker (Note [CPU thread pool]), as text: Node starts it with
 * `new Worker(source, { eval: true })` and a browser from a Blob URL, so no worker file has
 * to be found next to the bundle. It instantiates the kernels' module on the shared memory,
 * then waits on the job counter; for each job it takes tasks from the shared counter until
 * none are left, calling the named export with the task's arguments and its own scratch.
 * The layout constants are those of pool-layout.ts, inlined by `workerSource`.
 */
import { CTL, MAX_ARGS, SLOTS, SPIN_MS } from './pool-layout';

export function workerSource(): string {
  return `
'use strict';
const onInit = (init) => {
  const { memory, module, names, control, index } = init;
  const ex = new WebAssembly.Instance(module, { env: { memory } }).exports;
  const fns = names.map((n) => ex[n]);
  const ctl = new Int32Array(memory.buffer, control, ${SLOTS});
  const args = new Float64Array(memory.buffer, control + ${SLOTS * 4}, ${MAX_ARGS} * ${CTL.maxTasks});
  const scratch = new Float64Array(memory.buffer, control + ${SLOTS * 4} + ${MAX_ARGS * 8} * ${CTL.maxTasks}, ${CTL.maxThreads});
  const call = (fn, t, nargs, s) => {
    const b = t * ${MAX_ARGS};
    switch (nargs) {
      case 0: return fn(s);
      default: {
        const a = [];
        for (let i = 0; i < nargs; i++) a.push(args[b + i]);
        a.push(s);
        return fn(...a);
      }
    }
  };
  // Note [CPU thread pool]: a task is taken by compare-and-swap on the ticket, which names
  // its job, so a late worker can never take a task of a job it did not read.
  const take = (seq) => {
    for (;;) {
      const v = Atomics.load(ctl, ${CTL.ticket});
      if (v >>> 16 !== seq) return -1;
      const t = v & 0xffff;
      if (t >= Atomics.load(ctl, ${CTL.count})) return -1;
      if (Atomics.compareExchange(ctl, ${CTL.ticket}, v, v + 1) === v) return t;
    }
  };
  let seen = Atomics.load(ctl, ${CTL.job});
  // Ready through the shared memory, so that a caller busy in a synchronous loop (whose
  // event loop never turns) still hands this worker tasks; the message is for threadsReady().
  Atomics.add(ctl, ${CTL.ready}, 1);
  post('ready');
  for (;;) {
    // Note [Waking the pool]: spin a while for the next job before sleeping.
    const until = performance.now() + ${SPIN_MS};
    for (let i = 1; Atomics.load(ctl, ${CTL.job}) === seen; i++) {
      if ((i & 255) === 0 && performance.now() > until) {
        Atomics.wait(ctl, ${CTL.job}, seen);
        break;
      }
    }
    seen = Atomics.load(ctl, ${CTL.job});
    if (index >= Atomics.load(ctl, ${CTL.threads}) - 1) continue;
    const seq = Atomics.load(ctl, ${CTL.ticket}) >>> 16;
    if (seq === 0) continue;
    for (;;) {
      const t = take(seq);
      if (t < 0) break;
      const count = Atomics.load(ctl, ${CTL.count});
      call(fns[Atomics.load(ctl, ${CTL.fn})], t, Atomics.load(ctl, ${CTL.nargs}), scratch[index + 1]);
      Atomics.add(ctl, ${CTL.workerTasks}, 1);
      if (Atomics.add(ctl, ${CTL.done}, 1) + 1 === count) Atomics.notify(ctl, ${CTL.done});
    }
  }
};
let post;
if (typeof require === 'function') {
  const { parentPort } = require('node:worker_threads');
  post = (m) => parentPort.postMessage(m);
  parentPort.once('message', onInit);
} else {
  post = (m) => self.postMessage(m);
  self.onmessage = (e) => onInit(e.data);
}
`;
}
