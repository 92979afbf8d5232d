import { TorchError } from '../errors';
import { contiguousStrides } from '../views';
import { isChannelsLast, isNonOverlappingAndDense } from '../iterator/layout';

/**
 * Note [Memory formats]
 * A memory format names a dense layout of a tensor's elements, as PyTorch's
 * `torch.memory_format`: 'contiguous' (row-major), 'channels_last' (4-d: N, H, W, C in
 * memory), 'channels_last_3d' (5-d: N, D, H, W, C), and 'preserve' (whatever the input
 * has: an argument of clone/to/*_like, never a tensor's own layout). A tensor has no
 * format field: it is read from the strides, exactly as c10 does, in two ways that differ
 * on ambiguous shapes:
 *   - `isContiguousAs(format)` is `is_contiguous(memory_format=...)`: size-1 dims ignored,
 *     so a [N, C, 1, 1] tensor is both contiguous and channels-last;
 *   - `suggestMemoryFormat` is `suggest_memory_format()`: the format an op's output takes
 *     (conv, pooling, batch norm, upsampling, empty_like). It is channels-last only when
 *     the strides are ordered like channels-last (c10's is_channels_last_strides_2d), with
 *     PyTorch's tie-breaks towards contiguous for N111 and 1C1W shapes.
 * The constants `torch.channels_last` etc. are these strings, as `torch.float32` is
 * 'float32'; PyTorch's long names ('contiguous_format', 'preserve_format') are accepted too.
 */
export type MemoryFormat = 'contiguous' | 'preserve' | 'channels_last' | 'channels_last_3d';

/** The strings a `MemoryFormat` argument takes (`choices` of the front ends). */
export const MEMORY_FORMATS = ['contiguous', 'preserve', 'channels_last', 'channels_last_3d', 'contiguous_format', 'preserve_format'] as const;
export type MemoryFormatName = (typeof MEMORY_FORMATS)[number];

/** A memory-format argument, checked: its canonical name. */
export function parseMemoryFormat(op: string, v: unknown): MemoryFormat {
  switch (v) {
    case 'contiguous':
    case 'contiguous_format':
      return 'contiguous';
    case 'preserve':
    case 'preserve_format':
      return 'preserve';
    case 'channels_last':
    case 'channels_last_3d':
      return v;
    default:
      throw new TorchError(`${op}(): memory_format must be one of ${MEMORY_FORMATS.map((f) => `'${f}'`).join(', ')}, but got ${String(v)}`);
  }
}

/** c10's get_channels_last_strides_3d for a 5-d shape (dims ordered C, W, H, D, N). */
function channelsLast3dStrides(sizes: readonly number[]): number[] {
  const s4 = sizes[1];
  const s3 = s4 * sizes[4];
  const s2 = s3 * sizes[3];
  return [s2 * sizes[2], 1, s2, s3, s4];
}

/** c10's get_channels_last_strides_2d for a 4-d shape (no max(1): PyTorch's exact strides). */
function channelsLast2dStrides(sizes: readonly number[]): number[] {
  const s3 = sizes[1];
  const s2 = s3 * sizes[3];
  return [s2 * sizes[2], 1, s2, s3];
}

/**
 * The strides of a new tensor of `sizes` in `format` (not 'preserve'), with PyTorch's
 * error for a rank the format does not fit (empty_tensor_restride).
 */
export function formatStrides(op: string, sizes: readonly number[], format: Exclude<MemoryFormat, 'preserve'>): number[] {
  if (format === 'channels_last') {
    if (sizes.length !== 4) throw new TorchError(`${op}: required rank 4 tensor to use channels_last format`);
    return channelsLast2dStrides(sizes);
  }
  if (format === 'channels_last_3d') {
    if (sizes.length !== 5) throw new TorchError(`${op}: required rank 5 tensor to use channels_last_3d format`);
    return channelsLast3dStrides(sizes);
  }
  return contiguousStrides(sizes);
}

/** `is_contiguous(memory_format=...)` (c10's compute_channels_last_contiguous_2d/3d); 'preserve' asks plain contiguity, as c10's. */
export function isContiguousAs(sizes: readonly number[], strides: readonly number[], format: MemoryFormat, plain: boolean): boolean {
  if (format === 'channels_last') return isChannelsLast(sizes, strides);
  if (format === 'channels_last_3d') {
    if (sizes.length !== 5) return false;
    let expected = 1;
    for (const d of [1, 4, 3, 2, 0]) {
      if (sizes[d] === 1) continue;
      if (strides[d] !== expected) return false;
      expected *= sizes[d];
    }
    return true;
  }
  return plain;
}

/** c10's is_channels_last_strides_2d_s4 / _3d_s5: strides ordered like channels-last, with its tie-breaks. */
function stridesLikeChannelsLast(sizes: readonly number[], strides: readonly number[], order: readonly number[]): boolean {
  let min = 0;
  // a trivial C dim (stride 0) defaults to NCHW
  if (strides[1] === 0) return false;
  for (const d of order) {
    if (sizes[d] === 0) return false;
    if (strides[d] < min) return false;
    // N111 (or N11W sliced on W) with equal strides: ambiguous, NCHW by default
    if (d === 0 && min === strides[1]) return false;
    // distinguishes N1H1 and 1C1W permutations, as c10 does
    min = strides[d];
    if (sizes[d] > 1) min *= sizes[d];
  }
  return true;
}

/** `suggest_memory_format()`: the format an op's new output takes for this input (Note [Memory formats]). */
export function suggestMemoryFormat(sizes: readonly number[], strides: readonly number[]): 'contiguous' | 'channels_last' | 'channels_last_3d' {
  if (sizes.length === 4 && stridesLikeChannelsLast(sizes, strides, [1, 3, 2, 0])) return 'channels_last';
  if (sizes.length === 5 && stridesLikeChannelsLast(sizes, strides, [1, 4, 3, 2, 0])) return 'channels_last_3d';
  return 'contiguous';
}

/** `is_non_overlapping_and_dense()` (c10's): some permutation of the dims is row-major. */
export function isDense(sizes: readonly number[], strides: readonly number[]): boolean {
  return isNonOverlappingAndDense(sizes, strides);
}

/**
 * PyTorch's obeys_layout_contract (torch/csrc/autograd/utils/grad_layout_contract.h): a
 * gradient may become a leaf's `.grad` as it is when it has the leaf's strides (size-1 dims
 * aside, unless broadcast with stride 0) for a dense leaf, or is contiguous for any other.
 */
export function obeysLayoutContract(
  grad: { readonly sizes: readonly number[]; readonly strides: readonly number[]; readonly isContiguous: boolean },
  variable: { readonly sizes: readonly number[]; readonly strides: readonly number[] },
): boolean {
  if (!isNonOverlappingAndDense(variable.sizes, variable.strides)) return grad.isContiguous;
  for (let d = 0; d < grad.sizes.length; d++) {
    if (grad.sizes[d] !== 1) {
      if (grad.strides[d] !== variable.strides[d]) return false;
    } else if (grad.strides[d] === 0) return false;
  }
  return true;
}
