/**
 * Note [OpInfo gradcheck]
 * gradcheck (float64) for every op of the OpInfo table, driven by the table itself: each
 * float64 golden case that PyTorch computes without error gives a sample with the case's
 * shapes, scalars and kwargs (broadcasting, 0-dim, empty, keepdim, negative dims...), but
 * with fresh random float64 values in the op's domain. The golden values are edge cases
 * (inf, nan, signed zeros, ties) chosen for the forward checks; at those points a
 * derivative is undefined or a central difference straddles a kink, so they are not used.
 * Inputs that are not float64 do not require grad: a bool condition keeps its golden
 * values, an integer operand (of a promote case) gets small random integers, since its
 * golden values are the dtype's extremes (2147483647 + x leaves a float64 x too few bits
 * for a central difference). Each sample runs contiguous and strided
 * (every other element of a bigger tensor), through the function form and, where PyTorch
 * allows it for the case, the in-place form.
 * complex128 cases (Note [Complex OpInfo]) are checked through real leaves: each complex input
 * is a float64 leaf of shape [...shape, 2] (re, im drawn from the domain) viewed as complex,
 * and each complex result is viewed as real. gradcheck then compares the whole real Jacobian
 * of (re, im) -> (re, im), and the gradient that reaches a leaf is (dL/dx, dL/dy), which is
 * the conjugate Wirtinger gradient times two that Note [Complex gradients] in core defines.
 * Complex in-place forms are not checked yet (COMPLEX_INPLACE).
 * Which checks compare whole Jacobians: the function form on contiguous inputs does, for
 * every sample; the strided layout, the in-place form and gradgradcheck use gradcheck's
 * fastMode (random projections vᵀ J u, Note [gradcheck]), as PyTorch's own test suite runs
 * gradcheck in fast mode, since whole Jacobians there cost two evaluations per input element
 * and were most of the suite's CPU time. TORCH_TS_SLOW_GRADCHECK=1 runs them all in full (as
 * PYTORCH_TEST_WITH_SLOW_GRADCHECK does), to see the entries when a fast check fails.
 */
import {
  ACTIVATION_TABLE,
  ACTIVATION_TABLE_NAMES,
  BINARY_TABLE,
  BINARY_TABLE_NAMES,
  REDUCTION_TABLE,
  UNARY_TABLE,
  UNARY_TABLE_NAMES,
  type ActivationRow,
  type BinaryRow,
  type ReductionRow,
  type UnaryRow,
} from '@torch-ts/core';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { caseId, decodeScalar, decodeValues, isComplexType, isScalarInput, type GoldenCase, type GoldenTensor } from '../goldens';
import { inplaceForm } from '../op-forms';
import { tensorArg } from './common';
import type { Kwargs, OpInfo, OpInput, OpResult } from './types';

/** The op table's rows without a gradient, with the reason each declares (Note [The op table] in core). */
const TABLE_EXCLUDED: Readonly<Record<string, string>> = Object.fromEntries(
  [...Object.entries(UNARY_TABLE), ...Object.entries(BINARY_TABLE), ...Object.entries(REDUCTION_TABLE), ...Object.entries(ACTIVATION_TABLE)].flatMap(([name, row]: [string, UnaryRow | BinaryRow | ReductionRow | ActivationRow]) =>
    'notDifferentiable' in row.derivative ? [[name, row.derivative.notDifferentiable]] : [],
  ),
);
// (a row's number-self overload, `name.Scalar`, is an OpInfo entry of its own, as differentiable as the row)
const SCALAR_SELF_EXCLUDED: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(BINARY_TABLE).flatMap(([name, row]: [string, BinaryRow]) =>
    row.scalarSelf && 'notDifferentiable' in row.derivative ? [[`${name}.Scalar`, row.derivative.notDifferentiable]] : [],
  ),
);

/**
 * Why complex in-place forms are left out: a complex kernel's result is view_as_complex of a
 * real temporary (core's complex.ts fromPairs), and an in-place complex kernel writes through
 * view_as_real of `self`, another view of that temporary. Autograd rebases the base and the
 * view written to (CopySlices), but does not refresh the history of `self`, a third view of
 * the base (PyTorch regenerates a view's grad_fn when its base's version moves), so the
 * gradient through `self` is the stale one. The values are right (the forward checks).
 */
