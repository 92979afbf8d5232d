import * as torch from '@torch-ts/torch';
import { ShapeError, TorchError } from '@torch-ts/torch';
import { ALL_DTYPES, HALF_2X, t, tensorArg } from './common';
import { num, options, tensor } from './kwargs';
import type { OpInfo } from './types';
import { untyped } from './untyped';

const ROUND_KW = options({ decimals: num, out: tensor });

// Sample ids written by scripts/goldens/ops_rounding.py.
const SAMPLES = ['edge', 'random', '0dim', 'empty', 'ties', 'decimals0', 'decimals1', 'decimals2', 'decimals-1', 'decimals-2'];

/** round: bool is rejected, integers round to themselves but have no kernel with decimals (the goldens' errors). */
export const ROUND: OpInfo = {
  name: 'round',
  call: (i, k) => torch.round(tensorArg(i[0], 'round'), ROUND_KW(k)),
  variants: { method: true, inplace: true, out: true },
  dtypes: ALL_DTYPES.filter((d) => d !== 'bool'),
  samples: SAMPLES,
  errorInputs: [
    {
      name: 'a JS array instead of a tensor',
      make: () => untyped(torch.round)([1, 2]),
      error: TorchError,
      match: /round\(\): argument 'input' \(position 1\) must be Tensor, not Array/,
    },
    {
      name: 'fractional decimals',
      make: (d) => torch.round(t(d, [0.5, 1.5], 'float32'), { decimals: 1.5 }),
      error: TorchError,
      match: /round\(\): argument 'decimals' must be int, not number/,
    },
    {
      name: 'an out= tensor of the wrong shape',
      make: (d) => torch.round(t(d, [0.5, 1.5], 'float32'), { out: torch.empty([3], { device: d }) }),
      error: ShapeError,
      match: /output with shape \[3\] doesn't match the broadcast shape \[2\]/,
    },
  ],
  pytorch2x: { float16: HALF_2X('round_vml_cpu') },
};
