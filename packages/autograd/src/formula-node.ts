import { Tensor, tidy, type DType, type Device } from '@torch-ts/core';
import type { Derivative } from './derivative';
import { Node, type Edge } from './node';
import type { SavedVariable } from './saved-variable';
import { validateGrad } from './validate-grads';

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
export class FormulaNode<A extends readonly unknown[] = readonly unknown[]> extends Node {
  constructor(
    private readonly derivative: Derivative<A>,
    edges: (Edge | null)[],
    private readonly inputs: readonly (InputInfo | null)[],
    private readonly saved: ReadonlyMap<string, SavedVariable>,
    /** The op's arguments with tensors removed (Note [Derivative arguments]). */
    private readonly args: Readonly<A>,
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
      // Broadcasting is undone here, once, not in every formula (Note [Validating gradients]).
      return this.inputs.map((info, i) => (needs[i] && raw[i] && info ? validateGrad(() => this.name(), i, raw[i]!, info) : null));
    });
  }

  override releaseVariables(): void {
    for (const v of this.saved.values()) v.release();
  }
}
