import type { Tensor } from '@torch-ts/torch';

/** The error `fn` throws (a test fails if it does not throw). */
export function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

/** `x.grad` as nested arrays (null when there is none), releasing the handle read. */
export function gradValues(x: Tensor): unknown {
  const g = x.grad;
  if (g === null) return null;
  try {
    return g.tolist();
  } finally {
    g.dispose();
  }
}

/**
 * CPU milliseconds this process has spent (user + system), for work budgets in tests: unlike
 * wall-clock time it does not grow when other processes load the machine, so a budget holds
 * on a busy CI runner as it does alone.
 */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
