import { AutogradError, Tensor, asStrided, detach, isFloatingType, storageExtent, tensor, tidy } from '@torch-ts/core';
import { grad, list } from './api';

/**
 * Note [gradcheck]
 * PyTorch's `gradcheck`: the Jacobian of `fn` computed two ways must agree, for every
 * output and every input that requires grad:
 *  - numerically, by central differences: each element of each such input is moved by
 *    ±eps (a fresh input with the same sizes, strides and storage offset holds the moved
 *    values, so layout-dependent code paths are still taken) and (f(x+eps) - f(x-eps)) / 2eps
 *    is one row of the Jacobian;
 *  - analytically, one column per output element: `grad` of that output with a one-hot
 *    grad_output (retainGraph, allowUnused; an unused input's gradient is zero).
 * Entries agree when |analytical - numerical| <= atol + rtol * |numerical| (allclose).
 * Finite differences in float32 are too coarse for the default tolerances, so the inputs
 * that require grad must be float64. `gradgradcheck` runs gradcheck on the function that
 * maps (inputs, grad_outputs) to the first-order gradients, computed with createGraph, so
 * the second derivatives are checked the same way.
 *
 * `fastMode` is PyTorch's `fast_mode`: instead of whole Jacobians it compares one number per
 * (output, input) pair, vᵀ J u for random unit vectors u (per input) and v (per output),
 * numerically by one central difference along u (two evaluations of `fn` per input, not two
 * per input element) and analytically by one backward pass with grad_output v per output,
 * dotted with u. A wrong derivative moves vᵀ J u for all but a measure-zero set of (u, v),
 * so it is caught, though a small error in one entry is diluted by the vectors' spread; a
 * mismatch says to rerun without fastMode to see the entries.
 */
export interface GradcheckOptions {
  /** The finite-difference step. */
  eps?: number;
  atol?: number;
  rtol?: number;
  /** Throw an AutogradError that says what mismatched (default), or return false. */
  raiseException?: boolean;
  /** Compare random projections vᵀ J u instead of whole Jacobians (Note [gradcheck]). */
  fastMode?: boolean;
  /** The seed of fast mode's random vectors. */
  seed?: number;
}

export interface GradgradcheckOptions extends GradcheckOptions {
  /** The grad_outputs of the first derivative; random (seeded by `seed`) when left out. */
  gradOutputs?: readonly Tensor[] | null;
}

export type GradcheckFunction = (...inputs: Tensor[]) => Tensor | readonly Tensor[];

interface Resolved {
  readonly eps: number;
  readonly atol: number;
  readonly rtol: number;
  readonly raiseException: boolean;
}

function resolve(o: GradcheckOptions): Resolved {
  return { eps: o.eps ?? 1e-6, atol: o.atol ?? 1e-5, rtol: o.rtol ?? 1e-3, raiseException: o.raiseException ?? true };
}


/** `torch.autograd.gradcheck(fn, inputs, { eps, atol, rtol, raiseException })`. */
export async function gradcheck(fn: GradcheckFunction, inputs: readonly Tensor[], options: GradcheckOptions = {}): Promise<boolean> {
  const o = resolve(options);
  const diff = checkInputs('gradcheck', inputs);
  const outputs = evaluate(fn, inputs);
  let shapes: OutputInfo[];
  try {
    shapes = outputs.map((t) => ({ shape: [...t.shape], numel: t.numel(), floating: isFloatingType(t.dtype), requiresGrad: t.requiresGrad }));
  } finally {
    disposeOutputs(outputs, inputs);
  }
  if (!shapes.some((s) => s.floating)) {
    return fail(o, 'gradcheck: the function has no floating-point output to differentiate');
  }
  if (options.fastMode) return fastGradcheck(fn, inputs, diff, shapes, o, seeded(options.seed ?? 0));
  const numerical = await numericalJacobian(fn, inputs, diff, shapes, o.eps);
  const analytical = await analyticalJacobian(fn, inputs, diff, shapes);
  if (typeof analytical === 'string') return fail(o, analytical);
  for (let k = 0; k < shapes.length; k++) {
    if (!shapes[k].floating) continue;
    for (let n = 0; n < diff.length; n++) {
      const problem = compare(numerical[n][k], analytical[n][k], o);
      if (problem) {
        return fail(o, `gradcheck: Jacobian mismatch for output ${k} with respect to input ${diff[n]},\n${problem}`);
      }
    }
  }
  return true;
}

