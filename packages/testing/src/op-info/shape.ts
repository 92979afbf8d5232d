import * as torch from '@torch-ts/torch';
import { IndexError, ShapeError, TorchError, type Tensor } from '@torch-ts/torch';
import { ALL_DTYPES, t, tensorArg, tensorOrNumber } from './common';
import { ints, num, options, tensor } from './kwargs';
import type { Kwargs, OpInfo, OpInput } from './types';
import { untyped } from './untyped';

/** The OpInfo entries of the joining and reordering ops; sample ids from scripts/goldens/ops_shape.py. */

const list = (i: readonly OpInput[], op: string): Tensor[] => i.map((x) => tensorArg(x, op));
const JOIN_KW = options({ dim: num, out: tensor });
const REPEAT_KW = options({ repeats: ints });
const TILE_FLIP_KW = options({ dims: ints });
const ROLL_KW = options({ shifts: ints, dims: ints });
const TRI_KW = options({ diagonal: num, out: tensor });
const FFTSHIFT_KW = options({ dim: ints });
const REPEAT_INTERLEAVE_KW = options({ dim: num });

function joinOp(name: 'cat' | 'stack', samples: string[], extraErrors: OpInfo['errorInputs'] = []): OpInfo {
  const fn = name === 'cat' ? torch.cat : torch.stack;
  return {
    name,
    call: (i, k) => fn(list(i, name), JOIN_KW(k)),
    variants: { out: true },
    dtypes: ALL_DTYPES,
    samples,
    errorInputs: [
      {
        name: 'an empty list',
        make: () => fn([]),
        error: TorchError,
        match: new RegExp(`${name}: (expected a non-empty list of Tensors|stack expects a non-empty TensorList)`),
      },
      {
        name: 'an out= of the wrong shape',
        make: (d) => fn([torch.ones([2], { device: d }), torch.ones([2], { device: d })], { out: torch.empty([3], { device: d }) }),
        error: ShapeError,
        match: new RegExp(`${name}: out= tensor has shape \\[3\\]`),
      },
      {
        name: 'an out= of a dtype the result cannot be cast to',
        make: (d) => fn([torch.ones([2], { device: d })], { out: torch.empty(name === 'cat' ? [2] : [1, 2], { device: d, dtype: 'int32' }) }),
        error: TorchError,
        match: /can't be cast to the desired output type/,
      },
      ...extraErrors,
    ],
  };
}

function stackLike(name: 'hstack' | 'vstack', samples: string[]): OpInfo {
  const fn = name === 'hstack' ? torch.hstack : torch.vstack;
  return {
    name,
    errorNames: [name, 'cat'],
    call: (i) => fn(list(i, name)),
    variants: { out: true },
    forms: { out: (i, _k, out) => fn(list(i, name), { out }) },
    dtypes: ALL_DTYPES,
    samples,
    errorInputs: [{ name: 'an empty list', make: () => fn([]), error: TorchError, match: new RegExp(`${name}: ${name} expects a non-empty TensorList`) }],
  };
}

function unary(
  name: string,
  call: (x: Tensor, k: Kwargs) => Tensor,
  method: (x: Tensor, k: Kwargs) => Tensor,
  samples: string[],
  errorInputs: OpInfo['errorInputs'] = [],
): OpInfo {
  return {
    name,
    call: (i, k) => call(tensorArg(i[0], name), k),
    variants: { method: true },
    forms: { method: (i, k) => method(tensorArg(i[0], name), k) },
    dtypes: ALL_DTYPES,
    samples,
    errorInputs,
  };
}

function tri(name: 'triu' | 'tril'): OpInfo {
  const fn = name === 'triu' ? torch.triu : torch.tril;
  return {
    name,
    call: (i, k) => fn(tensorArg(i[0], name), TRI_KW(k)),
    variants: { method: true, inplace: true, out: true },
    dtypes: ALL_DTYPES,
    samples: ['square', 'rect', 'tall', 'pos', 'neg', 'far', 'far-neg', 'batch', 'empty'],
    errorInputs: [
      {
        // PyTorch 2.x's message; 1.13 raised an IndexError from its dim wrapping
        name: 'a 1-D input',
        make: (d) => fn(torch.ones([3], { device: d })),
        error: ShapeError,
        match: new RegExp(`${name}: input tensor must have at least 2 dimensions`),
      },
      {
        name: 'a 1-D input, in place',
        make: (d) => (name === 'triu' ? torch.ones([3], { device: d }).triu_() : torch.ones([3], { device: d }).tril_()),
        error: ShapeError,
        match: new RegExp(`${name}_: input tensor must have at least 2 dimensions`),
      },
    ],
  };
}

/** torch.fft.fftshift / ifftshift: rolls of every dtype (functions of torch.fft only). */
function fftShift(name: 'fftFftshift' | 'fftIfftshift'): OpInfo {
  const fn = name === 'fftFftshift' ? torch.fft.fftshift : torch.fft.ifftshift;
  return {
    name,
    errorNames: [name === 'fftFftshift' ? 'fft.fftshift' : 'fft.ifftshift'],
    call: (i, k) => fn(tensorArg(i[0], name), FFTSHIFT_KW(k)),
    variants: {},
    dtypes: ALL_DTYPES,
    samples: ['all', 'odd', 'even', 'dim', 'dims', 'empty', 'range', '0d'],
    errorInputs: [],
  };
}

