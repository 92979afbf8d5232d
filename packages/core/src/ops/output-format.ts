import { TensorImpl } from '../tensor/tensor-impl';
import { formatStrides, suggestMemoryFormat, type MemoryFormat } from '../tensor/memory-format';
import { UNINITIALIZED } from './meta-utils';
import { implOf, type Backend } from './registry';

/**
 * Note [Outputs in the input's memory format]
 * PyTorch's conv, pooling, batch/group norm and upsampling kernels allocate their outputs in
 * `input.suggest_memory_format()` (Note [Memory formats]): a channels-last activation gives
 * a channels-last result, so a channels-last network stays channels-last layer by layer.
 * torch-ts's kernels here compute on NCHW-contiguous planes, so the body computes into its
 * contiguous result as before and `inFormat` then lays that result out as PyTorch's: the
 * same tensor when the format is 'contiguous' (no cost for the common case), else one copy
 * into a tensor with the format's strides. Values are identical by construction; only the
 * layout (and so what later ops and `.stride()` see) changes.
 */

/** The memory format a new output of an op on `t` takes (PyTorch's suggest_memory_format). */
export function formatOf(t: TensorImpl): Exclude<MemoryFormat, 'preserve'> {
  return suggestMemoryFormat(t.sizes, t.strides);
}

/**
 * `out` (contiguous, owned) laid out in `format`: itself when that is its layout already,
 * else a copy with the format's strides (`out` is released).
 */
export function inFormat(b: Backend, op: string, out: TensorImpl, format: Exclude<MemoryFormat, 'preserve'>): TensorImpl {
  if (format === 'contiguous' || out.sizes.length !== (format === 'channels_last' ? 4 : 5)) return out;
  const strides = formatStrides(op, out.sizes, format);
  if (strides.every((s, i) => s === out.strides[i])) return out;
  let r: TensorImpl | null = null;
  try {
    r = TensorImpl.emptyStrided(op, out.sizes, strides, out.dtype, out.device, UNINITIALIZED);
    if (out.numel > 0) implOf(b, 'copy', op)(r, out);
    return r;
  } catch (e) {
    r?.release();
    throw e;
  } finally {
    out.release();
  }
}
