/**
 * What a draw of a random op must satisfy, whatever generator made it: the `randomCheck`s
 * of OpInfo (types.ts), run on devices whose random values are their own (WebGPU's Philox,
 * DeviceHarness.ownRandomValues), where the goldens' values (PyTorch CPU's MT19937 draws)
 * cannot match. Each check is exact where the op is deterministic (dropout in eval mode, a
 * probability of 0 or 1, a zero weight), structural where it is not (a mask of 0 and
 * 1 / (1 - p), distinct samples). The golden cases are a few elements each, too few to
 * tell a frequency of 0.3 from 0.7, so each check also draws LARGE elements with the
 * case's parameters on the device and bounds the frequencies by 5 standard errors (a seed
 * fixes every draw, so a check that passes once passes every run).
 */
import * as torch from '@torch-ts/torch';
import type { DeviceLike, Tensor } from '@torch-ts/torch';
import type { ReadBack } from '../values';
import { bool, num, options, required } from './kwargs';
import type { Kwargs } from './types';

const LARGE = 1 << 16;

/** The values of a device tensor as numbers (the tensor is disposed). */
async function valuesOf(t: Tensor): Promise<number[]> {
  try {
    const d = await t.data();
    return d instanceof BigInt64Array ? Array.from(d, Number) : Array.from(d);
  } finally {
    t.dispose();
  }
}

function countOf(v: readonly number[], f: (x: number) => boolean): number {
  let n = 0;
  for (const x of v) if (f(x)) n++;
  return n;
}

type Input = ReadBack | number | boolean;

/** The case's first input, which the random ops take as a tensor. */
function tensorInput(inputs: readonly Input[], op: string): ReadBack {
  const x = inputs[0];
  if (typeof x === 'object') return x;
  throw new Error(`${op}: the OpInfo sample gives ${typeof x} where a tensor is expected`);
}

function numbers(r: ReadBack): number[] {
  const values: readonly (number | bigint | boolean)[] = r.values;
  return values.map(Number);
}

// (the case's kwargs as the goldens hold them, seed included: Note [Checked kwargs])
const DROPOUT_KW = options({ seed: num, p: num, training: bool });
const BERNOULLI_KW = options({ seed: num, p: num });
const MULTINOMIAL_KW = options({ seed: num, numSamples: required(num), replacement: bool });

function frequencyProblems(what: string, count: number, n: number, p: number): string[] {
  if (n === 0) return [];
  const se = Math.sqrt((p * (1 - p)) / n);
  return Math.abs(count / n - p) <= 5 * se + 1e-12 ? [] : [`${what}: ${count} of ${n}, expected a frequency of ${p} (within 5 standard errors)`];
}

/** Relative error of a couple of roundings in the dtype (dropout rounds its scale, then the product). */
const REL: Readonly<Record<string, number>> = { float64: 1e-12, float32: 1e-5, float16: 2e-3, bfloat16: 1.6e-2 };

/** Whether `y` is `want` (NaN for NaN, else within `rel` relative). */
function near(y: number, want: number, rel: number): boolean {
  if (Number.isNaN(want)) return Number.isNaN(y);
  if (!Number.isFinite(want)) return y === want;
  return Math.abs(y - want) <= rel * Math.abs(want) + 1e-30;
}

/** dropout: eval mode or p = 0 returns x; p = 1 zeroes; else each y is x * 0 or x / (1 - p), kept with frequency 1 - p. */
export async function dropoutCheck(got: readonly ReadBack[], inputs: readonly Input[], kwargs: Kwargs, device: DeviceLike): Promise<string[]> {
  const xs = numbers(tensorInput(inputs, 'dropout'));
  const ys = numbers(got[0]);
  const o = DROPOUT_KW(kwargs);
  const p = o.p ?? 0.5;
  const training = o.training ?? true;
  const rel = REL[got[0].dtype] ?? 1e-5;
  const bad: string[] = [];
  let kept = 0;
  let decidable = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    const y = ys[i];
    if (!training || p === 0) {
      if (!Object.is(y, x) && !(Number.isNaN(x) && Number.isNaN(y))) bad.push(`element ${i}: ${y}, expected x = ${x} (not training)`);
      continue;
    }
    const dropped = x * 0;
    const scaled = x / (1 - p);
    const isDropped = Number.isNaN(dropped) ? Number.isNaN(y) : y === 0;
    const isKept = p < 1 && near(y, scaled, rel);
    if (!isDropped && !isKept) bad.push(`element ${i}: ${y}, expected 0 or x / (1 - p) = ${scaled}`);
    if (Number.isFinite(x) && x !== 0 && p < 1) {
      decidable++;
      if (isKept) kept++;
    }
  }
  if (!(training && p > 0 && p < 1)) return bad.slice(0, 5);
  const large = await valuesOf(torch.tidy(() => torch.nn.functional.dropout(torch.ones([LARGE], { dtype: got[0].dtype, device }), { p })));
  return [
    ...bad.slice(0, 5),
    ...frequencyProblems('kept elements', kept, decidable, 1 - p),
    ...frequencyProblems(`kept elements of dropout(ones(${LARGE}))`, countOf(large, (v) => v !== 0), LARGE, 1 - p),
  ];
}

