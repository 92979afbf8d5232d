import { TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { unwrapTensor } from './call';
import { clone } from './copy';
import { tensor } from './factories';
import { indexSelect } from './gather-scatter';
import type { PadMode } from './spatial-impls';

/**
 * Note [3-d indexed padding by index_select]
 * F.pad's reflect, replicate and circular modes over three dims (4-d or 5-d input) are a
 * composite: each padded dim is an index_select of the source position every output
 * position reads (reflected, clamped or wrapped), so the gradient is index_select's (an
 * index_add that sums the positions read more than once) and any backend runs it.
 */

/** The source index each of `before + n + after` padded positions reads. */
function sourceIndices(mode: PadMode, n: number, before: number, after: number): number[] {
  const idx: number[] = [];
  for (let o = -before; o < n + after; o++) {
    if (mode === 'replicate') idx.push(Math.min(Math.max(o, 0), n - 1));
    else if (mode === 'circular') idx.push(((o % n) + n) % n);
    else {
      // reflect without repeating the edge: ... 2 1 | 0 1 2 ... n-1 | n-2 n-3 ...
      let i = o < 0 ? -o : o;
      if (i >= n) i = 2 * (n - 1) - i;
      idx.push(i);
    }
  }
  return idx;
}

/** F.pad(input, pad, mode) for a 6-entry `pad` in mode reflect / replicate / circular (Note [3-d indexed padding by index_select]). */
export function indexedPad3d(input: Tensor, pad: readonly number[], mode: PadMode): Tensor {
  const op = 'pad';
  const x = unwrapTensor(op, 'input', input);
  if (mode === 'circular' && x.dim !== 5) throw new TorchError(`${op}: Invalid padding size, expected ${2 * (x.dim - 2)} but got ${pad.length}`);
  for (let j = 0; j < 3; j++) {
    const dim = x.dim - 1 - j;
    const n = x.sizes[dim];
    const [a, b] = [pad[2 * j], pad[2 * j + 1]];
    if (mode === 'reflect' && (a >= n || b >= n)) {
      throw new TorchError(`${op}: Argument #${4 + 2 * j}: Padding size should be less than the corresponding input dimension, but got: padding (${a}, ${b}) at dimension ${dim} of input ${fmtShape(x.sizes)}`);
    }
    if (mode === 'circular' && (a > n || b > n)) throw new TorchError(`${op}: Padding value causes wrapping around more than once.`);
    if (a < 0 || b < 0) throw new TorchError(`${op}: negative padding (${a}, ${b}) is not supported in mode ${mode} for 3-d padding`);
    if (n === 0 && a + b > 0) throw new TorchError(`${op}: expected a non-empty dimension ${dim} to pad in mode ${mode}, but got input of size ${fmtShape(x.sizes)}`);
  }
  return tidy(() => {
    let t = input;
    for (let j = 0; j < 3; j++) {
      const dim = x.dim - 1 - j;
      const [a, b] = [pad[2 * j], pad[2 * j + 1]];
      if (a === 0 && b === 0) continue;
      const idx = tensor(sourceIndices(mode, x.sizes[dim], a, b), { dtype: 'int64', device: input.device });
      t = indexSelect(t, dim, idx);
    }
    return t === input ? clone(input) : t;
  });
}
