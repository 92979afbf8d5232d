/**
 * The pool's control block (Note [CPU thread pool]): Int32 slots, then MAX_ARGS float64
 * arguments per task, then one scratch address per thread, at CONTROL_ADDRESS in the
 * memory's reserved first HEAP_BASE bytes.
 */
export const CTL = {
  /** Incremented for each job; workers wait on it. */
  job: 0,
  /**
   * The job's ticket: its sequence number (high 16 bits; 0 while a job is being written) and
   * the next task to take (low 16 bits), taken by compare-and-swap (Note [CPU thread pool]).
   */
  ticket: 1,
  /** Tasks finished; the caller waits on it. */
  done: 2,
  /** Tasks in the job. */
  count: 3,
  /** Index of the export to call, in `POOL_EXPORTS`. */
  fn: 4,
  /** Arguments per task (before the scratch address). */
  nargs: 5,
  /** Threads that take part, the caller included. */
  threads: 6,
  /** Tasks run by workers since start (for `poolStats`). */
  workerTasks: 7,
  /** Workers that have instantiated the module and wait for jobs. */
  ready: 8,
  maxTasks: 64,
  maxThreads: 64,
} as const;
export const SLOTS = 16;
export const MAX_ARGS = 16;
export const CONTROL_ADDRESS = 32 * 1024;
/** Bytes of the control block; it must end below HEAP_BASE. */
export const CONTROL_BYTES = SLOTS * 4 + MAX_ARGS * 8 * CTL.maxTasks + 8 * CTL.maxThreads;
/** Milliseconds a worker spins for the next job, and the caller for the last task, before sleeping (Note [Waking the pool]). */
export const SPIN_MS = 1;
