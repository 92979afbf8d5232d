import * as torch from '@torch-ts/torch';
import { ShapeError, TorchError, type DType, type Tensor } from '@torch-ts/torch';
import { ALL_DTYPES, FLOAT_DTYPES, HALF_2X, NO_BOOL, t, tensorArg } from './common';
import { num, oneOf, options, tensor } from './kwargs';
import type { Kwargs, OpInfo, OpInput } from './types';
import { untyped } from './untyped';

// Sample ids written by scripts/goldens/ops_activations.py.
const SAMPLES = ['edge', 'random', '0dim', 'empty', 'domain'];

/** The function form's options: O, checked from the case's kwargs by `kwargs`. */
interface ActivationSpec<O extends { readonly out?: Tensor }> {
  readonly name: string;
  readonly kwargs: (k: Kwargs) => O;
  readonly fn: (self: Tensor, options?: NoInfer<O>) => Tensor;
  /** The in-place form (`leakyRelu_`, or F's `{ inplace: true }`), where PyTorch has one. */
  readonly inplace: ((self: Tensor, options?: Omit<NoInfer<O>, 'out'>) => Tensor) | null;
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

function activation<O extends { readonly out?: Tensor }>(s: ActivationSpec<O>): OpInfo {
  const call = (i: readonly OpInput[], k: Kwargs) => s.fn(tensorArg(i[0], s.name), s.kwargs(k));
  const inplace = s.inplace;
  const pytorch2x: Partial<Record<DType, string>> = { float16: HALF_2X(s.half2x) };
  if (s.bf16In2x) pytorch2x.bfloat16 = HALF_2X(s.half2x).replace("'Half'", "'BFloat16'");
  return {
    name: s.name,
    errorNames: [s.name, `${s.name}_`, s.aten, `${s.aten}_`],
    call,
    variants: { method: s.method ?? false, inplace: inplace !== null, out: true },
    forms: inplace
      ? {
          inplace: (i, k) => {
            const { out, ...rest } = s.kwargs(k);
            if (out) throw new Error(`${s.name}: the OpInfo case gives out= to the in-place form`);
            return inplace(tensorArg(i[0], s.name), rest);
          },
        }
      : undefined,
    dtypes: s.dtypes ?? FLOAT_DTYPES,
    samples: [...SAMPLES, ...(s.samples ?? [])],
    errorInputs: [
      {
        name: 'a JS array instead of a tensor',
        make: () => untyped(s.fn)([1, 2]),
        error: TorchError,
        match: /\(\): argument 'input' \(position 1\) must be Tensor, not Array/,
      },
      {
        name: 'an out= tensor of the wrong shape',
        make: (d) => s.fn(t(d, [0.5, 1.5], 'float32'), s.kwargs({ out: torch.empty([3], { device: d }) })),
        error: ShapeError,
        match: /output with shape \[3\] doesn't match the broadcast shape \[2\]/,
      },
    ],
    pytorch2x,
  };
}

const OUT = options({ out: tensor });
const OPTIONS = ['options'];
/** PyTorch raises for bool, and for uint8 with the default (negative) min_val. */
const HARDTANH_DTYPES: readonly DType[] = NO_BOOL.filter((d) => d !== 'uint8');

export const ACTIVATION_OPS: readonly OpInfo[] = [
  activation({
    name: 'leakyRelu', aten: 'leaky_relu', half2x: 'leaky_relu_cpu', samples: OPTIONS,
    kwargs: options({ negativeSlope: num, out: tensor }), fn: torch.leakyRelu, inplace: torch.leakyRelu_,
  }),
  activation({ name: 'elu', aten: 'elu', half2x: 'elu_cpu', samples: OPTIONS, kwargs: options({ alpha: num, out: tensor }), fn: torch.elu, inplace: torch.elu_ }),
  activation({ name: 'selu', aten: 'elu', half2x: 'elu_cpu', kwargs: OUT, fn: torch.selu, inplace: torch.selu_ }),
  activation({
    name: 'relu6',
    aten: 'hardtanh', dtypes: NO_BOOL,
    kwargs: OUT,
    fn: torch.relu6,
    inplace: (x) => torch.relu6(x, { inplace: true }),
    half2x: 'clamp_scalar_cpu',
  }),
  activation({
    name: 'hardtanh', aten: 'hardtanh', dtypes: HARDTANH_DTYPES, half2x: 'clamp_scalar_cpu', samples: OPTIONS,
    kwargs: options({ minVal: num, maxVal: num, out: tensor }), fn: torch.hardtanh, inplace: torch.hardtanh_,
  }),
  activation({
    name: 'gelu', aten: 'gelu', half2x: 'GeluKernelImpl', samples: [...OPTIONS, 'tanh-edge'],
    kwargs: options({ approximate: oneOf('none', 'tanh'), out: tensor }), fn: torch.gelu, inplace: null,
  }),
  activation({ name: 'silu', aten: 'silu', half2x: 'silu_cpu', kwargs: OUT, fn: torch.silu, inplace: torch.silu_ }),
  activation({ name: 'mish', aten: 'mish', half2x: 'mish_cpu', bf16In2x: true, kwargs: OUT, fn: torch.mish, inplace: torch.mish_ }),
  activation({
    name: 'softplus', aten: 'softplus', half2x: 'softplus_cpu', samples: OPTIONS,
    kwargs: options({ beta: num, threshold: num, out: tensor }), fn: torch.softplus, inplace: null,
  }),
  activation({ name: 'hardsigmoid', aten: 'hardsigmoid', half2x: 'hardsigmoid_cpu', kwargs: OUT, fn: torch.hardsigmoid, inplace: torch.hardsigmoid_ }),
  activation({ name: 'hardswish', aten: 'hardswish', half2x: 'hardswish_cpu', kwargs: OUT, fn: torch.hardswish, inplace: torch.hardswish_ }),
  activation({
    name: 'logit', aten: 'logit', dtypes: ALL_DTYPES, method: true, half2x: 'logit_cpu', samples: OPTIONS,
    kwargs: options({ eps: num, out: tensor }), fn: torch.logit, inplace: torch.logit_,
  }),
];