export const COMPLEX_INPLACE =
  "complex in-place writes go through view_as_real of self, itself a view (view_as_complex of a real temporary); torch-ts's autograd does not regenerate a view's stale history when another view of its base is written (PyTorch's view grad_fn regeneration), so the gradient through self is wrong";

/** Ops of the table without a gradient, and why (the suite checks each is still in the table). */
export const GRADCHECK_EXCLUDED: Readonly<Record<string, string>> = {
  ...TABLE_EXCLUDED,
  ...SCALAR_SELF_EXCLUDED,
  nonzero: 'returns int64 positions, which have no gradient',
  isnan: 'a bool result has no gradient',
  isinf: 'a bool result has no gradient',
  isfinite: 'a bool result has no gradient',
  isclose: 'a bool result has no gradient',
  argsort: 'returns int64 indices, which have no gradient',
  unique: 'PyTorch has no derivative for unique (_unique2 / unique_dim backward is not implemented)',
  searchsorted: 'returns integer indices, which have no gradient',
  bucketize: 'returns integer indices, which have no gradient',
  oneHot: 'an int64 result has no gradient',
  multinomial: 'returns int64 indices, which have no gradient',
  bernoulli: 'random 0/1 samples: the derivative is zero almost everywhere and the sampler jumps',
  batchNorm: 'its running stats are buffers without a derivative (as in PyTorch) that gradcheck would perturb, and the OpInfo call returns them updated; test/nn-gradcheck.test.ts checks batchNorm with constant running stats',
  countNonzero: 'an int64 count has no gradient',
  bincount: 'PyTorch has no derivative for bincount (its Node is NotImplemented): counts of bins',
  histc: 'PyTorch has no derivative for histc: counts of bins',
  histogram: 'PyTorch has no derivative for histogram (its Node is NotImplemented): counts of bins',
  igamma: "PyTorch's derivative for igamma's input is not implemented (an error at backward), and gradcheck makes every float64 input require grad; other's is checked with input constant in test/special.test.ts",
  igammac: "PyTorch's derivative for igammac's input is not implemented (an error at backward), and gradcheck makes every float64 input require grad; other's is checked with input constant in test/special.test.ts",
  specialZeta: "PyTorch's derivative for zeta's x is not implemented (an error at backward), and gradcheck makes every float64 input require grad; q's is checked with x constant in test/special.test.ts",
  linalgCholesky: 'needs symmetric positive-definite inputs, which random draws are not: test/linalg.test.ts gradchecks it on A A^T + n I',
  linalgCholeskyEx: 'needs symmetric positive-definite inputs, which random draws are not: test/linalg.test.ts gradchecks it on A A^T + n I',
  linalgMatrixRank: 'an int64 count has no gradient',
  geqrf: "PyTorch's derivative for geqrf is not implemented (an error at backward, as torch-ts's)",
  linalgEigh: 'reads one triangle of a symmetric input, which random draws are not (the formula is the symmetric one): test/linalg-qr.test.ts gradchecks it on A + A^T with distinct eigenvalues',
  linalgEigvalsh: 'reads one triangle of a symmetric input, which random draws are not (the formula is the symmetric one): test/linalg-qr.test.ts gradchecks it on A + A^T',
};

/**
 * Golden samples (`op/sample`) whose gradient gradcheck cannot check, and why: a NaN Scalar
 * bound of clamp is ignored (or fills NaN), so the output follows `self` while PyTorch's
 * formula, `self >= min`, is false at NaN and gives 0.
 */
