/**
 * Note [Module full backward hooks]
 * `registerFullBackwardHook(hook(module, gradInput, gradOutput))` and
 * `registerFullBackwardPreHook(hook(module, gradOutput))` work as PyTorch's
 * `torch.utils.hooks.BackwardHook`: `Module.call` passes the tensor arguments through an
 * identity custom Function (BackwardHookFunction) before `forward`, and the tensor outputs
 * through another after it. Backward then reaches the output node first: a post-hook on it
 * records the gradients w.r.t. the outputs, runs the pre-hooks (which may replace them: what
 * the hook returns is what flows into the module) and, when no input required grad, the full
 * hooks right away. The input node's post-hook runs the full hooks with
 * (gradInput, gradOutput) and returns their replacement gradInput. Non-tensor arguments and
 * tensors that take no gradient appear as `null`. Only autograd's public surface is used: a
 * custom Function and its Node's `registerHook`; an input returned as-is by a Function may not
 * be modified in place, so `m(x).add_(1)` raises as in PyTorch.
 */
import { zerosLike } from '@torch-ts/core';
import { Function as AutogradFunction, isGradEnabled, type FunctionCtx } from '@torch-ts/autograd';
import { Tensor, TorchError } from './internal';
import type { Module } from './module';

/** `hook(module, gradInput, gradOutput)`: a returned array replaces gradInput. */
export type FullBackwardHook = (module: Module, gradInput: (Tensor | null)[], gradOutput: (Tensor | null)[]) => (Tensor | null)[] | undefined | void;
/** `hook(module, gradOutput)`: a returned array replaces gradOutput. */
export type FullBackwardPreHook = (module: Module, gradOutput: (Tensor | null)[]) => (Tensor | null)[] | undefined | void;

/** PyTorch's `torch.nn.modules._functions.BackwardHookFunction`: the identity, its Node carries the hooks. */
class BackwardHookFunction extends AutogradFunction {
  static override forward(ctx: FunctionCtx, ...args: unknown[]): Tensor[] {
    const tensors = args as Tensor[];
    ctx.markNonDifferentiable(...tensors.filter((t) => !t.requiresGrad));
    return tensors;
  }

  static override backward(_ctx: FunctionCtx, ...grads: (Tensor | null)[]): (Tensor | null)[] {
    return grads;
  }
}

/** A Node hook's gradients (typed `unknown` by core's interface) as tensors or null. */
function asGrads(gs: readonly unknown[]): (Tensor | null)[] {
  return gs.map((g) => (g instanceof Tensor ? g : null));
}

function packWithNone(indices: readonly number[], values: readonly (Tensor | null)[], size: number): (Tensor | null)[] {
  const res: (Tensor | null)[] = new Array<Tensor | null>(size).fill(null);
  indices.forEach((idx, k) => (res[idx] = values[k] ?? null));
  return res;
}

function tensorAt(args: readonly unknown[], i: number): Tensor {
  const t = args[i];
  if (!(t instanceof Tensor)) throw new TorchError('Module.call: a backward hook lost track of its tensor inputs');
  return t;
}

/** One forward call's hook state (PyTorch's BackwardHook object). */
export class BackwardHook {
  private gradOutputs: (Tensor | null)[] | null = null;
  private nOutputs = -1;
  private nInputs = -1;
  private inputIndex: number[] | null = null;

  constructor(
    private readonly module: Module,
    private readonly userHooks: readonly FullBackwardHook[],
    private readonly userPreHooks: readonly FullBackwardPreHook[],
  ) {}

  /** Wraps the tensors of `args`; `onNode` gets the identity's Node. Returns the new args and the tensors' positions. */
  private applyOnTensors(args: unknown[], onNode: (node: NonNullable<Tensor['gradFn']>) => void): [unknown[], number[] | null] {
    const idx: number[] = [];
    const tensors: Tensor[] = [];
    let requiresGrad = false;
    args.forEach((a, i) => {
      if (a instanceof Tensor) {
        idx.push(i);
        tensors.push(a);
        requiresGrad ||= a.requiresGrad;
      }
    });
    if (!(requiresGrad && isGradEnabled())) return [args, null];
    const wrapped = BackwardHookFunction.apply<Tensor[]>(...tensors);
    const node = wrapped.map((t) => t.gradFn).find((f) => f !== null && f.name() === 'BackwardHookFunctionBackward');
    if (!node) throw new TorchError('Module.call: Error while setting up backward hooks.');
    onNode(node);
    const out = [...args];
    idx.forEach((i, k) => (out[i] = wrapped[k]));
    return [out, idx];
  }

  setupInputHook(args: unknown[]): unknown[] {
    const [res, index] = this.applyOnTensors(args, (node) =>
      node.registerHook((gradInput) => {
        // (null when the gradient reached the inputs without passing the outputs: double backward)
        if (this.gradOutputs === null) return undefined;
        // An input that takes no gradient shows the identity's materialised zero gradient, as
        // PyTorch's hook sees it (its Node's raw outputs); nothing flows there afterwards.
        const given = asGrads(gradInput);
        const grads = given.map((g, k) => g ?? zerosLike(tensorAt(res, index![k])));
        let res2 = packWithNone(index ?? [], grads, this.nInputs);
        for (const hook of this.userHooks) {
          const out = hook(this.module, res2, this.gradOutputs);
          if (out === undefined || out === null) continue;
          if (!Array.isArray(out) || out.length !== res2.length) {
            throw new TorchError(
              `Module backward hook: Backward hook returned an invalid number of grad_input, got ${Array.isArray(out) ? out.length : 1}, but expected ${res2.length}`,
            );
          }
          res2 = out.map((g) => g ?? null);
        }
        this.gradOutputs = null;
        // (the engine takes no gradient where it gave none)
        return (index ?? []).map((i, k) => (given[k] === null ? null : res2[i]));
      }),
    );
    this.nInputs = args.length;
    this.inputIndex = index;
    return res;
  }

  setupOutputHook(result: unknown): unknown {
    const isTuple = Array.isArray(result);
    const args = isTuple ? (result as unknown[]) : [result];
    const [res, index] = this.applyOnTensors(args, (node) =>
      node.registerHook((_gradInputs, gradOutput) => {
        this.gradOutputs = packWithNone(index ?? [], asGrads(gradOutput), this.nOutputs);
        const expected = this.gradOutputs.length;
        for (const pre of this.userPreHooks) {
          const out = pre(this.module, this.gradOutputs);
          if (out === undefined || out === null) continue;
          if (!Array.isArray(out) || out.length !== expected) {
            throw new TorchError(
              `Module backward pre-hook: Backward pre hook returned an invalid number of grad_output, got ${Array.isArray(out) ? out.length : 1}, but expected ${expected}`,
            );
          }
          this.gradOutputs = out.map((g) => g ?? null);
        }
        const local = this.gradOutputs;
        if (this.inputIndex === null) {
          // No input required grad: the input node never runs, so the hooks run here.
          const gradInputs = packWithNone([], [], this.nInputs);
          for (const hook of this.userHooks) {
            const r = hook(this.module, gradInputs, this.gradOutputs);
            if (r !== undefined && r !== null && !(Array.isArray(r) && r.every((g) => g === null || g === undefined))) {
              throw new TorchError('Module backward hook: Backward hook for Modules where no input requires gradient should always return None or None for all gradients.');
            }
          }
          this.gradOutputs = null;
        }
        return (index ?? []).map((i) => local[i]);
      }),
    );
    this.nOutputs = args.length;
    return isTuple ? res : res[0];
  }
}
