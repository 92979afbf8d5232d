/**
 * Note [Timeouts only catch hangs]: tests assert values, never speed, and must pass on a
 * loaded machine. CI runs every package's suites at once on two cores, where a process can
 * get a tenth of a core for minutes, so a test, a hook (a file's setup, the garbage
 * collections of Note [Test files share worker processes]) or a worker's shutdown can take
 * many times what it takes alone. vitest's defaults (5 s per test, 10 s per hook, 10 s to
 * stop a worker) would then fail a file whose every assertion holds: a timed-out hook skips
 * the file's tests and fails the run with nothing counted as failed. Every package's config
 * takes these limits, which only bound a hang, and a test or suite sets a limit of its own only
 * to allow MORE (a long soak). Tests once carried their own 60 or 120 s: a CI run beside other
 * jobs (load 30) took 134 s for a softmax check on 1, 2 and 4 threads that takes 27 s in a plain
 * CI run, over 120 s to load tfjs, and failed those tests with every assertion holding.
 */
export const HANG_TIMEOUTS = { testTimeout: 600_000, hookTimeout: 600_000 } as const;
/** How long a worker may take to stop (a root option: the pool's, not a project's). */
export const TEARDOWN_TIMEOUT = 120_000;
