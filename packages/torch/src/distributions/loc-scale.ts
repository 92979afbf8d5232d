import type { Tensor } from '@torch-ts/core';
import { distributionBinder, type DistArgs, type ValidateOptions } from './args';
import { positive, real, type Constraint } from './constraints';
import { Distribution } from './distribution';
import { broadcastAll, type Param } from './utils';

const PARAMS = 'Any loc, Any scale, bool? validate_args=None';
type Binder = ReturnType<typeof distributionBinder<typeof PARAMS>>;
const binders = new Map<string, Binder>();

/** The `(loc, scale, validate_args=None)` binder of class `cls`, made once. */
function binderOf(cls: string): Binder {
  let b = binders.get(cls);
  if (!b) binders.set(cls, (b = distributionBinder(cls, PARAMS)));
  return b;
}

export type LocScaleArgs = DistArgs<[loc: Param, scale: Param], [validateArgs: boolean | null], ValidateOptions>;

/**
 * A distribution on the reals with a location and a scale (Normal, Laplace): PyTorch's
 * `(loc, scale, validate_args=None)` constructor, the parameters broadcast together, real
 * support, reparameterised samples, mean and mode at loc.
 */
export abstract class LocScaleDistribution extends Distribution {
  readonly loc: Tensor;
  readonly scale: Tensor;

  constructor(cls: string, args: LocScaleArgs) {
    super();
    const [loc, scale, validateArgs] = binderOf(cls).bind(args);
    [this.loc, this.scale] = broadcastAll(loc, scale);
    this.setup(this.loc.shape, [], validateArgs);
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return { loc: real, scale: positive };
  }

  override get support(): Constraint {
    return real;
  }

  override get hasRsample(): boolean {
    return true;
  }

  override get mean(): Tensor {
    return this.loc;
  }

  override get mode(): Tensor {
    return this.loc;
  }
}
