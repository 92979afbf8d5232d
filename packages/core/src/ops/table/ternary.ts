import { isFloatingType } from '../../dtype';
import { DTypeError, TorchError } from '../../errors';
import type { Tensor } from '../../tensor/tensor';
import { TensorImpl } from '../../tensor/tensor-impl';
import { cTypeName, torchTypeName, type Scalar } from '../meta-utils';
import { add, div, mul, neg, sub } from './formula-ops';
import { ternaryRow, type TernaryRow, type TernarySaved } from './types';

/**
 * The ternary pointwise ops of the op table (Note [The op table]): `name(Tensor self, Tensor a,
 * Tensor b, <args>)`, `name_` and `name.out`, the operands named as PyTorch's schema names them.
 * Formulas as PyTorch's derivatives.yaml writes them.
 */
type Grads = readonly [Tensor | null, Tensor | null, Tensor | null];

/** A saved operand a formula cannot do without (a row whose `saves` omits it is a bug). */
function need(saved: TernarySaved, what: string): Tensor {
  const x = saved[what];
  if (x === undefined || typeof x !== 'object') throw new Error(`op table: the formula reads the tensor '${what}', which its row does not save`);
  return x;
}
/** An operand that may be the number its Scalar overload took. */
function operand(saved: TernarySaved, what: string): Tensor | number {
  const x = saved[what];
  if (x === undefined) throw new Error(`op table: the formula reads '${what}', which its row does not save`);
  return typeof x === 'object' ? x : Number(x);
}

/** PyTorch's lerp checks: `end` (and a tensor `weight`) of `self`'s dtype, and that dtype floating. */
function checkLerp(op: string, operands: readonly (TensorImpl | Scalar)[]): void {
  const [self, end, weight] = operands;
  if (!(self instanceof TensorImpl) || !(end instanceof TensorImpl)) throw new Error('op table: lerp has tensor self and end');
  const kernel = weight instanceof TensorImpl ? 'lerp_kernel_tensor' : 'lerp_kernel_scalar';
  // (PyTorch prints the dtypes as TypeMeta does: `float`, `long int`)
  const name = cTypeName;
  if (end.dtype !== self.dtype) throw new DTypeError(`${op}: expected dtype ${name(self.dtype)} for \`end\` but got dtype ${name(end.dtype)}`);
  if (weight instanceof TensorImpl && weight.dtype !== self.dtype) {
    throw new DTypeError(`${op}: expected dtype ${name(self.dtype)} for \`weight\` but got dtype ${name(weight.dtype)}`);
  }
  if (!isFloatingType(self.dtype)) throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(self.dtype)}'`);
}

const ADDCDIV_INTEGER =
  'Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.';

/** `value` as the impls take it (a bool as 0 / 1). */
const valueOf = (v: Scalar): number | bigint => (typeof v === 'boolean' ? Number(v) : v);

export const TERNARY_TABLE = {
  lerp: ternaryRow({
    doc: 'self + weight * (end - self) for each element (PyTorch\'s formula, branching at |weight| = 0.5); all tensors of one floating dtype, weight may be a number.',
    rule: 'promote',
    operands: ['self', 'end', 'weight'],
    scalarLast: true,
    args: '',
    check: (op, _compute, _args, operands) => checkLerp(op, operands),
    // (a number weight also reaches the impl as the number: PyTorch's opmath weight)
    compute: (impl, out, [x, e, w], _args, [, , weight]): void => impl('lerp')(out, x, e, w, weight instanceof TensorImpl ? null : Number(weight)),
    // self: grad * (1 - weight); end: grad * weight; weight: grad * (end - self)
    derivative: {
      saves: ['self@weight', 'end@weight', 'weight'],
      scalarOverloadNodes: true,
      formula: (grad, saved, needs): Grads => {
        const w = operand(saved, 'weight');
        const oneMinus = typeof w === 'object' ? add(neg(w), 1) : 1 - w;
        return [
          needs[0] ? mul(grad, oneMinus) : null,
          needs[1] ? mul(grad, w) : null,
          needs[2] ? mul(grad, sub(need(saved, 'end'), need(saved, 'self'))) : null,
        ];
      },
    },
  }),
  addcmul: ternaryRow({
    doc: 'self + value * tensor1 * tensor2 for each element, in the promoted dtype of the three tensors.',
    rule: 'promote',
    kernel: 'addcmul_cpu_out',
    rejects: { bool: true },
    operands: ['self', 'tensor1', 'tensor2'],
    args: '*, Scalar value=1',
    compute: (impl, out, [x, t1, t2], [value]): void => impl('addcmul')(out, x, t1, t2, valueOf(value)),
    // self: grad; tensor1: grad * tensor2 * value; tensor2: grad * tensor1 * value
    derivative: {
      saves: ['tensor1@tensor2', 'tensor2@tensor1'],
      formula: (grad, saved, needs, [value]): Grads => [
        needs[0] ? grad : null,
        needs[1] ? mul(mul(grad, need(saved, 'tensor2')), valueOf(value)) : null,
        needs[2] ? mul(mul(grad, need(saved, 'tensor1')), valueOf(value)) : null,
      ],
    },
  }),
  addcdiv: ternaryRow({
    doc: 'self + value * tensor1 / tensor2 for each element, in the promoted dtype (two integral tensor1 / tensor2 are refused, as in PyTorch).',
    rule: 'promote',
    operands: ['self', 'tensor1', 'tensor2'],
    args: '*, Scalar value=1',
    check: (op, _compute, _args, [, t1, t2]) => {
      const floating = (o: TensorImpl | Scalar) => (o instanceof TensorImpl ? isFloatingType(o.dtype) : typeof o === 'number' && !Number.isInteger(o));
      if (!floating(t1) && !floating(t2)) throw new TorchError(`${op}: ${ADDCDIV_INTEGER}`);
    },
    compute: (impl, out, [x, t1, t2], [value]): void => impl('addcdiv')(out, x, t1, t2, valueOf(value)),
    // self: grad; tensor1: grad * value / tensor2; tensor2: -grad * value * tensor1 / tensor2²
    derivative: {
      saves: ['tensor1@tensor2', 'tensor2'],
      formula: (grad, saved, needs, [value]): Grads => {
        const v = valueOf(value);
        const t2 = need(saved, 'tensor2');
        return [
          needs[0] ? grad : null,
          needs[1] ? div(mul(grad, v), t2) : null,
          needs[2] ? div(mul(mul(neg(grad), v), need(saved, 'tensor1')), mul(t2, t2)) : null,
        ];
      },
    },
  }),
} as const satisfies Readonly<Record<string, TernaryRow>>;

export type TernaryTableName = keyof typeof TERNARY_TABLE;
