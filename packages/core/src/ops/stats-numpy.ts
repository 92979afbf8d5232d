import { isComplexType, isFloatingType, promoteTypes } from '../dtype';
import { IndexError, ShapeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { normalizeDim } from '../views/dims';
import { clone, copyResult_ } from './copy';
import { ones, tensor } from './factories';
import { hostValues } from './random-extra';
import { front, overloadedFront } from './front';
import { cat } from './join';
import { valuesIndices, type ValuesIndices } from './reduction';
import { sort } from './sorting';
import { movedim } from './shape-ops';
import { where } from './pointwise';

/**
 * NumPy-style statistics and index writes PyTorch composes from other ops (or whose values
 * are such a composition): kthvalue (the k-th of a stable sort along the dim: for ties, the
 * element PyTorch's selection gives where they agree), cov and corrcoef (PyTorch's formulas,
 * frequency and analytic weights included), trapezoid / trapz and cumulative_trapezoid,
 * vander, renorm (slices scaled by maxnorm / (norm + 1e-7) where their norm exceeds it),
 * index_copy and put (a clone written through index_put_). Their Nodes are those of the ops
 * they are made of; the gradients are PyTorch's.
 */

/** PyTorch's comparison of its selection: x > y, NaN above everything. */
const gtOrNan = (x: number, y: number): boolean => (Number.isNaN(x) && !Number.isNaN(y)) || x > y;

/**
 * The position of the k-th smallest (0-based) of `a`, by PyTorch's quick_select_template (a
 * median-of-three quickselect over the values and their positions), so ties resolve to the
 * element PyTorch's kthvalue returns.
 */
function quickSelect(a: Float64Array, k: number): number {
  const ix = Int32Array.from({ length: a.length }, (_, i) => i);
  const swap = (p: number, q: number) => {
    [a[p], a[q]] = [a[q], a[p]];
    [ix[p], ix[q]] = [ix[q], ix[p]];
  };
  let L = 0;
  let R = a.length - 1;
  for (;;) {
    if (R <= L) break;
    if (R === L + 1) {
      if (gtOrNan(a[L], a[R])) swap(L, R);
      break;
    }
    swap(L + Math.floor((R - L) / 2), L + 1);
    if (gtOrNan(a[L + 1], a[R])) swap(L + 1, R);
    if (gtOrNan(a[L], a[R])) swap(L, R);
    if (gtOrNan(a[L + 1], a[L])) swap(L + 1, L);
    let i = L + 1;
    let j = R;
    const piv = a[L];
    for (;;) {
      do i++;
      while (gtOrNan(piv, a[i]));
      do j--;
      while (gtOrNan(a[j], piv));
      if (j < i) break;
      swap(i, j);
    }
    swap(L, j);
    if (j <= k) L = i;
    if (j >= k) R = j - 1;
  }
  return ix[k];
}

/**
 * `torch.kthvalue(x, k, dim=-1, keepdim)`: the k-th smallest along dim and its index. On the
 * CPU the index is PyTorch's (its quickselect, ties included); elsewhere the k-th of a stable
 * sort (a tie may then name another of the equal elements). The values are gathered at the
 * indices, so the gradient reaches that element (PyTorch's KthvalueBackward0).
 */
export const kthvalue = front('kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)').run(
  ([self, k, dim, keepdim]): ValuesIndices => {
    const d = normalizeDim('kthvalue', dim, Math.max(self.dim(), 1));
    const n = self.dim() === 0 ? 1 : self.shape[d];
    if (k < 1 || k > n) throw new IndexError(`kthvalue(): selected number k out of range for dimension ${dim}`);
    return tidy(() => {
      const x = self.dim() === 0 ? self.reshape([1]) : self;
      let index: Tensor;
      if (x.device.type === 'cpu') {
        const rows = x.movedim(d, -1).contiguous();
        const host = hostValues(rows);
        const count = host.length / n;
        const picked = new Float64Array(count);
        for (let r = 0; r < count; r++) picked[r] = quickSelect(host.slice(r * n, (r + 1) * n), k - 1);
        const shape = [...rows.shape.slice(0, -1), 1];
        index = tensor(Array.from(picked), { dtype: 'int64' }).reshape(shape).movedim(-1, d);
      } else {
        index = sort(x, d, false, { stable: true })[1].narrow(d, k - 1, 1);
      }
      const values = x.gather(d, index);
      const shape = (t: Tensor) => (self.dim() === 0 ? t.reshape([]) : keepdim ? t : t.squeeze(d));
      return valuesIndices([shape(values), shape(index)]);
    }) as ValuesIndices;
  },
);

/** `torch.cov(x, { correction, fweights, aweights })`: the covariance of the rows' variables over the columns' observations. */
export const cov = front('cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor').run(
  ([self, correction, fweights, aweights]): Tensor => {
    const op = 'cov';
    if (self.dim() > 2) throw new ShapeError(`${op}(): expected input to have two or fewer dimensions but got an input with ${self.dim()} dimensions`);
    return tidy(() => {
      const x = self.dim() < 2 ? self.reshape([1, -1]) : self;
      const nObs = x.shape[1];
      let w: Tensor | null = null;
      for (const [name, t] of [['fweights', fweights], ['aweights', aweights]] as const) {
        if (!t) continue;
        if (t.dim() > 1) throw new ShapeError(`${op}(): expected ${name} to have one or fewer dimensions but got ${name} with ${t.dim()} dimensions`);
        if (t.numel() !== nObs) throw new ShapeError(`${op}(): expected ${name} to have the same numel as there are observations in the input but got ${t.numel()} != ${nObs}`);
        w = w === null ? t : w.mul(t);
      }
      const real = isFloatingType(x.dtype) || isComplexType(x.dtype) ? x : x.to('float32');
      let avg: Tensor;
      let norm: Tensor | number;
      if (w === null) {
        avg = real.mean(1);
        norm = nObs - correction;
      } else {
        const wSum = w.sum();
        avg = real.mul(w).sum(1).div(wSum);
        norm = correction === 0 ? wSum : aweights == null ? wSum.sub(correction) : wSum.sub(w.mul(aweights).sum().mul(correction).div(wSum));
      }
      const centered = real.sub(avg.unsqueeze(1));
      const rhs = (w === null ? centered : centered.mul(w)).t();
      const c = centered.matmul(isComplexType(rhs.dtype) ? rhs.conj() : rhs);
      const n = typeof norm === 'number' ? Math.max(norm, 0) : norm.clampMin(0);
      return c.div(n).squeeze();
    });
  },
);

/** `torch.corrcoef(x)`: Pearson's correlation coefficients of the rows (cov scaled by the standard deviations, clipped to [-1, 1]). */
export const corrcoef = front('corrcoef(Tensor self) -> Tensor').run(([self]): Tensor => {
  if (self.dim() > 2) throw new ShapeError(`corrcoef(): expected input to have two or fewer dimensions but got an input with ${self.dim()} dimensions`);
  return tidy(() => {
    const c = cov(self);
    if (c.dim() === 0) return c.div(c);
    const sd = c.diagonal().sqrt();
    const r = c.div(sd.unsqueeze(1)).div(sd.unsqueeze(0));
    return isComplexType(r.dtype) ? r : r.clamp(-1, 1);
  });
});

/** The trapezoid sums' pieces along dim: (left + right) with left, right the slices without the last / first element. */
function pairs(y: Tensor, d: number): Tensor {
  const n = y.shape[d];
  return y.narrow(d, 0, n - 1).add(y.narrow(d, 1, n - 1));
}

/** The spacing tensor of `x` along dim d of `y`: diff of a 1-d x viewed along d, or of a full x. */
function spacing(op: string, y: Tensor, x: Tensor, d: number): Tensor {
  if (x.dim() === 1) {
    if (x.shape[0] !== y.shape[d]) {
      throw new ShapeError(`${op}: There must be one \`x\` value for each sample point`);
    }
    const view = y.shape.map((_, i) => (i === d ? -1 : 1));
    return x.diff().reshape(view);
  }
  return x.diff(1, d);
}

const TRAPEZOID = [
  'trapezoid(Tensor y, Tensor x, *, int dim=-1) -> Tensor',
  'trapezoid(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor',
] as const;

function trapezoidOf(op: string, call: { index: number; values: readonly unknown[] }): Tensor {
  const y = call.values[0] as Tensor;
  const dim = (call.index === 0 ? call.values[2] : call.values[2]) as number;
  const d = normalizeDim(op, dim, Math.max(y.dim(), 1));
  return tidy(() => {
    if (y.shape[d] === 0) return y.sum(d);
    if (call.index === 0) return spacing(op, y, call.values[1] as Tensor, d).mul(pairs(y, d)).sum(d).div(2);
    const dx = Number(call.values[1]);
    return y.sum(d).sub(y.select(d, 0).add(y.select(d, -1)).mul(0.5)).mul(dx);
  });
}

/** `torch.trapezoid(y, x?, { dx, dim })`: the trapezoidal rule along dim, at `x` or with spacing `dx`. */
export const trapezoid = overloadedFront([...TRAPEZOID], { method: false }).run((call): Tensor => trapezoidOf('trapezoid', call));

/** `torch.trapz`: PyTorch's older name of trapezoid. */
export const trapz = overloadedFront(['trapz(Tensor y, Tensor x, *, int dim=-1) -> Tensor', 'trapz(Tensor y, *, float dx=1, int dim=-1) -> Tensor'], { method: false }).run(
  (call): Tensor => trapezoidOf('trapz', call),
);

/** `torch.cumulative_trapezoid(y, x?, { dx, dim })`: the running trapezoidal sums along dim. */
export const cumulativeTrapezoid = overloadedFront(
  ['cumulative_trapezoid(Tensor y, Tensor x, *, int dim=-1) -> Tensor', 'cumulative_trapezoid(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor'],
  { method: false },
).run((call): Tensor => {
  const op = 'cumulative_trapezoid';
  const y = call.values[0] as Tensor;
  const d = normalizeDim(op, call.values[2] as number, Math.max(y.dim(), 1));
  return tidy(() => {
    if (y.shape[d] === 0) return y.narrow(d, 0, 0).clone();
    if (call.index === 0) return spacing(op, y, call.values[1] as Tensor, d).mul(pairs(y, d)).cumsum(d).div(2);
    return pairs(y, d).mul(Number(call.values[1]) / 2).cumsum(d);
  });
});

/** `torch.vander(x, N, increasing)`: the Vandermonde matrix of the vector x (powers N-1 down to 0, or up). */
export const vander = front('vander(Tensor x, int? N=None, bool increasing=False) -> Tensor', { method: false }).run(([x, N, increasing]): Tensor => {
  if (x.dim() !== 1) throw new ShapeError('x must be a one-dimensional tensor.');
  const n = N ?? x.shape[0];
  if (n < 0) throw new TorchError('N must be non-negative.');
  const dtype = isFloatingType(x.dtype) || isComplexType(x.dtype) ? x.dtype : promoteTypes(x.dtype, 'int64');
  return tidy(() => {
    const col = ones([x.shape[0], Math.min(n, 1)], { dtype, device: x.device });
    let r = col;
    if (n > 1) r = cat([col, x.to(dtype).unsqueeze(1).expand([x.shape[0], n - 1]).cumprod(1)], 1);
    return increasing ? r.clone() : r.flip(1);
  });
});

/** `torch.renorm(x, p, dim, maxnorm)`: each slice along dim whose p-norm exceeds maxnorm scaled to it. */
export const renorm = front('renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor').run(([self, p, dim, maxnorm]): Tensor => {
  const d = normalizeDim('renorm', dim, self.dim());
  if (!(Number(p) > 0)) throw new TorchError(`renorm: non-positive-norm not supported`);
  if (Number(maxnorm) < 0) throw new TorchError(`renorm: expected maxnorm to be >= 0 but got ${maxnorm}`);
  return tidy(() => {
    const others = self.shape.map((_, i) => i).filter((i) => i !== d);
    const norms = self.norm(Number(p), others, true);
    const factor = where(norms.gt(maxnorm), norms.add(1e-7).reciprocal().mul(maxnorm), 1);
    return self.mul(factor);
  });
});

/** `x.renorm_(p, dim, maxnorm)`. */
export const renorm_ = front('renorm_(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor', { namespaces: [] }).run(([self, p, dim, maxnorm]): Tensor => {
  return copyResult_(self, renorm(self, p, dim, maxnorm));
});

function indexCopyInto(op: string, out: Tensor, dim: number, index: Tensor, source: Tensor): Tensor {
  if (index.dtype !== 'int64') throw new IndexError(`${op}(): Expected a long tensor for index, but got ${index.dtype}`);
  const d = normalizeDim(op, dim, Math.max(out.dim(), 1));
  tidy(() => {
    const target = out.dim() === 0 ? out.reshape([1]) : movedim(out, d, 0);
    const src = source.dim() === 0 ? source.reshape([1]) : movedim(source, d, 0);
    target.indexPut_([index.reshape([-1])], src);
  });
  return out;
}

/** `torch.index_copy(x, dim, index, source)`: a copy of x with its slices at `index` along dim replaced by source's. */
export const indexCopy = front('index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor').run(([self, dim, index, source]): Tensor => {
  const out = clone(self);
  try {
    return indexCopyInto('index_copy', out, dim, index, source);
  } catch (e) {
    out.dispose();
    throw e;
  }
});

/** `x.indexCopy_(dim, index, source)`. */
export const indexCopy_ = front('index_copy_(Tensor self, int dim, Tensor index, Tensor source) -> Tensor', { namespaces: [] }).run(
  ([self, dim, index, source]): Tensor => indexCopyInto('index_copy_', self, dim, index, source),
);

/** `x.put(index, source, accumulate)`: a copy of x with the flat positions `index` set to (or increased by) source. */
export const put = front('put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor').run(([self, index, source, accumulate]): Tensor => {
  if (index.dtype !== 'int64') throw new IndexError(`put(): Expected a long tensor for index, but got ${index.dtype}`);
  if (index.numel() !== source.numel()) {
    throw new ShapeError(`put(): Expected source and index to have the same number of elements, but got source.numel() = ${source.numel()}, index.numel() = ${index.numel()}`);
  }
  const out = clone(self, { memoryFormat: 'contiguous' });
  tidy(() => {
    out.view(-1).indexPut_([index.reshape([-1])], source.reshape([-1]), { accumulate });
  });
  return out;
});

/** `x.put_(index, source, accumulate)`. */
export const put_ = front('put_(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor', { namespaces: [] }).run(
  ([self, index, source, accumulate]): Tensor => {
    return copyResult_(self, put(self, index, source, accumulate));
  },
);
