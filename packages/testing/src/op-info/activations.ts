import * as torch from '@torch-ts/torch';
import { ShapeError, TorchError, type DType, type Tensor } from '@torch-ts/torch';
import { ALL_DTYPES, FLOAT_DTYPES, HALF_2X, NO_BOOL, t, tensorArg } from './common';
import type { Kwargs, OpInfo, OpInput } from './types';

// Each facade function takes its own options type; the goldens' kwargs are passed through as is.
type ActivationFn = (self: Tensor, options?: never) => Tensor;

// Sample ids written by scripts/goldens/ops_activations.py.
const SAMPLES = ['edge', 'random', '0dim', 'empty', 'domain'];

interface ActivationSpec {
  readonly name: string;
  readonly fn: ActivationFn;
  /** The in-place form (`leakyRelu_`, or F's `{ inplace: true }`), where PyTorch has one. */
  readonly inplace: ((self: Tensor, options?: never) => Tensor) | null;
  /** Whether PyTorch has the Tensor method (only logit among these). */
  readonly method?: boolean;
  /** The PyTorch kernel whose Half (and BFloat16) CPU version 1.13 lacks. */
  readonly half2x: string;
  readonly bf16In2x?: boolean;
  readonly samples?: readonly string[];
  /** The dispatcher op behind it (`leaky_relu`; `hardtanh` for relu6): error messages may name it. */
  readonly aten: string;
  readonly dtypes?: readonly DType[];
}

function activation(s: ActivationSpec): OpInfo {
  const call = (i: readonly OpInput[], k: Kwargs) => s.fn(tensorArg(i[0], s.name), k as never);
  const inplace = s.inplace;
  return {
    name: s.name,
    errorNames: [s.name, `${s.name}_`, s.aten, `${s.aten}_`],
    call,
    variants: { method: s.method ?? false, inplace: inplace !== null, out: true },
    forms: inplace ? { inplace: (i, k) => inplace(tensorArg(i[0], s.name), k as never) } : undefined,
    dtypes: s.dtypes ?? FLOAT_DTYPES,
    samples: [...SAMPLES, ...(s.samples ?? [])],
    errorInputs: [
      {
        name: 'a JS array instead of a tensor',
        make: () => s.fn([1, 2] as unknown as Tensor),
        error: TorchError,
        match: /\(\): argument 'input' \(position 1\) must be Tensor, not Array/,
      },
      {
        name: 'an out= tensor of the wrong shape',
        make: (d) => s.fn(t(d, [0.5, 1.5], 'float32'), { out: torch.empty([3], { device: d }) } as never),
        error: ShapeError,
        match: /output with shape \[3\] doesn't match the broadcast shape \[2\]/,
      },
    ],
    pytorch2x: {
      float16: HALF_2X(s.half2x),
      ...(s.bf16In2x ? { bfloat16: HALF_2X(s.half2x).replace("'Half'", "'BFloat16'") } : {}),
    } as Readonly<Partial<Record<DType, string>>>,
  };
}

const OPTIONS = ['options'];
/** PyTorch raises for bool, and for uint8 with the default (negative) min_val. */
const HARDTANH_DTYPES: readonly DType[] = NO_BOOL.filter((d) => d !== 'uint8');

export const ACTIVATION_OPS: readonly OpInfo[] = [
  activation({ name: 'leakyRelu', aten: 'leaky_relu', fn: torch.leakyRelu as ActivationFn, inplace: torch.leakyRelu_ as ActivationFn, half2x: 'leaky_relu_cpu', samples: OPTIONS }),
  activation({ name: 'elu', aten: 'elu', fn: torch.elu as ActivationFn, inplace: torch.elu_ as ActivationFn, half2x: 'elu_cpu', samples: OPTIONS }),
  activation({ name: 'selu', aten: 'elu', fn: torch.selu as ActivationFn, inplace: torch.selu_ as ActivationFn, half2x: 'elu_cpu' }),
  activation({
    name: 'relu6',
    aten: 'hardtanh', dtypes: NO_BOOL,
    fn: torch.relu6 as ActivationFn,
    inplace: ((x: Tensor) => torch.relu6(x, { inplace: true })) as ActivationFn,
    half2x: 'clamp_scalar_cpu',
  }),
  activation({ name: 'hardtanh', aten: 'hardtanh', dtypes: HARDTANH_DTYPES, fn: torch.hardtanh as ActivationFn, inplace: torch.hardtanh_ as ActivationFn, half2x: 'clamp_scalar_cpu', samples: OPTIONS }),
  activation({ name: 'gelu', aten: 'gelu', fn: torch.gelu as ActivationFn, inplace: null, half2x: 'GeluKernelImpl', samples: [...OPTIONS, 'tanh-edge'] }),
  activation({ name: 'silu', aten: 'silu', fn: torch.silu as ActivationFn, inplace: torch.silu_ as ActivationFn, half2x: 'silu_cpu' }),
  activation({ name: 'mish', aten: 'mish', fn: torch.mish as ActivationFn, inplace: torch.mish_ as ActivationFn, half2x: 'mish_cpu', bf16In2x: true }),
  activation({ name: 'softplus', aten: 'softplus', fn: torch.softplus as ActivationFn, inplace: null, half2x: 'softplus_cpu', samples: OPTIONS }),
  activation({ name: 'hardsigmoid', aten: 'hardsigmoid', fn: torch.hardsigmoid as ActivationFn, inplace: torch.hardsigmoid_ as ActivationFn, half2x: 'hardsigmoid_cpu' }),
  activation({ name: 'hardswish', aten: 'hardswish', fn: torch.hardswish as ActivationFn, inplace: torch.hardswish_ as ActivationFn, half2x: 'hardswish_cpu' }),
  activation({ name: 'logit', aten: 'logit', dtypes: ALL_DTYPES, fn: torch.logit as ActivationFn, inplace: torch.logit_ as ActivationFn, method: true, half2x: 'logit_cpu', samples: OPTIONS }),
];
