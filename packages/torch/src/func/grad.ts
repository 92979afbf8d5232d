/**
 * `torch.func.grad`, `gradAndValue`, `vjp`, `jacrev`, `hessian`: reverse-mode transforms of
 * functions, on top of the autograd engine.
 *
 * Note [Function transforms over the tape]
 * functorch gives each transform a level and wraps tensors per level; here each transform
 * makes fresh differentiable aliases of the inputs it differentiates (a `viewAs` alias when
 * the input already requires grad, so an outer transform or an outer `backward` still sees
 * through it; a detached leaf otherwise), runs `fn`, and asks `autograd.grad` for the
 * gradients with respect to those aliases only. Results are built with `createGraph` when an
 * outer transform is running or an input requires grad, so `grad(grad(f))`, `jacrev(jacrev(f))`
 * and `grad` of a function that closes over an outer transform's input differentiate again;
 * at the top level they are plain tensors. An input that `fn` does not use gets a zero
 * gradient, as functorch's does.
 *
 * Inside vmap (Note [vmap over batched tensors]) the inputs are batched tensors whose ops
 * autograd records physically. So the aliases are made of each input's physical form
 * (core's `toPhysical`: the batch dims of every open vmap level in front, an input not
 * batched at a level expanded over it, so each sample gets its own gradient slot), the
 * logical aliases `fn` sees wrap them again (`fromPhysical`), and backprop runs on the
 * physical outputs: samples never mix in batched ops, so the gradient of the physical
 * outputs' sum is each sample's gradient, in one backward pass for the whole batch.
 */
import { Tensor, TorchTypeError, ValueError, fromPhysical, stack, toPhysical, vmapLevels, zerosLike, type VmapLevel } from '@torch-ts/core';
import { enableGrad, grad as autogradGrad, isGradEnabled } from '@torch-ts/autograd';
import { treeLeaves, treeMap } from './pytree';

/** How many transforms are running: nested ones build their results differentiable. */
let depth = 0;

export interface GradOptions {
  /** Which positional arguments to differentiate with respect to (default 0). */
  argnums?: number | readonly number[];
  /** `fn` returns `[output, aux]`; aux is returned alongside, not differentiated. */
  hasAux?: boolean;
}

export function checkArgnums(where: string, argnums: number | readonly number[], nargs: number): number[] {
  const list = typeof argnums === 'number' ? [argnums] : [...argnums];
  if (list.length === 0) throw new ValueError(`${where}: argnums must be non-empty`);
  return list.map((a) => {
    if (!Number.isInteger(a)) throw new TorchTypeError(`${where}: argnums must be int or array of ints, got ${String(a)}`);
    if (a < -nargs || a >= nargs) {
      throw new ValueError(`${where}: Got argnums=${a}, but only ${nargs} positional inputs`);
    }
    return a < 0 ? a + nargs : a;
  });
}

interface Traced {
  /** The arguments with differentiated leaves replaced by their aliases. */
  args: unknown[];
  /** The aliases, per differentiated argument. */
  aliases: Tensor[][];
  /** Whether results must stay differentiable (an outer transform, or an input that requires grad). */
  nested: boolean;
  /** The vmap levels open when the transform started (the aliases are physical over them). */
  levels: readonly VmapLevel[];
}

function trace(where: string, args: unknown[], argnums: number[]): Traced {
  const aliases: Tensor[][] = argnums.map(() => []);
  const newArgs = [...args];
  let nested = depth > 0;
  const levels = vmapLevels();
  argnums.forEach((a, k) => {
    if (treeLeaves(args[a]).length === 0) {
      throw new TorchTypeError(`${where}: expected argument ${a} to be a Tensor or an array / object of Tensors, got ${typeof args[a]}`);
    }
    newArgs[a] = treeMap(args[a], (t) => {
      if (!t.dtype.startsWith('float') && !t.dtype.startsWith('complex') && t.dtype !== 'bfloat16') {
        throw new TorchTypeError(`${where}: only floating point and complex Tensors can be differentiated, got one of dtype ${t.dtype}`);
      }
      const p = levels.length > 0 ? toPhysical(t, levels) : t;
      if (p.requiresGrad) nested = true;
      const alias = p.requiresGrad ? p.view(p.shape) : p.detach().requiresGrad_(true);
      aliases[k]!.push(alias);
      return levels.length > 0 ? fromPhysical(alias, levels) : alias;
    });
  });
  return { args: newArgs, aliases, nested, levels };
}

/**
 * Gradients of `outputs` (with `cotangents`) with respect to `inputs`; zeros where unused.
 * Under vmap `levels`, outputs and cotangents are read physically and the gradients are
 * returned logical (Note [Function transforms over the tape]).
 */
