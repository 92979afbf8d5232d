import { isIntegralType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { normalizeDim, normalizeDims } from '../views';
import { front, overloadedFront, type OptionsOf } from './front';
import { callFunctional, callMutating, unwrapTensor } from './call';
import { defineComposite } from './composite';
import { checkNoInternalOverlap } from './meta-utils';
import { callWithOut, defineOutVariant } from './out-variant';
import { defineStructured, implOf, type Backend } from './registry';
import { cat } from './join';
import { expand, sliceDim, unsqueeze } from './views';
import { flatten, reshape } from './shape-ops';
import { arange, tensor } from './factories';
import { contiguous } from './copy';
import { tidy } from '../tensor/scope';
import { countsAreAsync } from './data-dependent';
import { indexSelect } from './gather-scatter';
import { searchsorted } from './sorting';
import { cumsum } from './scan';

/**
 * Data-reordering ops: repeat, flip, roll, triu / tril (each with its PyTorch derivative),
 * and the composites tile and repeat_interleave. Most need no impl of their own:
 * each is one or a few `copy` impl calls between strided views (a roll copies two blocks
 * per rolled dim); flip has a `flip` impl (a backend may copy the negative-stride view it is
 * given), and triu / tril copy and then zero their triangle with `triZero` (reorder-impls.ts).
 */

function allocLike(op: string, self: TensorImpl, sizes: readonly number[] = self.sizes): TensorImpl {
  return TensorImpl.empty(op, sizes, self.dtype, self.device);
}

function copyInto(b: Backend, op: string, dst: TensorImpl, src: TensorImpl): void {
  if (dst.numel > 0) implOf(b, 'copy', op)(dst, src);
}

/** Runs `fill(result)`, releasing `result` when it throws. */
function filled(result: TensorImpl, fill: (r: TensorImpl) => void): TensorImpl {
  try {
    fill(result);
  } catch (e) {
    result.release();
    throw e;
  }
  return result;
}

function withView<T>(v: TensorImpl, fn: (v: TensorImpl) => T): T {
  try {
    return fn(v);
  } finally {
    v.release();
  }
}

// ---- repeat ----
/**
 * Note [repeat as one copy]
 * `x.repeat(r0, r1, ...)` (x padded with leading 1s to len(r) dims) is one copy between two
 * views over the doubled dims [r0, s0, r1, s1, ...]: the source repeats with stride 0 over
 * each r_i; the output, contiguous at [r0*s0, r1*s1, ...], is that same shape with strides
 * [s_i * S_i, S_i].
 */
export function repeatSizes(op: string, sizes: readonly number[], repeats: readonly number[]): number[] {
  if (repeats.length < sizes.length) {
    throw new ShapeError(`${op}: Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor`);
  }
  const padded = [...new Array<number>(repeats.length - sizes.length).fill(1), ...sizes];
  const out = padded.map((s, i) => s * repeats[i]);
  const bad = repeats.findIndex((r) => r < 0);
  if (bad >= 0) throw new TorchError(`${op}: Trying to create tensor with negative dimension ${out[bad]}: ${fmtShape(out)}`);
  return out;
}

export const REPEAT = defineStructured('repeat(Tensor self, SymInt[] repeats) -> Tensor', ([self, repeats], b) => {
  const s = self;
  const reps = repeats;
  const outSizes = repeatSizes('repeat', s.sizes, reps);
  const lead = reps.length - s.sizes.length;
  return filled(allocLike('repeat', s, outSizes), (out) => {
    if (out.numel === 0) return;
    const srcSizes: number[] = [];
    const srcStrides: number[] = [];
    const dstStrides: number[] = [];
    for (let i = 0; i < reps.length; i++) {
      const size = i < lead ? 1 : s.sizes[i - lead];
      const stride = i < lead ? 0 : s.strides[i - lead];
      srcSizes.push(reps[i], size);
      srcStrides.push(0, stride);
      dstStrides.push(size * out.strides[i], out.strides[i]);
    }
    const src = s.view(srcSizes, srcStrides, s.storageOffset);
    const dst = out.view(srcSizes, dstStrides, out.storageOffset);
    try {
      implOf(b, 'copy', 'repeat')(dst, src);
    } finally {
      src.release();
      dst.release();
    }
  });
});

// ---- flip ----
/** `self` viewed with the `dims` reversed (negative strides): copying it gives the flip. */
function flippedView(self: TensorImpl, dims: readonly number[]): TensorImpl {
  const strides = [...self.strides];
  let offset = self.storageOffset;
  for (const d of dims) {
    if (self.sizes[d] > 1) {
      offset += (self.sizes[d] - 1) * strides[d];
      strides[d] = -strides[d];
    }
  }
  return self.view(self.sizes, strides, offset);
}

export const FLIP = defineStructured('flip(Tensor self, int[] dims) -> Tensor', ([self, dims], b) => {
  const s = self;
  if (s.sizes.length === 0) for (const d of dims) normalizeDim('flip', d, 0, { wrapScalar: false });
  const ds = normalizeDims('flip', dims, s.sizes.length);
  return filled(allocLike('flip', s), (out) => {
    if (out.numel === 0) return;
    if (ds.length === 0) copyInto(b, 'flip', out, s);
    else withView(flippedView(s, ds), (v) => implOf(b, 'flip', 'flip')(out, s, ds, v));
  });
});

// ---- roll ----
interface RollPlan {
  readonly dims: number[];
  readonly shifts: number[];
}

function planRoll(self: TensorImpl, shifts: readonly number[], dims: readonly number[]): RollPlan {
  if (shifts.length === 0) throw new TorchError('roll: `shifts` required');
  if (dims.length === 0 && shifts.length === 1) return { dims: [], shifts: [...shifts] };
  if (shifts.length !== dims.length) {
    throw new TorchError(`roll: shifts and dimensions must align. shifts: ${shifts.length}, dims:${dims.length}`);
  }
  const ds = dims.map((d) => normalizeDim('roll', d, self.sizes.length, { wrapScalar: self.sizes.length > 0 }));
  return { dims: ds, shifts: [...shifts] };
}

/** Copies `src` rolled along `dims` into `dst` (same shape): 2^k block copies for k rolled dims. */
function rollInto(b: Backend, dst: TensorImpl, src: TensorImpl, dims: readonly number[], shifts: readonly number[]): void {
  const copy = implOf(b, 'copy', 'roll');
  // Per dim: the two (srcStart, dstStart, length) blocks; a dim rolled twice composes its shifts.
  const total = new Map<number, number>();
  dims.forEach((d, i) => total.set(d, (total.get(d) ?? 0) + shifts[i]));
  const blocks: [number, number, number, number][][] = [];
  for (const [d, shift] of total) {
    const n = src.sizes[d];
    const s = n === 0 ? 0 : ((shift % n) + n) % n;
    blocks.push([
      [d, 0, s, n - s],
      [d, n - s, 0, s],
    ]);
  }
  const count = 1 << blocks.length;
  for (let mask = 0; mask < count; mask++) {
    const sizes = [...src.sizes];
    let so = src.storageOffset;
    let dof = dst.storageOffset;
    let empty = false;
    blocks.forEach((pair, k) => {
      const [d, from, to, len] = pair[(mask >> k) & 1];
      if (len === 0) empty = true;
      sizes[d] = len;
      so += from * src.strides[d];
      dof += to * dst.strides[d];
    });
    if (empty || sizes.includes(0)) continue;
    const sv = src.view(sizes, src.strides, so);
    const dv = dst.view(sizes, dst.strides, dof);
    try {
      copy(dv, sv);
    } finally {
      sv.release();
      dv.release();
    }
  }
}

export const ROLL = defineStructured('roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor', ([self, shifts, dims], b) => {
  const s = self;
  const plan = planRoll(s, shifts, dims);
  return filled(allocLike('roll', s), (out) => {
    if (out.numel === 0) return;
    if (plan.dims.length > 0) {
      rollInto(b, out, s, plan.dims, plan.shifts);
      return;
    }
    // No dims: roll the flattened tensor, in row-major order.
    const flat = s.isContiguous ? s.view([s.numel], [1], s.storageOffset) : contiguousCopy(b, s);
    const outFlat = out.view([out.numel], [1], out.storageOffset);
    try {
      rollInto(b, outFlat, flat, [0], plan.shifts);
    } finally {
      flat.release();
      outFlat.release();
    }
  });
});

function contiguousCopy(b: Backend, s: TensorImpl): TensorImpl {
  const c = allocLike('roll', s);
  implOf(b, 'copy', 'roll')(c, s);
  const flat = c.view([c.numel], [1], 0);
  c.release();
  return flat;
}

// ---- triu / tril ----
/** Zeroes the triangle of `t` (in place) that triu / tril drop: triu keeps j - i >= k, tril keeps j - i <= k. */
function zeroTriangle(b: Backend, t: TensorImpl, upper: boolean, k: number): void {
  if (t.numel > 0) implOf(b, 'triZero', upper ? 'triu' : 'tril')(t, upper, k);
}

function checkTri(op: string, t: TensorImpl): void {
  if (t.sizes.length < 2) throw new ShapeError(`${op}: input tensor must have at least 2 dimensions`);
}

function defineTri(name: 'triu' | 'tril') {
  const upper = name === 'triu';
  const functional = defineStructured(`${name}(Tensor self, int diagonal=0) -> Tensor`, ([self, diagonal], b) => {
    const s = self;
    checkTri(name, s);
    return filled(allocLike(name, s), (out) => {
      copyInto(b, name, out, s);
      zeroTriangle(b, out, upper, diagonal);
    });
  });
  const inplace = defineStructured(
    `${name}_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)`,
    ([self, diagonal], b) => {
      const s = self;
      checkTri(`${name}_`, s);
      checkNoInternalOverlap(`${name}_`, s);
      zeroTriangle(b, s, upper, diagonal);
      return s;
    },
    ['inplace'],
  );
  return { functional, inplace, out: defineOutVariant(functional) };
}
export const TRIU = defineTri('triu');
export const TRIL = defineTri('tril');

// ---- composites: tile, repeat_interleave ----
export const TILE = defineComposite('tile(Tensor self, SymInt[] dims) -> Tensor', ([self, dims]) => {
    const s = self;
    const reps = dims;
    const padded = reps.length < s.dim() ? [...new Array<number>(s.dim() - reps.length).fill(1), ...reps] : reps;
    return repeat(s, padded);
  });

/** The int64 index [0, 0, 1, 2, 2, ...] that repeats i `repeats[i]` times (repeat_interleave(repeats)). */
function repeatIndex(op: string, repeats: Tensor): number[] {
  if (repeats.dim() > 1) throw new ShapeError(`${op}: repeats must be 0-dim or 1-dim tensor`);
  if (!isIntegralType(repeats.dtype, false)) {
    throw new DTypeError(`${op}: "repeat_interleave_cpu" not implemented for '${typeNameOf(repeats)}'`);
  }
  const out: number[] = [];
  repeatCounts(repeats).forEach((n, i) => {
    if (n < 0) throw new TorchError(`${op}: repeats can not be negative`);
    for (let k = 0; k < n; k++) out.push(i);
  });
  return out;
}

/** The values of a 0-dim or 1-dim repeats tensor, as numbers. */
function repeatCounts(r: Tensor): number[] {
  const v = r.tolist();
  return Array.isArray(v) ? v.map(Number) : [Number(v)];
}

function typeNameOf(t: Tensor): string {
  const names: Record<string, string> = { float32: 'Float', float64: 'Double', float16: 'Half', bfloat16: 'BFloat16', bool: 'Bool' };
  return names[t.dtype] ?? t.dtype;
}

/**
 * Note [repeat_interleave without a host read]
 * The result's length is the sum of the repeats: on a backend that cannot read synchronously
 * (countsAreAsync: WebGPU) it must be given as `outputSize` (PyTorch's `output_size`, which
 * exists to spare CUDA that sync). The index is then made on the device: the k-th output
 * element comes from the first i whose running sum of repeats exceeds k,
 * `searchsorted(cumsum(repeats), arange(outputSize), right)`, and the input is gathered by
 * it (`indexSelect`, whose backward is indexAdd). Negative repeats cannot be checked without
 * a read: on such a backend they give a wrong index instead of CPU's error, and an
 * `outputSize` larger than the sum gives an index out of range, reported by indexSelect at
 * the next read.
 */
function deviceRepeatIndex(r: Tensor, outputSize: number | null | undefined, n: number | null): Tensor {
  if (r.dim() > 1) throw new ShapeError('repeat_interleave: repeats must be 0-dim or 1-dim tensor');
  if (!isIntegralType(r.dtype, false)) throw new DTypeError(`repeat_interleave: "repeat_interleave_cpu" not implemented for '${typeNameOf(r)}'`);
  if (outputSize == null) {
    throw new TorchError(
      `repeat_interleave: the size of the result depends on the repeats, and ${r.device.type} tensors cannot be read synchronously; ` +
        'pass { outputSize } (the sum of the repeats), as PyTorch\'s output_size',
    );
  }
  const size = outputSize;
  if (!Number.isInteger(size) || size < 0) throw new TorchError(`repeat_interleave: outputSize must be a non-negative integer, got ${String(outputSize)}`);
  return tidy(() => {
    let reps = r.dim() === 0 ? reshape(r, [1]) : r;
    if (n !== null && reps.shape[0] === 1 && n !== 1) reps = expand(reps, [n]);
    else if (n !== null && reps.shape[0] !== n) throw new ShapeError('repeat_interleave: repeats must have the same size as input along dim');
    return searchsorted(cumsum(reps, 0), arange(size, { dtype: 'int64', device: r.device }), { right: true });
  });
}

export const REPEAT_INTERLEAVE_TENSOR = defineComposite('repeat_interleave.Tensor(Tensor repeats, *, SymInt? output_size=None) -> Tensor', ([repeats, outputSize]) => {
    const r = repeats;
    if (countsAreAsync(r.impl.device)) return deviceRepeatIndex(r, outputSize, null);
    const idx = repeatIndex('repeat_interleave', r);
    return tensor(idx, { dtype: 'int64', device: r.device });
  });

export const REPEAT_INTERLEAVE_SELF_TENSOR = defineComposite('repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, SymInt? output_size=None) -> Tensor', ([self, repeats, dim, outputSize]) => {
    const s = self;
    const r = repeats;
    const input = dim == null ? flatten(s) : s;
    const d = dim == null ? 0 : normalizeDim('repeat_interleave', dim, s.dim());
    if (r.dim() > 1) throw new ShapeError('repeat_interleave: repeats must be 0-dim or 1-dim tensor');
    if (countsAreAsync(r.impl.device)) {
      const x = input.dim() === 0 ? reshape(input, [1]) : input;
      return tidy(() => indexSelect(x, d, deviceRepeatIndex(r, outputSize, x.shape[d])));
    }
    const n = input.shape[d] ?? 1;
    const counts = repeatCounts(r);
    if (!isIntegralType(r.dtype, false)) repeatIndex('repeat_interleave', r);
    if (counts.length !== n && counts.length !== 1) {
      throw new ShapeError('repeat_interleave: repeats must have the same size as input along dim');
    }
    return interleave(input, d, counts.length === 1 && n !== 1 ? new Array<number>(n).fill(counts[0]) : counts);
  });

export const REPEAT_INTERLEAVE_SELF_INT = defineComposite('repeat_interleave.self_int(Tensor self, SymInt repeats, int? dim=None, *, SymInt? output_size=None) -> Tensor', ([self, repeats, dim]) => {
    const s = self;
    const r = repeats;
    if (r < 0) throw new TorchError('repeat_interleave: repeats can not be negative');
    const input = dim == null ? flatten(s) : s;
    const d = dim == null ? 0 : normalizeDim('repeat_interleave', dim, s.dim());
    if (input.dim() === 0) return reshape(expand(reshape(input, [1]), [r]), [r]);
    // x.unsqueeze(d + 1).expand(..., r, ...).flatten(d, d + 1): each slice repeated r times in place
    const u = unsqueeze(input, d + 1);
    const sizes = [...u.shape];
    sizes[d + 1] = r;
    return flatten(contiguous(expand(u, sizes)), d, d + 1);
  });

/** `input` with slice i along `d` repeated counts[i] times (slices of expanded views, concatenated). */
function interleave(input: Tensor, d: number, counts: readonly number[]): Tensor {
  for (const c of counts) if (c < 0) throw new TorchError('repeat_interleave: repeats can not be negative');
  const x = input.dim() === 0 ? reshape(input, [1]) : input;
  const pieces: Tensor[] = [];
  counts.forEach((c, i) => {
    if (c === 0) return;
    const piece = sliceDim(x, d, i, i + 1, 1);
    const sizes = [...piece.shape];
    sizes[d] = c;
    pieces.push(expand(piece, sizes));
  });
  if (pieces.length === 0) return contiguous(sliceDim(x, d, 0, 0, 1));
  return cat(pieces, d);
}

// ---- front ends ----
// (Note [Front ends are declared once]; Note [Variadic int lists] for `x.repeat(2, 2)`)

/** `x.repeat(2, 2)`: the tensor tiled along each dim (leading dims added as needed). */
export const repeat = front('repeat(Tensor self, SymInt[] repeats) -> Tensor', { varargs: true }).run(([self, repeats]): Tensor =>
  callFunctional(REPEAT, [unwrapTensor('repeat', 'self', self), repeats]),
);

/** `x.tile(2, 2)`: `repeat`, with dims padded by leading 1s when fewer than the tensor's. */
export const tile = front('tile(Tensor self, int[] dims) -> Tensor', { varargs: true }).run(([self, dims]): Tensor =>
  callFunctional(TILE, [unwrapTensor('tile', 'self', self), dims]),
);

/** `x.flip(0, 1)`: the order of the elements along `dims` reversed. */
export const flip = front('flip(Tensor self, int[] dims) -> Tensor', { varargs: true }).run(([self, dims]): Tensor =>
  callFunctional(FLIP, [unwrapTensor('flip', 'self', self), dims]),
);

/** `torch.fliplr` / `flipud`: flip of dim 1 / dim 0 (at least 2-D / 1-D). */
export const fliplr = front('fliplr(Tensor self) -> Tensor').run(([self]): Tensor => {
  if (self.dim() < 2) throw new ShapeError('fliplr: Input must be >= 2-d.');
  return flip(self, [1]);
});

export const flipud = front('flipud(Tensor self) -> Tensor').run(([self]): Tensor => {
  if (self.dim() < 1) throw new ShapeError('flipud: Input must be >= 1-d.');
  return flip(self, [0]);
});

/** `roll(x, shifts, dims?)`: shifts and dims an int or a list, either by keyword. */
export const roll = front('roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor').run(([self, shifts, dims]): Tensor =>
  callFunctional(ROLL, [unwrapTensor('roll', 'self', self), shifts, dims]),
);
export type RollOptions = OptionsOf<typeof roll>;

/** The upper triangle of the last two dims (elements with j - i >= diagonal), the rest zero. */
export const triu = front('triu(Tensor self, int diagonal=0, *, Tensor? out=None) -> Tensor').run(([self, k, out]): Tensor =>
  callWithOut(TRIU.functional, TRIU.out, [unwrapTensor('triu', 'self', self), k], out),
);
export type TriOptions = OptionsOf<typeof triu>;

/** The lower triangle of the last two dims (elements with j - i <= diagonal), the rest zero. */
export const tril = front('tril(Tensor self, int diagonal=0, *, Tensor? out=None) -> Tensor').run(([self, k, out]): Tensor =>
  callWithOut(TRIL.functional, TRIL.out, [unwrapTensor('tril', 'self', self), k], out),
);

export const triu_ = front('triu_(Tensor self, int diagonal=0) -> Tensor').run(([self, k]): Tensor =>
  callMutating(TRIU.inplace, [unwrapTensor('triu_', 'self', self), k], self),
);

export const tril_ = front('tril_(Tensor self, int diagonal=0) -> Tensor').run(([self, k]): Tensor =>
  callMutating(TRIL.inplace, [unwrapTensor('tril_', 'self', self), k], self),
);

/**
 * `torch.repeatInterleave(x, repeats, dim?)` (int or tensor repeats; no dim flattens) and
 * `torch.repeatInterleave(repeats)` (the index [0, 0, 1, ...] of an integer tensor).
 */
export const repeatInterleave = overloadedFront([
  'repeat_interleave(Tensor self, SymInt repeats, int? dim=None, *, int? output_size=None) -> Tensor',
  'repeat_interleave(Tensor self, Tensor repeats, int? dim=None, *, int? output_size=None) -> Tensor',
  'repeat_interleave(Tensor repeats, *, int? output_size=None) -> Tensor',
]).run((r): Tensor => {
  if (r.index === 2) {
    const [repeats, outputSize] = r.values;
    return callFunctional(REPEAT_INTERLEAVE_TENSOR, [unwrapTensor('repeat_interleave', 'repeats', repeats), outputSize ?? null]);
  }
  const s = unwrapTensor('repeat_interleave', 'self', r.values[0]);
  if (r.index === 0) {
    const [, repeats, dim, outputSize] = r.values;
    return callFunctional(REPEAT_INTERLEAVE_SELF_INT, [s, repeats, dim ?? null, outputSize ?? null]);
  }
  const [, repeats, dim, outputSize] = r.values;
  return callFunctional(REPEAT_INTERLEAVE_SELF_TENSOR, [s, unwrapTensor('repeat_interleave', 'repeats', repeats), dim ?? null, outputSize ?? null]);
});
export type RepeatInterleaveOptions = OptionsOf<typeof repeatInterleave>;