const CLAMP_NAN = "a NaN Scalar bound: PyTorch's clamp_backward gives 0 where the forward ignores the bound";
/** nll_loss (and cross_entropy with class indices) has no derivative for `weight` in PyTorch; gradcheck would perturb it. */
const NLL_WEIGHT = "PyTorch's nll_loss has no derivative for weight, which gradcheck makes require grad (checked with constant weights in test/nn-gradcheck.test.ts)";
/** Nor have binary_cross_entropy's weight and binary_cross_entropy_with_logits's weight and pos_weight. */
const BCE_WEIGHT = "PyTorch's binary_cross_entropy(_with_logits) has no derivative for weight / pos_weight, which gradcheck makes require grad";
/** torch.linalg.svd's full_matrices (the default) on a rectangular A. */
const SVD_FULL = "the columns of a full U (rows of Vh) past min(m, n) are any orthonormal completion, on which PyTorch's derivative does not depend (derivatives.yaml narrows them away): finite differences through them cannot match; test/linalg-svd.test.ts gradchecks the first k of them";
/**
 * A tolerance (rcond, atol, rtol) that cuts a nonzero singular value: the forward is a truncated
 * pseudo-inverse, while pinv's derivative is PyTorch's pinv_backward (core's Note [pinv
 * differentiates itself]), that of the pseudo-inverse at constant rank. PyTorch 1.13's gradcheck
 * of these samples fails too (checked with /usr/bin/python3); test/linalg-pinv-grad.test.ts
 * compares PyTorch's gradient for a cut singular value instead.
 */
const PINV_CUT = 'a tolerance cuts a nonzero singular value: pinv_backward (PyTorch\'s) is the constant-rank derivative, not the truncated forward\'s; 1.13\'s gradcheck fails here too';
/** pinv with hermitian=True reads one triangle, as PyTorch's. */
const PINV_HERMITIAN =
  "hermitian=True reads one triangle (through eigh, core's Note [Hermitian inputs through eigh]) while pinv's derivative, PyTorch's pinv_backward (core's Note [pinv differentiates itself]), is that of pinv of the whole matrix: random draws are not symmetric; test/linalg-pinv-grad.test.ts gradchecks it on A + A^T and compares PyTorch's gradients";
