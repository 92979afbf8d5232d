import { Tensor, TensorImpl, isComplexType, tidy, toComplexType, toRealValueType, viewAsComplex, viewAsReal, type DType } from '@torch-ts/core';
import { setViewRegenerator } from './autograd-meta';
import { Node, gradientEdge, type Edge } from './node';

/**
 * A tensor's window on its storage, in its own elements: a complex tensor's are pairs of its
 * storage's reals (core's Note [Complex tensors are pairs of reals]), and a conjugated one
 * reads them conjugated (core's Note [The conjugate bit]).
 */
export interface StridedGeometry {
  readonly sizes: readonly number[];
  readonly strides: readonly number[];
  readonly offset: number;
  readonly complex: boolean;
  readonly conj: boolean;
}

export function stridedGeometryOf(t: TensorImpl): StridedGeometry {
  return { sizes: t.sizes, strides: t.strides, offset: t.storageOffset, complex: isComplexType(t.dtype), conj: t.isConj };
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

/** The base's dtype, from its view's (a dtype view's base holds the same storage in the other kind). */
function baseDtype(base: StridedGeometry, view: StridedGeometry, viewDtype: DType): DType {
  if (base.complex === view.complex) return viewDtype;
  return base.complex ? toComplexType(viewDtype) : toRealValueType(viewDtype);
}

/** The view's window on `t`, a tensor laid out as the base; a dtype view's (view_as_real's parts) in its own dtype. */
function window(t: Tensor, base: StridedGeometry, view: StridedGeometry): Tensor {
  if (!base.complex && !view.complex) return t.asStrided([...view.sizes], [...view.strides], t.storageOffset() + view.offset - base.offset);
  // (in the storage's reals: a complex element is two)
  const reals = base.complex ? viewAsReal(t) : t;
  const origin = reals.storageOffset() - (base.complex ? 2 * base.offset : base.offset);
  if (!view.complex) return reals.asStrided([...view.sizes], [...view.strides], origin + view.offset);
  const w = viewAsComplex(reals.asStrided([...view.sizes, 2], [...view.strides.map((s) => 2 * s), 1], origin + 2 * view.offset));
  return view.conj ? w.conj() : w;
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
      const result = likeBase(this.base, baseDtype(this.base, this.view, grad.dtype), grad.device).zero_();
      window(result, this.base, this.view).copy_(grad);
      return [result];
    });
  }
}

setViewRegenerator((view, base) => {
  const fresh: Node[] = [];
  try {
    const edge = gradientEdge(base, fresh);
    return edge ? new ViewOfBase(stridedGeometryOf(base), stridedGeometryOf(view), edge) : null;
  } finally {
    for (const n of fresh) n.release();
  }
});
