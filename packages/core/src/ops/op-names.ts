/**
 * Note [Ops that need a derivative]
 * Every operator with kernels of its own (not a composite, not an out= variant, which
 * autograd refuses) is named here once, so that the autograd package's derivative table can
 * be checked by the compiler (`satisfies { [K in KernelOpName]: ... }`): an op added here
 * without a derivative entry does not compile. test/op-names.test.ts keeps this list equal
 * to what the dispatcher actually registers.
 */
export const KERNEL_OP_NAMES = [
  'copy_', 'fill_.Scalar', '_to_copy', 'clone',
  'view', 'as_strided', 'permute', 'transpose.int', 'select.int', 'slice.Tensor', 'unsqueeze', 'squeeze.dims',
  'expand', 'unfold', 'diagonal', 'detach', 'alias',
  'mm', 'bmm', 'mv', 'dot',
  'add', 'add_', 'sub', 'sub_', 'mul', 'mul_', 'div', 'div_', 'pow', 'pow_', 'remainder', 'remainder_',
  'maximum', 'minimum',
  'fmod', 'fmod_', 'atan2', 'atan2_', 'hypot', 'hypot_', 'fmax', 'fmin',
  'clamp', 'clamp_', 'clamp_min', 'clamp_min_', 'clamp_max', 'clamp_max_', 'lerp', 'lerp_',
  'addcmul', 'addcmul_', 'addcdiv', 'addcdiv_',
  'logical_not', 'logical_not_', 'logical_and', 'logical_and_', 'logical_or', 'logical_or_', 'logical_xor', 'logical_xor_',
  'bitwise_not', 'bitwise_not_', 'bitwise_and', 'bitwise_and_', 'bitwise_or', 'bitwise_or_', 'bitwise_xor', 'bitwise_xor_', 'nan_to_num', 'nan_to_num_',
  'eq', 'eq_', 'ne', 'ne_', 'lt', 'lt_', 'le', 'le_', 'gt', 'gt_', 'ge', 'ge_',
  'neg', 'neg_', 'abs', 'abs_', 'relu', 'relu_', 'floor', 'floor_', 'ceil', 'ceil_',
  'exp', 'exp_', 'log', 'log_', 'sqrt', 'sqrt_', 'sin', 'sin_', 'cos', 'cos_', 'tanh', 'tanh_', 'sigmoid', 'sigmoid_',
  'rsqrt', 'rsqrt_', 'reciprocal', 'reciprocal_', 'sign', 'sign_', 'trunc', 'trunc_', 'frac', 'frac_',
  'exp2', 'exp2_', 'expm1', 'expm1_', 'log2', 'log2_', 'log10', 'log10_', 'log1p', 'log1p_',
  'tan', 'tan_', 'asin', 'asin_', 'acos', 'acos_', 'atan', 'atan_', 'sinh', 'sinh_', 'cosh', 'cosh_',
  'erf', 'erf_', 'erfc', 'erfc_', 'erfinv', 'erfinv_',
  'where',
  'leaky_relu', 'leaky_relu_', 'elu', 'elu_', 'hardtanh', 'hardtanh_', 'gelu', 'silu', 'silu_', 'mish', 'mish_', 'softplus',
  'hardsigmoid', 'hardsigmoid_', 'hardswish', 'hardswish_', 'logit', 'logit_',
  'sum.dim_IntList', 'mean.dim', 'prod.dim_int', 'amax', 'amin', 'max.dim', 'min.dim', 'argmax', 'argmin',
] as const;

export type KernelOpName = (typeof KERNEL_OP_NAMES)[number];
