/**
 * The cases of numpy-ops.test.ts (scripts/goldens/numpy_ops.py), shared with its WebGPU
 * sibling: each maps the golden's inputs to the function's outputs.
 */
import * as torch from '@torch-ts/torch';

export type Num = number | string;
export interface G {
  shape: number[];
  dtype: string;
  values: Num[];
}
export const num = (v: Num): number => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : (v as number));

/** The cases' functions; `aw` is the golden's analytic weights, `device` where index tensors go. */
export function numpyCases(aw: torch.Tensor, device: torch.DeviceLike = 'cpu'): Record<string, (...a: torch.Tensor[]) => torch.Tensor | torch.Tensor[]> {
  const ix = (v: unknown) => torch.tensor(v as number[], { device });
  return {
  'meshgrid ij': (v, w) => torch.meshgrid([v, w], { indexing: 'ij' }),
  'meshgrid xy': (v, w) => torch.meshgrid([v, w], { indexing: 'xy' }),
  'meshgrid 3': (a, b, c) => torch.meshgrid(a, b, c),
  'tensor_split sections': (x) => torch.tensorSplit(x, 3, 1),
  'tensor_split indices': (x) => torch.tensorSplit(x, [1, 5, -2], 1),
  hsplit: (x) => torch.hsplit(x, 2),
  'vsplit indices': (x) => torch.vsplit(x, [1]),
  dsplit: (z) => torch.dsplit(z, 2),
  'atleast_3d': (v) => torch.atleast3d(v),
  'column_stack': (v, x) => torch.columnStack([v.slice(0, 0, 3), x]),
  dstack: (x, v) => torch.dstack([x, v.expand([3, 4])]),
  'rot90 k1': (z) => torch.rot90(z, 1, [1, 2]),
  'rot90 k-1': (z) => torch.rot90(z, -1, [2, 0]),
  'rot90 k2': (x) => torch.rot90(x, 2),
  'take_along_dim': (x) => torch.takeAlongDim(x, ix([[0, 3], [1, 1], [2, 0]]), 1),
  'take_along_dim bcast': (z) => torch.takeAlongDim(z, ix([[[1], [0], [2]]]), 2),
  'take_along_dim none': (x) => torch.takeAlongDim(x, ix([0, 11, 5])),
  'diag vec k1': (v) => torch.diag(v, 1),
  'diag vec k-2': (w) => torch.diag(w, -2),
  'diag mat k1': (x) => torch.diag(x, 1),
  diag_embed: (x) => torch.diagEmbed(x, 1, 0, 2),
  'diag_embed default': (x) => torch.diagEmbed(x),
  diagflat: (x) => torch.diagflat(x, -1),
  logaddexp: (x, v) => torch.logaddexp(x, v),
  logaddexp2: (x, v) => torch.logaddexp2(x.mul(30), v),
  'logaddexp inf': (a, b) => torch.logaddexp(a, b),
  deg2rad: (x) => torch.deg2rad(x),
  rad2deg: (x) => torch.rad2deg(x),
  inner: (x, z) => torch.inner(x, z),
  vdot: (v) => torch.vdot(v, v.flip(0)),
  msort: (x) => torch.msort(x),
  addmv: (w, x, v) => torch.addmv(w, x, v, { beta: 0.5, alpha: 2 }),
  'addmv beta0': (w, x, v) => torch.addmv(w.mul(NaN), x, v, { beta: 0 }),
  addr: (x, w, v) => torch.addr(x, w, v, { beta: 2, alpha: -1 }),
  addbmm: (x, m, z) => torch.addbmm(x, m, z.slice(1, 0, 2), { beta: 0.5 }),
  isneginf: (x) => torch.isneginf(x),
  isposinf: (x) => torch.isposinf(x),
  signbit: (x) => torch.signbit(x),
  isreal: (x) => torch.isreal(x),
  copysign: (x, v) => torch.copysign(x, v),
  'copysign zero': (s) => torch.copysign(torch.tensor(2.0, { dtype: s.dtype, device }), s),
  heaviside: (s, v) => torch.heaviside(s.detach(), v.slice(0, 0, 1).detach()),
  float_power: (x) => torch.floatPower(x.abs(), 1.5),
  ldexp: (x) => torch.ldexp(x, ix([1, -2, 3, 0])),
  kthvalue: (t) => torch.kthvalue(t, 2, 1),
  'kthvalue dim0 keepdim': (x) => torch.kthvalue(x, 3, 0, true),
  cov: (x) => torch.cov(x),
  'cov correction0 vector': (v) => torch.cov(v, { correction: 0 }),
  'cov weights': (x) => torch.cov(x, { fweights: ix([1, 2, 1, 3]), aweights: aw }),
  corrcoef: (x) => torch.corrcoef(x),
  trapezoid: (x) => torch.trapezoid(x),
  'trapezoid dx dim0': (x) => torch.trapezoid(x, { dx: 0.5, dim: 0 }),
  'trapezoid x': (x, v) => torch.trapezoid(x, v.cumsum(0)),
  trapz: (x) => torch.trapz(x, { dim: 0 }),
  cumulative_trapezoid: (x) => torch.cumulativeTrapezoid(x, { dx: 2.0 }),
  'cumulative_trapezoid x': (z, v) => torch.cumulativeTrapezoid(z, v.exp().cumsum(0), { dim: 2 }),
  vander: (v) => torch.vander(v.detach()),
  'vander increasing N': (w) => torch.vander(w.detach(), 5, true),
  renorm: (x) => torch.renorm(x, 2, 0, 1.2),
  'renorm p1 dim1': (z) => torch.renorm(z, 1, 1, 2.0),
  index_copy: (x, m) => torch.indexCopy(x, 1, ix([3, 0]), m.select(0, 0)),
  put: (x, v) => x.put(ix([0, 11, 5]), v.slice(0, 0, 3)),
  'put accumulate': (x, v) => x.put(ix([1, 1, 7]), v.slice(0, 0, 3), true),
};
}
