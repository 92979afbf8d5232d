import { AutogradError, Tensor, stack, zeros, zerosLike } from '@torch-ts/core';
import { grad } from './api';
import { dualLevel, makeDual, unpackDual } from './forward-ad';

/**
 * Note [torch.autograd.functional]
 * PyTorch 1.13's `torch.autograd.functional`, on the engine's `grad` and on forward AD:
 *  - inputs are a Tensor or a list of them, and every result keeps that structure (a list
 *    where PyTorch gives a tuple); `vjp jvp vhp hvp` return `[output, result]`;
 *  - inputs are prepared as PyTorch's `_grad_preprocess` does: without `createGraph`, a
 *    detached copy requiring grad (the results then carry no history); with it, a view that
 *    keeps the input's history;
 *  - `strict` raises where an output is independent of an input (PyTorch's messages), else
 *    such a block is zeros;
 *  - `jacobian` loops over the output's elements (reverse mode) or the input's (forward mode,
 *    one dual level per column); `vectorize` is accepted and gives the same numbers by the same
 *    loop (PyTorch's vmap is a batching of that loop); forward mode requires it, as PyTorch's;
 *  - `jvp` uses the double-backward trick as PyTorch's does; `hvp` without `createGraph` is
 *    forward-over-reverse (the tangent of the gradient; Note [Forward-mode AD]), with it the
 *    double backward; `vhp` is the gradient of <grad f, v>. For a twice-differentiable f, H is
 *    symmetric and all give the same numbers as PyTorch's.
 */

export type Inputs = Tensor | readonly Tensor[];
type Fn = (...inputs: Tensor[]) => Tensor | readonly Tensor[];

export interface FunctionalOptions {
  readonly createGraph?: boolean;
  readonly strict?: boolean;
}

export interface JacobianOptions extends FunctionalOptions {
  readonly vectorize?: boolean;
  readonly strategy?: 'reverse-mode' | 'forward-mode';
}

export interface HessianOptions extends FunctionalOptions {
  readonly vectorize?: boolean;
  readonly outerJacobianStrategy?: 'reverse-mode' | 'forward-mode';
}

const asList = (op: string, name: string, x: unknown): Tensor[] => {
  const l = Array.isArray(x) ? x : [x];
  l.forEach((t, i) => {
    if (!(t instanceof Tensor)) {
      throw new TypeError(`${op}: The ${name} given to ${op} must be either a Tensor or a tuple of Tensors but the value at index ${i} has type ${typeof t}.`);
    }
  });
  return l as Tensor[];
};

/** PyTorch's `_grad_preprocess`. */
function prepare(inputs: readonly Tensor[], createGraph: boolean, needGraph: boolean): Tensor[] {
  return inputs.map((x) => (createGraph && x.requiresGrad ? x.view(x.shape) : x.detach().requiresGrad_(needGraph)));
}

/** PyTorch's `_grad_postprocess`: results detached unless a graph was asked for. */
function finish<T extends Tensor | null>(t: T, createGraph: boolean): T {
  return (t !== null && !createGraph ? t.detach() : t) as T;
}

function checkV(op: string, v: readonly Tensor[], like: readonly Tensor[], name = 'v'): void {
  if (v.length !== like.length) throw new AutogradError(`${op}: ${name} is a tuple of invalid length: should be ${like.length} but got ${v.length}.`);
  v.forEach((t, i) => {
    if (t.shape.join(',') !== like[i].shape.join(',')) {
      throw new AutogradError(`${op}: Entry ${i} in ${name} has invalid size: should be [${like[i].shape.join(', ')}] but got [${t.shape.join(', ')}].`);
    }
  });
}

/** Gradients of `outs` (weighted by `gradOuts`) wrt `ins`; null (or an error under strict) where independent. */
function gradsOf(op: string, outs: Tensor[], ins: Tensor[], gradOuts: Tensor[] | null, createGraph: boolean, strict: boolean, what: string): (Tensor | null)[] {
  const live = outs.map((o, i) => [o, gradOuts?.[i]] as const).filter(([o]) => o.requiresGrad);
  const gs: (Tensor | null)[] =
    live.length === 0
      ? ins.map(() => null)
      : grad(
          live.map(([o]) => o),
          ins,
          { gradOutputs: gradOuts ? live.map(([, g]) => g!) : null, retainGraph: true, createGraph, allowUnused: true },
        );
  if (strict) {
    gs.forEach((g, i) => {
      if (g === null) throw new AutogradError(`${op}: The ${what} of the user-provided function is independent of input ${i}. This is not allowed in strict mode.`);
    });
  }
  return gs;
}

