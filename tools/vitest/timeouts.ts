/**
 * Note [Timeouts only catch hangs]: tests assert values, never speed, and must pass on a
 * loaded machine. CI runs every package's suites at once on two cores, where a process can
 * get a tenth of a core for minutes, so a test, a hook (a file's setup, the garbage
 * collections of Note [Test files share worker processes]) or a worker's shutdown can take
 * many times what it takes alone. vitest's defaults (5 s per test, 10 s per hook, 10 s to
 * stop a worker) would then fail a file whose every assertion holds: a timed-out hook skips
 * the file's tests and fails the run with nothing counted as failed. Every package's config
 * takes these limits, which only bound a hang.
 */
export const HANG_TIMEOUTS = { testTimeout: 60_000, hookTimeout: 120_000 } as const;
/** How long a worker may take to stop (a root option: the pool's, not a project's). */
export const TEARDOWN_TIMEOUT = 120_000;
