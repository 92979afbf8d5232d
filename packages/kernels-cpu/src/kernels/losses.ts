import { IndexError, type BackendImpls, type TensorImpl } from '@torch-ts/core';
import { floatArray, type FloatArray } from '../loops/arrays';
import { wordsToF64 } from '../loops/int64-words';

/**
 * nll_loss on contiguous compute-dtype operands (Note [NN kernels take contiguous
 * float32/float64 operands]): `self` [n, c, s], int64 `target` [n * s], optional `weight`
 * [c]. Sums accumulate in doubles; mean divides by the total weight of the kept targets
 * (0 / 0 = nan when every target is ignored, as PyTorch).
 */

/**
 * The int64 targets as their two words (Note [int64 as two words]): a BigInt read allocates,
 * which made nll_loss over 64K targets take milliseconds.
 */
function targetsOf(t: TensorImpl): [Int32Array, number] {
  const b = t.storage.typed(BigInt64Array);
  return [new Int32Array(b.buffer, b.byteOffset, b.length * 2), t.storageOffset];
}

/** Target `at` as a number (exact below 2^53, where every class index and ignore_index lies). */
function classAt(words: Int32Array, at: number): number {
  return wordsToF64(words[2 * at], words[2 * at + 1]);
}

/** The target's value for an error message (exact, whatever its size). */
function targetValue(words: Int32Array, at: number): bigint {
  return new BigInt64Array(words.buffer, words.byteOffset + at * 8, 1)[0];
}

function weightOf(w: TensorImpl | null): [FloatArray | null, number] {
  return w ? [floatArray(w), w.storageOffset] : [null, 0];
}

export const nllLoss: BackendImpls['nllLoss'] = (output, totalWeight, self, target, weight, n, c, s, reduction, ignoreIndex) => {
  const x = floatArray(self);
  const xo = self.storageOffset;
  const [t, to] = targetsOf(target);
  const [w, wo] = weightOf(weight);
  const o = floatArray(output);
  const oo = output.storageOffset;
  let sum = 0;
  let total = 0;
  for (let b = 0; b < n; b++) {
    for (let p = 0; p < s; p++) {
      const k = b * s + p;
      const ci = classAt(t, to + k);
      if (ci === ignoreIndex) {
        if (reduction === 0) o[oo + k] = 0;
        continue;
      }
      if (!(ci >= 0 && ci < c)) throw new IndexError(`nll_loss: Target ${targetValue(t, to + k)} is out of bounds.`);
      const wt = w ? w[wo + ci] : 1;
      const v = -wt * x[xo + (b * c + ci) * s + p];
      if (reduction === 0) o[oo + k] = v;
      else sum += v;
      total += wt;
    }
  }
  const tw = floatArray(totalWeight);
  tw[totalWeight.storageOffset] = total;
  if (reduction === 1) o[oo] = sum / total;
  else if (reduction === 2) o[oo] = sum;
};

export const nllLossBackward: BackendImpls['nllLossBackward'] = (gradInput, grad, target, weight, totalWeight, n, c, s, reduction, ignoreIndex) => {
  const gi = floatArray(gradInput);
  const gio = gradInput.storageOffset;
  gi.fill(0, gio, gio + n * c * s);
  const g = floatArray(grad);
  const go = grad.storageOffset;
  const [t, to] = targetsOf(target);
  const [w, wo] = weightOf(weight);
  const total = floatArray(totalWeight)[totalWeight.storageOffset];
  // mean: each kept target's gradient is -w / total_weight (nothing flows when total is 0? PyTorch divides anyway)
  const scale = reduction === 1 ? g[go] / total : g[go];
  for (let b = 0; b < n; b++) {
    for (let p = 0; p < s; p++) {
      const k = b * s + p;
      const ci = classAt(t, to + k);
      if (ci === ignoreIndex) continue;
      if (!(ci >= 0 && ci < c)) throw new IndexError(`nll_loss_backward: Target ${targetValue(t, to + k)} is out of bounds.`);
      const wt = w ? w[wo + ci] : 1;
      gi[gio + (b * c + ci) * s + p] = -wt * (reduction === 0 ? g[go + k] : scale);
    }
  }
};

/**
 * The pointwise losses (Note [Pointwise loss kernels]): every operand contiguous, in the
 * compute dtype, already broadcast to `n` elements. One loop per kind; sums in doubles.
 */
export const pointwiseLoss: BackendImpls['pointwiseLoss'] = (out, kind, self, target, weight, posWeight, n, reduction, beta) => {
  const x = floatArray(self);
  const xo = self.storageOffset;
  const t = floatArray(target);
  const to = target.storageOffset;
  const [w, wo] = weightOf(weight);
  const [pw, pwo] = weightOf(posWeight);
  const o = floatArray(out);
  const oo = out.storageOffset;
  const none = reduction === 0;
  let sum = 0;
  if (kind === 'mse') {
    for (let i = 0; i < n; i++) {
      const d = x[xo + i] - t[to + i];
      const v = d * d;
      if (none) o[oo + i] = v;
      else sum += v;
    }
  } else if (kind === 'smoothL1') {
    const half = 0.5 / beta;
    const shift = 0.5 * beta;
    for (let i = 0; i < n; i++) {
      const d = Math.abs(x[xo + i] - t[to + i]);
      const v = d < beta ? d * d * half : d - shift;
      if (none) o[oo + i] = v;
      else sum += v;
    }
  } else if (kind === 'bce') {
    for (let i = 0; i < n; i++) {
      const p = x[xo + i];
      const y = t[to + i];
      const logP = Math.max(Math.log(p), -100);
      const log1mP = Math.max(Math.log1p(-p), -100);
      let v = (y - 1) * log1mP - y * logP;
      if (w) v *= w[wo + i];
      if (none) o[oo + i] = v;
      else sum += v;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const z = x[xo + i];
      const y = t[to + i];
      // log(sigmoid(z)) = min(z, 0) - log1p(exp(-|z|)), exact for any z
      const logSig = Math.min(z, 0) - Math.log1p(Math.exp(-Math.abs(z)));
      const lw = pw ? 1 + (pw[pwo + i] - 1) * y : 1;
      let v = (1 - y) * z - lw * logSig;
      if (w) v *= w[wo + i];
      if (none) o[oo + i] = v;
      else sum += v;
    }
  }
  if (reduction === 1) o[oo] = sum / n;
  else if (reduction === 2) o[oo] = sum;
};