const restructure = <T>(inputs: Inputs, l: T[]): T | T[] => (Array.isArray(inputs) ? l : l[0]);

/** `torch.autograd.functional.vjp(func, inputs, v)`: `[func(inputs), v^T J]`. */
export function vjp(func: Fn, inputs: Inputs, v?: Inputs | null, options: FunctionalOptions = {}): [Tensor | Tensor[], Tensor | Tensor[]] {
  const createGraph = options.createGraph ?? false;
  const ins = prepare(asList('vjp', 'inputs', inputs), createGraph, true);
  const raw = func(...ins);
  const outs = asList('vjp', 'outputs of the user-provided function', raw);
  let vs: Tensor[];
  if (v == null) {
    if (outs.length !== 1 || outs[0].numel() !== 1) {
      throw new AutogradError('vjp: The vector v can only be None if the user-provided function returns a single Tensor with a single element.');
    }
    vs = [outs[0].detach().mul(0).add(1)];
  } else {
    vs = asList('vjp', 'v', v);
    checkV('vjp', vs, outs);
  }
  const gs = gradsOf('vjp', outs, ins, vs, createGraph, options.strict ?? false, 'output');
  const res = gs.map((g, i) => finish(g ?? zerosLike(ins[i]), createGraph));
  const out = outs.map((o) => finish(o, createGraph));
  return [Array.isArray(raw) ? out : out[0], restructure(inputs, res)];
}

/** `torch.autograd.functional.jvp(func, inputs, v)`: `[func(inputs), J v]`, by the double-backward trick. */
export function jvp(func: Fn, inputs: Inputs, v?: Inputs | null, options: FunctionalOptions = {}): [Tensor | Tensor[], Tensor | Tensor[]] {
  const createGraph = options.createGraph ?? false;
  const strict = options.strict ?? false;
  const insList = asList('jvp', 'inputs', inputs);
  let vs: Tensor[];
  if (v == null) {
    if (insList.length !== 1 || insList[0].numel() !== 1) {
      throw new AutogradError('jvp: The vector v can only be None if the input to the user-provided function is a single Tensor with a single element.');
    }
    vs = [insList[0].detach().mul(0).add(1)];
  } else {
    vs = asList('jvp', 'v', v);
    checkV('jvp', vs, insList);
  }
  const ins = prepare(insList, createGraph, true);
  const raw = func(...ins);
  const outs = asList('jvp', 'outputs of the user-provided function', raw);
  // u -> J^T u is linear in u; its vjp with v is J v
  const us = outs.map((o) => zerosLike(o).requiresGrad_());
  const gs = gradsOf('jvp', outs, ins, us, true, strict, 'output');
  const live = gs.map((g, i) => [g, vs[i]] as const).filter(([g]) => g !== null && g.requiresGrad);
  const jv: (Tensor | null)[] =
    live.length === 0 ? us.map(() => null) : grad(live.map(([g]) => g!), us, { gradOutputs: live.map(([, t]) => t), createGraph, allowUnused: true });
  if (strict) {
    jv.forEach((t, i) => {
      if (t === null) throw new AutogradError(`jvp: The gradient with respect to the input is independent of entry ${i} in the grad_outputs when using the double backward trick to compute forward mode gradients. This is not allowed in strict mode.`);
    });
  }
  const res = jv.map((t, i) => finish(t ?? zerosLike(outs[i]), createGraph));
  const out = outs.map((o) => finish(o, createGraph));
  return [Array.isArray(raw) ? out : out[0], Array.isArray(raw) ? res : res[0]];
}