export const SHAPE_OPS: readonly OpInfo[] = [
  joinOp('cat', [
    'dim0', 'dim1', 'neg-dim', 'three', 'single', 'legacy-empty', 'all-legacy-empty', 'zero-size', 'zero-size-dim',
    'zero-dim', 'size-mismatch', 'ndim-mismatch', 'dim-range', 'promote', 'promote-empty',
  ], [
    {
      name: 'an input that is not a tensor',
      make: (d) => untyped(torch.cat)([torch.ones([2], { device: d }), 3]),
      error: TorchError,
      match: /cat\(\): expected Tensor as element 1 in argument 0, but got number/,
    },
  ]),
  joinOp('stack', ['dim0', 'dim1', 'dim-last', '0d', 'empty', 'unequal', 'dim-range', 'promote']),
  stackLike('hstack', ['1d', '2d', '0d']),
  stackLike('vstack', ['1d', '2d', '3d']),
  unary('repeat', (x, k) => torch.repeat(x, REPEAT_KW(k).repeats ?? []), (x, k) => x.repeat(REPEAT_KW(k).repeats ?? []), [
    '2d', 'more-dims', '0d', '0d-empty-reps', 'zero-rep', 'empty', 'fewer-reps', 'negative',
  ]),
  unary('tile', (x, k) => torch.tile(x, TILE_FLIP_KW(k).dims ?? []), (x, k) => x.tile(TILE_FLIP_KW(k).dims ?? []), ['fewer', 'more', 'same']),
  unary('flip', (x, k) => torch.flip(x, TILE_FLIP_KW(k).dims ?? []), (x, k) => x.flip(TILE_FLIP_KW(k).dims ?? []), [
    'dim0', 'both', 'neg', 'outer-inner', 'none', '0d', 'empty', 'dup', 'range',
  ]),
  unary(
    'roll',
    (x, k) => {
      const { shifts, dims } = ROLL_KW(k);
      return torch.roll(x, shifts ?? [], dims ?? null);
    },
    (x, k) => {
      const { shifts, dims } = ROLL_KW(k);
      return x.roll(shifts ?? [], { dims: dims ?? null });
    },
    ['flat', 'flat-neg', 'dim', 'big-shift', 'two-dims', 'same-dim-twice', '0d', 'empty', 'mismatch', 'range'],
    [
      {
        name: 'no shifts',
        make: (d) => torch.roll(torch.ones([2], { device: d }), []),
        error: TorchError,
        match: /roll: `shifts` required/,
      },
    ],
  ),
  tri('triu'),
  tri('tril'),
  fftShift('fftFftshift'),
  fftShift('fftIfftshift'),
  {
    name: 'repeatInterleave',
    errorNames: ['repeat_interleave'],
    call: (i, k) => {
      const x = tensorArg(i[0], 'repeatInterleave');
      const r = tensorOrNumber(i[1], 'repeatInterleave');
      // (int and tensor repeats are two overloads: each call is typed by its own)
      return typeof r === 'number' ? torch.repeatInterleave(x, r, REPEAT_INTERLEAVE_KW(k)) : torch.repeatInterleave(x, r, REPEAT_INTERLEAVE_KW(k));
    },
    variants: { method: true },
    // On WebGPU (no synchronous reads) the result's size is given as `outputSize`, read once
    // with an async read: what a user writes there (Note [repeat_interleave without a host read]).
    forms: { async: (i, k) => sizedRepeatInterleave(i, k, false), asyncMethod: (i, k) => sizedRepeatInterleave(i, k, true) },
    dtypes: ALL_DTYPES,
    samples: ['int-flat', 'int-dim', 'int-zero', 'tensor-dim', 'tensor-dim-neg', 'tensor-one', 'tensor-flat', 'tensor-wrong-size', 'tensor-negative'],
    errorInputs: [
      {
        name: 'negative int repeats',
        make: (d) => torch.repeatInterleave(torch.ones([2], { device: d }), -1),
        error: TorchError,
        match: /repeat_interleave: repeats can not be negative/,
      },
      {
        name: 'a 2-D tensor of repeats',
        make: (d) => torch.repeatInterleave(torch.ones([2], { device: d }), t(d, [[1, 1]]), { dim: 0 }),
        error: ShapeError,
        match: /repeat_interleave: repeats must be 0-dim or 1-dim tensor/,
      },
      {
        name: 'float repeats (the index form)',
        make: (d) => torch.repeatInterleave(t(d, [1.5, 2.5])),
        error: TorchError,
        match: /repeat_interleave: "repeat_interleave_cpu" not implemented for 'Float'/,
      },
      {
        name: 'a dim out of range',
        make: (d) => torch.repeatInterleave(torch.ones([2], { device: d }), 2, { dim: 1 }),
        error: IndexError,
        match: /repeat_interleave: Dimension out of range/,
      },
    ],
  },
];

async function sizedRepeatInterleave(i: readonly OpInput[], k: Kwargs, method: boolean): Promise<Tensor> {
  const x = tensorArg(i[0], 'repeatInterleave');
  const r = tensorOrNumber(i[1], 'repeatInterleave');
  const dim = REPEAT_INTERLEAVE_KW(k).dim ?? null;
  let outputSize: number | null = null;
  if (r instanceof torch.Tensor) {
    const total = r.sum();
    try {
      const along = dim === null ? x.numel() : (x.shape[dim < 0 ? dim + x.dim() : dim] ?? 1);
      outputSize = Number(await total.itemAsync()) * (r.numel() === 1 ? along : 1);
    } finally {
      total.dispose();
    }
  }
  const o = { dim, outputSize };
  if (typeof r === 'number') return method ? x.repeatInterleave(r, o) : torch.repeatInterleave(x, r, o);
  return method ? x.repeatInterleave(r, o) : torch.repeatInterleave(x, r, o);
}
