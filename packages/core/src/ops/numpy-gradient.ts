import { TorchError, TorchTypeError } from '../errors';
import { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { normalizeDim } from '../views/dims';
import { cat } from './join';
import { front } from './front';

/**
 * Note [torch.gradient]
 * NumPy's gradient as PyTorch 1.13 computes it (aten's gradient_helper and
 * gradient_helper_float): per dim, central differences inside and one-sided ones at the two
 * ends (edge_order 1: first differences; 2: second-order one-sided stencils). `spacing` is a
 * scalar (for every dim), a list of scalars (one per dim) or a list of 1-d coordinate tensors
 * (one per dim; unevenly spaced points get the second-order-accurate weights from the two
 * neighbouring gaps). The arithmetic follows aten's order, so results match 1.13's.
 */
type Spacing = number | readonly number[] | readonly Tensor[] | null;

function gradientAlong(f: Tensor, d: number, h: number | Tensor, edgeOrder: number): Tensor {
  const s = (start: number, end?: number) => f.slice(d, start, end);
  if (typeof h === 'number') {
    const center = s(2).sub(s(0, -2)).div(h).div(2);
    const [pre, app] =
      edgeOrder === 1
        ? [s(1, 2).sub(s(0, 1)).div(h), s(-1).sub(s(-2, -1)).div(h)]
        : [
            s(0, 1).mul(-1.5).add(s(1, 2).mul(2)).sub(s(2, 3).mul(0.5)).div(h),
            s(-3, -2).mul(0.5).sub(s(-2, -1).mul(2)).add(s(-1).mul(1.5)).div(h),
          ];
    return cat([pre, center, app], d);
  }
  const dx = h.diff(1, 0);
  const shape = Array<number>(f.dim()).fill(1);
  shape[d] = -1;
  const dx1 = dx.slice(0, 0, -1);
  const dx2 = dx.slice(0, 1);
  const a = dx2.neg().div(dx1.mul(dx1.add(dx2))).reshape(shape);
  const b = dx2.sub(dx1).div(dx1.mul(dx2)).reshape(shape);
  const c = dx1.div(dx2.mul(dx1.add(dx2))).reshape(shape);
  const center = a.mul(s(0, -2)).add(b.mul(s(1, -1))).add(c.mul(s(2)));
  const n = dx.shape[0];
  const g = (i: number) => dx.select(0, i < 0 ? n + i : i);
  let pre: Tensor;
  let app: Tensor;
  if (edgeOrder === 1) {
    pre = s(1, 2).sub(s(0, 1)).div(g(0));
    app = s(-1).sub(s(-2, -1)).div(g(-1));
  } else {
    const [d0, d1, dl, dl2] = [g(0), g(1), g(-1), g(-2)];
    const pa = d0.mul(2).add(d1).neg().div(d0.mul(d0.add(d1)));
    const pb = d0.add(d1).div(d0.mul(d1));
    const pc = d0.neg().div(d1.mul(d0.add(d1)));
    pre = pa.mul(s(0, 1)).add(pb.mul(s(1, 2))).add(pc.mul(s(2, 3)));
    const aa = dl.div(dl2.mul(dl.add(dl2)));
    const ab = dl.add(dl2).neg().div(dl.mul(dl2));
    const ac = dl.mul(2).add(dl2).div(dl.mul(dl.add(dl2)));
    app = aa.mul(s(-3, -2)).add(ab.mul(s(-2, -1))).add(ac.mul(s(-1)));
  }
  return cat([pre, center, app], d);
}

/** `torch.gradient(input, *, spacing=1, dim=None, edge_order=1)`: one tensor per dim (Note [torch.gradient]). */
export const gradient = front('gradient(Tensor self, *, Any? spacing=None, Any? dim=None, int edge_order=1) -> Tensor[]', { method: false }).run(
  ([self, spacing0, dim0, edgeOrder]): Tensor[] => {
    const op = 'torch.gradient';
    if (edgeOrder !== 1 && edgeOrder !== 2) throw new TorchError(`${op} only supports edge_order=1 and edge_order=2.`);
    const ndim = self.dim();
    const dims =
      dim0 == null
        ? Array.from({ length: ndim }, (_, i) => i)
        : (typeof dim0 === 'number' ? [dim0] : [...(dim0 as number[])]).map((d) => normalizeDim(op, d, ndim));
    const seen = new Set<number>();
    for (const d of dims) {
      if (seen.has(d)) throw new TorchError(`dim ${d} appears multiple times in the list of dims`);
      seen.add(d);
    }
    const spacing = (spacing0 ?? null) as Spacing;
    let hs: (number | Tensor)[];
    if (spacing === null) hs = dims.map(() => 1);
    else if (typeof spacing === 'number') hs = dims.map(() => spacing);
    else if (Array.isArray(spacing)) {
      if (spacing.length !== dims.length) {
        throw new TorchError(`${op} expected spacing to be unspecified, a scalar or a list of length ${dims.length} but got a list of length ${spacing.length}`);
      }
      hs = [...(spacing as (number | Tensor)[])];
      hs.forEach((h, i) => {
        if (h instanceof Tensor && (h.dim() !== 1 || h.shape[0] !== self.shape[dims[i]])) {
          throw new TorchError(`${op} expected each tensor to be on the same device and of size ${self.shape[dims[i]]} (dim ${dims[i]} of the input), but got one of shape [${h.shape.join(', ')}]`);
        }
      });
    } else throw new TorchTypeError(`${op}: spacing must be a number, a list of numbers or a list of 1-d tensors`);
    for (const d of dims) if (self.shape[d] < edgeOrder + 1) throw new TorchError(`${op} expected each dimension size to be at least edge_order+1`);
    return dims.map((d, i) => tidy(() => gradientAlong(self, d, hs[i], edgeOrder)));
  },
);
