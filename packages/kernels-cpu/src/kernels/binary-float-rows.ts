import type { FloatArray } from '../loops/arrays';
import { cpow, fma, roundTo } from './float-math';

/**
 * Float row kernels of the binary arithmetic ops (signature: FloatBinaryRow). Each has a
 * unit-stride loop, a loop for a broadcast (stride-0) `other`, which is how `x + 2` and
 * `x * scale` arrive, and a general strided loop. They compute in doubles; the store
 * rounds to the output's precision (Float32Array does it, scratch writers do it for 16-bit
 * floats). The same kernels serve integer dtypes where the arithmetic is the same on
 * integer-valued doubles (maximum, minimum).
 */

/** a + alpha * b. For float32 alpha is already float32; see Note [Fused multiply-add of add's alpha]. */
export function addRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number, alpha: number): void {
  if (os === 1 && as === 1 && bs === 1) {
    if (alpha === 1) for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] + b[bo + i];
    else for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] + alpha * b[bo + i];
  } else if (os === 1 && as === 1 && bs === 0) {
    const y = alpha * b[bo];
    for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] + y;
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] + alpha * b[bo];
  }
}

/**
 * Note [Float32 add is monomorphic]
 * Two array kinds at an element access are allowed by Note [Monomorphic loops], but not
 * free: `addRow` serves float32 and float64 storage and float64 scratch, so every element
 * checks the array's map and picks a float32 or float64 access, and its loop runs about
 * 2.5x slower than one that only ever sees Float32Array (measured: add of two 4M float32
 * tensors). So float32 add and sub with |alpha| 1, the common case (`a + b`,
 * `a - b`, `x + bias`), have their own row kernels that are only ever called on
 * Float32Array storage (`runF32Binary`), the unit-stride loop unrolled four times. The
 * arithmetic is addRow's: the double sum (or difference) of two float32 values, rounded
 * once by the Float32Array store; `a + (-1) * b` and `a - b` are the same IEEE operation.
 */
export function addF32Row(n: number, o: Float32Array, oo: number, os: number, a: Float32Array, ao: number, as: number, b: Float32Array, bo: number, bs: number): void {
  if (os === 1 && as === 1 && bs === 1) {
    let i = 0;
    for (const n4 = n - 3; i < n4; i += 4) {
      o[oo + i] = a[ao + i] + b[bo + i];
      o[oo + i + 1] = a[ao + i + 1] + b[bo + i + 1];
      o[oo + i + 2] = a[ao + i + 2] + b[bo + i + 2];
      o[oo + i + 3] = a[ao + i + 3] + b[bo + i + 3];
    }
    for (; i < n; i++) o[oo + i] = a[ao + i] + b[bo + i];
  } else if (os === 1 && as === 1 && bs === 0) {
    const y = b[bo];
    for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] + y;
  } else if (os === 1 && as === 0 && bs === 1) {
    const x = a[ao];
    for (let i = 0; i < n; i++) o[oo + i] = x + b[bo + i];
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] + b[bo];
  }
}

/** a - b on float32 storage (add with alpha -1); Note [Float32 add is monomorphic]. */
export function subF32Row(n: number, o: Float32Array, oo: number, os: number, a: Float32Array, ao: number, as: number, b: Float32Array, bo: number, bs: number): void {
  if (os === 1 && as === 1 && bs === 1) {
    let i = 0;
    for (const n4 = n - 3; i < n4; i += 4) {
      o[oo + i] = a[ao + i] - b[bo + i];
      o[oo + i + 1] = a[ao + i + 1] - b[bo + i + 1];
      o[oo + i + 2] = a[ao + i + 2] - b[bo + i + 2];
      o[oo + i + 3] = a[ao + i + 3] - b[bo + i + 3];
    }
    for (; i < n; i++) o[oo + i] = a[ao + i] - b[bo + i];
  } else if (os === 1 && as === 1 && bs === 0) {
    const y = b[bo];
    for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] - y;
  } else if (os === 1 && as === 0 && bs === 1) {
    const x = a[ao];
    for (let i = 0; i < n; i++) o[oo + i] = x - b[bo + i];
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] - b[bo];
  }
}

/** a + alpha * b with one rounding, for float64 when |alpha| is not 1 (and not 0). */
export function addFmaRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number, alpha: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = fma(alpha, b[bo], a[ao]);
}

export function mulRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  if (os === 1 && as === 1 && bs === 1) {
    for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] * b[bo + i];
  } else if (os === 1 && as === 1 && bs === 0) {
    const y = b[bo];
    for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] * y;
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] * b[bo];
  }
}

/** True division (PyTorch never turns `x / c` into a multiplication by 1/c on CPU). */
export function divRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  if (os === 1 && as === 1 && bs === 1) {
    for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] / b[bo + i];
  } else if (os === 1 && as === 1 && bs === 0) {
    const y = b[bo];
    for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] / y;
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] / b[bo];
  }
}

/** trunc(a / b), the quotient first rounded to the dtype (`mode`) as PyTorch's `std::trunc(a / b)`. */
export function divTruncRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number, mode: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = Math.trunc(roundTo(a[ao] / b[bo], mode));
}

/**
 * Note [Float floor division]
 * PyTorch's `div_floor_floating`, step for step, each step rounded to the dtype: division by
 * zero is the IEEE quotient (±inf, nan); otherwise the quotient is rebuilt from the exact
 * `fmod` so that it is the floor of the real quotient even where `floor(a / b)` is not
 * (`floor(1 / 0.1)` is 10, floor division gives 9), a result within 0.5 of the next integer
 * rounds up, and a zero quotient takes the sign of `a / b` (-0 for 0 / -3).
 */
export function floorDivide(a: number, b: number, mode: number): number {
  if (b === 0) return a / b;
  const mod = a % b;
  let div = roundTo(roundTo(a - mod, mode) / b, mode);
  if (mod !== 0 && b < 0 !== mod < 0) div = roundTo(div - 1, mode);
  if (div === 0) {
    const q = a / b;
    return q < 0 || (q === 0 && 1 / q < 0) ? -0 : 0;
  }
  let f = Math.floor(div);
  if (roundTo(div - f, mode) > 0.5) f += 1;
  return f;
}

export function divFloorRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number, mode: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = floorDivide(a[ao], b[bo], mode);
}

/** Python's modulo: fmod, then moved into the sign of the divisor (PyTorch's float remainder). */
export function remainderRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
    const y = b[bo];
    let m = a[ao] % y;
    if (m !== 0 && y < 0 !== m < 0) m += y;
    o[oo] = m;
  }
}

export function powRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  if (os === 1 && as === 1 && bs === 0) {
    const y = b[bo];
    if (y === 2) for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] * a[ao + i];
    else for (let i = 0; i < n; i++) o[oo + i] = cpow(a[ao + i], y);
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = cpow(a[ao], b[bo]);
  }
}

/**
 * NaN-propagating maximum; a tie returns `a`, so max(0, -0) is 0 and max(-0, 0) is -0, as
 * PyTorch's scalar loop (`std::max`-like). Its AVX2 loop returns `b` on ties instead
 * (`_mm256_max_ps`), so in PyTorch the sign of a zero result depends on the element's
 * position in its vector; only that sign can differ from PyTorch here.
 */
export function maximumRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
    const x = a[ao];
    const y = b[bo];
    o[oo] = x < y ? y : y === y ? x : y;
  }
}

/** NaN-propagating minimum; ties return `a`, as `maximumRow`. */
export function minimumRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
    const x = a[ao];
    const y = b[bo];
    o[oo] = y < x ? y : y === y ? x : y;
  }
}
