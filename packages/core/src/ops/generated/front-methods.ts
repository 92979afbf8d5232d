// Generated from the front ends core declares (front(...) in packages/core/src/ops/) by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

import { hardshrink, prelu } from '../activations-more';
import { trueDivide, floorDivide, trueDivide_, floorDivide_, square, square_, absolute, absolute_, arccos, arccos_, arcsin, arcsin_, arctan, arctan_, arccosh, arccosh_, arcsinh, arcsinh_, arctanh, arctanh_, negative, negative_, fix, fix_, arctan2, arctan2_, multiply, multiply_, divide, divide_, subtract, subtract_, greater, greater_, less, less_, greaterEqual, greaterEqual_, lessEqual, lessEqual_, notEqual, notEqual_, sgn, sgn_, positive, ravel } from '../aliases';
import { isclose, allclose, allcloseAsync, equal, equalAsync } from '../closeness';
import { angle, conj, conjPhysical, conjPhysical_, isComplex, isConj, resolveConj } from '../complex';
import { viewAsReal, viewAsComplex } from '../complex-views';
import { copy_, fill_, zero_, clone, contiguous, cpu, typeAs } from '../copy';
import { fillDiagonal_ } from '../fill-diagonal';
import { gather, scatter_, scatter, scatterAdd_, scatterAdd, scatterReduce_, scatterReduce, indexSelect, indexAdd_, indexAdd, take, indexFill_, indexFill } from '../gather-scatter';
import { bincount, bincountAsync, histc, histogram } from '../histograms';
import { indexPut_, indexPut } from '../indexing';
import { mm, bmm, mv, dot, matmul } from '../linalg';
import { addmm, baddbmm, addmm_, baddbmm_, outer, ger } from '../linalg-extra';
import { inverse, det, slogdet, logdet, matrixPower } from '../linalg-front';
import { trace, kron, cross, dist, diff } from '../linalg-misc';
import { geqrf, orgqr, qr, matrixExp } from '../linalg-qr-front';
import { svd, pinverse } from '../linalg-svd-front';
import { nanToNum, nanToNum_ } from '../logical';
import { maskedFill_, maskedFill, maskedScatter_, maskedScatter, maskedSelect, maskedSelectAsync } from '../masked';
import { logaddexp, logaddexp2, deg2rad, rad2deg, argwhere, inner, vdot, msort, aminmax, addmv, addr, addbmm, deg2rad_, rad2deg_, addmv_, addr_, addbmm_ } from '../math-numpy';
import { nansum, nanmean, logcumsumexp, nanmedian, quantile, nanquantile } from '../nan-stats';
import { newEmpty, newZeros, newOnes, newFull, newTensor } from '../new-factories';
import { clamp, clamp_, clip, clip_, isnan, isinf, isfinite } from '../pointwise-binary';
import { isneginf, isposinf, isreal, signbit, copysign, copysign_, heaviside, floatPower, ldexp, heaviside_, floatPower_, ldexp_, frexp, gcd, lcm, gcd_, lcm_ } from '../pointwise-numpy';
import { uniform_, normal_ } from '../random';
import { bernoulli_, bernoulli, multinomial } from '../random-extra';
import { exponential_, cauchy_, logNormal_, geometric_, random_ } from '../random-inplace';
import { max, min } from '../reduction';
import { variance, std, norm, countNonzero, median, mode } from '../reduction-stats';
import { repeat, tile, flip, fliplr, flipud, roll, triu, tril, triu_, tril_, repeatInterleave } from '../reorder';
import { round, round_ } from '../rounding';
import { cumsum, cumsum_, cumprod, cumprod_, cummax, cummin } from '../scan';
import { selectScatter, sliceScatter, diagonalScatter, asStridedScatter } from '../scatter-views';
import { tensorSplit, hsplit, vsplit, dsplit, rot90, takeAlongDim, diag, diagEmbed, diagflat } from '../shape-numpy';
import { reshape, flatten, unflatten, narrow, movedim, moveaxis, split, splitWithSizes, sumToSize, chunk, unbind, t, expandAs, viewAs, reshapeAs, broadcastTo } from '../shape-ops';
import { softmax, logSoftmax } from '../softmax';
import { sort, argsort, topk, unique, uniqueAsync } from '../sorting';
import { coalesce, isCoalesced, toDense, toSparse, _nnz, sparseDim, denseDim, indices, values, _indices, _values, sparseMask } from '../sparse';
import { kthvalue, cov, corrcoef, renorm, renorm_, indexCopy, indexCopy_, put, put_ } from '../stats-numpy';
import { uniqueConsecutive } from '../unique-consecutive';
import { view, asStrided, permute, transpose, swapaxes, swapdims, select, unsqueeze, squeeze, expand, unfold, diagonal, detach, t_, transpose_, swapaxes_, swapdims_, squeeze_, unsqueeze_, asStrided_ } from '../views';

