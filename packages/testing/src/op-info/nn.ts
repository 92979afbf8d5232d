import * as torch from '@torch-ts/torch';
import { DTypeError, ShapeError, TorchError, type DType, type Tensor } from '@torch-ts/torch';
import { ALL_DTYPES, FLOAT_ACC_2X, FLOAT_DTYPES, HALF_2X, NO_BOOL, t, tensorArg } from './common';
import { bool, dtype, ints, num, oneOf, options, required } from './kwargs';
import type { ErrorInput, Kwargs, OpInfo, OpInput } from './types';
import { bernoulliCheck, dropoutCheck, multinomialCheck } from './random-checks';
import { untyped } from './untyped';

const F = torch.nn.functional;

/**
 * The NN functional ops (goldens/ops_nn.json, written by scripts/goldens/ops_nn.py). Tensor
 * arguments PyTorch takes by keyword (weight, bias, pos_weight, running stats) travel as
 * extra golden inputs, in the order the script lists them; the goldens' kwargs are the
 * options object as is, except `seed` (random ops: `manualSeed(seed)` first) and
 * `hasWeight` (bce-with-logits: whether input 2 is the weight).
 */

const opt = (i: readonly OpInput[], k: number): Tensor | null => {
  const x = i[k];
  return x instanceof torch.Tensor ? x : null;
};
const x0 = (i: readonly OpInput[], op: string) => tensorArg(i[0], op);
const x1 = (i: readonly OpInput[], op: string) => tensorArg(i[1], op);

/** The options without `seed`, after `manualSeed(seed)` where the case sets one. */
function seeded<O extends { readonly seed?: number }>(o: O): Omit<O, 'seed'> {
  const { seed, ...rest } = o;
  if (seed !== undefined) torch.manualSeed(seed);
  return rest;
}

const reduction = oneOf('none', 'mean', 'sum');
const SOFTMAX_KW = options({ dim: num, dtype });
const LOSS_KW = options({ reduction });
const SMOOTH_L1_KW = options({ reduction, beta: num });
const NLL_KW = options({ reduction, ignoreIndex: num });
const CROSS_ENTROPY_KW = options({ reduction, ignoreIndex: num, labelSmoothing: num });
const BCE_WITH_LOGITS_KW = options({ reduction, hasWeight: bool });
const BATCH_NORM_KW = options({ training: bool, momentum: num, eps: num });
const LAYER_NORM_KW = options({ normalizedShape: required(ints), eps: num });
const GROUP_NORM_KW = options({ numGroups: required(num), eps: num });
const EMBEDDING_KW = options({ paddingIdx: num });
const ONE_HOT_KW = options({ numClasses: num });
const DROPOUT_KW = options({ seed: num, p: num, training: bool });
const BERNOULLI_KW = options({ seed: num, p: num });
const MULTINOMIAL_KW = options({ seed: num, numSamples: required(num), replacement: bool });

/** `position`: ops bound by core's binder name the position of a positional argument, as PyTorch's parser does. */
const notTensor = (op: string, fn: () => unknown, position?: number): ErrorInput => ({
  name: 'a JS array instead of a tensor',
  make: fn,
  error: TorchError,
  match: new RegExp(`${op}\\(\\): argument '\\w+'${position === undefined ? '' : ` \\(position ${position}\\)`} must be Tensor, not Array`),
});

const HALF_UPCAST = (kernel: string) => ({ float16: HALF_2X(kernel) });
/** Half and BFloat16 computed in float32 opmath and rounded once, as 2.x does (where 1.13 lacks the kernel or rounds in between). */
const OPMATH_2X = (kernel: string): Partial<Record<DType, string>> => ({
  float16: `${HALF_2X(kernel)}; 2.x computes it in float32 and rounds once`,
  bfloat16: FLOAT_ACC_2X(`${kernel}'s intermediate results`),
});
const LOSS_TOL = { float16: { rtol: 2e-3, atol: 1e-3 }, bfloat16: { rtol: 2e-2, atol: 1e-2 } };

function softmaxInfo(name: 'softmax' | 'logSoftmax', fn: typeof F.softmax, kernel: string): OpInfo {
  return {
    name,
    errorNames: [name, name === 'softmax' ? 'softmax' : 'log_softmax', '_softmax', '_log_softmax'],
    call: (i, k) => fn(x0(i, name), SOFTMAX_KW(k)),
    variants: { method: true },
    dtypes: FLOAT_DTYPES,
    samples: ['random', 'dim0', 'inner', '0dim', 'empty', 'large', 'edge', 'implicit', 'dtype'],
    errorInputs: [
      notTensor(name === 'softmax' ? 'softmax' : 'log_softmax', () => untyped(fn)([1, 2], 0), 1),
      {
        name: 'a dim out of range',
        make: (d) => fn(t(d, [[1.5, 2.5]], 'float32'), 2),
        error: torch.IndexError,
        match: /Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)/,
      },
    ],
    pytorch2x: OPMATH_2X(kernel),
  };
}

