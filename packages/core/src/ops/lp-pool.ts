import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { front } from './front';
import { avgPool2d } from './pooling';
import { avgPool1d } from './pooling-1d';

/**
 * Note [Power-average pooling]
 * F.lp_pool1d / 2d are 1.13's Python composites: avg_pool of x^p (no padding) times the window
 * size, then (sign(s) * relu(|s|))^(1/p). The relu is what zeroes the gradient of a window whose
 * sum is zero (sign(0) = 0), as PyTorch documents. The window size is the kernel's product
 * even where ceil_mode clips a window, as in 1.13.
 */
const F_ONLY = { method: false, namespaces: ['nn.functional'] } as const;

function lpFinish(s: Tensor, windowSize: number, normType: number): Tensor {
  return s.sign().mul(s.abs().relu()).mul(windowSize).pow(1 / normType);
}

/** `F.lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False)`. */
export const lpPool1d = front('lp_pool1d(Tensor input, float norm_type, int kernel_size, int[1]? stride=None, bool ceil_mode=False) -> Tensor', F_ONLY).run(
  ([x, normType, kernelSize, stride, ceilMode]): Tensor =>
    tidy(() => lpFinish(avgPool1d(x.pow(normType), [kernelSize], stride ?? null, [0], ceilMode), kernelSize, normType)),
);

/** `F.lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False)`. */
export const lpPool2d = front('lp_pool2d(Tensor input, float norm_type, int[2] kernel_size, int[2]? stride=None, bool ceil_mode=False) -> Tensor', F_ONLY).run(
  ([x, normType, kernelSize, stride, ceilMode]): Tensor =>
    tidy(() => lpFinish(avgPool2d(x.pow(normType), kernelSize, stride ?? null, [0, 0], ceilMode), kernelSize[0] * kernelSize[1], normType)),
);