/** The Tensor methods among the front ends (Note [Tensor methods come from the op table]). */
export const FRONT_METHODS = {
  hardshrink, prelu,
  trueDivide, floorDivide, trueDivide_, floorDivide_, square, square_, absolute, absolute_, arccos, arccos_, arcsin, arcsin_, arctan, arctan_, arccosh, arccosh_, arcsinh, arcsinh_, arctanh, arctanh_, negative, negative_, fix, fix_, arctan2, arctan2_, multiply, multiply_, divide, divide_, subtract, subtract_, greater, greater_, less, less_, greaterEqual, greaterEqual_, lessEqual, lessEqual_, notEqual, notEqual_, sgn, sgn_, positive, ravel,
  isclose, allclose, allcloseAsync, equal, equalAsync,
  angle, conj, conjPhysical, conjPhysical_, isComplex, isConj, resolveConj,
  viewAsReal, viewAsComplex,
  copy_, fill_, zero_, clone, contiguous, cpu, typeAs,
  fillDiagonal_,
  gather, scatter_, scatter, scatterAdd_, scatterAdd, scatterReduce_, scatterReduce, indexSelect, indexAdd_, indexAdd, take, indexFill_, indexFill,
  bincount, bincountAsync, histc, histogram,
  indexPut_, indexPut,
  mm, bmm, mv, dot, matmul,
  addmm, baddbmm, addmm_, baddbmm_, outer, ger,
  inverse, det, slogdet, logdet, matrixPower,
  trace, kron, cross, dist, diff,
  geqrf, orgqr, qr, matrixExp,
  svd, pinverse,
  nanToNum, nanToNum_,
  maskedFill_, maskedFill, maskedScatter_, maskedScatter, maskedSelect, maskedSelectAsync,
  logaddexp, logaddexp2, deg2rad, rad2deg, argwhere, inner, vdot, msort, aminmax, addmv, addr, addbmm, deg2rad_, rad2deg_, addmv_, addr_, addbmm_,
  nansum, nanmean, logcumsumexp, nanmedian, quantile, nanquantile,
  newEmpty, newZeros, newOnes, newFull, newTensor,
  clamp, clamp_, clip, clip_, isnan, isinf, isfinite,
  isneginf, isposinf, isreal, signbit, copysign, copysign_, heaviside, floatPower, ldexp, heaviside_, floatPower_, ldexp_, frexp, gcd, lcm, gcd_, lcm_,
  uniform_, normal_,
  bernoulli_, bernoulli, multinomial,
  exponential_, cauchy_, logNormal_, geometric_, random_,
  max, min,
  var: variance, std, norm, countNonzero, median, mode,
  repeat, tile, flip, fliplr, flipud, roll, triu, tril, triu_, tril_, repeatInterleave,
  round, round_,
  cumsum, cumsum_, cumprod, cumprod_, cummax, cummin,
  selectScatter, sliceScatter, diagonalScatter, asStridedScatter,
  tensorSplit, hsplit, vsplit, dsplit, rot90, takeAlongDim, diag, diagEmbed, diagflat,
  reshape, flatten, unflatten, narrow, movedim, moveaxis, split, splitWithSizes, sumToSize, chunk, unbind, t, expandAs, viewAs, reshapeAs, broadcastTo,
  softmax, logSoftmax,
  sort, argsort, topk, unique, uniqueAsync,
  coalesce, isCoalesced, toDense, toSparse, _nnz, sparseDim, denseDim, indices, values, _indices, _values, sparseMask,
  kthvalue, cov, corrcoef, renorm, renorm_, indexCopy, indexCopy_, put, put_,
  uniqueConsecutive,
  view, asStrided, permute, transpose, swapaxes, swapdims, select, unsqueeze, squeeze, expand, unfold, diagonal, detach, t_, transpose_, swapaxes_, swapdims_, squeeze_, unsqueeze_, asStrided_,
};
