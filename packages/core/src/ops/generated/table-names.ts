// Generated from packages/core/src/ops/table/ by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

/** The unary rows, in table order (torch-ts names: the front ends, methods and impls). */
export const UNARY_TABLE_NAMES = ['neg', 'abs', 'relu', 'floor', 'ceil', 'exp', 'log', 'sqrt', 'sin', 'cos', 'tanh', 'sigmoid', 'rsqrt', 'reciprocal', 'sign', 'trunc', 'frac', 'exp2', 'expm1', 'log2', 'log10', 'log1p', 'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'asinh', 'acosh', 'atanh', 'erf', 'erfc', 'erfinv', 'logicalNot', 'bitwiseNot'] as const;

/** The dispatcher (PyTorch) names of the unary rows' operators with kernels (functional and in-place; `out` variants need no derivative). */
export const UNARY_TABLE_KERNEL_OP_NAMES = ['neg', 'neg_', 'abs', 'abs_', 'relu', 'relu_', 'floor', 'floor_', 'ceil', 'ceil_', 'exp', 'exp_', 'log', 'log_', 'sqrt', 'sqrt_', 'sin', 'sin_', 'cos', 'cos_', 'tanh', 'tanh_', 'sigmoid', 'sigmoid_', 'rsqrt', 'rsqrt_', 'reciprocal', 'reciprocal_', 'sign', 'sign_', 'trunc', 'trunc_', 'frac', 'frac_', 'exp2', 'exp2_', 'expm1', 'expm1_', 'log2', 'log2_', 'log10', 'log10_', 'log1p', 'log1p_', 'tan', 'tan_', 'asin', 'asin_', 'acos', 'acos_', 'atan', 'atan_', 'sinh', 'sinh_', 'cosh', 'cosh_', 'asinh', 'asinh_', 'acosh', 'acosh_', 'atanh', 'atanh_', 'erf', 'erf_', 'erfc', 'erfc_', 'erfinv', 'erfinv_', 'logical_not', 'logical_not_', 'bitwise_not', 'bitwise_not_'] as const;

/** The binary rows, in table order. */
export const BINARY_TABLE_NAMES = ['fmod', 'atan2', 'hypot', 'fmax', 'fmin', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd', 'logicalOr', 'logicalXor', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor'] as const;

/** The dispatcher names of the binary rows' operators with kernels. */
export const BINARY_TABLE_KERNEL_OP_NAMES = ['fmod', 'fmod_', 'atan2', 'atan2_', 'hypot', 'hypot_', 'fmax', 'fmin', 'eq', 'eq_', 'ne', 'ne_', 'lt', 'lt_', 'le', 'le_', 'gt', 'gt_', 'ge', 'ge_', 'logical_and', 'logical_and_', 'logical_or', 'logical_or_', 'logical_xor', 'logical_xor_', 'bitwise_and', 'bitwise_and_', 'bitwise_or', 'bitwise_or_', 'bitwise_xor', 'bitwise_xor_'] as const;
