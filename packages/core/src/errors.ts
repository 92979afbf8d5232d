/**
 * The error hierarchy of torch-ts. Every failure a user can cause is a `TorchError` whose
 * message starts with the op's name and says the shapes, dtypes or devices involved, as
 * PyTorch's messages do: `mm: shapes [2, 3] and [4, 5] cannot be multiplied (3 != 4)`.
 */
export class TorchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Sizes that do not fit: broadcasting, `mm`, `view`, `cat`. PyTorch raises RuntimeError. */
export class ShapeError extends TorchError {}

/** A dtype an op does not accept, or a cast PyTorch refuses. */
export class DTypeError extends TorchError {}

/** Tensors on different devices, a device without a backend, a sync read of device data. */
export class DeviceError extends TorchError {}

/** Autograd misuse: backward through a freed graph, a saved tensor changed in place. */
export class AutogradError extends TorchError {}

/** A dim or an index out of range (PyTorch's IndexError). */
export class IndexError extends TorchError {}

/**
 * A call that does not bind: an unknown keyword, too many arguments, a value of the wrong
 * type. PyTorch raises Python's TypeError (Note [The argument binder]).
 */
export class TorchTypeError extends TorchError {}

/** An argument or mode PyTorch has that torch-ts does not support yet. PyTorch: NotImplementedError. */
export class NotImplementedError extends TorchError {}

/** PyTorch's ValueError (a Python builtin): an argument of the right type whose value is refused (torch.distributions' validation). */
export class ValueError extends TorchError {}

/** Formats a size list the way torch-ts messages print it: `[2, 3]`. */
export function fmtShape(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}