export const GRADCHECK_EXCLUDED_SAMPLES: Readonly<Record<string, string>> = {
  'scatter/reduce-add': "scatter with reduce= has no derivative in PyTorch (its Node is NotImplemented); scatterReduce has one",
  'scatter/reduce-multiply': "scatter with reduce= has no derivative in PyTorch (its Node is NotImplemented); scatterReduce has one",
  // (their gradients, 0 at a zero base where the exponent is >= 0, are checked against PyTorch's
  // in autograd's test/goldens/grads.json)
  'pow.Scalar/scalar-base-zero': '0 ** e jumps from inf to 1 to 0 at e = 0 and is 0 above: finite differences across it are meaningless',
  'pow.Scalar/scalar-base-negative': 'a negative base to a real exponent is nan: there is no derivative to check',
  'maskedFill/c-scalar': COMPLEX_INPLACE,
  'indexPut/c-set': COMPLEX_INPLACE,
  'pow/c-zero-base': 'a zero complex base: z ** w is exp(w log z) with log 0 = -inf, not differentiable there (PyTorch gives nan gradients too)',
  'clamp/scalar-nan': CLAMP_NAN,
  'clip/scalar-nan': CLAMP_NAN,
  'clamp.min/scalar-nan': CLAMP_NAN,
  'clamp.max/scalar-nan': CLAMP_NAN,
  'clampMin/scalar-nan': CLAMP_NAN,
  'clampMax/scalar-nan': CLAMP_NAN,
  'nllLoss/weight': NLL_WEIGHT,
  'nllLoss/sum': NLL_WEIGHT,
  'nllLoss/none': NLL_WEIGHT,
  'nllLoss/ignore': NLL_WEIGHT,
  'nllLoss/kdim3': NLL_WEIGHT,
  'crossEntropy/weight': NLL_WEIGHT,
  'crossEntropy/none': NLL_WEIGHT,
  'crossEntropy/ignore': NLL_WEIGHT,
  'crossEntropy/smoothing-weight': NLL_WEIGHT,
  'binaryCrossEntropy/weight': BCE_WEIGHT,
  'binaryCrossEntropyWithLogits/weight': BCE_WEIGHT,
  'binaryCrossEntropyWithLogits/pos-weight': BCE_WEIGHT,
  'binaryCrossEntropyWithLogits/pos-weight-only': BCE_WEIGHT,
  'var/correction-big': 'N - correction is 0: the result is inf and its gradient (2 / 0) too, as in PyTorch',
  'std/correction-big': 'N - correction is 0: the result is inf and its gradient (2 / 0) too, as in PyTorch',
  'var/single': 'one element with correction 1: the result is nan, as in PyTorch',
  'std/single': 'one element with correction 1: the result is nan, as in PyTorch',
  'var/0dim': 'one element with correction 1: the result is nan, as in PyTorch',
  'std/0dim': 'one element with correction 1: the result is nan, as in PyTorch',
  'varMean/0dim': 'one element with correction 1: the var is nan, as in PyTorch',
  'stdMean/0dim': 'one element with correction 1: the std is nan, as in PyTorch',
  'xlogy/scalar-negative-int': 'log of a negative number: nan, with no derivative to check',
  'specialXlog1py/scalar-negative-int': 'log1p(-2): nan, with no derivative to check',
  'specialZeta.Scalar/scalar-zero': 'zeta(0, q) is nan (x < 1): no derivative to check',
  'linalgLstsq/gelss-rcond-big':
    "rcond 2 keeps no singular value: the solution is 0 near A, but 1.13's derivative (linalg_lstsq_backward) is pinv(A)'s at pinv's default tolerances, whatever rcond and the driver, as torch-ts's",
  'linalgPinv/hermitian': PINV_HERMITIAN,
  'linalgPinv/hermitian-lower': PINV_HERMITIAN,
  'pinverse/rcond': PINV_CUT,
  'linalgPinv/rcond': PINV_CUT,
  'linalgPinv/atol': PINV_CUT,
  'linalgPinv/rtol': PINV_CUT,
  'linalgPinv/atol-rtol': PINV_CUT,
  'linalgSvd/full-tall': SVD_FULL,
  'linalgSvd/full-wide': SVD_FULL,
  'linalgSvd/batched': SVD_FULL,
  'svd/full': SVD_FULL,
  'linalgCond/empty': "cond of empty matrices is a new zeros tensor, as PyTorch's (_linalg_cond_empty_matrix): not a function of A, so there is nothing to differentiate",
  'linalgCond/batch0-one': "cond of empty matrices is a new zeros tensor, as PyTorch's (_linalg_cond_empty_matrix): not a function of A, so there is nothing to differentiate",
  ...Object.fromEntries(
    ['3x3-r', 'tall-r', 'wide-r', 'batched-r', '1x1-r', 'empty-r', 'rows0-r', 'cols0-r', 'batch0-r'].map((s) => [`linalgQr/${s}`, "mode='r' computes no Q, on which the derivative depends: PyTorch's backward raises, as torch-ts's (test/linalg-qr.test.ts)"]),
  ),
  ...Object.fromEntries(
    ['tall-complete', 'batched-complete', 'cols0-complete'].map((s) => [`linalgQr/${s}`, "mode='complete' with more rows than columns is not differentiable: PyTorch's backward raises, as torch-ts's"]),
  ),
  'qr/tall': "some=False with more rows than columns (mode='complete') is not differentiable: PyTorch's backward raises, as torch-ts's",
};

/**
 * Where random values are drawn: any in [-2, 2]; pos in [0.5, 2.5]; nonzero in ±[0.5, 2.5];
 * unit in [-0.9, 0.9] (asin, acos, erfinv are nan outside (-1, 1); tan has poles at ±pi/2).
 * prob in [0.15, 0.85] (logit is nan outside (0, 1); logit's eps 0.1 clamps below 0.1);
 * above1 in [1.25, 3.25] (acosh). The op table's rows declare theirs (`domain`, Note [The op
 * table] in core); GRADCHECK_DOMAINS names the other ops'.
 * The piecewise-constant ops (floor, ceil, rounding divisions, remainder) jump only at
 * values that random doubles come within eps of with negligible probability.
 */
/**
 * golden: an integer input (an index tensor) keeps its golden values; on a float64 input it means 'any'.
 * posdet: (batches of) square matrices, 'any' values with 2n added to the diagonal: strictly
 * diagonally dominant with a positive diagonal, so by Gershgorin their eigenvalues have
 * positive real parts and the determinant is positive (logdet is NaN for a negative one).
 */