/** bernoulli: 0 or 1 each; a probability of 0 gives 0 and of 1 gives 1; the count of ones near the sum of the probabilities. */
export async function bernoulliCheck(got: readonly ReadBack[], inputs: readonly Input[], kwargs: Kwargs, device: DeviceLike): Promise<string[]> {
  const ys = numbers(got[0]);
  const scalar = BERNOULLI_KW(kwargs).p;
  const probs = scalar === undefined ? numbers(tensorInput(inputs, 'bernoulli')) : ys.map(() => scalar);
  const bad: string[] = [];
  let ones = 0;
  let mean = 0;
  let variance = 0;
  for (let i = 0; i < ys.length; i++) {
    const y = ys[i];
    const q = probs[i];
    if (y !== 0 && y !== 1) bad.push(`element ${i}: ${y}, expected 0 or 1`);
    else if ((q === 0 && y !== 0) || (q === 1 && y !== 1)) bad.push(`element ${i}: ${y} with probability ${q}`);
    ones += y === 1 ? 1 : 0;
    mean += q;
    variance += q * (1 - q);
  }
  if (Math.abs(ones - mean) > 5 * Math.sqrt(variance) + 1e-9) bad.push(`${ones} ones, expected about ${mean} (the sum of the probabilities)`);
  // a large draw at (up to) three of the case's probabilities
  const dtype = got[0].dtype;
  for (const q of [...new Set(probs.filter((x) => x > 0 && x < 1))].slice(0, 3)) {
    const v = await valuesOf(
      torch.tidy(() => (scalar === undefined ? torch.bernoulli(torch.full([LARGE], q, { dtype, device })) : torch.bernoulli(torch.empty([LARGE], { dtype, device }), q))),
    );
    bad.push(...frequencyProblems(`ones in bernoulli(${LARGE} x ${q})`, countOf(v, (x) => x === 1), LARGE, q));
  }
  return bad.slice(0, 6);
}

/**
 * multinomial: int64 categories in range; a zero weight only once every positive one is
 * drawn (without replacement) or never (with); without replacement distinct in each row.
 */
export async function multinomialCheck(got: readonly ReadBack[], inputs: readonly Input[], kwargs: Kwargs, device: DeviceLike): Promise<string[]> {
  const probs = tensorInput(inputs, 'multinomial');
  const w = numbers(probs);
  const nCat = probs.shape[probs.shape.length - 1];
  const rows = probs.shape.length === 2 ? probs.shape[0] : 1;
  const o = MULTINOMIAL_KW(kwargs);
  const numSamples = o.numSamples;
  const replacement = o.replacement ?? false;
  const ys = numbers(got[0]);
  const bad: string[] = [];
  for (let r = 0; r < rows; r++) {
    const weights = w.slice(r * nCat, (r + 1) * nCat);
    const positive = weights.filter((x) => x > 0).length;
    const row = ys.slice(r * numSamples, (r + 1) * numSamples);
    const seen = new Set<number>();
    row.forEach((k, s) => {
      if (!Number.isInteger(k) || k < 0 || k >= nCat) bad.push(`row ${r}, sample ${s}: category ${k} out of [0, ${nCat})`);
      else if (!(weights[k] > 0) && (replacement || s < positive)) bad.push(`row ${r}, sample ${s}: category ${k} has weight ${weights[k]}`);
      if (!replacement && seen.has(k)) bad.push(`row ${r}: category ${k} drawn twice without replacement`);
      seen.add(k);
    });
    if (replacement) {
      const total = weights.reduce((a, b) => a + b, 0);
      for (let k = 0; k < nCat; k++) {
        bad.push(...frequencyProblems(`row ${r}, category ${k}`, row.filter((x) => x === k).length, numSamples, weights[k] / total));
      }
    }
  }
  // large draws from the first row: LARGE samples with replacement, and the first sample
  // (the top key of the Gumbel-max trick) of LARGE / 4 copies of the row without
  const first = w.slice(0, nCat);
  const total = first.reduce((a, b) => a + b, 0);
  const dtype = probs.dtype;
  const row = torch.tensor(first, { dtype: 'float32' }).to(dtype).to(device);
  try {
    const withR = await valuesOf(torch.multinomial(row, LARGE, { replacement: true }));
    const copies = LARGE / 4;
    const firsts = await valuesOf(torch.tidy(() => torch.multinomial(row.unsqueeze(0).expand(copies, nCat).contiguous(), Math.min(2, nCat)).index('...', 0)));
    for (let k = 0; k < nCat; k++) {
      bad.push(...frequencyProblems(`category ${k} in ${LARGE} samples with replacement`, countOf(withR, (x) => x === k), LARGE, first[k] / total));
      bad.push(...frequencyProblems(`category ${k} first of ${copies} rows without replacement`, countOf(firsts, (x) => x === k), copies, first[k] / total));
    }
  } finally {
    row.dispose();
  }
  return bad.slice(0, 6);
}