/** The Jacobian blocks `[output i][input j]`, each of shape out_i.shape + in_j.shape. */
function jacobianBlocks(func: Fn, ins: Tensor[], createGraph: boolean, strict: boolean, strategy: string, op: string): { blocks: Tensor[][]; single: boolean } {
  if (strategy === 'forward-mode') {
    if (createGraph) throw new AutogradError(`${op}: torch.autograd.functional.jacobian does not support create_graph=True with strategy="forward-mode"`);
    if (strict) throw new AutogradError(`${op}: torch.autograd.functional.jacobian does not support strict=True with strategy="forward-mode"`);
    // one column per input element: a dual level with the basis tangent e_k on that input
    const columns: Tensor[][][] = ins.map(() => []); // [input][column][output]
    let outShapes: (readonly number[])[] = [];
    let single = false;
    ins.forEach((x, j) => {
      for (let k = 0; k < Math.max(x.numel(), 0); k++) {
        dualLevel(() => {
          const duals = ins.map((y, jj) => {
            if (jj !== j) return y;
            const e = zeros([y.numel()], { dtype: y.dtype, device: y.device });
            e.index(k).fill_(1);
            return makeDual(y, e.reshape(y.shape));
          });
          const raw = func(...duals);
          single = !Array.isArray(raw);
          const outs = asList(op, 'outputs of the user-provided function', raw);
          outShapes = outs.map((o) => o.shape);
          columns[j].push(outs.map((o) => unpackDual(o).tangent?.clone() ?? zerosLike(o)));
        });
      }
    });
    if (outShapes.length === 0) {
      const raw = func(...ins);
      single = !Array.isArray(raw);
      outShapes = asList(op, 'outputs of the user-provided function', raw).map((o) => o.shape);
    }
    const blocks = outShapes.map((shape, i) =>
      ins.map((x, j) =>
        columns[j].length === 0 ? zeros([...shape, ...x.shape], { dtype: x.dtype, device: x.device }) : stack(columns[j].map((c) => c[i].reshape([-1])), -1).reshape([...shape, ...x.shape]),
      ),
    );
    return { blocks, single };
  }
  const raw = func(...ins);
  const outs = asList(op, 'outputs of the user-provided function', raw);
  const blocks = outs.map((o, i) => {
    const flat = o.reshape([-1]);
    const rows: (Tensor | null)[][] = [];
    for (let k = 0; k < flat.numel(); k++) {
      const gs = o.requiresGrad ? gradsOf(op, [flat.index(k)], ins, null, createGraph, false, 'output') : ins.map(() => null);
      if (strict) {
        gs.forEach((g, j) => {
          if (g === null) throw new AutogradError(`${op}: Output ${i} of the user-provided function is independent of input ${j}. This is not allowed in strict mode.`);
        });
      }
      rows.push(gs);
    }
    return ins.map((x, j) => {
      const shape = [...o.shape, ...x.shape];
      if (rows.length === 0) return zeros(shape, { dtype: x.dtype, device: x.device });
      return stack(rows.map((r) => r[j] ?? zerosLike(x)), 0).reshape(shape);
    });
  });
  return { blocks, single: !Array.isArray(raw) };
}

/**
 * `torch.autograd.functional.jacobian(func, inputs, { createGraph, strict, vectorize, strategy })`:
 * a Tensor for one input and one output, a list over inputs for one output, a list over outputs
 * (of those) for several.
 */
export function jacobian(func: Fn, inputs: Inputs, options: JacobianOptions = {}): Tensor | Tensor[] | (Tensor | Tensor[])[] {
  const createGraph = options.createGraph ?? false;
  const strategy = options.strategy ?? 'reverse-mode';
  if (strategy !== 'reverse-mode' && strategy !== 'forward-mode') {
    throw new AutogradError(`jacobian: Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has more outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to use "reverse-mode".`);
  }
  if (strategy === 'forward-mode' && !options.vectorize) {
    throw new AutogradError('jacobian: torch.autograd.functional.jacobian: `strategy="forward-mode"` is only supported with `vectorize=True`.');
  }
  const ins = prepare(asList('jacobian', 'inputs', inputs), createGraph, true);
  const { blocks, single } = jacobianBlocks(func, ins, createGraph, options.strict ?? false, strategy, 'jacobian');
  const res = blocks.map((b) => restructure(inputs, b.map((t) => finish(t, createGraph))));
  return single ? res[0] : res;
}

/** `torch.autograd.functional.hessian(func, inputs, ...)`: func returns one single-element Tensor. */
export function hessian(func: Fn, inputs: Inputs, options: HessianOptions = {}): Tensor | Tensor[][] {
  const createGraph = options.createGraph ?? false;
  const strategy = options.outerJacobianStrategy ?? 'reverse-mode';
  const insList = asList('hessian', 'inputs', inputs);
  const scalarFn = (...xs: Tensor[]): Tensor => {
    const out = func(...xs);
    if (Array.isArray(out)) throw new AutogradError('hessian: The function given to hessian should return a single Tensor');
    const o = out as Tensor;
    if (o.numel() !== 1) throw new AutogradError('hessian: The Tensor returned by the function given to hessian should contain a single element');
    return o.squeeze();
  };
  // the gradient, with a graph (and, under forward mode, tangents) of its own
  const gradFn = (...xs: Tensor[]): Tensor[] => {
    const ys = prepare(xs, true, true);
    const gs = gradsOf('hessian', [scalarFn(...ys)], ys, null, true, options.strict ?? false, 'output');
    return gs.map((g, i) => g ?? zerosLike(ys[i]));
  };
  if (strategy === 'forward-mode' && !options.vectorize) {
    throw new AutogradError('hessian: torch.autograd.functional.jacobian: `strategy="forward-mode"` is only supported with `vectorize=True`.');
  }
  const ins = prepare(insList, createGraph, true);
  const { blocks } = jacobianBlocks(gradFn, ins, createGraph, options.strict ?? false, strategy, 'hessian');
  const res = blocks.map((b) => b.map((t) => finish(t, createGraph)));
  return Array.isArray(inputs) ? res : res[0][0];
}

