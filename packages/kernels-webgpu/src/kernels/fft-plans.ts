/// <reference types="@webgpu/types" />
import { TorchError } from '@torch-ts/core';
import { onDeviceLost } from '../runtime/device';
import { BufferUsage } from '../runtime/flags';
import type { CommandQueue } from '../runtime/queue';

/**
 * Note [WebGPU FFT tables]
 * The FFT kernels (Note [WebGPU FFT: Stockham passes, Bluestein for large primes], fft.ts)
 * read every root of unity from a table, never from WGSL's sin/cos: those lose accuracy on
 * large angles on some GPUs (NVIDIA's are approximations; Note [Division on WebGPU] tells the
 * same story for division), and a table is exact to float32 rounding whatever the length.
 * Each table is computed here in float64, with the angle reduced exactly in integers before
 * any floating point (j k mod n; k^2 mod 2n for the chirp), and rounded once to float32:
 *   - `roots(n)`: w[k] = exp(-2 pi i k / n), k < n, for the Stockham passes of length n (the
 *     inverse reads the conjugate);
 *   - `chirp(n)`: c[k] = exp(-pi i k^2 / n), k < n, for Bluestein (conjugate for the inverse);
 *   - `bluesteinFilter(n, m, inverse)`: the length-m DFT of Bluestein's convolution filter
 *     conj(c) (of the direction's chirp), divided by m so that the unnormalised inverse DFT
 *     of the convolution comes out right; computed by a float64 radix-2 FFT on the host.
 * The tables live in GPUBuffers of their own, outside the caching allocator: they are the
 * backend's (like the parameter ring), not tensors, so they never count as live tensors or
 * storages and an op's leak check stays flat after the first call. They are cached by name,
 * up to `MAX_TABLE_BYTES` in all, least recently used first out (never one the current call
 * took), and dropped with the device (`onDeviceLost`). Dropping one flushes the recorded
 * commands first, since a destroyed buffer may not be used by a later submit.
 */

/** The float32 bytes the table cache may hold before it drops the least recently used tables. */
export const MAX_TABLE_BYTES = 64 << 20;
/** The cache's bound, settable for tests (as the bind group cache's is). */
export const fftTableLimits = { maxBytes: MAX_TABLE_BYTES };

interface Table {
  readonly buffer: GPUBuffer;
  readonly bytes: number;
  lastUse: number;
}

const tables = new Map<string, Table>();
let cachedBytes = 0;
let clock = 0;
let tableDevice: GPUDevice | null = null;
/** Tables built, for tests: a loop over one shape builds none after its first call. */
let built = 0;
/** Tables dropped to stay within the bound, for tests. */
let dropped = 0;

onDeviceLost(() => {
  tables.clear();
  cachedBytes = 0;
  tableDevice = null;
});

/** What the table cache holds (for tests). */
export function fftTableStats(): { tables: number; bytes: number; built: number; dropped: number } {
  return { tables: tables.size, bytes: cachedBytes, built, dropped };
}

/**
 * Starts a call: the tables it takes after this are protected from eviction until the next
 * call starts. Returns the call's stamp.
 */
export function beginTableUse(): number {
  return ++clock;
}

/** The buffer of table `name`, built by `make` (interleaved re, im in float64) when not cached. */
export function table(q: CommandQueue, name: string, stamp: number, make: () => Float64Array): GPUBuffer {
  if (tableDevice !== q.device) {
    tables.clear();
    cachedBytes = 0;
    tableDevice = q.device;
  }
  const hit = tables.get(name);
  if (hit) {
    hit.lastUse = stamp;
    return hit.buffer;
  }
  const values = make();
  const f32 = new Float32Array(Math.max(4, values.length));
  f32.set(values);
  const bytes = f32.byteLength;
  evictFor(q, bytes, stamp);
  const buffer = q.device.createBuffer({ size: bytes, usage: BufferUsage.STORAGE | BufferUsage.COPY_DST });
  q.writeBuffer(buffer, 0, new Uint8Array(f32.buffer));
  tables.set(name, { buffer, bytes, lastUse: stamp });
  cachedBytes += bytes;
  built++;
  return buffer;
}

/** Drops least recently used tables (not this call's) until `bytes` more fit the budget. */
function evictFor(q: CommandQueue, bytes: number, stamp: number): void {
  if (cachedBytes + bytes <= fftTableLimits.maxBytes) return;
  const old = [...tables.entries()].filter(([, t]) => t.lastUse !== stamp).sort((a, b) => a[1].lastUse - b[1].lastUse);
  // A destroyed buffer may not be used by a later submit: the commands recorded so far that
  // read it go out first (Note [Block reuse in submission order]).
  q.flush();
  for (const [name, t] of old) {
    if (cachedBytes + bytes <= fftTableLimits.maxBytes) break;
    tables.delete(name);
    cachedBytes -= t.bytes;
    q.forgetBuffer(t.buffer);
    t.buffer.destroy();
    dropped++;
  }
}