/**
 * `torch.autograd.gradgradcheck(fn, inputs, { gradOutputs, eps, atol, rtol, raiseException })`:
 * gradcheck of the first derivative (with createGraph), so second derivatives are checked.
 */
export async function gradgradcheck(fn: GradcheckFunction, inputs: readonly Tensor[], options: GradgradcheckOptions = {}): Promise<boolean> {
  const diff = checkInputs('gradgradcheck', inputs);
  const outputs = evaluate(fn, inputs);
  let used: number[];
  let made: Tensor[] = [];
  try {
    used = outputs.flatMap((t, k) => (isFloatingType(t.dtype) && t.requiresGrad ? [k] : []));
    if (options.gradOutputs) {
      if (options.gradOutputs.length !== used.length) {
        throw new AutogradError(`gradgradcheck: expected ${used.length} gradOutputs (one per differentiable output), got ${options.gradOutputs.length}`);
      }
    } else {
      const random = seeded(options.seed ?? 0);
      made = used.map((k) => randomLike(outputs[k], random));
    }
  } finally {
    disposeOutputs(outputs, inputs);
  }
  const gradOutputs = options.gradOutputs ? [...options.gradOutputs] : made;
  const n = inputs.length;
  const firstDerivative: GradcheckFunction = (...all) => {
    const ins = all.slice(0, n);
    const outs = list(fn(...ins));
    const grads = grad(
      used.map((k) => outs[k]),
      diff.map((i) => ins[i]),
      { gradOutputs: all.slice(n), createGraph: true, allowUnused: true },
    );
    return grads.filter((g): g is Tensor => g !== null);
  };
  try {
    return await gradcheck(firstDerivative, [...inputs, ...gradOutputs], options);
  } finally {
    for (const t of made) t.dispose();
  }
}

// ---- the two Jacobians ----

interface OutputInfo {
  readonly shape: readonly number[];
  readonly numel: number;
  readonly floating: boolean;
  readonly requiresGrad: boolean;
}

/** jac[n][k][j * outNumel + m] = d output_k[m] / d input_diff[n][j]; null for a non-floating output. */
type Jacobians = (Float64Array | null)[][];

function emptyJacobians(inputs: readonly Tensor[], diff: readonly number[], outs: readonly OutputInfo[]): Jacobians {
  return diff.map((i) => outs.map((o) => (o.floating ? new Float64Array(inputs[i].numel() * o.numel) : null)));
}

async function numericalJacobian(
  fn: GradcheckFunction,
  inputs: readonly Tensor[],
  diff: readonly number[],
  outs: readonly OutputInfo[],
  eps: number,
): Promise<Jacobians> {
  const jac = emptyJacobians(inputs, diff, outs);
  for (let n = 0; n < diff.length; n++) {
    const x = inputs[diff[n]];
    const values = await float64Values(x);
    for (let j = 0; j < values.length; j++) {
      const at = async (delta: number) => {
        const moved = Float64Array.from(values);
        moved[j] += delta;
        const args = [...inputs];
        args[diff[n]] = rebuild(x, moved);
        try {
          return await outputValues(fn, args, outs);
        } finally {
          args[diff[n]].dispose();
        }
      };
      const plus = await at(eps);
      const minus = await at(-eps);
      outs.forEach((o, k) => {
        const col = jac[n][k];
        if (!col) return;
        for (let m = 0; m < o.numel; m++) col[j * o.numel + m] = (plus[k]![m] - minus[k]![m]) / (2 * eps);
      });
    }
  }
  return jac;
}

