import { Tensor, TensorImpl, tidy } from '@torch-ts/core';
import { Node, type Edge } from './node';

/** A tensor's window on its storage. */
export interface StridedGeometry {
  readonly sizes: readonly number[];
  readonly strides: readonly number[];
  readonly offset: number;
}

/**
 * Note [In-place ops on views (CopySlices)]
 * An in-place op on a view `v` of base `b` changes `b`'s data, so it changes `b`'s history
 * too, as in PyTorch:
 *  - the op records its node N as usual (its input 0 standing for v's old value);
 *  - `b`'s gradFn becomes CopySlices(N): of the gradient for the new `b`, the slice v covers
 *    goes through N (whose gradient for v's old value goes back into that slice), and the rest
 *    passes through unchanged to `b`'s old history; N's other inputs get their gradients;
 *  - `v`'s gradFn becomes a view of the new `b` (ViewOfBase).
 * Both nodes work in `b`'s own strided layout (`emptyStrided` like `b`), so the view's storage
 * geometry applies to them directly.
 */
function likeBase(base: StridedGeometry, dtype: TensorImpl['dtype'], device: TensorImpl['device']): Tensor {
  return new Tensor(TensorImpl.emptyStrided('CopySlices', base.sizes, base.strides, dtype, device));
}

function window(t: Tensor, base: StridedGeometry, view: StridedGeometry): Tensor {
  return t.asStrided([...view.sizes], [...view.strides], t.storageOffset() + view.offset - base.offset);
}

export class CopySlices extends Node {
  constructor(
    private readonly base: StridedGeometry,
    private readonly view: StridedGeometry,
    private readonly fn: Node,
  ) {
    super([...fn.nextEdges]);
    fn.retain();
  }

  name(): string {
    return 'torch::autograd::CopySlices';
  }

  apply([grad]: (Tensor | null)[]): (Tensor | null)[] {
    if (!grad) return this.nextEdges.map(() => null);
    return tidy(() => {
      const result = likeBase(this.base, grad.dtype, grad.device);
      result.copy_(grad);
      const slice = window(result, this.base, this.view);
      const res = this.fn.apply([slice.clone()]);
      if (res[0]) slice.copy_(res[0]);
      else slice.zero_();
      return [result, ...res.slice(1)];
    });
  }

  override releaseVariables(): void {
    this.fn.releaseVariables();
  }

  protected override releaseResources(): void {
    super.releaseResources();
    this.fn.release();
  }
}

/** The gradFn of a view after an in-place op on it: a window onto its base's new history. */
export class ViewOfBase extends Node {
  constructor(
    private readonly base: StridedGeometry,
    private readonly view: StridedGeometry,
    baseEdge: Edge,
  ) {
    super([baseEdge]);
  }

  name(): string {
    return 'AsStridedBackward0';
  }

  apply([grad]: (Tensor | null)[]): (Tensor | null)[] {
    if (!grad) return [null];
    return tidy(() => {
      const result = likeBase(this.base, grad.dtype, grad.device).zero_();
      window(result, this.base, this.view).copy_(grad);
      return [result];
    });
  }
}
