import { isFloatingType } from '../dtype';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { arange, tensor } from './factories';
import { gather, indexSelect } from './gather-scatter';
import { amax, div, ge, lt } from './generated/table-ops';
import { maskedFill } from './masked';
import { isnan } from './pointwise-binary';
import { where } from './pointwise';
import { max } from './reduction';
import { movedim, reshape } from './shape-ops';
import { separableMatmul } from './separable-matmul';
import { contiguous } from './copy';
import { expand, permute, squeeze, unsqueeze } from './views';

/**
 * Note [Pooling as window tables]
 * The 3-d and adaptive poolings are composites over a table per spatial dim: for each output
 * position, the input positions its window covers (-1 for padding or, in the adaptive
 * poolings, for a window shorter than the longest). With the tables:
 *  - max pooling gathers every window (one index_select per dim), fills the -1 entries with
 *    -inf, and takes the max over the window (the first maximum, or the last NaN, as PyTorch's
 *    kernels choose), read with a gather so the gradient goes to it, through index_select's; the indices come from a table of flat
 *    input positions (d * H * W + h * W + w), as PyTorch's `return_indices` gives them.
 *  - average pooling is separable: a window's sum is the sum along each dim in turn, one
 *    matmul by a 0/1 matrix [out, in] per dim, and PyTorch's divisor (count_include_pad or
 *    not, ceil_mode) is a product of one count per dim, so the result is those sums divided
 *    by the outer product of the counts (in the integer dtypes, truncating as PyTorch does).
 * Both run on any backend that has index_select, max, matmul and division, with their
 * derivatives, so the layers need no kernels or derivative entries of their own.
 */

/** One dim's windows: `pos[o][k]` the input position of window o's k-th element, or -1. */
export interface Windows {
  readonly size: number;
  readonly pos: readonly (readonly number[])[];
}

/** PyTorch's pooling_output_shape for one dim. */
export function poolOutputSize(inSize: number, k: number, pad: number, stride: number, dilation: number, ceil: boolean): number {
  const num = inSize + 2 * pad - dilation * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  let out = Math.floor(num / stride) + 1;
  if (ceil && (out - 1) * stride >= inSize + pad) out--;
  return out;
}

/** The sliding windows of one dim (kernel k, stride s, padding p, dilation d) over `outSize` outputs. */
export function slidingWindows(n: number, k: number, s: number, p: number, d: number, outSize: number): Windows {
  const pos: number[][] = [];
  for (let o = 0; o < outSize; o++) {
    const row: number[] = [];
    for (let j = 0; j < k; j++) {
      const i = o * s - p + j * d;
      row.push(i >= 0 && i < n ? i : -1);
    }
    pos.push(row);
  }
  return { size: n, pos };
}

/** The adaptive windows of one dim: [floor(o n / out), ceil((o + 1) n / out)), padded with -1 to the longest. */
export function adaptiveWindows(n: number, outSize: number): Windows {
  const ranges: [number, number][] = [];
  for (let o = 0; o < outSize; o++) ranges.push([Math.floor((o * n) / outSize), Math.ceil(((o + 1) * n) / outSize)]);
  const k = Math.max(0, ...ranges.map(([a, b]) => b - a));
  return { size: n, pos: ranges.map(([a, b]) => Array.from({ length: k }, (_, j) => (a + j < b ? a + j : -1))) };
}

/**
 * (values, indices) of the max over each window of the last `tables.length` dims of `input`
 * (Note [Pooling as window tables]); indices are flat positions in those dims, int64.
 */