/** The analytical Jacobians, or a message when a gradient has the wrong shape or dtype. */
async function analyticalJacobian(
  fn: GradcheckFunction,
  inputs: readonly Tensor[],
  diff: readonly number[],
  outs: readonly OutputInfo[],
): Promise<Jacobians | string> {
  const jac = emptyJacobians(inputs, diff, outs);
  const outputs = evaluate(fn, inputs);
  try {
    for (let k = 0; k < outs.length; k++) {
      const o = outputs[k];
      if (!outs[k].floating || !o.requiresGrad) continue; // a constant output: its Jacobian stays zero
      for (let m = 0; m < outs[k].numel; m++) {
        const oneHot = new Float64Array(outs[k].numel);
        oneHot[m] = 1;
        const grads = await weightedGradients(o, oneHot, k, inputs, diff);
        if (typeof grads === 'string') return grads;
        grads.forEach((v, n) => {
          if (!v) return;
          const col = jac[n][k]!;
          for (let j = 0; j < v.length; j++) col[j * outs[k].numel + m] = v[j];
        });
      }
    }
  } finally {
    disposeOutputs(outputs, inputs);
  }
  return jac;
}

/** Fast mode (Note [gradcheck]): vᵀ J u numerically and analytically, per output and input. */
async function fastGradcheck(
  fn: GradcheckFunction,
  inputs: readonly Tensor[],
  diff: readonly number[],
  outs: readonly OutputInfo[],
  o: Resolved,
  random: () => number,
): Promise<boolean> {
  const unit = (n: number) => {
    const v = Float64Array.from({ length: n }, random);
    const norm = Math.sqrt(v.reduce((acc, x) => acc + x * x, 0));
    return norm > 0 ? v.map((x) => x / norm) : v;
  };
  const us = diff.map((i) => unit(inputs[i].numel()));
  const vs = outs.map((s) => (s.floating ? unit(s.numel) : null));
  const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
    let acc = 0;
    for (let i = 0; i < a.length; i++) acc += a[i] * b[i];
    return acc;
  };
  // numerical[n][k] = vₖᵀ (f(x + eps uₙ) - f(x - eps uₙ)) / 2eps
  const numerical: number[][] = [];
  for (let n = 0; n < diff.length; n++) {
    const x = inputs[diff[n]];
    // an empty input's Jacobians are empty: vᵀ J u is 0, as the whole Jacobians compare nothing
    if (x.numel() === 0) {
      numerical.push(outs.map(() => 0));
      continue;
    }
    const values = await float64Values(x);
    const at = async (delta: number) => {
      const args = [...inputs];
      args[diff[n]] = rebuild(x, values.map((v, j) => v + delta * us[n][j]));
      try {
        return await outputValues(fn, args, outs);
      } finally {
        args[diff[n]].dispose();
      }
    };
    const plus = await at(o.eps);
    const minus = await at(-o.eps);
    numerical.push(outs.map((s, k) => (s.floating && s.numel > 0 ? dot(vs[k]!, plus[k]!.map((p, m) => (p - minus[k]![m]) / (2 * o.eps))) : 0)));
  }
  // analytical[n][k] = uₙᵀ (Jₖₙᵀ vₖ), one backward pass per output
  const analytical: number[][] = diff.map(() => outs.map(() => 0));
  const outputs = evaluate(fn, inputs);
  try {
    for (let k = 0; k < outs.length; k++) {
      const out = outputs[k];
      if (!outs[k].floating || !out.requiresGrad || outs[k].numel === 0) continue;
      const grads = await weightedGradients(out, vs[k]!, k, inputs, diff);
      if (typeof grads === 'string') return fail(o, grads);
      grads.forEach((v, n) => {
        if (v && v.length > 0) analytical[n][k] = dot(us[n], v);
      });
    }
  } finally {
    disposeOutputs(outputs, inputs);
  }
  for (let k = 0; k < outs.length; k++) {
    if (!outs[k].floating) continue;
    for (let n = 0; n < diff.length; n++) {
      const a = analytical[n][k];
      const num = numerical[n][k];
      if (!(Math.abs(a - num) <= o.atol + o.rtol * Math.abs(num))) {
        return fail(
          o,
          `gradcheck: Jacobian mismatch for output ${k} with respect to input ${diff[n]},\n` +
            `numerical vᵀJu ${num}, analytical vᵀJu ${a} (atol ${o.atol}, rtol ${o.rtol})\n` +
            'These are random projections of the Jacobians (fastMode); run gradcheck with fastMode: false to see the entries that differ.',
        );
      }
    }
  }
  return true;
}

