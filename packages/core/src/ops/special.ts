import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { front } from './front';
import { ACTIVATION_OPS, UNARY_OPS } from './pointwise-table';
import { add, mul } from './generated/table-ops';

/**
 * The front ends of the gamma family and torch.special that are not rows of the op table
 * (Note [torch.special's rows] in table/activation.ts):
 *  - torch.polygamma(n, input): PyTorch orders the function's arguments `n` first; it runs the
 *    polygamma row (PolygammaBackward0), whose method is `x.polygamma(n)`;
 *  - torch.special.ndtr: PyTorch 1.13's composite (1 + erf(x / sqrt 2)) / 2, recorded as the
 *    ops it runs (MulBackward1...), as PyTorch's is.
 */
export const polygammaNFirst = front('polygamma(int n, Tensor input, *, Tensor? out=None) -> Tensor', {
  method: false,
  name: 'polygammaNFirst',
  exportAs: 'polygamma',
}).run(([n, input, out]): Tensor => ACTIVATION_OPS.polygamma.fn(input, n, { out }));

/** The standard normal CDF of each element, PyTorch's composite (1 + erf(x / sqrt 2)) / 2. */
export const specialNdtr = front('special_ndtr(Tensor input, *, Tensor? out=None) -> Tensor', { method: false, namespaces: [] }).run(
  ([input, out]): Tensor => tidy(() => mul(add(UNARY_OPS.erf.fn(mul(input, Math.SQRT1_2)), 1), 0.5, { out })),
);
