/**
 * `bernoulli`, `bernoulli_`, `multinomial`. Like the other random ops (random.ts), values
 * are drawn on the host from the generator in PyTorch CPU's order, then written through the
 * backend's copy; on a backend with random impls (WebGPU) they are drawn on the device
 * (Note [Counter-based random streams]).
 *
 * Note [bernoulli and multinomial draws]
 * PyTorch's CPU `bernoulli_(p: float)` draws one `uniform_real_distribution<double>` per
 * element (53 bits of `random64()`) and writes `u < p` (the default kernel; PyTorch builds
 * with MKL use an MKL stream instead on Intel CPUs only, so its values depend on the CPU
 * vendor: torch-ts follows the vendor-independent kernel). `bernoulli_(p: Tensor)` draws a
 * `uniform_real_distribution<float>` (24 bits of `random()`) per element when p is not
 * float64, and 53 bits when it is. `multinomial` with replacement builds each row's
 * cumulative distribution in the input's dtype, normalises it, and binary-searches one
 * `uniform_real_distribution<double>` per sample, as PyTorch's
 * `multinomial_with_replacement` kernel. Without replacement (or for one sample) PyTorch
 * takes the top-k of p / q with q ~ Exp(1) (the Gumbel-max trick); its exponential draws
 * come from MKL on x86 builds, which torch-ts does not reproduce: torch-ts draws q as
 * -log(1 - u) with the generator's 53-bit doubles, so those samples have PyTorch's
 * distribution but not its exact values.
 */
import { CPU } from '../device';
import { isFloatingType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import { defaultGenerator, type Generator } from '../random/generator';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { front, overloadedFront, type OptionsOf } from './front';
import { unwrapTensor } from './call';
import { contiguous, copy_, to } from './copy';
import { emptyLike } from './factories';
import { torchTypeName } from './meta-utils';
import { deviceRandomImpl, deviceStream, drawnOnDevice } from './random-impls';
import { expand } from './views';

export interface GeneratorOption {
  generator?: Generator | null;
}

/** Row-major logical offsets of `t`'s elements in the order of their storage offsets (memory order). */
function memoryOrder(t: Tensor): Int32Array | null {
  if (t.isContiguous()) return null;
  const shape = t.shape;
  const strides = t.stride();
  const n = t.numel();
  const offsets = new Float64Array(n);
  const idx = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < n; i++) {
    let off = 0;
    for (let d = 0; d < shape.length; d++) off += idx[d] * strides[d];
    offsets[i] = off;
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => offsets[a] - offsets[b] || a - b);
}

/** Writes a fresh device draw into `self` through copy_ (versions and autograd as on the host path). */
function writeDevice(self: Tensor, drawn: Tensor): Tensor {
  try {
    copy_(self, drawn);
  } finally {
    drawn.dispose();
  }
  return self;
}

/**
 * Writes host values (draw order) into `self` through copy_, so versions and autograd apply;
 * int64 values (BigInt64Array) for integer draws beyond 2^53.
 */
export function writeDrawn(op: string, self: Tensor, drawn: Float64Array | BigInt64Array): Tensor {
  const order = memoryOrder(self);
  const wide = drawn instanceof BigInt64Array;
  const impl = TensorImpl.empty(op, self.shape, wide ? 'int64' : 'float64', CPU);
  const dst = wide ? impl.storage.typed(BigInt64Array) : impl.storage.typed(Float64Array);
  if (order) for (let k = 0; k < order.length; k++) dst[order[k]] = drawn[k];
  else dst.set(drawn as never);
  const host = new Tensor(impl);
  try {
    copy_(self, host);
  } finally {
    host.dispose();
  }
  return self;
}

/** The logical values of a CPU tensor as float64 (row-major). */
export function hostValues(t: Tensor): Float64Array {
  const c = t.dtype === 'float64' ? contiguous(t) : to(t, 'float64');
  try {
    const impl = c.impl;
    if (c.isContiguous()) return impl.storage.typed(Float64Array).slice(impl.storageOffset, impl.storageOffset + impl.numel);
    const cc = contiguous(c);
    try {
      return cc.impl.storage.typed(Float64Array).slice(cc.impl.storageOffset, cc.impl.storageOffset + cc.impl.numel);
    } finally {
      if (cc !== c) cc.dispose();
    }
  } finally {
    if (c !== t) c.dispose();
  }
}