function pairLoss<O>(name: string, aten: string, fn: (a: Tensor, b: Tensor, o?: NoInfer<O>) => Tensor, read: (k: Kwargs) => O, samples: string[]): OpInfo {
  return {
    name,
    errorNames: [aten, 'sub', 'mean'],
    call: (i, k) => fn(x0(i, name), x1(i, name), read(k)),
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples,
    tolerance: LOSS_TOL,
    errorInputs: [
      notTensor(aten, () => untyped(fn)([1, 2], [1, 2]), 1),
      {
        name: 'shapes that do not broadcast',
        make: (d) => fn(torch.ones([3], { device: d }), torch.ones([2], { device: d })),
        error: ShapeError,
        match: /The size of tensor a \(3\) must match the size of tensor b \(2\) at non-singleton dimension 0/,
      },
    ],
    pytorch2x: OPMATH_2X(aten),
  };
}

const BN_ERRORS = ['batch_norm', 'native_batch_norm', 'batchNorm'];

export const NN_OPS: readonly OpInfo[] = [
  softmaxInfo('softmax', F.softmax, 'softmax_lastdim_kernel_impl'),
  softmaxInfo('logSoftmax', F.logSoftmax, 'log_softmax_lastdim_kernel_impl'),
  {
    name: 'linear',
    errorNames: ['linear', 'addmm', 'matmul', 'mm', 'mv', 'add'],
    call: (i) => F.linear(x0(i, 'linear'), x1(i, 'linear'), opt(i, 2)),
    variants: {},
    dtypes: NO_BOOL,
    samples: ['random', 'nobias', '1d', 'batched', '1d-weight', 'empty'],
    tolerance: { float16: { rtol: 2e-3, atol: 1e-3 }, bfloat16: { rtol: 2e-2, atol: 2e-2 } },
    errorInputs: [
      notTensor('linear', () => untyped(F.linear)([1, 2], torch.ones([2, 2])), 1),
      {
        name: 'mismatched inner sizes',
        make: (d) => F.linear(torch.ones([2, 3], { device: d }), torch.ones([4, 2], { device: d })),
        error: ShapeError,
        match: /mat1 and mat2 shapes cannot be multiplied \(2x3 and 2x4\)/,
      },
    ],
    pytorch2x: OPMATH_2X('addmm_impl_cpu_'),
  },
  {
    name: 'nllLoss',
    errorNames: ['nll_loss', 'nll_loss_forward', 'nll_loss2d_forward', 'nllLoss'],
    call: (i, k) => F.nllLoss(x0(i, 'nllLoss'), x1(i, 'nllLoss'), { ...NLL_KW(k), weight: opt(i, 2) }),
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples: ['random', 'weight', 'sum', 'none', 'ignore', 'ignore-index', 'all-ignored', '1d', 'kdim', 'kdim3', 'oob', 'batch-mismatch'],
    tolerance: LOSS_TOL,
    errorInputs: [
      notTensor('nll_loss', () => untyped(F.nllLoss)([1, 2], torch.tensor([0])), 1),
      {
        name: 'a float target',
        make: (d) => F.nllLoss(torch.zeros([2, 3], { device: d }), torch.zeros([2], { device: d })),
        error: DTypeError,
        match: /expected scalar type Long but found Float/,
      },
      {
        name: 'a weight of the wrong size',
        make: (d) => F.nllLoss(torch.zeros([2, 3], { device: d }), torch.tensor([0, 1], { device: d }), { weight: torch.ones([2], { device: d }) }),
        error: ShapeError,
        match: /weight tensor should be defined either for all 3 classes or no classes but got weight tensor of shape: \[2\]/,
      },
    ],
    pytorch2x: OPMATH_2X('nll_loss_out_frame'),
  },
  {
    name: 'crossEntropy',
    errorNames: ['cross_entropy', 'nll_loss', 'nll_loss_forward', 'nll_loss2d_forward', '_log_softmax', 'crossEntropy'],
    call: (i, k) => F.crossEntropy(x0(i, 'crossEntropy'), x1(i, 'crossEntropy'), { ...CROSS_ENTROPY_KW(k), weight: opt(i, 2) }),
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples: [
      'random', 'weight', 'sum', 'none', 'ignore', 'smoothing', 'smoothing-weight', 'smoothing-ignore-sum', 'smoothing-none',
      'kdim', '1d', 'probs', 'probs-smoothing', 'probs-none', 'oob',
    ],
    tolerance: LOSS_TOL,
    errorInputs: [
      notTensor('cross_entropy', () => untyped(F.crossEntropy)([1, 2], torch.tensor([0])), 1),
      {
        name: 'label smoothing above 1',
        make: (d) => F.crossEntropy(torch.zeros([2, 3], { device: d }), torch.tensor([0, 1], { device: d }), { labelSmoothing: 1.5 }),
        error: TorchError,
        match: /label_smoothing must be between 0.0 and 1.0. Got: 1.5/,
      },
    ],
    pytorch2x: OPMATH_2X('log_softmax_lastdim_kernel_impl'),
  },
  pairLoss('mseLoss', 'mse_loss', F.mseLoss, LOSS_KW, ['random', 'sum', 'none', 'empty']),
  pairLoss('l1Loss', 'l1_loss', F.l1Loss, LOSS_KW, ['random', 'sum', 'none', 'empty']),
  pairLoss('smoothL1Loss', 'smooth_l1_loss', F.smoothL1Loss, SMOOTH_L1_KW, ['random', 'sum', 'none', 'empty', 'beta', 'beta0']),
  {
    name: 'binaryCrossEntropy',
    errorNames: ['binary_cross_entropy'],
    call: (i, k) => F.binaryCrossEntropy(x0(i, 'bce'), x1(i, 'bce'), { ...LOSS_KW(k), weight: opt(i, 2) }),
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples: ['random', 'weight', 'sum', 'none', 'edge', 'out-of-range', 'size-mismatch'],
    tolerance: LOSS_TOL,
    errorInputs: [notTensor('binary_cross_entropy', () => untyped(F.binaryCrossEntropy)([1, 2], torch.tensor([0])), 1)],
    pytorch2x: OPMATH_2X('binary_cross_entropy'),
  },
  {
    name: 'binaryCrossEntropyWithLogits',
    errorNames: ['binary_cross_entropy_with_logits'],
    call: (i, k) => {
      const { hasWeight, ...rest } = BCE_WITH_LOGITS_KW(k);
      return F.binaryCrossEntropyWithLogits(x0(i, 'bcel'), x1(i, 'bcel'), {
        ...rest,
        weight: hasWeight === false ? null : opt(i, 2),
        posWeight: opt(i, 3),
      });
    },
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples: ['random', 'weight', 'pos-weight', 'pos-weight-only', 'none', 'large'],
    tolerance: LOSS_TOL,
    errorInputs: [
      notTensor('binary_cross_entropy_with_logits', () => untyped(F.binaryCrossEntropyWithLogits)([1, 2], torch.tensor([0])), 1),
    ],
    pytorch2x: OPMATH_2X('log_sigmoid_cpu'),
  },
  {
    name: 'batchNorm',
    errorNames: BN_ERRORS,
    // (output, running_mean, running_var) after the call: the running stats are updated in place
    call: (i, k) => {
      const rm = torch.clone(x1(i, 'batchNorm'));
      const rv = torch.clone(tensorArg(i[2], 'batchNorm'));
      try {
        const out = F.batchNorm(x0(i, 'batchNorm'), rm, rv, { ...BATCH_NORM_KW(k), weight: opt(i, 3), bias: opt(i, 4) });
        return [out, rm, rv];
      } catch (e) {
        rm.dispose();
        rv.dispose();
        throw e;
      }
    },
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples: ['train', 'train-affine', 'momentum', 'eval', 'eval-plain', '4d', 'one-value', 'bad-stats'],
    tolerance: LOSS_TOL,
    errorInputs: [notTensor('batch_norm', () => untyped(F.batchNorm)([1, 2], null, null), 1)],
    pytorch2x: OPMATH_2X('batch_norm'),
  },
  {
    name: 'layerNorm',
    errorNames: ['layer_norm', 'native_layer_norm'],
    call: (i, k) => {
      const { normalizedShape, ...rest } = LAYER_NORM_KW(k);
      return F.layerNorm(x0(i, 'layerNorm'), normalizedShape, { ...rest, weight: opt(i, 1), bias: opt(i, 2) });
    },
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples: ['random', 'affine', 'eps', 'bad-shape'],
    tolerance: LOSS_TOL,
    errorInputs: [notTensor('layer_norm', () => untyped(F.layerNorm)([1, 2], [2]), 1)],
    pytorch2x: OPMATH_2X('LayerNormKernelImpl'),
  },
  {
    name: 'groupNorm',
    errorNames: ['group_norm', 'native_group_norm'],
    call: (i, k) => {
      const { numGroups, ...rest } = GROUP_NORM_KW(k);
      return F.groupNorm(x0(i, 'groupNorm'), numGroups, { ...rest, weight: opt(i, 1), bias: opt(i, 2) });
    },
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples: ['random', 'affine', 'one-group', 'bad-groups'],
    tolerance: LOSS_TOL,
    errorInputs: [notTensor('group_norm', () => untyped(F.groupNorm)([1, 2], 1), 1)],
    pytorch2x: OPMATH_2X('GroupNormKernelImpl'),
  },
  {
    name: 'embedding',
    call: (i, k) => F.embedding(x0(i, 'embedding'), x1(i, 'embedding'), EMBEDDING_KW(k)),
    variants: {},
    dtypes: ALL_DTYPES,
    samples: ['random', 'padding', 'int32', 'oob'],
    errorInputs: [
      notTensor('embedding', () => untyped(F.embedding)([1, 2], torch.ones([2, 2])), 1),
      {
        name: 'float indices',
        make: (d) => F.embedding(torch.zeros([2], { device: d }), torch.ones([3, 2], { device: d })),
        error: DTypeError,
        match: /Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got Float instead/,
      },
    ],
  },
  {
    name: 'oneHot',
    errorNames: ['one_hot'],
    call: (i, k) => F.oneHot(x0(i, 'oneHot'), ONE_HOT_KW(k)),
    variants: {},
    // On WebGPU numClasses=-1 is refused (it needs a synchronous max): a user reads the max first.
    forms: {
      async: async (i, k) => {
        const x = x0(i, 'oneHot');
        const o = ONE_HOT_KW(k);
        const nc = o.numClasses ?? -1;
        if (nc !== -1 || x.numel() === 0 || x.dtype !== 'int64') return F.oneHot(x, o);
        const m = x.max();
        try {
          return F.oneHot(x, { numClasses: Number(await m.itemAsync()) + 1 });
        } finally {
          m.dispose();
        }
      },
    },
    dtypes: ['int64'],
    samples: ['infer', 'classes', 'too-small', 'negative', 'empty'],
    errorInputs: [notTensor('one_hot', () => untyped(F.oneHot)([1, 2]), 1)],
  },
  {
    name: 'dropout',
    call: (i, k) => F.dropout(x0(i, 'dropout'), seeded(DROPOUT_KW(k))),
    // (the in-place form is aten's torch.dropout_(input, p, train): no method)
    variants: { inplace: true },
    forms: {
      inplace: (i, k) => {
        const o = seeded(DROPOUT_KW(k));
        return torch.dropout_(x0(i, 'dropout'), o.p ?? 0.5, o.training ?? true);
      },
    },
    xfail: {
      'inplace@eval':
        "not a bug: not training, PyTorch's dropout_ returns its input untouched, without a version bump (aten's _dropout returns early), and so does torch-ts; the in-place check expects a bump",
    },
    dtypes: FLOAT_DTYPES,
    samples: ['random', 'default-p', 'eval', 'p1', 'bad-p'],
    errorInputs: [notTensor('dropout', () => untyped(F.dropout)([1, 2]), 1)],
    pytorch2x: HALF_UPCAST('bernoulli_scalar_cpu_'),
    randomCheck: dropoutCheck,
  },
  {
    name: 'bernoulli',
    // (PyTorch's two overloads, with and without p)
    call: (i, k) => {
      const { p, ...o } = seeded(BERNOULLI_KW(k));
      return p === undefined ? torch.bernoulli(x0(i, 'bernoulli'), o) : torch.bernoulli(x0(i, 'bernoulli'), p, o);
    },
    variants: { method: true },
    forms: {
      method: (i, k) => {
        const { p, ...o } = seeded(BERNOULLI_KW(k));
        return p === undefined ? x0(i, 'bernoulli').bernoulli(o) : x0(i, 'bernoulli').bernoulli(p, o);
      },
    },
    dtypes: FLOAT_DTYPES,
    samples: ['probs', 'p', 'bad-probs'],
    errorInputs: [
      {
        name: 'a JS array instead of a tensor',
        make: () => untyped(torch.bernoulli)([1, 2]),
        error: TorchError,
        // (two overloads, as PyTorch's: with and without p)
        match: /bernoulli\(\) received an invalid combination of arguments - got \(Array\)/,
      },
    ],
    pytorch2x: HALF_UPCAST('bernoulli_tensor_cpu_self_'),
    randomCheck: bernoulliCheck,
  },
  {
    name: 'multinomial',
    call: (i, k) => {
      const { numSamples, ...rest } = seeded(MULTINOMIAL_KW(k));
      return torch.multinomial(x0(i, 'multinomial'), numSamples, rest);
    },
    variants: { method: true },
    forms: {
      method: (i, k) => {
        const { numSamples, ...rest } = seeded(MULTINOMIAL_KW(k));
        return x0(i, 'multinomial').multinomial(numSamples, rest);
      },
    },
    dtypes: ['float32', 'float64', 'bfloat16'],
    samples: ['replacement', '1d', 'too-many', 'negative'],
    errorInputs: [notTensor('multinomial', () => untyped(torch.multinomial)([1, 2], 1), 1)],
    randomCheck: multinomialCheck,
  },
];