/** The first entry outside the tolerance, described with both Jacobians; null when all agree. */
function compare(numerical: Float64Array | null, analytical: Float64Array | null, o: Resolved): string | null {
  if (!numerical || !analytical) return null;
  let worst = -1;
  let worstDiff = 0;
  for (let i = 0; i < numerical.length; i++) {
    const a = analytical[i];
    const n = numerical[i];
    const d = Math.abs(a - n);
    const ok = d <= o.atol + o.rtol * Math.abs(n);
    if (!ok && (worst < 0 || !(d <= worstDiff))) {
      worst = i;
      worstDiff = Number.isNaN(d) ? NaN : d;
      if (Number.isNaN(d)) break;
    }
  }
  if (worst < 0) return null;
  return (
    `max difference ${worstDiff} (numerical ${numerical[worst]}, analytical ${analytical[worst]}) ` +
    `at Jacobian entry ${worst} (atol ${o.atol}, rtol ${o.rtol})\n` +
    `numerical:  [${formatList(numerical)}]\nanalytical: [${formatList(analytical)}]`
  );
}

function formatList(a: Float64Array): string {
  const shown = Array.from(a.subarray(0, 64), (v) => Number(v.toPrecision(6)));
  return shown.join(', ') + (a.length > 64 ? `, ... (${a.length} entries)` : '');
}

// ---- inputs and outputs ----

/** The indices of the inputs that require grad; float64 only (Note [gradcheck]). */
function checkInputs(op: string, inputs: readonly Tensor[]): number[] {
  const diff: number[] = [];
  inputs.forEach((x, i) => {
    if (!(x instanceof Tensor)) throw new AutogradError(`${op}: input ${i} is not a Tensor`);
    if (!x.requiresGrad) return;
    if (x.dtype !== 'float64') {
      throw new AutogradError(
        `${op}: input ${i} requires grad and has dtype ${x.dtype}; gradcheck needs float64 inputs (finite differences in lower precision cannot meet its tolerances): pass x.double()`,
      );
    }
    if (overlaps(x.shape, x.stride())) {
      throw new AutogradError(
        `${op}: input ${i} has elements that share memory (sizes [${x.shape.join(', ')}], strides [${x.stride().join(', ')}]); gradcheck perturbs one element at a time and needs inputs whose elements do not overlap: pass x.contiguous()`,
      );
    }
    diff.push(i);
  });
  if (diff.length === 0) throw new AutogradError(`${op}: expects at least one input tensor to require gradient`);
  return diff;
}

/** Whether two elements of a (sizes, strides) window can share a storage position. */
function overlaps(sizes: readonly number[], strides: readonly number[]): boolean {
  const dims = sizes.map((s, d) => [s, strides[d]] as const).filter(([s]) => s > 1).sort((a, b) => a[1] - b[1]);
  let extent = 1; // positions spanned by the dims seen so far
  for (const [size, stride] of dims) {
    if (stride < extent) return true;
    extent = stride * (size - 1) + extent;
  }
  return false;
}

/** Runs `fn`, keeping its outputs and releasing everything else it made. */
function evaluate(fn: GradcheckFunction, args: readonly Tensor[]): Tensor[] {
  return tidy(() => list(fn(...args)));
}

/** Disposes outputs, except one that is an input itself (an identity function returns it). */
function disposeOutputs(outputs: readonly Tensor[], inputs: readonly Tensor[]): void {
  for (const t of outputs) if (!inputs.includes(t)) t.dispose();
}

