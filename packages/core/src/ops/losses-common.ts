/** What the composite losses share (not exported from the package: Note [Composite losses]). */
import { TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { mean, sum } from './generated/table-ops';

/** PyTorch's apply_loss_reduction, for `op`'s checked reduction. */
export function applyReduction(loss: Tensor, reduction: string): Tensor {
  if (reduction === 'none') return loss;
  return reduction === 'mean' ? mean(loss) : sum(loss);
}

/** F.*'s legacy keywords, refused unless None (Note [The argument binder]); the losses are F.* only. */
export const LOSS_FRONT = {
  method: false,
  namespaces: ['nn.functional'],
  unsupported: ['sizeAverage', 'reduce'],
  choices: { reduction: ['none', 'mean', 'sum'] },
} as const;

/**
 * The losses PyTorch also has on `torch` (torch.kl_div, torch.margin_ranking_loss, ...). Its
 * `torch.*` forms take `reduction` as ATen's enum int; here both take F.*'s string.
 */
export const TORCH_LOSS_FRONT = { ...LOSS_FRONT, namespaces: ['torch', 'nn.functional'] } as const;

/** A reduction string, checked (PyTorch: "x is not a valid value for reduction"). */
export function checkReduction(op: string, reduction: string, allowed: readonly string[] = ['none', 'mean', 'sum']): void {
  if (!allowed.includes(reduction)) throw new TorchError(`${op}: ${reduction} is not a valid value for reduction`);
}
