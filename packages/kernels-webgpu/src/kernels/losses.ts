import { DTypeError, IndexError, TensorImpl, TorchError, type BackendImpls } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { deviceErrorBinding, deviceErrorCode, messageErrorCode } from '../runtime/device-errors';
import { kindOf } from '../wgsl/kinds';
import { LOSS_WORDS, lossSource, nllBackwardSource, reportsErrors, type LossKind, type LossStage } from '../wgsl/losses';
import { bindingOf, f32Word, grid, int64Value } from './launch';
import { fill } from './pointwise';
import { inputAliases, inputBindings, requireF32 } from './softmax';

/** nll_loss and the pointwise losses (Note [WebGPU loss kernels]). */

// (64, not 256: under SwiftShader, where CI runs, each barrier of the tree switches between the
// workgroup's SIMD groups, and a 256-wide tree made nll_loss of a 32x4 batch take 4 ms instead of 0.5)
const RED_WG = 64;
/** Elements one workgroup folds before the reduction is split over several (sweeps of RED_WG). */
const DIRECT_SWEEPS = 16;
/** Most workgroups of a split reduction ('final' folds their partial sums). */
const MAX_PARTS = 256;

const sources = new Map<string, string>();

function cached(key: string, make: () => string): string {
  let src = sources.get(key);
  if (!src) sources.set(key, (src = make()));
  return src;
}

/** The device-error code of an out-of-range nll target (payload: the target's int64 words), with CPU's message. */
function targetErrorCode(op: string): number {
  return deviceErrorCode(`nll-target:${op}`, (p) => new IndexError(`${op}: Target ${(p[1] | 0) * 4294967296 + p[0]} is out of bounds.`));
}

function errorCodeOf(kind: LossKind): number {
  if (kind === 'nll') return targetErrorCode('nll_loss');
  if (kind === 'bce') {
    return messageErrorCode('binary_cross_entropy:range', () => new TorchError('binary_cross_entropy: all elements of input should be between 0 and 1'));
  }
  return 0;
}

function lossSrc(kind: LossKind, stage: LossStage, hasW: boolean, hasPw: boolean, alias: readonly number[]): string {
  return cached(`${kind}|${stage}|${hasW}|${hasPw}|${alias.join('')}`, () => lossSource(kind, stage, hasW, hasPw, RED_WG, alias, errorCodeOf(kind)));
}

/** nll's targets come from core as int64 (read as two u32 words). */
function requireInt64(op: string, t: TensorImpl): void {
  if (kindOf(op, t.dtype, true) !== 'i64') throw new DTypeError(`${op}: expected int64 targets, got ${t.dtype}`);
}

/** The (lo, hi) u32 words of an int64 value. */
function int64Words(v: number): [number, number] {
  const b = BigInt.asUintN(64, int64Value(v));
  return [Number(b & 0xffffffffn), Number(b >> 32n)];
}

/**
 * Runs a loss over `n` elements: 'none' writes `out` per element; a reduction (`mode` 1
 * mean, 2 sum) writes `out[0]`; nll writes `total` in every mode.
 */
function runLoss(
  op: string,
  kind: LossKind,
  out: TensorImpl,
  total: TensorImpl | null,
  inputs: readonly TensorImpl[],
  hasW: boolean,
  hasPw: boolean,
  params: Uint32Array,
  n: number,
  reduction: number,
): void {
  if (n === 0) {
    // Nothing to fold (and an empty output has no buffer to bind): a mean is 0 / 0 = NaN.
    if (reduction !== 0) fill(out, reduction === 1 ? Number.NaN : 0);
    if (total) fill(total, 0);
    return;
  }
  const q = commandQueue(op);
  const alias = inputAliases(op, out, inputs);
  if (total) inputAliases(op, total, inputs);
  const ins = inputBindings(inputs, alias);
  if (reportsErrors(kind)) ins.push(deviceErrorBinding(q));
  params[10] = reduction;
  if (reduction === 0) q.dispatch(lossSrc(kind, 'none', hasW, hasPw, alias), [bindingOf(out), ...ins], params, grid(op, n, 64));
  if (reduction === 0 && !total) return;
  const heads = total ? [bindingOf(out), bindingOf(total)] : [bindingOf(out)];
  const parts = Math.min(MAX_PARTS, Math.ceil(n / (RED_WG * DIRECT_SWEEPS)));
  if (parts <= 1) {
    q.dispatch(lossSrc(kind, 'direct', hasW, hasPw, alias), [...heads, ...ins], params, [1, 1, 1]);
    return;
  }
  params[11] = parts;
  const scratch = TensorImpl.empty(op, [parts, 2], 'float32', out.device);
  try {
    q.dispatch(lossSrc(kind, 'partial', hasW, hasPw, alias), [bindingOf(scratch), ...ins], params, [parts, 1, 1]);
    q.dispatch(lossSrc(kind, 'final', false, false, []), [...heads, bindingOf(scratch)], params, [1, 1, 1]);
  } finally {
    // (freed while its dispatches are recorded: Note [Block reuse in submission order])
    scratch.release();
  }
}

