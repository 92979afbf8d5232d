import { isFloatingType } from '../dtype';
import { DTypeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { callFunctional, callMutating, unwrapTensor } from './call';
import { torchTypeName } from './meta-utils';
import { front, type OptionsOf } from './front';
import { definePointwise } from './pointwise';
import { implOf } from './registry';

/**
 * `round(x)` and `round(x, { decimals })`: PyTorch's `round` and `round.decimals` as one op
 * whose `decimals` is None for the plain form. The plain form keeps integers (a copy) and
 * rejects bool, naming `round_vml_cpu`; with decimals only floating dtypes have a kernel
 * (`round_cpu`), as in PyTorch, even for `decimals: 0`.
 */
export const ROUND = definePointwise({
  name: 'round',
  arity: 1,
  extraArgs: '*, int? decimals=None',
  rule: 'promote',
  check: (op, compute, _o, args) => {
    const decimals = args[1];
    if (decimals != null && !Number.isInteger(decimals)) {
      throw new TorchError(`${op}(): argument 'decimals' must be int, not ${typeof decimals === 'number' ? 'float' : typeof decimals}`);
    }
    // decimals=0 runs the plain kernel, which has no integral version
    const kernel = decimals == null || decimals === 0 ? 'round_vml_cpu' : 'round_cpu';
    if (compute === 'bool' || (decimals != null && !isFloatingType(compute))) {
      throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(compute)}'`);
    }
  },
  compute: (b, op, out, [x], args) => implOf(b, 'round', op)(out, x, (typeof args[1] === 'number' ? args[1] : null)),
});

/** Rounds half to even (`torch.round`); `decimals` rounds to that many decimal places. */
export const round = front('round(Tensor self, *, int? decimals=None, Tensor? out=None) -> Tensor').run(([self, decimals, out]): Tensor => {
  const a = [unwrapTensor('round', 'input', self), decimals ?? null];
  return out ? callMutating(ROUND.out, [...a, unwrapTensor('round', 'out', out)], out) : callFunctional(ROUND.functional, a);
});
export type RoundOptions = OptionsOf<typeof round>;

/** `round` in place. */
export const round_ = front('round_(Tensor self, *, int? decimals=None) -> Tensor').run(([self, decimals]): Tensor =>
  callMutating(ROUND.inplace!, [unwrapTensor('round_', 'self', self), decimals ?? null], self),
);