export type Domain = 'any' | 'pos' | 'nonzero' | 'unit' | 'prob' | 'above1' | 'golden' | 'posdet';

/** The domain of each tensor operand of an op (by position among its inputs), where 'any' will not do. */
export const GRADCHECK_DOMAINS: Readonly<Record<string, readonly Domain[]>> = {
  // index tensors keep their golden values (random integers would be out of range or change the case)
  index: ['any', 'golden', 'golden'],
  indexPut: ['any', 'golden', 'golden', 'golden'],
  gather: ['any', 'golden'],
  scatter: ['any', 'golden', 'any'],
  scatterAdd: ['any', 'golden', 'any'],
  scatterReduce: ['any', 'golden', 'any'],
  indexSelect: ['any', 'golden'],
  indexAdd: ['any', 'golden', 'any'],
  take: ['any', 'golden'],
  indexFill: ['any', 'golden'],
  'div.trunc': ['any', 'nonzero'],
  'div.numberSelf': ['any', 'nonzero'], // (the number self, then the divisor)
  'div.floor': ['any', 'nonzero'],
  trueDivide: ['any', 'nonzero'],
  floorDivide: ['any', 'nonzero'],
  selu: ['nonzero'], // kinks at 0
  relu6: ['nonzero'],
  // class-index targets: 'unit' makes every integer target 0, a valid class (test/nn-gradcheck.test.ts uses real targets)
  nllLoss: ['any', 'unit', 'pos'],
  crossEntropy: ['any', 'unit', 'pos'],
  embedding: ['unit', 'any'],
  binaryCrossEntropy: ['prob', 'prob', 'pos'], // log(x) and log(1 - x) need x in (0, 1)
  binaryCrossEntropyWithLogits: ['any', 'prob', 'pos', 'pos'],
  norm: ['nonzero'], // |x| has a kink at 0 (the 1-norm, p < 1)
  repeatInterleave: ['any', 'golden'], // the tensor of repeats keeps its golden counts
  quantile: ['any', 'prob'], // q in [0, 1]
  'xlogy.Scalar': ['any', 'pos'], // (the number self, then the operand of log)
  'specialXlog1py.Scalar': ['any', 'pos'],
  'specialZeta.Scalar': ['any', 'pos'],
  nanquantile: ['any', 'prob'],
  logdet: ['posdet'],
  linalgLuSolve: ['posdet', 'golden', 'any'], // (an LU factor with a dominant U diagonal, its golden pivots, B)
};

export type GradcheckForm = 'function' | 'inplace';

/** Complex samples whose point is their golden values (special points), not their shapes. */
const COMPLEX_VALUE_ONLY_SAMPLES: ReadonlySet<string> = new Set(['c-edges', 'c-nonfinite']);
export type GradcheckLayout = 'contiguous' | 'strided';

export interface GradcheckSample {
  readonly op: OpInfo;
  readonly caseId: string;
  /** A complex128 case, checked through real leaves (Note [OpInfo gradcheck]). */
  readonly complex: boolean;
  readonly form: GradcheckForm;
  readonly layout: GradcheckLayout;
  /** Fresh inputs (float64 ones require grad) and the op over them, for `gradcheck(fn, inputs)`. */
  make(): {
    readonly inputs: Tensor[];
    readonly fn: (...tensors: Tensor[]) => Tensor | readonly Tensor[];
    /** The op's async function form (OpForms.async), for devices that read asynchronously only. */
    readonly fnAsync?: (...tensors: Tensor[]) => Promise<Tensor | readonly Tensor[]>;
  };
}