function backprop(logicalOutputs: Tensor[], logicalCotangents: Tensor[], inputs: Tensor[], createGraph: boolean, retainGraph: boolean, levels: readonly VmapLevel[]): Tensor[] {
  if (levels.length > 0) {
    const phys = backprop(
      logicalOutputs.map((o) => toPhysical(o, levels)),
      logicalCotangents.map((c) => toPhysical(c, levels)),
      inputs,
      createGraph,
      retainGraph,
      [],
    );
    return phys.map((g) => fromPhysical(g, levels));
  }
  const outputs = logicalOutputs;
  const cotangents = logicalCotangents;
  const live = outputs.map((o) => o.requiresGrad);
  const outs = outputs.filter((_, i) => live[i]);
  if (outs.length === 0) return inputs.map((x) => zerosLike(x));
  const grads = autogradGrad(outs, inputs, {
    gradOutputs: cotangents.filter((_, i) => live[i]),
    createGraph,
    retainGraph: retainGraph || createGraph,
    allowUnused: true,
  });
  return grads.map((g, i) => g ?? zerosLike(inputs[i]!));
}

function rebuild(args: unknown[], argnums: number[], aliases: Tensor[][], flat: Tensor[], single: boolean): unknown {
  let at = 0;
  const perArg = argnums.map((a, k) => {
    const n = aliases[k]!.length;
    const mine = flat.slice(at, at + n);
    at += n;
    return treeMap(args[a], (_t, i) => mine[i]);
  });
  return single ? perArg[0] : perArg;
}

export function splitAux(where: string, out: unknown, hasAux: boolean): [unknown, unknown] {
  if (!hasAux) return [out, undefined];
  if (!Array.isArray(out) || out.length !== 2) {
    throw new TorchTypeError(`${where}: output of function f should be a tuple: (output, aux) if hasAux is true`);
  }
  return [out[0], out[1]];
}

/**
 * `torch.func.gradAndValue(fn, { argnums, hasAux })`: a function returning `[gradients, value]`
 * (with hasAux: `[gradients, [value, aux]]`). `fn` must return a scalar (0-dim) Tensor.
 */
export function gradAndValue(fn: (...args: any[]) => unknown, options: GradOptions = {}): (...args: any[]) => [unknown, unknown] {
  const { argnums = 0, hasAux = false } = options;
  return (...args: unknown[]) => {
    const where = 'gradAndValue(f)(*args)';
    const nums = checkArgnums(where, argnums, args.length);
    const single = typeof argnums === 'number';
    const gradOn = isGradEnabled();
    depth++;
    try {
      return enableGrad(() => {
        const t = trace(where, args, nums);
        const [out, aux] = splitAux(where, fn(...t.args), hasAux);
        if (!(out instanceof Tensor)) throw new TorchTypeError(`${where}: Expected f(*args) to return a Tensor, got ${typeof out}`);
        if (out.dim() !== 0) {
          throw new ValueError(
            `${where}: Expected f(*args) to return a scalar Tensor, got tensor with ${out.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?`,
          );
        }
        const createGraph = t.nested && gradOn;
        const flat = backprop([out], [onesScalar(out)], t.aliases.flat(), createGraph, false, t.levels);
        const grads = rebuild(args, nums, t.aliases, createGraph ? flat : flat.map((g) => g.detach()), single);
        const value = createGraph ? out : out.detach();
        return hasAux ? [grads, [value, aux]] : [grads, value];
      });
    } finally {
      depth--;
    }
  };
}

function onesScalar(out: Tensor): Tensor {
  return zerosLike(out).fill_(1);
}

/** `torch.func.grad(fn, { argnums, hasAux })`: the gradient of a scalar function (with hasAux: `[gradients, aux]`). */
export function grad(fn: (...args: any[]) => unknown, options: GradOptions = {}): (...args: any[]) => any {
  const gv = gradAndValue(fn, options);
  return (...args: unknown[]) => {
    const [g, v] = gv(...args);
    return options.hasAux ? [g, (v as unknown[])[1]] : g;
  };
}

/**
 * `torch.func.vjp(fn, ...primals)`: `[output, vjpFn]` where `vjpFn(cotangents)` returns one
 * gradient per primal (an array), the cotangents shaped as the output.
 */
export function vjp(fn: (...args: any[]) => unknown, ...primals: unknown[]): [unknown, (cotangents: unknown) => unknown[]] {
  return vjpImpl('vjp(f, *primals)', fn, primals, false) as [unknown, (cotangents: unknown) => unknown[]];
}

/** `torch.func.vjp` with `hasAux`: `[output, vjpFn, aux]`. */
export function vjpWithAux(fn: (...args: any[]) => unknown, ...primals: unknown[]): [unknown, (cotangents: unknown) => unknown[], unknown] {
  return vjpImpl('vjp(f, *primals)', fn, primals, true) as [unknown, (cotangents: unknown) => unknown[], unknown];
}

