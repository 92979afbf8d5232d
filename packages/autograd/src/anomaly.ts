import { AutogradError, type Tensor } from '@torch-ts/core';
import type { Node } from './node';

/**
 * Note [Anomaly detection]
 * Under `detectAnomaly`, every Node records the JavaScript stack of the forward op that
 * created it, and after each backward function runs its outputs are checked for NaN; the
 * first NaN is an AutogradError naming the function and quoting that forward stack, as
 * PyTorch's anomaly mode does. Checking reads values, so it is for debugging (CPU values are
 * read synchronously; device tensors are not checked).
 */
let enabled = false;

export function isAnomalyEnabled(): boolean {
  return enabled;
}

export function detectAnomaly(): Disposable;
export function detectAnomaly<T>(fn: () => T): T;
export function detectAnomaly<T>(fn?: () => T): T | Disposable {
  const prev = enabled;
  enabled = true;
  if (!fn) {
    return {
      [Symbol.dispose]: () => {
        enabled = prev;
      },
    };
  }
  try {
    return fn();
  } finally {
    enabled = prev;
  }
}

export function recordForwardTrace(node: Node): void {
  if (enabled) node.anomalyTrace = new Error('forward').stack?.split('\n').slice(2).join('\n') ?? null;
}

export function checkAnomaly(node: Node, outputs: readonly (Tensor | null)[]): void {
  if (!enabled) return;
  outputs.forEach((g, i) => {
    if (!g || g.device.type !== 'cpu' || !g.isFloatingPoint()) return;
    const values = g.dataSync();
    if (values instanceof BigInt64Array) return; // (never for a floating tensor; integers hold no NaN)
    for (let k = 0; k < values.length; k++) {
      if (Number.isNaN(values[k])) {
        const trace = node.anomalyTrace ? `\nTraceback of forward call that caused the error:\n${node.anomalyTrace}` : '';
        throw new AutogradError(`${node.name()}: Function '${node.name()}' returned nan values in its ${i}th output.${trace}`);
      }
    }
  });
}