/** `x.bernoulli_(p)`: each element becomes 1 with probability p (a number or a tensor broadcast to x), else 0. */
export const bernoulli_ = overloadedFront(
  ['bernoulli_(Tensor self, Tensor p, *, Generator? generator=None) -> Tensor', 'bernoulli_(Tensor self, float p=0.5, *, Generator? generator=None) -> Tensor'],
  { namespaces: [] },
).run(({ values: [self, p, generator] }): Tensor => {
  unwrapTensor('bernoulli_', 'self', self);
  const gen = generator ?? defaultGenerator;
  const n = self.numel();
  const drawn = new Float64Array(n);
  if (typeof p === 'number') {
    if (!(p >= 0 && p <= 1)) throw new TorchError(`bernoulli_: bernoulli_ expects p to be in [0, 1], but got p=${p}`);
    const d = drawnOnDevice('bernoulli_', self.shape, self.dtype, self.device, { kind: 'bernoulli', p }, gen);
    if (d) return writeDevice(self, d);
    for (let i = 0; i < n; i++) drawn[i] = gen.random53() * 2 ** -53 < p ? 1 : 0;
    return writeDrawn('bernoulli_', self, drawn);
  }
  const pi = unwrapTensor('bernoulli_', 'p', p);
  if (!isFloatingType(pi.dtype)) {
    throw new DTypeError(`bernoulli_: "bernoulli_tensor_cpu_p_" not implemented for '${torchTypeName(pi.dtype)}'`);
  }
  let pe: Tensor;
  try {
    pe = expand(p, [...self.shape]);
  } catch {
    throw new ShapeError(`bernoulli_: the size of p ${fmtShape(p.shape)} must be broadcastable to self ${fmtShape(self.shape)}`);
  }
  const onDevice = deviceRandomImpl(self.device, 'bernoulliTensor');
  if (onDevice) {
    // p's values are checked by the kernel: an error surfaces at the next read (Note [Counter-based random streams])
    let drawn: TensorImpl | null = null;
    let pd: Tensor = pe;
    try {
      if (pe.device !== self.device) pd = to(pe, { device: self.device });
      drawn = TensorImpl.empty('bernoulli_', self.shape, self.dtype, self.device);
      onDevice(drawn, pd.impl, deviceStream(gen));
    } catch (e) {
      drawn?.release();
      throw e;
    } finally {
      if (pd !== pe) pd.dispose();
      if (pe !== p) pe.dispose();
    }
    return writeDevice(self, new Tensor(drawn));
  }
  let probs: Float64Array;
  try {
    probs = hostValues(pe);
  } finally {
    if (pe !== p) pe.dispose();
  }
  const order = memoryOrder(self);
  const wide = pi.dtype === 'float64';
  for (let k = 0; k < n; k++) {
    const q = probs[order ? order[k] : k];
    if (!(q >= 0 && q <= 1)) throw new TorchError('bernoulli_: Expected p_in >= 0 && p_in <= 1 to be true, but got false.');
    const u = wide ? gen.random53() * 2 ** -53 : (gen.random() & 0xffffff) * 2 ** -24;
    drawn[k] = u < (wide ? q : Math.fround(q)) ? 1 : 0;
  }
  // drawn is in memory order already; writeDrawn maps it back to logical order
  return writeDrawn('bernoulli_', self, drawn);
});

/**
 * `bernoulli(probs)`: a tensor of probs' dtype with 1 where a draw falls below the
 * probability; `bernoulli(x, p)` draws with one probability.
 */
export const bernoulli = overloadedFront(
  ['bernoulli(Tensor input, *, Generator? generator=None, Tensor? out=None) -> Tensor', 'bernoulli(Tensor input, float p, *, Generator? generator=None) -> Tensor'],
  { namespaces: ['torch'], unsupported: ['out'] },
).run((call): Tensor => {
  const [input, p, generator] = call.index === 0 ? [call.values[0], undefined, call.values[1]] : call.values;
  const x = unwrapTensor('bernoulli', 'input', input);
  if (p === undefined && !isFloatingType(x.dtype)) {
    throw new DTypeError(`bernoulli: "bernoulli_tensor_cpu_p_" not implemented for '${torchTypeName(x.dtype)}'`);
  }
  const out = emptyLike(input, { memoryFormat: 'contiguous' }); // (PyTorch's LEGACY_CONTIGUOUS_MEMORY_FORMAT: draws in logical order)
  try {
    const options = { generator: generator ?? null };
    // (bernoulli_'s two overloads: a Tensor or a number `p`)
    return p === undefined ? bernoulli_(out, input, options) : bernoulli_(out, p, options);
  } catch (e) {
    out.dispose();
    throw e;
  }
});

/**
 * `multinomial(probs, numSamples, { replacement, generator })`: int64 category indices drawn
 * from each row of `probs` (1-D or 2-D, non-negative, not necessarily normalised).
 */
