import type { Tensor } from '../tensor/tensor';

/**
 * A named tuple (PyTorch's `torch.return_types`): an array, indexable and destructurable
 * (`const [LU, pivots] = ...`), whose fields are also properties by name (`.LU`), not
 * enumerated, as a Python named tuple's fields are not its items. `R` is the caller's tuple
 * type with those names.
 */
export function named<R extends Tensor[]>(names: readonly string[], ts: readonly Tensor[]): R {
  const r = [...ts];
  names.forEach((n, i) => Object.defineProperty(r, n, { value: ts[i], enumerable: false, writable: false, configurable: false }));
  return r as R;
}
