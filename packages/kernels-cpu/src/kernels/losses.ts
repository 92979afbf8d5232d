import { IndexError, type BackendImpls, type TensorImpl } from '@torch-ts/core';
import { floatArray, type FloatArray } from '../loops/arrays';

/**
 * nll_loss on contiguous compute-dtype operands (Note [NN kernels take contiguous
 * float32/float64 operands]): `self` [n, c, s], int64 `target` [n * s], optional `weight`
 * [c]. Sums accumulate in doubles; mean divides by the total weight of the kept targets
 * (0 / 0 = nan when every target is ignored, as PyTorch).
 */

function targetsOf(t: TensorImpl): [BigInt64Array, number] {
  return [t.storage.typed(BigInt64Array), t.storageOffset];
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
  const ign = BigInt(ignoreIndex);
  let sum = 0;
  let total = 0;
  for (let b = 0; b < n; b++) {
    for (let p = 0; p < s; p++) {
      const k = b * s + p;
      const cls = t[to + k];
      if (cls === ign) {
        if (reduction === 0) o[oo + k] = 0;
        continue;
      }
      if (cls < 0n || cls >= BigInt(c)) throw new IndexError(`nll_loss: Target ${cls} is out of bounds.`);
      const ci = Number(cls);
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
  const ign = BigInt(ignoreIndex);
  // mean: each kept target's gradient is -w / total_weight (nothing flows when total is 0? PyTorch divides anyway)
  const scale = reduction === 1 ? g[go] / total : g[go];
  for (let b = 0; b < n; b++) {
    for (let p = 0; p < s; p++) {
      const k = b * s + p;
      const cls = t[to + k];
      if (cls === ign) continue;
      if (cls < 0n || cls >= BigInt(c)) throw new IndexError(`nll_loss_backward: Target ${cls} is out of bounds.`);
      const ci = Number(cls);
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
