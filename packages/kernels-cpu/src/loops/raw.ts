import type { RowLoop, TensorImpl } from '@torch-ts/core';
import { raw1, raw2, raw4, type RawWidth } from './arrays';

/**
 * Moves of raw elements by width (1, 2, 4 or 8 bytes), for copies between tensors of one
 * dtype and for `where`: bits are moved, never values, so NaN payloads, -0 and int64 bit
 * patterns survive. 8-byte elements move as two Int32 words (see loops/arrays.ts).
 */

const SET_MIN = 64;

function move1(n: number, o: Uint8Array, oo: number, os: number, a: Uint8Array, ao: number, as: number): void {
  if (os === 1 && as === 1 && n >= SET_MIN) o.set(a.subarray(ao, ao + n), oo);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = a[ao];
}

function move2(n: number, o: Uint16Array, oo: number, os: number, a: Uint16Array, ao: number, as: number): void {
  if (os === 1 && as === 1 && n >= SET_MIN) o.set(a.subarray(ao, ao + n), oo);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = a[ao];
}

function move4(n: number, o: Int32Array, oo: number, os: number, a: Int32Array, ao: number, as: number): void {
  if (os === 1 && as === 1 && n >= SET_MIN) o.set(a.subarray(ao, ao + n), oo);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = a[ao];
}

function move8(n: number, o: Int32Array, oo: number, os: number, a: Int32Array, ao: number, as: number): void {
  if (os === 1 && as === 1 && n >= SET_MIN) {
    o.set(a.subarray(2 * ao, 2 * (ao + n)), 2 * oo);
    return;
  }
  let jo = 2 * oo;
  let ja = 2 * ao;
  for (let i = 0; i < n; i++, jo += 2 * os, ja += 2 * as) {
    o[jo] = a[ja];
    o[jo + 1] = a[ja + 1];
  }
}

/** A row loop over [dst, src] that moves raw elements of `width` bytes. */
export function rawMoveRow(width: RawWidth, dst: TensorImpl, src: TensorImpl): RowLoop {
  switch (width) {
    case 1: {
      const O = raw1(dst);
      const A = raw1(src);
      return (n, b, s) => move1(n, O, b[0], s[0], A, b[1], s[1]);
    }
    case 2: {
      const O = raw2(dst);
      const A = raw2(src);
      return (n, b, s) => move2(n, O, b[0], s[0], A, b[1], s[1]);
    }
    case 4: {
      const O = raw4(dst);
      const A = raw4(src);
      return (n, b, s) => move4(n, O, b[0], s[0], A, b[1], s[1]);
    }
    case 8: {
      const O = raw4(dst);
      const A = raw4(src);
      return (n, b, s) => move8(n, O, b[0], s[0], A, b[1], s[1]);
    }
  }
}

function select1(n: number, o: Uint8Array, oo: number, os: number, c: Uint8Array, co: number, cs: number, a: Uint8Array, ao: number, as: number, b: Uint8Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, co += cs, ao += as, bo += bs) o[oo] = c[co] !== 0 ? a[ao] : b[bo];
}

function select2(n: number, o: Uint16Array, oo: number, os: number, c: Uint8Array, co: number, cs: number, a: Uint16Array, ao: number, as: number, b: Uint16Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, co += cs, ao += as, bo += bs) o[oo] = c[co] !== 0 ? a[ao] : b[bo];
}

function select4(n: number, o: Int32Array, oo: number, os: number, c: Uint8Array, co: number, cs: number, a: Int32Array, ao: number, as: number, b: Int32Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, co += cs, ao += as, bo += bs) o[oo] = c[co] !== 0 ? a[ao] : b[bo];
}

function select8(n: number, o: Int32Array, oo: number, os: number, c: Uint8Array, co: number, cs: number, a: Int32Array, ao: number, as: number, b: Int32Array, bo: number, bs: number): void {
  let jo = 2 * oo;
  let ja = 2 * ao;
  let jb = 2 * bo;
  for (let i = 0; i < n; i++, jo += 2 * os, co += cs, ja += 2 * as, jb += 2 * bs) {
    if (c[co] !== 0) {
      o[jo] = a[ja];
      o[jo + 1] = a[ja + 1];
    } else {
      o[jo] = b[jb];
      o[jo + 1] = b[jb + 1];
    }
  }
}

/** A row loop over [out, cond, a, b] that picks raw elements of `width` bytes by a bool condition. */
export function rawSelectRow(width: RawWidth, out: TensorImpl, cond: TensorImpl, a: TensorImpl, b: TensorImpl): RowLoop {
  const C = raw1(cond);
  switch (width) {
    case 1: {
      const O = raw1(out);
      const A = raw1(a);
      const B = raw1(b);
      return (n, x, s) => select1(n, O, x[0], s[0], C, x[1], s[1], A, x[2], s[2], B, x[3], s[3]);
    }
    case 2: {
      const O = raw2(out);
      const A = raw2(a);
      const B = raw2(b);
      return (n, x, s) => select2(n, O, x[0], s[0], C, x[1], s[1], A, x[2], s[2], B, x[3], s[3]);
    }
    case 4: {
      const O = raw4(out);
      const A = raw4(a);
      const B = raw4(b);
      return (n, x, s) => select4(n, O, x[0], s[0], C, x[1], s[1], A, x[2], s[2], B, x[3], s[3]);
    }
    case 8: {
      const O = raw4(out);
      const A = raw4(a);
      const B = raw4(b);
      return (n, x, s) => select8(n, O, x[0], s[0], C, x[1], s[1], A, x[2], s[2], B, x[3], s[3]);
    }
  }
}