export const nllLoss: BackendImpls['nllLoss'] = (output, totalWeight, self, target, weight, n, c, s, reduction, ignoreIndex) => {
  const op = 'nll_loss';
  for (const t of [output, totalWeight, self, ...(weight ? [weight] : [])]) requireF32(op, t);
  requireInt64(op, target);
  const [ignLo, ignHi] = int64Words(ignoreIndex);
  const params = new Uint32Array(LOSS_WORDS);
  params.set([n * s, c, s, self.storageOffset, target.storageOffset, weight?.storageOffset ?? 0, ignLo, ignHi, output.storageOffset, totalWeight.storageOffset]);
  const inputs = weight ? [self, target, weight] : [self, target];
  runLoss(op, 'nll', output, totalWeight, inputs, weight !== null, false, params, n * s, reduction);
};

export const nllLossBackward: BackendImpls['nllLossBackward'] = (gradInput, grad, target, weight, totalWeight, n, c, s, reduction, ignoreIndex) => {
  const op = 'nll_loss_backward';
  for (const t of [gradInput, grad, totalWeight, ...(weight ? [weight] : [])]) requireF32(op, t);
  requireInt64(op, target);
  const numel = n * c * s;
  if (numel === 0) return;
  const hasW = weight !== null;
  const inputs = [grad, target, totalWeight, ...(weight ? [weight] : [])];
  const alias = inputAliases(op, gradInput, inputs);
  const src = cached(`nllBackward|${hasW}|${alias.join('')}`, () => nllBackwardSource(hasW, alias, targetErrorCode(op)));
  const [ignLo, ignHi] = int64Words(ignoreIndex);
  const params = new Uint32Array([
    numel,
    c,
    s,
    gradInput.storageOffset,
    grad.storageOffset,
    target.storageOffset,
    weight?.storageOffset ?? 0,
    totalWeight.storageOffset,
    ignLo,
    ignHi,
    reduction,
  ]);
  const q = commandQueue(op);
  q.dispatch(src, [bindingOf(gradInput), ...inputBindings(inputs, alias), deviceErrorBinding(q)], params, grid(op, numel, 64));
};

const POINTWISE_OPS = { mse: 'mse_loss', smoothL1: 'smooth_l1_loss', bce: 'binary_cross_entropy', bcewl: 'binary_cross_entropy_with_logits' } as const;

export const pointwiseLoss: BackendImpls['pointwiseLoss'] = (out, kind, self, target, weight, posWeight, n, reduction, beta) => {
  const op = POINTWISE_OPS[kind];
  const w = kind === 'bce' || kind === 'bcewl' ? weight : null;
  const pw = kind === 'bcewl' ? posWeight : null;
  for (const t of [out, self, target, ...(w ? [w] : []), ...(pw ? [pw] : [])]) requireF32(op, t);
  const params = new Uint32Array(LOSS_WORDS);
  params.set([
    n,
    self.storageOffset,
    target.storageOffset,
    w?.storageOffset ?? 0,
    pw?.storageOffset ?? 0,
    f32Word(0.5 / beta),
    f32Word(0.5 * beta),
    f32Word(beta),
    out.storageOffset,
  ]);
  const inputs = [self, target, ...(w ? [w] : []), ...(pw ? [pw] : [])];
  runLoss(op, kind, out, null, inputs, w !== null, pw !== null, params, n, reduction);
};

export const lossImpls: Pick<BackendImpls, 'nllLoss' | 'nllLossBackward' | 'pointwiseLoss'> = { nllLoss, nllLossBackward, pointwiseLoss };
