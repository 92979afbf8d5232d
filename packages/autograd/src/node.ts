import { AutogradError, RefCounted, Tensor, type TensorImpl } from '@torch-ts/core';
import { metaOf, type AutogradMeta, type TensorHook } from './autograd-meta';

/** Where a gradient flows: input `inputNr` of `node` (PyTorch's Edge). */
export interface Edge {
  readonly node: Node;
  readonly inputNr: number;
}

let nextSequenceNr = 0;

/**
 * Note [Node lifetime]
 * A Node (a backward function) is refcounted like PyTorch's shared_ptr<Node>: its owners are
 * the outputs whose gradFn it is and the Nodes whose edges point to it. When the count
 * reaches zero it releases its saved tensors and its edges. Releasing is iterative (a queue,
 * not recursion), so dropping a graph of 100,000 chained ops cannot overflow the stack.
 */
const releaseQueue: Node[] = [];
let draining = false;

export abstract class Node extends RefCounted {
  readonly sequenceNr = nextSequenceNr++;
  nextEdges: (Edge | null)[];
  /** Tensor hooks per output (PyTorch's tensor pre-hooks on a grad_fn). */
  readonly outputHooks = new Map<number, TensorHook[]>();
  /** Non-leaf tensors that asked for `retainGrad()`, per output. */
  readonly retainedGrads = new Map<number, AutogradMeta>();
  // Node hooks are user code: the engine checks what they return (checkHookList).
  readonly preHooks: ((gradOutputs: (Tensor | null)[]) => unknown)[] = [];
  readonly postHooks: ((gradInputs: (Tensor | null)[], gradOutputs: (Tensor | null)[]) => unknown)[] = [];
  /** The forward stack that created this node, under `detectAnomaly`. */
  anomalyTrace: string | null = null;

  constructor(nextEdges: (Edge | null)[]) {
    super();
    for (const e of nextEdges) e?.node.retain();
    this.nextEdges = nextEdges;
  }

  abstract name(): string;

  /** Gradients of the forward inputs from gradients of the forward outputs. */
  abstract apply(gradOutputs: (Tensor | null)[]): (Tensor | null)[];

  /** Frees saved tensors (after a backward without `retainGraph`). */
  releaseVariables(): void {}

  forgetRetainedGrad(meta: AutogradMeta): void {
    for (const [k, m] of this.retainedGrads) if (m === meta) this.retainedGrads.delete(k);
  }

  protected override releaseResources(): void {
    releaseQueue.push(this);
    if (draining) return;
    draining = true;
    try {
      let n: Node | undefined;
      while ((n = releaseQueue.pop()) !== undefined) {
        n.releaseVariables();
        const edges = n.nextEdges;
        n.nextEdges = [];
        for (const e of edges) e?.node.release();
      }
    } finally {
      draining = false;
    }
  }
}

/**
 * The sink of a leaf's gradient: accumulates into `.grad`. It owns one reference on its
 * leaf (Note [AutogradMeta ownership]).
 */
export class AccumulateGrad extends Node {
  constructor(readonly leaf: TensorImpl) {
    super([]);
    leaf.retain();
  }

  name(): string {
    return 'torch::autograd::AccumulateGrad';
  }

  apply(): (Tensor | null)[] {
    throw new AutogradError('AccumulateGrad is run by the engine, not applied');
  }

  protected override releaseResources(): void {
    const meta = metaOf(this.leaf);
    if (meta?.gradAccumulator === this) meta.gradAccumulator = null;
    super.releaseResources();
    this.leaf.release();
  }
}

/**
 * The node behind a tensor's gradient: its gradFn, or (for a leaf) its accumulator. A new
 * accumulator is born with one reference, which the caller owns: it is pushed on `fresh`,
 * and the caller releases it once the consumer of the edge (a Node, or the engine) holds
 * its own reference.
 */
export function gradientEdge(impl: TensorImpl, fresh: Node[]): Edge | null {
  const meta = metaOf(impl);
  if (!meta) return null;
  if (meta.gradFn) return { node: meta.gradFn, inputNr: meta.outputNr };
  if (!meta.leafRequiresGrad) return null;
  if (!meta.gradAccumulator) {
    const acc = new AccumulateGrad(impl);
    meta.gradAccumulator = acc;
    fresh.push(acc);
  }
  return { node: meta.gradAccumulator, inputNr: 0 };
}

/** Builds a node on the gradient edges of `inputs`, settling new accumulators' ownership. */
export function nodeOnEdges<N extends Node>(inputs: readonly (TensorImpl | null)[], make: (edges: (Edge | null)[]) => N): N {
  const fresh: Node[] = [];
  const edges = inputs.map((t) => (t ? gradientEdge(t, fresh) : null));
  try {
    return make(edges);
  } finally {
    for (const f of fresh) f.release();
  }
}