/** The gradcheck samples of `table` (Note [OpInfo gradcheck]). */
export function gradcheckSamples(table: readonly OpInfo[], goldens: ReadonlyMap<string, readonly GoldenCase[]>): GradcheckSample[] {
  const samples: GradcheckSample[] = [];
  for (const op of table) {
    if (op.name in GRADCHECK_EXCLUDED) continue;
    for (const c of goldens.get(op.name) ?? []) {
      if ((c.dtype !== 'float64' && c.dtype !== 'complex128') || c.error || `${op.name}/${c.sample}` in GRADCHECK_EXCLUDED_SAMPLES) continue;
      // (a complex sample's values are drawn afresh, so the edge samples would only repeat c-random's 1-D shapes)
      if (c.dtype === 'complex128' && COMPLEX_VALUE_ONLY_SAMPLES.has(c.sample)) continue;
      // (complex in-place forms: Note [OpInfo gradcheck], COMPLEX_INPLACE)
      const forms: GradcheckForm[] = op.variants.inplace && c.inplace === 'ok' && c.dtype !== 'complex128' ? ['function', 'inplace'] : ['function'];
      for (const form of forms) {
        for (const layout of ['contiguous', 'strided'] as const) {
          const id = caseId(c);
          const label = c.dtype === 'complex128' ? `${id} complex128` : id;
          samples.push({ op, caseId: label, complex: c.dtype === 'complex128', form, layout, make: () => makeSample(op, c, form, layout, `${op.name}/${label}/${form}/${layout}`) });
        }
      }
    }
  }
  return samples;
}

/** The domains an op-table row declares (Note [The op table] in core). */
function tableDomains(name: string): readonly (Domain | undefined)[] {
  const unary = UNARY_TABLE_NAMES.find((n) => n === name);
  if (unary !== undefined) {
    const row: UnaryRow = UNARY_TABLE[unary];
    return row.domain ? [row.domain] : [];
  }
  const activation = ACTIVATION_TABLE_NAMES.find((n) => n === name);
  if (activation !== undefined) {
    const row: ActivationRow = ACTIVATION_TABLE[activation];
    return row.domain ? [row.domain] : [];
  }
  const binary = BINARY_TABLE_NAMES.find((n) => n === name);
  if (binary === undefined) return [];
  const row: BinaryRow = BINARY_TABLE[binary];
  return row.domain ?? [];
}

function makeSample(op: OpInfo, c: GoldenCase, form: GradcheckForm, layout: GradcheckLayout, seed: string) {
  const random = seeded(seed);
  const domains = GRADCHECK_DOMAINS[op.name] ?? tableDomains(op.name);
  // complex inputs: real leaves [...shape, 2], viewed as complex inside fn
  const complexAt = new Set<number>();
  const all: OpInput[] = c.inputs.map((x, i) => {
    if (isScalarInput(x)) return decodeScalar(x);
    if (isComplexType(x.dtype)) {
      complexAt.add(i);
      return randomPairsLeaf(x.shape, domains[i] ?? 'any', layout, random);
    }
    if (x.dtype === 'bool' || (domains[i] === 'golden' && x.dtype !== 'float64')) return goldenTensor(x);
    if (x.dtype !== 'float64') return randomIntegers(x, domains[i] ?? 'any', random);
    return randomLeaf(x.shape, domains[i] ?? 'any', layout, random);
  });
  const inputs = all.filter((x): x is Tensor => x instanceof torch.Tensor);
  const kwargs: Kwargs = c.kwargs;
  const call = (tensors: readonly Tensor[]): readonly OpInput[] => {
    let k = 0;
    return all.map((x, i) => (x instanceof torch.Tensor ? (complexAt.has(i) ? torch.viewAsComplex(tensors[k++]) : tensors[k++]) : x));
  };
  const fn =
    form === 'function'
      ? (...tensors: Tensor[]): OpResult => asReal(op.call(call(tensors), kwargs))
      : (...tensors: Tensor[]): OpResult => {
          // In place into a non-leaf copy: a leaf that requires grad may not be written.
          const [self, ...rest] = call(tensors);
          return asReal(inplaceForm(op)([torch.mul(tensorArg(self, op.name), 1), ...rest], kwargs));
        };
  const asyncForm = op.forms?.async;
  const fnAsync = form === 'function' && asyncForm ? async (...tensors: Tensor[]) => asReal(await asyncForm(call(tensors), kwargs)) : undefined;
  return { inputs, fn, fnAsync };
}

