import { ShapeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { fill_ } from './copy';
import { front } from './front';
import { asStrided } from './views';

/**
 * `x.fillDiagonal_(value, wrap?)`: the main diagonal (every index equal) set to `value`, as
 * PyTorch's: an as_strided view of it filled in place; with `wrap`, a tall matrix's diagonal
 * starts again after every `width + 1` rows (PyTorch counts those from numel, as here).
 */
export const fillDiagonal_ = front('fill_diagonal_(Tensor(a!) self, Scalar fill_value, bool wrap=False) -> Tensor(a!)', { namespaces: [] }).run(
  ([self, value, wrap]): Tensor => {
    const n = self.dim();
    if (n < 2) throw new TorchError('fill_diagonal_: dimensions must larger than 1');
    const [height, width] = self.shape;
    if (n > 2 && self.shape.some((s) => s !== height)) throw new ShapeError('fill_diagonal_: all dimensions of input must be of equal length');
    const stride = self.stride().reduce((a, b) => a + b, 0);
    const offset = self.storageOffset();
    const size = Math.min(height, width);
    const fillView = (count: number, start: number): void => {
      const v = asStrided(self, [count], [stride], start);
      try {
        fill_(v, value);
      } finally {
        v.dispose();
      }
    };
    fillView(size, offset);
    if (wrap && n === 2 && height > width + 1) {
      const step = width + 1;
      fillView(Math.floor((self.numel() + step - 1) / step) - size, offset + self.stride(0) * step);
    }
    return self;
  },
);
