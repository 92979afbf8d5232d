import type { DerivativeFamily } from '../derivative';
import { selectingReductionBackward } from './common';

/**
 * The derivatives of max(dim) and min(dim); the op table's reduction rows (sum, mean, prod,
 * amax, amin, argmax, argmin, logsumexp, all, any) declare theirs in core (table.ts derives
 * their entries).
 */

export const REDUCTION_DERIVATIVES = {
  'max.dim': selectingReductionBackward('MaxBackward0', 'max'),
  'min.dim': selectingReductionBackward('MinBackward0', 'min'),
} satisfies DerivativeFamily;