async function outputValues(fn: GradcheckFunction, args: readonly Tensor[], outs: readonly OutputInfo[]): Promise<(Float64Array | null)[]> {
  const outputs = evaluate(fn, args);
  try {
    if (outputs.length !== outs.length) {
      throw new AutogradError(`gradcheck: the function returned ${outputs.length} outputs for perturbed inputs, ${outs.length} before`);
    }
    const values: (Float64Array | null)[] = [];
    for (let k = 0; k < outs.length; k++) values.push(outs[k].floating ? await float64Values(outputs[k]) : null);
    return values;
  } finally {
    disposeOutputs(outputs, args);
  }
}

async function float64Values(t: Tensor): Promise<Float64Array> {
  const d = await t.data();
  if (d instanceof Float64Array) return d;
  // (an int64 tensor reads as numbers unless asked for bigints: this branch is for completeness)
  return d instanceof BigInt64Array ? Float64Array.from(d, Number) : Float64Array.from(d);
}

/**
 * A new leaf with `like`'s sizes, strides, storage offset, dtype, device and requiresGrad,
 * holding `values` (row-major). Storage positions outside the window hold 0.
 */
function rebuild(like: Tensor, values: Float64Array): Tensor {
  const sizes = like.shape;
  const strides = like.stride();
  const offset = like.storageOffset();
  const storage = new Float64Array(Math.max(storageExtent(sizes, strides, offset), offset));
  const idx = new Array<number>(sizes.length).fill(0);
  for (let flat = 0; flat < values.length; flat++) {
    let pos = offset;
    for (let d = 0; d < sizes.length; d++) pos += idx[d] * strides[d];
    storage[pos] = values[flat];
    for (let d = sizes.length - 1; d >= 0; d--) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
  const base = tensor(storage, { dtype: like.dtype, device: like.device });
  const window = asStrided(base, sizes, strides, offset);
  const leaf = detach(window);
  window.dispose();
  base.dispose();
  if (like.requiresGrad) leaf.requiresGrad_(true);
  return leaf;
}

/**
 * The gradients of output k (`out`) with grad_output `weights`, for each input that requires
 * grad, as float64 values (null where the input is unused); or what is wrong with one.
 */
async function weightedGradients(
  out: Tensor,
  weights: Float64Array,
  k: number,
  inputs: readonly Tensor[],
  diff: readonly number[],
): Promise<(Float64Array | null)[] | string> {
  const g0 = tensor(weights, { dtype: out.dtype, device: out.device });
  const gradOutput = g0.reshape([...out.shape]);
  const grads = grad([out], diff.map((i) => inputs[i]), { gradOutputs: [gradOutput], retainGraph: true, allowUnused: true });
  try {
    const values: (Float64Array | null)[] = [];
    for (let n = 0; n < diff.length; n++) {
      const g = grads[n];
      if (!g) {
        values.push(null);
        continue;
      }
      const bad = gradientMismatch(k, diff[n], g, inputs[diff[n]]);
      if (bad) return bad;
      values.push(await float64Values(g));
    }
    return values;
  } finally {
    for (const g of grads) g?.dispose();
    gradOutput.dispose();
    g0.dispose();
  }
}

/** What is wrong with the gradient `g` of output k for input i (a dtype or shape other than the input's), or null. */
function gradientMismatch(k: number, i: number, g: Tensor, x: Tensor): string | null {
  if (g.dtype === x.dtype && sameShape(g.shape, x.shape)) return null;
  return `gradcheck: the gradient of output ${k} for input ${i} has dtype ${g.dtype} and shape [${g.shape.join(', ')}], but the input has dtype ${x.dtype} and shape [${x.shape.join(', ')}]`;
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** Uniform values in [-1, 1) from a small seeded generator (mulberry32), so runs repeat. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  };
}

function randomLike(t: Tensor, random: () => number): Tensor {
  const v = Float64Array.from({ length: t.numel() }, random);
  const flat = tensor(v, { dtype: t.dtype, device: t.device });
  const shaped = flat.reshape([...t.shape]);
  const leaf = detach(shaped);
  shaped.dispose();
  flat.dispose();
  return leaf.requiresGrad_(true);
}

function fail(o: Resolved, message: string): false {
  if (o.raiseException) throw new AutogradError(message);
  return false;
}