export const multinomial = front('multinomial(Tensor input, int num_samples, bool replacement=False, *, Generator? generator=None, Tensor? out=None) -> Tensor', {
  unsupported: ['out'],
}).run(([input, numSamples, replacement, generator]): Tensor => {
  const x = unwrapTensor('multinomial', 'input', input);
  const gen = generator ?? defaultGenerator;
  if (!isFloatingType(x.dtype)) {
    throw new DTypeError(`multinomial: multinomial only supports floating-point dtypes for input, got: ${torchTypeName(x.dtype)}`);
  }
  if (x.dtype === 'float16' && x.device === CPU) throw new DTypeError('multinomial: multinomial is not implemented for half on CPU');
  if (x.dim !== 1 && x.dim !== 2) throw new ShapeError('multinomial: prob_dist must be 1 or 2 dim');
  if (!Number.isInteger(numSamples) || numSamples <= 0) throw new TorchError('multinomial: cannot sample n_sample <= 0 samples');
  const nCat = x.sizes[x.dim - 1];
  if (!replacement && numSamples > nCat) {
    throw new TorchError('multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement');
  }
  if (nCat > 2 ** 24) throw new TorchError('multinomial: number of categories cannot exceed 2^24');
  const nDist = x.dim === 1 ? 1 : x.sizes[0];
  const onDevice = deviceRandomImpl(x.device, 'multinomial');
  if (onDevice) {
    // The distributions are checked by the kernel, whose errors surface at the next read
    // (as CUDA's device asserts do). One sample takes the path without replacement, as on CPU.
    const out = TensorImpl.empty('multinomial', x.dim === 1 ? [numSamples] : [nDist, numSamples], 'int64', x.device);
    try {
      onDevice(out, x, replacement && numSamples > 1, deviceStream(gen));
    } catch (e) {
      out.release();
      throw e;
    }
    return new Tensor(out);
  }
  const probs = hostValues(input);
  const result = new Float64Array(nDist * numSamples);
  if (!replacement || numSamples === 1) {
    let bad = false;
    for (let i = 0; i < probs.length; i++) if (!(probs[i] >= 0 && probs[i] < Infinity)) bad = true;
    if (bad) throw new TorchError('multinomial: probability tensor contains either `inf`, `nan` or element < 0');
    for (let r = 0; r < nDist; r++) {
      let s = 0;
      for (let j = 0; j < nCat; j++) s += probs[r * nCat + j];
      if (s === 0) throw new TorchError('multinomial: invalid multinomial distribution (sum of probabilities <= 0)');
    }
    // Gumbel-max: the top numSamples of p / q, q ~ Exp(1) (Note [bernoulli and multinomial draws])
    const keys = new Float64Array(nDist * nCat);
    for (let i = 0; i < keys.length; i++) keys[i] = probs[i] / -Math.log1p(-(gen.random53() * 2 ** -53));
    for (let r = 0; r < nDist; r++) {
      const row = Array.from({ length: nCat }, (_, j) => j);
      row.sort((a, b) => keys[r * nCat + b] - keys[r * nCat + a] || a - b);
      for (let k = 0; k < numSamples; k++) result[r * numSamples + k] = row[k];
    }
  } else {
    const f32 = x.dtype !== 'float64';
    const round = f32 ? Math.fround : (v: number) => v;
    const cum = new Float64Array(nCat);
    for (let r = 0; r < nDist; r++) {
      let sum = 0;
      for (let j = 0; j < nCat; j++) {
        const v = probs[r * nCat + j];
        if (!(v >= 0)) throw new TorchError('multinomial: invalid multinomial distribution (encountering probability entry < 0)');
        if (!Number.isFinite(v)) throw new TorchError('multinomial: invalid multinomial distribution (encountering probability entry = infinity or NaN)');
        sum = round(sum + v);
        cum[j] = sum;
      }
      if (!(sum > 0)) throw new TorchError('multinomial: invalid multinomial distribution (sum of probabilities <= 0)');
      for (let j = 0; j < nCat; j++) cum[j] = round(cum[j] / sum);
      cum[nCat - 1] = 1;
      for (let k = 0; k < numSamples; k++) {
        const u = gen.random53() * 2 ** -53;
        let left = 0;
        let right = nCat;
        while (right - left > 0) {
          const mid = left + ((right - left) >> 1);
          if (cum[mid] < u) left = mid + 1;
          else right = mid;
        }
        result[r * numSamples + k] = left;
      }
    }
  }
  const sizes = x.dim === 1 ? [numSamples] : [nDist, numSamples];
  const host = TensorImpl.empty('multinomial', sizes, 'int64', CPU);
  const big = host.storage.typed(BigInt64Array);
  for (let i = 0; i < result.length; i++) big[i] = BigInt(result[i]);
  const t = new Tensor(host);
  if (x.device === CPU) return t;
  try {
    return to(t, { device: x.device });
  } finally {
    t.dispose();
  }
});
export type MultinomialOptions = OptionsOf<typeof multinomial>;


export type BernoulliOptions = OptionsOf<typeof bernoulli>;
