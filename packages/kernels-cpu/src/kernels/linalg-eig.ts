import type { BackendImpls } from '@torch-ts/core';
import { floatArray, words } from '../loops/arrays';
import { geev } from './geev';
import { zgeev } from './zgeev';

/** `count` values from `off` as doubles, or null if any is not finite (info -1: core raises eig's error). */
function finiteCopy(src: ArrayLike<number>, off: number, count: number): Float64Array | null {
  const m = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    m[i] = src[off + i];
    if (!Number.isFinite(m[i])) return null;
  }
  return m;
}

/** core's EigImpls on the CPU: each matrix read into doubles, dgeev as geev.ts ports it (Note [CPU eig: LAPACK's dgeev]), the pairs stored once. */
export const eig: BackendImpls['eig'] = (a, w, v, info) => {
  const n = a.sizes[2];
  const batch = a.sizes[0];
  const as = floatArray(a);
  const ws = floatArray(w);
  const vs = v ? floatArray(v) : null;
  const is = words(info);
  for (let b = 0; b < batch; b++) {
    const m = finiteCopy(as, a.storageOffset + b * n * n, n * n);
    if (m === null) {
      is[info.storageOffset + b] = -1;
      continue;
    }
    const r = geev(m, n, v !== null);
    is[info.storageOffset + b] = r.info;
    if (r.info !== 0) continue;
    const wOff = w.storageOffset + b * n * 2;
    for (let j = 0; j < n; j++) {
      ws[wOff + 2 * j] = r.wr[j];
      ws[wOff + 2 * j + 1] = r.wi[j];
    }
    if (!vs || !v || !r.vr) continue;
    const vOff = v.storageOffset + b * n * n * 2;
    const vr = r.vr;
    // geev packs a complex pair's vector as two real columns: (j, j + 1) = (re, im) of the first, the second its conjugate
    for (let j = 0; j < n; j++) {
      const pairFirst = r.wi[j] > 0;
      const pairSecond = j > 0 && r.wi[j] < 0 && r.wi[j - 1] > 0;
      for (let i = 0; i < n; i++) {
        const o = vOff + (i * n + j) * 2;
        if (pairFirst) {
          vs[o] = vr[i * n + j];
          vs[o + 1] = vr[i * n + j + 1];
        } else if (pairSecond) {
          vs[o] = vr[i * n + j - 1];
          vs[o + 1] = -vr[i * n + j];
        } else {
          vs[o] = vr[i * n + j];
          vs[o + 1] = 0;
        }
      }
    }
  }
};

/** core's eigComplex on the CPU: each complex matrix (as its parts) read into doubles, zgeev as zgeev.ts ports it (Note [CPU complex eig: LAPACK's zgeev]). */
export const eigComplex: BackendImpls['eigComplex'] = (a, w, v, info) => {
  const n = a.sizes[2];
  const batch = a.sizes[0];
  const as = floatArray(a);
  const ws = floatArray(w);
  const vs = v ? floatArray(v) : null;
  const is = words(info);
  for (let b = 0; b < batch; b++) {
    const m = finiteCopy(as, a.storageOffset + b * n * n * 2, 2 * n * n);
    if (m === null) {
      is[info.storageOffset + b] = -1;
      continue;
    }
    const r = zgeev(m, n, v !== null);
    is[info.storageOffset + b] = r.info;
    if (r.info !== 0) continue;
    const wOff = w.storageOffset + b * n * 2;
    for (let j = 0; j < 2 * n; j++) ws[wOff + j] = r.w[j];
    if (!vs || !v || !r.vr) continue;
    const vOff = v.storageOffset + b * n * n * 2;
    for (let j = 0; j < 2 * n * n; j++) vs[vOff + j] = r.vr[j];
  }
};
