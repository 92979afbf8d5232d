/**
 * The operator lists of docs/api.md ("Operators"), as data, so the coverage page can show every
 * op the contract promises, including the ones the OpInfo table does not cover yet. An op
 * here that the table lacks must be in API_GAPS with a written reason; an op in API_GAPS
 * that the table has is stale (both checked by test/ops-doc.test.ts).
 */
export const API_OPS = {
  pointwise: [
    'add', 'sub', 'mul', 'div', 'trueDivide', 'floorDivide', 'remainder', 'fmod', 'pow', 'neg', 'abs', 'sign',
    'exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sqrt', 'rsqrt', 'reciprocal', 'sin', 'cos', 'tan',
    'asin', 'acos', 'atan', 'atan2', 'sinh', 'cosh', 'tanh', 'sigmoid', 'logit', 'relu', 'relu6', 'leakyRelu',
    'elu', 'selu', 'gelu', 'silu', 'mish', 'softplus', 'hardtanh', 'hardsigmoid', 'hardswish', 'erf', 'erfc',
    'erfinv', 'floor', 'ceil', 'round', 'trunc', 'frac', 'clamp', 'clampMin', 'clampMax', 'lerp', 'addcmul',
    'addcdiv', 'where', 'maximum', 'minimum', 'fmax', 'fmin', 'hypot', 'isnan', 'isinf', 'isfinite', 'nanToNum',
    'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd', 'logicalOr', 'logicalXor', 'logicalNot', 'bitwiseAnd',
    'bitwiseOr', 'bitwiseXor', 'bitwiseNot', 'square', 'lgamma', 'digamma', 'polygamma', 'mvlgamma', 'i0', 'sinc',
    'xlogy', 'igamma', 'igammac',
  ],
  reductions: [
    'sum', 'mean', 'prod', 'amax', 'amin', 'max', 'min', 'argmax', 'argmin', 'var', 'std', 'varMean', 'stdMean',
    'logsumexp', 'norm', 'all', 'any', 'countNonzero', 'cumsum', 'cumprod', 'cummax', 'cummin', 'median', 'mode',
    'nansum', 'nanmean', 'nanmedian', 'quantile', 'nanquantile', 'logcumsumexp',
  ],
  // torch.special.x, by their OpInfo names (specialEntr is torch.special.entr; gammainc and
  // gammaincc are igamma and igammac, and the aliases are the pointwise ops they alias)
  special: [
    'specialEntr', 'specialErfcx', 'specialLogNdtr', 'specialNdtr', 'specialNdtri', 'specialI0e', 'specialI1', 'specialI1e',
    'specialXlog1py', 'specialZeta', 'specialBesselJ0', 'specialBesselJ1', 'specialBesselY0', 'specialBesselY1',
    'specialModifiedBesselI0', 'specialModifiedBesselI1', 'specialModifiedBesselK0', 'specialModifiedBesselK1',
    'specialScaledModifiedBesselK0', 'specialScaledModifiedBesselK1', 'specialSphericalBesselJ0', 'specialAiryAi',
    'specialChebyshevPolynomialT', 'specialChebyshevPolynomialU', 'specialChebyshevPolynomialV', 'specialChebyshevPolynomialW',
    'specialShiftedChebyshevPolynomialT', 'specialShiftedChebyshevPolynomialU', 'specialShiftedChebyshevPolynomialV',
    'specialShiftedChebyshevPolynomialW', 'specialHermitePolynomialH', 'specialHermitePolynomialHe', 'specialLaguerrePolynomialL',
    'specialLegendrePolynomialP',
  ],
  comparison: ['isclose', 'allclose', 'equal'],
  counting: ['bincount', 'histc', 'histogram'],
  'linear algebra': [
    'matmul', 'mm', 'bmm', 'mv', 'dot', 'outer', 'addmm', 'baddbmm', 'einsum', 'tensordot', 'inverse', 'det', 'slogdet',
    'logdet', 'matrixPower', 'svd', 'pinverse', 'geqrf', 'orgqr', 'qr', 'matrixExp',
  ],
  // torch.linalg.x, by their OpInfo names (linalgLuFactor is torch.linalg.luFactor)
  linalg: [
    'linalgLuFactor', 'linalgLuFactorEx', 'linalgLu', 'linalgLuSolve', 'linalgSolveTriangular', 'linalgCholesky',
    'linalgCholeskyEx', 'linalgInv', 'linalgInvEx', 'linalgDet', 'linalgSlogdet', 'linalgSolve', 'linalgSolveEx',
    'linalgMatrixPower', 'linalgMultiDot', 'linalgVectorNorm', 'linalgMatrixNorm', 'linalgVecdot', 'linalgCross',
    'linalgSvd', 'linalgSvdvals', 'linalgPinv', 'linalgMatrixRank', 'linalgCond', 'linalgNorm',
    'linalgQr', 'linalgHouseholderProduct', 'linalgEigh', 'linalgEigvalsh', 'linalgLstsq', 'linalgMatrixExp',
  ],
  'nn.functional': [
    'linear', 'conv1d', 'conv2d', 'convTranspose2d', 'maxPool2d', 'avgPool2d', 'adaptiveAvgPool2d', 'softmax',
    'logSoftmax', 'dropout', 'batchNorm', 'layerNorm', 'groupNorm', 'embedding', 'crossEntropy', 'nllLoss',
    'mseLoss', 'l1Loss', 'binaryCrossEntropy', 'binaryCrossEntropyWithLogits', 'oneHot', 'pad', 'interpolate',
  ],
  'shape and data movement': [
    'cat', 'stack', 'hstack', 'vstack', 'split', 'chunk', 'gather', 'scatter', 'scatterAdd', 'scatterReduce',
    'indexSelect', 'indexAdd', 'maskedFill', 'maskedSelect', 'maskedScatter', 'take', 'nonzero', 'repeat',
    'repeatInterleave', 'tile', 'flip', 'roll', 'triu', 'tril', 'sort', 'argsort', 'topk', 'unique',
    'searchsorted', 'bucketize', 'clone',
  ],
} as const satisfies Readonly<Record<string, readonly string[]>>;

export type ApiOp = (typeof API_OPS)[keyof typeof API_OPS][number];

const VIEW_OP = 'a view op: tested with the view goldens (goldens/views.json), not the OpInfo table';

/** API ops without an OpInfo entry, and why. Empty once issue 4 is done. */
export const API_GAPS: Readonly<Partial<Record<ApiOp, string>>> = {
  split: VIEW_OP,
  chunk: VIEW_OP,
  allclose: 'a JS boolean, not a tensor: tested against 1.13 goldens by packages/torch/test/closeness.test.ts (CPU) and closeness-webgpu.test.ts (allcloseAsync); isclose, which it reduces, is in the table',
  equal: 'a JS boolean, not a tensor: tested against 1.13 goldens by packages/torch/test/closeness.test.ts (CPU) and closeness-webgpu.test.ts (equalAsync)',
  clone: 'a copy op: tested by the copy unit tests (kernels-cpu copy.test.ts, every dtype pair) and CloneBackward0 in autograd, not the OpInfo table',
};
