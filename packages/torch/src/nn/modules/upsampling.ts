import type { BoundArgs } from '@torch-ts/core';
import type { Tensor } from '../internal';
import { initBinder } from '../init-args';
import { Module } from '../module';
import * as F from '../functional';
import { pyFloat, pyRepr } from '../repr';

/** `nn.Upsample`: F.interpolate with the layer's size or scale factor, mode and align_corners. */

type Mode = 'nearest' | 'linear' | 'bilinear' | 'bicubic' | 'trilinear' | 'area' | 'nearest-exact';

export interface UpsampleOptions {
  size?: number | readonly number[] | null;
  scaleFactor?: number | readonly number[] | null;
  mode?: Mode | null;
  alignCorners?: boolean | null;
  recomputeScaleFactor?: boolean | null;
}

const upsampleArgs = initBinder('Upsample', "Any? size=None, Any? scale_factor=None, str mode='nearest', bool? align_corners=None, bool? recompute_scale_factor=None");

export class Upsample extends Module {
  readonly size: number | readonly number[] | null;
  readonly scaleFactor: number | readonly number[] | null;
  readonly mode: Mode;
  readonly alignCorners: boolean | null;
  readonly recomputeScaleFactor: boolean | null;

  constructor(
    ...args: BoundArgs<
      [],
      [size: number | readonly number[], scaleFactor: number | readonly number[], mode: Mode, alignCorners: boolean, recomputeScaleFactor: boolean],
      UpsampleOptions
    >
  ) {
    super();
    const [size, scaleFactor, mode, alignCorners, recomputeScaleFactor] = upsampleArgs.bind(args);
    this.size = (size ?? null) as number | readonly number[] | null;
    // (PyTorch keeps a scale factor as floats: `scale_factor=2.0`)
    const sf = scaleFactor as number | readonly number[] | null | undefined;
    this.scaleFactor = sf == null ? null : typeof sf === 'number' ? sf : [...sf];
    this.mode = mode as Mode;
    this.alignCorners = alignCorners ?? null;
    this.recomputeScaleFactor = recomputeScaleFactor ?? null;
  }

  override forward(input: Tensor): Tensor {
    return F.interpolate(input, {
      size: this.size,
      scaleFactor: this.scaleFactor,
      mode: this.mode,
      alignCorners: this.alignCorners,
      recomputeScaleFactor: this.recomputeScaleFactor,
    });
  }

  override extraRepr(): string {
    const sf = this.scaleFactor;
    const info =
      sf !== null
        ? `scale_factor=${pyRepr(typeof sf === 'number' ? pyFloat(sf) : sf.map((v) => pyFloat(v)))}`
        : `size=${pyRepr(this.size as number | number[])}`;
    return `${info}, mode=${this.mode}`;
  }
}

const upsamplingNearest2dArgs = initBinder('UpsamplingNearest2d', 'Any? size=None, Any? scale_factor=None');
const upsamplingBilinear2dArgs = initBinder('UpsamplingBilinear2d', 'Any? size=None, Any? scale_factor=None');
type Upsampling2dArgs = BoundArgs<[], [size: number | readonly number[], scaleFactor: number | readonly number[]], Pick<UpsampleOptions, 'size' | 'scaleFactor'>>;

/** `nn.UpsamplingNearest2d`: Upsample with mode 'nearest'. */
export class UpsamplingNearest2d extends Upsample {
  constructor(...args: Upsampling2dArgs) {
    const [size, scaleFactor] = upsamplingNearest2dArgs.bind(args);
    super({ size: size as UpsampleOptions['size'], scaleFactor: scaleFactor as UpsampleOptions['scaleFactor'], mode: 'nearest' });
  }
}

/** `nn.UpsamplingBilinear2d`: Upsample with mode 'bilinear' and align_corners=True. */
export class UpsamplingBilinear2d extends Upsample {
  constructor(...args: Upsampling2dArgs) {
    const [size, scaleFactor] = upsamplingBilinear2dArgs.bind(args);
    super({ size: size as UpsampleOptions['size'], scaleFactor: scaleFactor as UpsampleOptions['scaleFactor'], mode: 'bilinear', alignCorners: true });
  }
}