export function windowMax(input: Tensor, tables: readonly Windows[], channelsLastGrad = false): [Tensor, Tensor] {
  const sp = tables.length;
  const lead = input.dim() - sp;
  const device = input.device;
  return tidy(() => {
    let t = input;
    for (let j = 0; j < sp; j++) {
      const { pos } = tables[j];
      const flat = pos.flat().map((i) => Math.max(i, 0));
      const index = tensor(flat, { dtype: 'int64', device });
      // Note [Channels-last gradient of the window max]: index_select's backward scatters
      // into a contiguous zeros of its input's shape. Selecting the first spatial dim of the
      // channels-last view (channels moved last, a contiguous view of a channels-last input)
      // makes that buffer [N, H, W, C] contiguous, so the input gradient comes back through
      // the view channels-last, as PyTorch's adaptive_max_pool2d_backward gives it. Values
      // are the same selection either way.
      if (j === 0 && channelsLastGrad) t = movedim(indexSelect(movedim(t, 1, -1), lead - 1, index), -1, 1);
      else t = indexSelect(t, lead + 2 * j, index);
      const sizes = [...t.shape];
      sizes.splice(lead + 2 * j, 1, pos.length, pos[0]?.length ?? 0);
      t = reshape(t, sizes);
    }
    // [lead..., O1, K1, O2, K2, ...] -> [lead..., O1, O2, ..., K1 * K2 * ...]
    const outs = tables.map((w) => w.pos.length);
    const ks = tables.map((w) => w.pos[0]?.length ?? 0);
    const order = [...Array(lead).keys(), ...tables.map((_, j) => lead + 2 * j), ...tables.map((_, j) => lead + 2 * j + 1)];
    const K = ks.reduce((a, b) => a * b, 1);
    t = reshape(permute(t, order), [...input.shape.slice(0, lead), ...outs, K]);
    // the flat input position of each (output, window element), -1 where padding
    const strides = tables.map((_, j) => tables.slice(j + 1).reduce((a, w) => a * w.size, 1));
    const flatPos: number[] = [];
    let anyPad = false;
    // outputs in row-major order, then window elements in row-major order
    const outIdx: number[][] = [];
    const walk = (j: number, acc: number[], n: readonly number[], into: number[][]): void => {
      if (j === n.length) return void into.push([...acc]);
      for (let a = 0; a < n[j]; a++) walk(j + 1, [...acc, a], n, into);
    };
    walk(0, [], outs, outIdx);
    const kIdx: number[][] = [];
    walk(0, [], ks, kIdx);
    for (const o of outIdx) {
      for (const k of kIdx) {
        let f = 0;
        for (let q = 0; q < sp; q++) {
          const i = tables[q].pos[o[q]][k[q]];
          if (i < 0) {
            f = -1;
            break;
          }
          f += i * strides[q];
        }
        if (f < 0) anyPad = true;
        flatPos.push(f);
      }
    }
    const posT = reshape(tensor(flatPos, { dtype: 'int64', device }), [...outs, K]);
    if (anyPad) t = maskedFill(t, lt(posT, 0), -Infinity);
    // (PyTorch's window-max kernels let every NaN replace the running max, so the LAST NaN of a
    // window is chosen; torch.max chooses the first: its index is taken where there is no NaN,
    // and the value read at the chosen element, so the gradient goes where the index says)
    const [, first] = max(t, -1);
    const lastNan = amax(where(isnan(t), arange(K, { device }), -1), -1);
    const arg = unsqueeze(where(ge(lastNan, 0), lastNan, first), -1);
    const values = squeeze(gather(t, -1, arg), -1);
    const full = expand(posT, [...input.shape.slice(0, lead), ...outs, K]);
    const indices = squeeze(gather(full, -1, arg), -1);
    return [values, indices];
  });
}

/** Sums over each window of the last `tables.length` dims, then divides by `divisor` (one count per output along each dim, or one number). */
export function windowAverage(input: Tensor, tables: readonly Windows[], divisor: readonly (readonly number[])[] | number): Tensor {
  const sp = tables.length;
  const device = input.device;
  const integral = !isFloatingType(input.dtype);
  return tidy(() => {
    const mats = tables.map(({ size, pos }) => {
      // [in, out]: 1 where input i is in output o's window
      const m = new Array<number>(size * pos.length).fill(0);
      pos.forEach((row, o) => row.forEach((i) => i >= 0 && (m[i * pos.length + o] += 1)));
      return reshape(tensor(m, { dtype: input.dtype, device }), [size, pos.length]);
    });
    // (a contiguous input gradient, whatever the input's layout, as PyTorch 1.13's avg_pool3d
    // and adaptive_avg_pool3d backward kernels: Note [Gradient layout of separable matmuls])
    // and a contiguous result, as theirs
    const t = contiguous(separableMatmul(input, mats));
    let d: Tensor | number;
    if (typeof divisor === 'number') d = divisor;
    else {
      const outs = tables.map((w) => w.pos.length);
      const grid: number[] = [];
      const walk = (j: number, acc: number): void => {
        if (j === sp) return void grid.push(acc);
        for (let a = 0; a < outs[j]; a++) walk(j + 1, acc * divisor[j][a]);
      };
      walk(0, 1);
      d = reshape(tensor(grid, { dtype: integral ? 'int64' : input.dtype, device }), outs);
    }
    return integral ? div(t, d, { roundingMode: 'trunc' }) : div(t, d);
  });
}