/** A result with its complex tensors viewed as real (gradcheck compares real Jacobians). */
function asReal(r: OpResult): OpResult {
  const one = (t: Tensor) => (isComplexType(t.dtype) ? torch.viewAsReal(t) : t);
  return r instanceof torch.Tensor ? one(r) : r.map(one);
}

/** The parts of a complex128 input: a float64 leaf [...shape, 2]; strided, every other pair of a [..., 2, 2] tensor (last stride 1, as viewAsComplex needs). */
function randomPairsLeaf(shape: readonly number[], domain: Domain, layout: GradcheckLayout, random: () => number): Tensor {
  const n = shape.reduce((a, b) => a * b, 1) * 2 * (layout === 'strided' ? 2 : 1);
  const flat = torch.tensor(Float64Array.from({ length: n }, () => draw(domain === 'posdet' ? 'any' : domain, random)));
  const base = flat.reshape(layout === 'strided' ? [...shape, 2, 2] : [...shape, 2]);
  const window = layout === 'strided' ? base.select(-2, 0) : base;
  const leaf = window.detach();
  for (const t of new Set([flat, base, window])) t.dispose();
  return leaf.requiresGrad_(true);
}

function goldenTensor(g: GoldenTensor): Tensor {
  const flat = torch.tensor(decodeValues(g), { dtype: g.dtype });
  const shaped = flat.reshape([...g.shape]);
  if (shaped !== flat) flat.dispose();
  return shaped;
}

/** Integers in [-3, 3] ('any'), [1, 3] ('pos'), ±[1, 3] ('nonzero'), [2, 4] ('above1') or 0 ('unit'). */
function randomIntegers(g: GoldenTensor, domain: Domain, random: () => number): Tensor {
  const draw = () => {
    if (domain === 'any') return Math.floor(random() * 7) - 3;
    if (domain === 'unit') return 0; // the only integer inside (-1, 1)
    if (domain === 'above1') return 2 + Math.floor(random() * 3);
    const mag = 1 + Math.floor(random() * 3);
    return domain === 'pos' || random() < 0.5 ? mag : -mag;
  };
  const values = Array.from({ length: g.shape.reduce((a, b) => a * b, 1) }, draw);
  const flat = torch.tensor(values, { dtype: g.dtype });
  const shaped = flat.reshape([...g.shape]);
  if (shaped !== flat) flat.dispose();
  return shaped;
}

/** A float64 leaf that requires grad; strided: every other element of a [..., 2] tensor. */
function randomLeaf(shape: readonly number[], domain: Domain, layout: GradcheckLayout, random: () => number): Tensor {
  const n = shape.reduce((a, b) => a * b, 1) * (layout === 'strided' ? 2 : 1);
  const values = Float64Array.from({ length: n }, () => draw(domain, random));
  if (domain === 'posdet') {
    const m = shape[shape.length - 1];
    const step = layout === 'strided' ? 2 : 1;
    for (let e = 0; e * step < n; e++) if (Math.floor(e / m) % m === e % m) values[e * step] += 2 * m;
  }
  const flat = torch.tensor(values);
  const base = flat.reshape(layout === 'strided' ? [...shape, 2] : [...shape]);
  const window = layout === 'strided' ? base.select(-1, 0) : base;
  const leaf = window.detach();
  for (const t of new Set([flat, base, window])) t.dispose();
  return leaf.requiresGrad_(true);
}

function draw(domain: Domain, random: () => number): number {
  const u = random();
  if (domain === 'any' || domain === 'posdet') return u * 4 - 2;
  if (domain === 'unit') return u * 1.8 - 0.9;
  if (domain === 'prob') return u * 0.7 + 0.15;
  if (domain === 'above1') return u * 2 + 1.25;
  const mag = u * 2 + 0.5;
  return domain === 'pos' || random() < 0.5 ? mag : -mag;
}

/**
 * mulberry32, seeded from a string (and a start value, so two streams from one text differ):
 * the same sample gets the same values on every run and device.
 */
export function seeded(text: string, start = 0): () => number {
  let s = start;
  for (const ch of text) s = (Math.imul(s, 31) + ch.charCodeAt(0)) >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
