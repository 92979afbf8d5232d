import { empty } from '@torch-ts/core';
import { Tensor, TorchError, noGradGuard } from './internal';

/**
 * `nn.Parameter`: a tensor that a Module registers as a parameter when assigned to one of
 * its attributes. Like PyTorch's, it aliases `data`'s storage (a detached view of it) and
 * is a leaf that requires grad unless `requiresGrad` is false.
 */
export class Parameter extends Tensor {
  constructor(data?: Tensor | null, requiresGrad = true) {
    if (data != null && !(data instanceof Tensor)) {
      throw new TorchError(`Parameter: expected a Tensor as data, but got ${typeof data}`);
    }
    const alias = noGradGuard(() => (data == null ? empty([0]) : data.detach()));
    super(alias.impl.retain());
    alias.dispose();
    if (requiresGrad) this.requiresGrad_(true);
  }

  override toString(): string {
    return `Parameter containing:\n${super.toString()}`;
  }
}
