import { Tensor, sum, tidy, to, type DType, type Device } from '@torch-ts/core';
import type { Derivative } from './derivative';
import { Node, type Edge } from './node';
import type { SavedVariable } from './saved-variable';

/** What the engine needs to know of a forward input to shape its gradient. */
export interface InputInfo {
  readonly sizes: readonly number[];
  /** The input's geometry on its storage (as_strided's backward needs it, without saving the tensor). */
  readonly strides: readonly number[];
  readonly storageOffset: number;
  readonly dtype: DType;
  readonly device: Device;
}

/** The Node of an op with a derivative entry (Note [Derivatives are data]). */
export class FormulaNode extends Node {
  constructor(
    private readonly derivative: Derivative,
    edges: (Edge | null)[],
    private readonly inputs: readonly (InputInfo | null)[],
    private readonly saved: ReadonlyMap<string, SavedVariable>,
    /** The op's arguments with tensors removed (the formula reads tensors from `saved`). */
    private readonly args: readonly unknown[],
  ) {
    super(edges);
  }

  name(): string {
    const n = this.derivative.name;
    return typeof n === 'string' ? n : n(this.args);
  }

  apply(gradOutputs: (Tensor | null)[]): (Tensor | null)[] {
    const needs = this.nextEdges.map((e) => e !== null);
    if (!gradOutputs.some((g) => g !== null) || !needs.some(Boolean)) return needs.map(() => null);
    return tidy(() => {
      const saved: Record<string, Tensor> = {};
      for (const [k, v] of this.saved) saved[k] = v.unpack(this);
      const grad = gradOutputs[0] ?? gradOutputs.find((g) => g !== null)!;
      const raw = this.derivative.backward({ grad, grads: gradOutputs, saved, args: this.args, needs, inputs: this.inputs });
      return this.inputs.map((info, i) => (needs[i] && raw[i] && info ? shapeLike(raw[i]!, info) : null));
    });
  }

  override releaseVariables(): void {
    for (const v of this.saved.values()) v.release();
  }
}

/**
 * A gradient brought to its input's shape and dtype: broadcasting is undone once here (the
 * sum over broadcast dims), not in every formula, and the dtype follows the input's.
 */
export function shapeLike(g: Tensor, info: InputInfo): Tensor {
  let r = sumToSize(g, info.sizes);
  if (r.dtype !== info.dtype) r = to(r, info.dtype);
  return r;
}

export function sumToSize(g: Tensor, sizes: readonly number[]): Tensor {
  const shape = g.shape;
  if (shape.length === sizes.length && shape.every((s, i) => s === sizes[i])) return g;
  const lead = shape.length - sizes.length;
  const dims: number[] = [];
  for (let d = 0; d < shape.length; d++) {
    if (d < lead || (sizes[d - lead] === 1 && shape[d] !== 1)) dims.push(d);
  }
  let r = dims.length ? sum(g, dims, { keepdim: true }) : g;
  if (lead > 0) r = r.view([...sizes]);
  return r;
}
