/**
 * softmax and log_softmax as PyTorch builds them: `F.softmax(x, dim, dtype)` casts to
 * `dtype` first, then runs the fused kernel op `_softmax` (`_log_softmax`), whose Node
 * (SoftmaxBackward0 / LogSoftmaxBackward0) calls the fused backward op
 * `_softmax_backward_data` (`_log_softmax_backward_data`). The kernels are numerically
 * stable (the row max is subtracted before exp) and run on contiguous compute-dtype data
 * (Note [NN kernels take contiguous float32/float64 operands]).
 */
import { isFloatingType, parseDType, type DType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { normalizeDim } from '../views';
import { front, type OptionsOf } from './front';
import { callFunctional, unwrapTensor } from './call';
import { to } from './copy';
import { UNINITIALIZED, torchTypeName } from './meta-utils';
import { computeDtypeOf, contiguousAs, intoCompute } from './nn-impls';
import { defineStructured, implOf } from './registry';

/** [outer, size, inner] of `sizes` around `dim` (a 0-dim tensor is one element). */
export function splitAround(sizes: readonly number[], dim: number): [number, number, number] {
  if (sizes.length === 0) return [1, 1, 1];
  let outer = 1;
  let inner = 1;
  for (let i = 0; i < dim; i++) outer *= sizes[i];
  for (let i = dim + 1; i < sizes.length; i++) inner *= sizes[i];
  return [outer, sizes[dim], inner];
}

function softmaxForward(name: '_softmax' | '_log_softmax', log: boolean) {
  return defineStructured(`${name}(Tensor self, int dim, bool half_to_float) -> Tensor`, ([self, dim, halfToFloat], b) => {
    const s = self;
    const d = normalizeDim(name, dim, Math.max(s.dim, 1));
    const lastDim = s.dim === 0 || d === s.dim - 1;
    if (!isFloatingType(s.dtype)) {
      const kernel = `${log ? 'log_' : ''}softmax${lastDim ? '_lastdim' : ''}_kernel_impl`;
      throw new DTypeError(`${name}: "${kernel}" not implemented for '${torchTypeName(s.dtype)}'`);
    }
    if (halfToFloat === true && s.dtype !== 'float16') {
      throw new TorchError(`${name}: conversion from ${torchTypeName(s.dtype)} to Float is not supported on CPU`);
    }
    const outDtype: DType = halfToFloat === true ? 'float32' : s.dtype;
    const out = TensorImpl.empty(name, s.sizes, outDtype, s.device, UNINITIALIZED);
    if (s.numel === 0) return out;
    const compute = computeDtypeOf(s.dtype);
    const [outer, size, inner] = splitAround(s.sizes, d);
    let x: TensorImpl | null = null;
    try {
      x = contiguousAs(b, name, s, compute);
      const xx = x;
      intoCompute(b, name, out, compute, (o) => implOf(b, 'softmax', name)(o, xx, outer, size, inner, log));
    } catch (e) {
      out.release();
      throw e;
    } finally {
      x?.release();
    }
    return out;
  });
}

export const SOFTMAX = softmaxForward('_softmax', false);
export const LOG_SOFTMAX = softmaxForward('_log_softmax', true);

function softmaxBackward(name: '_softmax_backward_data' | '_log_softmax_backward_data', log: boolean) {
  return defineStructured(
    `${name}(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor`,
    ([gradOutput, output, dim, inputDtype], b) => {
      const g = gradOutput;
      const y = output;
      if (g.sizes.length !== y.sizes.length || g.sizes.some((n, i) => n !== y.sizes[i])) {
        throw new ShapeError(`${name}: grad_output ${fmtShape(g.sizes)} and output ${fmtShape(y.sizes)} must have the same shape`);
      }
      const d = normalizeDim(name, dim, Math.max(y.dim, 1));
      const outDtype = inputDtype == null ? y.dtype : parseDType(name, inputDtype);
      const out = TensorImpl.empty(name, y.sizes, outDtype, y.device, UNINITIALIZED);
      if (y.numel === 0) return out;
      const compute = computeDtypeOf(y.dtype === 'float64' || g.dtype === 'float64' ? 'float64' : y.dtype);
      const [outer, size, inner] = splitAround(y.sizes, d);
      let gc: TensorImpl | null = null;
      let yc: TensorImpl | null = null;
      try {
        gc = contiguousAs(b, name, g, compute);
        yc = contiguousAs(b, name, y, compute);
        const gg = gc;
        const yy = yc;
        intoCompute(b, name, out, compute, (o) => implOf(b, 'softmaxBackward', name)(o, gg, yy, outer, size, inner, log));
      } catch (e) {
        out.release();
        throw e;
      } finally {
        gc?.release();
        yc?.release();
      }
      return out;
    },
  );
}

export const SOFTMAX_BACKWARD_DATA = softmaxBackward('_softmax_backward_data', false);
export const LOG_SOFTMAX_BACKWARD_DATA = softmaxBackward('_log_softmax_backward_data', true);

// ---- front ends ----
/** PyTorch's legacy implicit dim (`_get_softmax_dim`): 0 for 0-, 1- and 3-dim inputs, else 1. */
function implicitDim(ndim: number): number {
  return ndim === 0 || ndim === 1 || ndim === 3 ? 0 : 1;
}

/** torch.softmax(input, dim, dtype=None) and F.softmax's keywords, bound by Note [The argument binder]. */
function runSoftmax(name: 'softmax' | 'logSoftmax', op: typeof SOFTMAX, input: Tensor, d: number | undefined, dtype: DType | undefined): Tensor {
  const impl = unwrapTensor(name, 'input', input);
  const nd = d ?? implicitDim(impl.dim);
  if (dtype == null) return callFunctional(op, [impl, nd, false]);
  const cast = to(input, parseDType(name, dtype));
  try {
    return callFunctional(op, [cast.impl, nd, false]);
  } finally {
    if (cast !== input) cast.dispose();
  }
}

const SOFTMAX_NAMESPACES = { namespaces: ['torch', 'nn.functional'] } as const;

/** `softmax(x, dim, { dtype })`: exp(x) / sum(exp(x)) along `dim` (Node SoftmaxBackward0). */
export const softmax = front('softmax(Tensor input, int? dim=None, ScalarType? dtype=None) -> Tensor', SOFTMAX_NAMESPACES).run(
  ([input, d, dtype]): Tensor => runSoftmax('softmax', SOFTMAX, input, d, dtype),
);
export type SoftmaxOptions = OptionsOf<typeof softmax>;
/** `logSoftmax(x, dim, { dtype })`: x - logsumexp(x) along `dim` (Node LogSoftmaxBackward0). */
export const logSoftmax = front('log_softmax(Tensor input, int? dim=None, ScalarType? dtype=None) -> Tensor', SOFTMAX_NAMESPACES).run(
  ([input, d, dtype]): Tensor => runSoftmax('logSoftmax', LOG_SOFTMAX, input, d, dtype),
);

/** `_softmax_backward_data` / `_log_softmax_backward_data` (the Nodes' fused backward), for the derivative table. */
export function _softmaxBackwardData(grad: Tensor, output: Tensor, dim: number, inputDtype: DType, log: boolean): Tensor {
  const op = log ? LOG_SOFTMAX_BACKWARD_DATA : SOFTMAX_BACKWARD_DATA;
  return callFunctional(op, [unwrapTensor('_softmax_backward_data', 'grad_output', grad), unwrapTensor('_softmax_backward_data', 'output', output), dim, inputDtype]);
}
