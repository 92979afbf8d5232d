import { floatMax } from '../dtype';
import { TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import type { TensorImpl } from '../tensor/tensor-impl';
import { callFunctional, callMutating, unwrapTensor } from './call';
import { torchTypeName } from './meta-utils';
import { front, type OptionsOf } from './front';
import { definePointwise } from './pointwise';
import { implOf } from './registry';

/**
 * nan_to_num and clip. The comparisons and the logical and bitwise ops are rows of the op
 * table (Note [The op table]: table/unary.ts, table/binary.ts).
 */

// ---- nan_to_num ----
/**
 * nan_to_num(self, nan=0, posinf=finfo.max, neginf=finfo.min): floating inputs replace NaN
 * and the infinities (the replacements converted to the dtype, so an out-of-range one becomes
 * an infinity); integral and bool inputs are copied unchanged. `out` must have self's dtype.
 */
export const NAN_TO_NUM = definePointwise({
  name: 'nan_to_num',
  arity: 1,
  extraArgs: 'float? nan=None, float? posinf=None, float? neginf=None',
  rule: 'promote',
  check: (op, compute, _operands, args) => {
    const out = args.length > 4 ? (args[4] as TensorImpl) : null;
    if (out && out.dtype !== compute) {
      throw new TorchError(`${op}: dtype of out: ${torchTypeName(out.dtype)} should be same as input: ${torchTypeName(compute)}`);
    }
  },
  compute: (b, op, out, [x], args) => {
    // (finfo.max: the default posinf; neginf is its negation, finfo.min)
    const max = floatMax(out.dtype);
    if (max === undefined) {
      implOf(b, 'copy', op)(out, x);
      return;
    }
    const num = (v: unknown, d: number) => (v == null ? d : Number(v));
    implOf(b, 'nanToNum', op)(out, x, num(args[1], 0), num(args[2], max), num(args[3], -max));
  },
});

const nanOperands = (op: string, self: Tensor, nan: number | undefined, posinf: number | undefined, neginf: number | undefined) => [
  unwrapTensor(op, op.endsWith('_') ? 'self' : 'input', self),
  nan ?? null,
  posinf ?? null,
  neginf ?? null,
];

/** NaN, +inf and -inf replaced by `nan` (0), `posinf` (the dtype's max) and `neginf` (its min). */
export const nanToNum = front('nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None, *, Tensor? out=None) -> Tensor').run(
  ([self, nan, posinf, neginf, out]): Tensor => {
    const a = nanOperands('nan_to_num', self, nan, posinf, neginf);
    return out ? callMutating(NAN_TO_NUM.out, [...a, unwrapTensor('nan_to_num', 'out', out)], out) : callFunctional(NAN_TO_NUM.functional, a);
  },
);
export type NanToNumOptions = OptionsOf<typeof nanToNum>;

/** `nanToNum` in place. */
export const nanToNum_ = front('nan_to_num_(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor').run(
  ([self, nan, posinf, neginf]): Tensor => callMutating(NAN_TO_NUM.inplace!, nanOperands('nan_to_num_', self, nan, posinf, neginf), self),
);

// ---- clip ----
export { clip, clip_ } from './pointwise-binary';