/** exp(-2 pi i r / d) for an integer 0 <= r < d, as [re, im], with the angle folded to [0, pi/4]. */
export function rootOfUnity(r: number, d: number): [number, number] {
  // Fold by the symmetries of the circle so that Math.cos/sin see an angle of at most pi/4:
  // the float64 results are then good to an ulp or so of float64 whatever d is.
  const e = 8 * r; // the angle in units of 2 pi / (8 d)
  const oct = Math.floor(e / d); // octant 0..7
  const rem = e - oct * d; // 0 <= rem < d
  const a = (rem / (8 * d)) * 2 * Math.PI;
  const c = Math.cos(a);
  const s = Math.sin(a);
  // (cos, sin) of the full angle theta = oct * pi/4 + a, built from the octant
  const h = Math.SQRT1_2;
  let cos: number;
  let sin: number;
  switch (oct) {
    case 0: [cos, sin] = [c, s]; break;
    case 1: [cos, sin] = [h * (c - s), h * (c + s)]; break;
    case 2: [cos, sin] = [-s, c]; break;
    case 3: [cos, sin] = [-h * (c + s), h * (c - s)]; break;
    case 4: [cos, sin] = [-c, -s]; break;
    case 5: [cos, sin] = [-h * (c - s), -h * (c + s)]; break;
    case 6: [cos, sin] = [s, -c]; break;
    default: [cos, sin] = [h * (c + s), -h * (c - s)]; break;
  }
  return [cos, -sin];
}

/** w[k] = exp(-2 pi i k / n), k < n, interleaved. */
export function rootsTable(n: number): Float64Array {
  const w = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    const [re, im] = rootOfUnity(k, n);
    w[2 * k] = re;
    w[2 * k + 1] = im;
  }
  return w;
}

/** c[k] = exp(-pi i k^2 / n) = exp(-2 pi i (k^2 mod 2n) / 2n), k < n, interleaved; k^2 mod 2n kept exactly. */
export function chirpTable(n: number): Float64Array {
  const c = new Float64Array(2 * n);
  const twoN = 2 * n;
  let sq = 0; // k^2 mod 2n, stepped by (k+1)^2 = k^2 + 2k + 1 with every term below 2n
  for (let k = 0; k < n; k++) {
    const [re, im] = rootOfUnity(sq, twoN);
    c[2 * k] = re;
    c[2 * k + 1] = im;
    sq = (sq + ((2 * k + 1) % twoN)) % twoN;
  }
  return c;
}

/**
 * The DFT of Bluestein's filter for length n in a power-of-two length m >= 2n - 1, divided
 * by m: b[k] = conj(c[k]) for |k| < n (k taken mod m), 0 elsewhere, with c the chirp of the
 * direction (the forward chirp, or its conjugate for the inverse).
 */
export function bluesteinFilter(n: number, m: number, inverse: boolean): Float64Array {
  if (m < 2 * n - 1 || (m & (m - 1)) !== 0) throw new TorchError(`_fft_c2c: internal error: Bluestein length ${m} for n = ${n}`);
  const c = chirpTable(n);
  const b = new Float64Array(2 * m);
  // the forward transform's filter is conj(c); the inverse's chirp is conj(c), its filter c
  const s = inverse ? 1 : -1;
  for (let k = 0; k < n; k++) {
    b[2 * k] = c[2 * k];
    b[2 * k + 1] = s * c[2 * k + 1];
    if (k > 0) {
      b[2 * (m - k)] = c[2 * k];
      b[2 * (m - k) + 1] = s * c[2 * k + 1];
    }
  }
  hostFft(b, m);
  for (let i = 0; i < 2 * m; i++) b[i] /= m;
  return b;
}

/** In-place forward DFT of interleaved complex `x` of power-of-two length m, in float64 (iterative radix 2). */
export function hostFft(x: Float64Array, m: number): void {
  for (let i = 1, j = 0; i < m; i++) {
    let bit = m >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [x[2 * i], x[2 * j]] = [x[2 * j], x[2 * i]];
      [x[2 * i + 1], x[2 * j + 1]] = [x[2 * j + 1], x[2 * i + 1]];
    }
  }
  const w = rootsTable(m);
  for (let len = 2; len <= m; len <<= 1) {
    const half = len >> 1;
    const step = m / len;
    for (let i = 0; i < m; i += len) {
      for (let k = 0; k < half; k++) {
        const wr = w[2 * k * step];
        const wi = w[2 * k * step + 1];
        const a = 2 * (i + k);
        const b = 2 * (i + k + half);
        const tr = x[b] * wr - x[b + 1] * wi;
        const ti = x[b] * wi + x[b + 1] * wr;
        x[b] = x[a] - tr;
        x[b + 1] = x[a + 1] - ti;
        x[a] += tr;
        x[a + 1] += ti;
      }
    }
  }
}