function vjpImpl(where: string, fn: (...args: any[]) => unknown, primals: unknown[], hasAux: boolean): unknown[] {
  const nums = primals.map((_, i) => i);
  const nested = depth > 0;
  const gradOn = isGradEnabled();
  depth++;
  let t: Traced;
  let out: unknown;
  let aux: unknown;
  try {
    [t, out, aux] = enableGrad(() => {
      const tr = trace(where, primals, nums);
      const [o, a] = splitAux(where, fn(...tr.args), hasAux);
      return [tr, o, a] as const;
    });
  } finally {
    depth--;
  }
  const outs = treeLeaves(out);
  if (outs.length === 0) throw new TorchTypeError(`${where}: Expected f to be a function that has Tensor outputs, got ${typeof out}`);
  const createGraph = (t.nested || nested) && gradOn;
  const vjpFn = (cotangents: unknown): unknown[] => {
    const cts = treeLeaves(cotangents);
    if (cts.length !== outs.length) {
      throw new ValueError(`vjp: Expected pytree structure of cotangents to be the same as pytree structure of outputs to the function: ${outs.length} tensors, got ${cts.length}`);
    }
    cts.forEach((c, i) => {
      const o = outs[i]!;
      if (c.shape.join() !== o.shape.join()) {
        throw new ValueError(`vjp: Mismatch in shape: grad_output[${i}] has a shape of [${c.shape.join(', ')}] and output[${i}] has a shape of [${o.shape.join(', ')}]`);
      }
    });
    const flat = enableGrad(() => backprop(outs, cts, t.aliases.flat(), createGraph || cts.some((c) => c.requiresGrad), true, t.levels));
    return rebuild(primals, nums, t.aliases, createGraph ? flat : flat.map((g) => g.detach()), false) as unknown[];
  };
  const value = createGraph ? out : treeMap(out, (o) => o.detach());
  return hasAux ? [value, vjpFn, aux] : [value, vjpFn];
}

/**
 * `torch.func.jacrev(fn, argnums = 0, { hasAux })`: the Jacobian by reverse mode, one vjp per
 * output element (a vmap over the rows of the identity, as functorch's). For an output of
 * shape O and an input of shape I the Jacobian has shape O + I; several argnums give an
 * array, several outputs an array of those.
 */
export function jacrev(fn: (...args: any[]) => unknown, argnums: number | readonly number[] = 0, options: { hasAux?: boolean } = {}): (...args: any[]) => any {
  const hasAux = options.hasAux ?? false;
  return (...args: unknown[]) => {
      const where = 'jacrev(f, argnums)(*args)';
      const nums = checkArgnums(where, argnums, args.length);
      const wrt = (...diff: unknown[]) => {
        const full = [...args];
        nums.forEach((a, k) => (full[a] = diff[k]));
        return fn(...full);
      };
      const [out, vjpFn, aux] = vjpImpl(where, wrt, nums.map((a) => args[a]), hasAux) as [unknown, (c: unknown) => unknown[], unknown];
      const outs = treeLeaves(out);
      const total = outs.reduce((s, o) => s + o.numel(), 0);
      // row r of the identity over all outputs' elements, split back into cotangents
      const basis = (r: number): Tensor[] => {
        let at = 0;
        return outs.map((o) => {
          const c = zerosLike(o);
          if (r >= at && r < at + o.numel()) c.view(-1).select(0, r - at).fill_(1);
          at += o.numel();
          return c;
        });
      };
      const rows: unknown[][] = [];
      for (let r = 0; r < total; r++) {
        const cts = basis(r);
        rows.push(vjpFn(treeMap(out, (_o, i) => cts[i])));
      }
      // rows[r][k]: gradient tree of argument k for row r; assemble per (output, argument leaf)
      let at = 0;
      const perOut = outs.map((o) => {
        const mine = rows.slice(at, at + o.numel());
        at += o.numel();
        const perArg = nums.map((_a, k) =>
          treeMap(mine.length > 0 ? mine[0]![k] : args[nums[k]!], (leaf, li) => {
            const col = mine.map((row) => treeLeaves(row[k])[li]!);
            const j = col.length > 0 ? stack(col, 0) : zerosLike(leaf).reshape([0, ...leaf.shape]);
            return j.reshape([...o.shape, ...leaf.shape]);
          }),
        );
        return typeof argnums === 'number' ? perArg[0] : perArg;
      });
      const jac = treeMap(out, (_o, i) => perOut[i]);
      return hasAux ? [jac, aux] : jac;
  };
}

/** `torch.func.hessian(fn, argnums = 0)`: `jacrev(jacrev(fn, argnums), argnums)`. */
export function hessian(fn: (...args: any[]) => unknown, argnums: number | readonly number[] = 0): (...args: any[]) => any {
  return jacrev(jacrev(fn, argnums), argnums);
}
