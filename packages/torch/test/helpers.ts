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
