/**
 * Batching rules for pointwise ops (every op tagged `pointwise`, functional and in-place, and
 * `copy_`), as functorch's BinaryOps / UnaryOps rules: each operand batched at the call's
 * level has its batch dim moved to 0 and size-1 dims inserted after it up to 1 + the
 * highest logical rank, so that ordinary right-aligned broadcasting pairs the samples'
 * dims, and unbatched operands broadcast over the batch as they are. The op runs once.
 *
 * Type promotion reads ranks (a 0-dim tensor does not widen a dim>0 one of its category):
 * a batched 0-dim operand is 1-dim physically, so where the logical and physical result
 * types differ the tensor operands are converted to the logical one first, which is what
 * the kernel would compute in anyway.
 */
import { allOperators, type OperatorHandle } from '../dispatch/dispatcher';
import { resultType } from '../dtype';
import { TensorImpl } from '../tensor/tensor-impl';
import { TorchError } from '../errors';
import { atLevel, inplaceArithmeticMessage, inplaceFallbackMessage, UnbatchedWriteError } from './batched-tensor';
import { defineBatchRule, moveBdimToFront, padAfterBatch, type RuleCall } from './batching-util';

function pointwiseRule(h: OperatorHandle, promote: boolean) {
  const schema = h.schema.args;
  const inplace = schema[0]?.mutable === true;
  const operand = (i: number): boolean => schema[i]?.isTensor === true && schema[i].name !== 'condition';
  return ({ args, level, s }: RuleCall) => {
    if (inplace && !atLevel(args[0], level) && h.schema.name !== 'add_') throw unbatchedSelf(h, args, level);
    let rank = 0;
    for (const a of args) if (a instanceof TensorImpl) rank = Math.max(rank, a.dim);
    let phys = args.map((a) => {
      const b = atLevel(a, level);
      return b ? padAfterBatch(s, moveBdimToFront(s, b), rank + 1) : a;
    });
    if (promote) phys = promoteAsLogical(h, args, phys, level, s);
    if (!inplace) return [s.call(h, phys), 0] as const;
    if (atLevel(args[0], level)) {
      s.call(h, phys);
      return 'self';
    }
    // add_ into an unbatched self (Note [In-place into an unbatched self]): the kernel's
    // broadcast error, raised as the class the composite fallback runs per sample on
    try {
      s.call(h, phys);
    } catch (e) {
      throw e instanceof TorchError && !(e instanceof UnbatchedWriteError) ? new UnbatchedWriteError(e.message) : e;
    }
    return 'self';
  };

  function promoteAsLogical(op: OperatorHandle, logical: unknown[], phys: unknown[], level: number, s: RuleCall['s']): unknown[] {
    const idx = logical.map((_, i) => i).filter((i) => operand(i) && logical[i] instanceof TensorImpl);
    if (!idx.some((i) => atLevel(logical[i], level) && (logical[i] as TensorImpl).dim === 0)) return phys;
    const meta = (xs: unknown[]) => xs.map((x, i) => (idx.includes(i) ? { dtype: (x as TensorImpl).dtype, shape: (x as TensorImpl).sizes } : x));
    const scalars = (xs: unknown[]) => xs.filter((_, i) => idx.includes(i) || (operand(i) && typeof xs[i] !== 'object'));
    const want = resultType(op.schema.name, scalars(meta(logical)) as Parameters<typeof resultType>[1]);
    const got = resultType(op.schema.name, scalars(meta(phys)) as Parameters<typeof resultType>[1]);
    if (want === got) return phys;
    return phys.map((x, i) => (idx.includes(i) && (x as TensorImpl).dtype !== want && !(inplace && i === 0) ? s.call('_to_copy', [x, want]) : x));
  }
}

/**
 * The ops functorch 1.13 batches in place with binary_pointwise_inplace_batch_rule, whose
 * refusal of an unbatched self reads "inplace arithmetic" (div_ only without a rounding mode).
 */
const INPLACE_ARITHMETIC = new Set(['sub_', 'mul_', 'div_', 'clamp_min_', 'clamp_max_', 'logical_and_', 'logical_or_', 'logical_xor_', 'copy_']);

/** The refusal of a write into an unbatched self, as functorch words it for `h` (Note [In-place into an unbatched self]). */
function unbatchedSelf(h: OperatorHandle, args: readonly unknown[], level: number): UnbatchedWriteError {
  const name = h.schema.name;
  const arithmetic = INPLACE_ARITHMETIC.has(name) && !(name === 'div_' && args[2] != null);
  return new UnbatchedWriteError(arithmetic ? inplaceArithmeticMessage() : inplaceFallbackMessage(name, level));
}

/** Registers the pointwise rules: every `pointwise` op but the `out=` forms (those loop). */
export function registerPointwiseRules(): void {
  for (const h of allOperators()) {
    const tags = h.def.tags ?? [];
    if (!tags.includes('pointwise') || tags.includes('out')) continue;
    if (h.schema.args.some((a) => a.isTensor && a.type.includes('[]'))) continue;
    defineBatchRule(h, pointwiseRule(h, true));
  }
  defineBatchRule('copy_', pointwiseRule(allOperators().find((h) => h.name === 'copy_')!, false));
}