function scalarOutput(op: string, func: Fn, ins: Tensor[]): Tensor {
  const out = func(...ins);
  if (Array.isArray(out)) throw new AutogradError(`${op}: The function given to ${op} should return a single Tensor`);
  const o = out as Tensor;
  if (o.numel() !== 1) throw new AutogradError(`${op}: The Tensor returned by the function given to ${op} should contain a single element`);
  return o;
}

/** `torch.autograd.functional.vhp(func, inputs, v)`: `[func(inputs), v^T H]`. */
export function vhp(func: Fn, inputs: Inputs, v?: Inputs | null, options: FunctionalOptions = {}): [Tensor, Tensor | Tensor[]] {
  const createGraph = options.createGraph ?? false;
  const strict = options.strict ?? false;
  const insList = asList('vhp', 'inputs', inputs);
  const vs = v == null ? null : asList('vhp', 'v', v);
  if (vs) checkV('vhp', vs, insList);
  else if (insList.length !== 1 || insList[0].numel() !== 1) {
    throw new AutogradError('vhp: The vector v can only be None if the input to the user-provided function is a single Tensor with a single element.');
  }
  const ins = prepare(insList, createGraph, true);
  const out = scalarOutput('vhp', func, ins);
  const gs = gradsOf('vhp', [out], ins, null, true, strict, 'output');
  const vv = vs ?? [insList[0].detach().mul(0).add(1)];
  const live = gs.map((g, i) => [g, vv[i]] as const).filter(([g]) => g !== null && g.requiresGrad);
  const res =
    live.length === 0
      ? ins.map(() => null)
      : grad(live.map(([g]) => g!), ins, { gradOutputs: live.map(([, t]) => t), createGraph, allowUnused: true, retainGraph: true });
  if (strict) {
    res.forEach((r, i) => {
      if (r === null) throw new AutogradError(`vhp: The hessian of the user-provided function with respect to input ${i} is independent of the input. This is not allowed in strict mode.`);
    });
  }
  return [finish(out, createGraph), restructure(inputs, res.map((r, i) => finish(r ?? zerosLike(ins[i]), createGraph)))];
}

/**
 * `torch.autograd.functional.hvp(func, inputs, v)`: `[func(inputs), H v]`: forward-over-reverse
 * (Note [torch.autograd.functional]), or the double backward with `createGraph`.
 */
export function hvp(func: Fn, inputs: Inputs, v?: Inputs | null, options: FunctionalOptions = {}): [Tensor, Tensor | Tensor[]] {
  if (options.createGraph) return vhp(func, inputs, v, options);
  const insList = asList('hvp', 'inputs', inputs);
  const vs = v == null ? null : asList('hvp', 'v', v);
  if (vs) checkV('hvp', vs, insList);
  else if (insList.length !== 1 || insList[0].numel() !== 1) {
    throw new AutogradError('hvp: The vector v can only be None if the input to the user-provided function is a single Tensor with a single element.');
  }
  const vv = vs ?? [insList[0].detach().mul(0).add(1)];
  const ins = prepare(insList, false, true);
  return dualLevel(() => {
    const duals = ins.map((x, i) => makeDual(x, vv[i]));
    const out = scalarOutput('hvp', func, duals);
    const gs = gradsOf('hvp', [out], duals, null, true, options.strict ?? false, 'output');
    const res = gs.map((g, i) => (g === null ? zerosLike(ins[i]) : (unpackDual(g).tangent?.clone() ?? zerosLike(ins[i]))));
    if (options.strict) {
      gs.forEach((g, i) => {
        if (g === null || unpackDual(g).tangent === null) throw new AutogradError(`hvp: The hessian of the user-provided function is independent of entry ${i} in the grad_jacobian. This is not allowed in strict mode.`);
      });
    }
    return [out.detach(), restructure(inputs, res.map((r) => r.detach()))] as [Tensor, Tensor | Tensor[]];
  });
}
