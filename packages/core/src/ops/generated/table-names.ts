// Generated from packages/core/src/ops/table/ by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

/** The unary rows, in table order. */
export const UNARY_TABLE_NAMES = ['neg', 'abs', 'relu', 'floor', 'ceil', 'exp', 'log', 'sqrt', 'sin', 'cos', 'tanh', 'sigmoid', 'rsqrt', 'reciprocal', 'sign', 'trunc', 'frac', 'exp2', 'expm1', 'log2', 'log10', 'log1p', 'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'asinh', 'acosh', 'atanh', 'erf', 'erfc', 'erfinv', 'lgamma', 'digamma', 'i0', 'sinc', 'logicalNot', 'bitwiseNot'] as const;

/** The binary rows, in table order. */
export const BINARY_TABLE_NAMES = ['add', 'sub', 'mul', 'div', 'pow', 'remainder', 'maximum', 'minimum', 'clampMin', 'clampMax', 'fmod', 'atan2', 'hypot', 'xlogy', 'specialXlog1py', 'specialZeta', 'igamma', 'igammac', 'specialChebyshevPolynomialT', 'specialChebyshevPolynomialU', 'specialChebyshevPolynomialV', 'specialChebyshevPolynomialW', 'specialShiftedChebyshevPolynomialT', 'specialShiftedChebyshevPolynomialU', 'specialShiftedChebyshevPolynomialV', 'specialShiftedChebyshevPolynomialW', 'specialHermitePolynomialH', 'specialHermitePolynomialHe', 'specialLaguerrePolynomialL', 'specialLegendrePolynomialP', 'fmax', 'fmin', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd', 'logicalOr', 'logicalXor', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor'] as const;

/** The activation rows (unary with arguments), in table order. */
export const ACTIVATION_TABLE_NAMES = ['leakyRelu', 'elu', 'hardtanh', 'gelu', 'silu', 'mish', 'softplus', 'hardsigmoid', 'hardswish', 'logit', 'polygamma', 'mvlgamma', 'specialEntr', 'specialNdtri', 'specialLogNdtr', 'specialErfcx', 'specialI0e', 'specialI1', 'specialI1e', 'specialBesselJ0', 'specialBesselJ1', 'specialBesselY0', 'specialBesselY1', 'specialModifiedBesselI0', 'specialModifiedBesselI1', 'specialModifiedBesselK0', 'specialModifiedBesselK1', 'specialScaledModifiedBesselK0', 'specialScaledModifiedBesselK1', 'specialSphericalBesselJ0', 'specialAiryAi'] as const;

/** The ternary rows, in table order. */
export const TERNARY_TABLE_NAMES = ['lerp', 'addcmul', 'addcdiv'] as const;

/** The reduction rows, in table order. */
export const REDUCTION_TABLE_NAMES = ['sum', 'mean', 'prod', 'amax', 'amin', 'argmax', 'argmin', 'logsumexp', 'all', 'any'] as const;
