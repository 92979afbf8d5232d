import type { BoundArgs } from '@torch-ts/core';
import { Tensor } from '../internal';
import { initBinder } from '../init-args';
import { Module } from '../module';
import * as F from '../functional';

const pixelShuffleArgs = initBinder('PixelShuffle', 'int upscale_factor');
const pixelUnshuffleArgs = initBinder('PixelUnshuffle', 'int downscale_factor');
const channelShuffleArgs = initBinder('ChannelShuffle', 'int groups');

/** nn.PixelShuffle(upscale_factor): [*, C * r^2, H, W] -> [*, C, H * r, W * r]. */
export class PixelShuffle extends Module {
  readonly upscaleFactor: number;

  constructor(...args: BoundArgs<[upscaleFactor: number], [], { upscaleFactor?: number }>) {
    super();
    [this.upscaleFactor] = pixelShuffleArgs.bind(args);
  }

  override forward(input: Tensor): Tensor {
    return F.pixelShuffle(input, this.upscaleFactor);
  }

  override extraRepr(): string {
    return `upscale_factor=${this.upscaleFactor}`;
  }
}

/** nn.PixelUnshuffle(downscale_factor): the inverse of PixelShuffle. */
export class PixelUnshuffle extends Module {
  readonly downscaleFactor: number;

  constructor(...args: BoundArgs<[downscaleFactor: number], [], { downscaleFactor?: number }>) {
    super();
    [this.downscaleFactor] = pixelUnshuffleArgs.bind(args);
  }

  override forward(input: Tensor): Tensor {
    return F.pixelUnshuffle(input, this.downscaleFactor);
  }

  override extraRepr(): string {
    return `downscale_factor=${this.downscaleFactor}`;
  }
}

/** nn.ChannelShuffle(groups): the channels [N, g * k, *] regrouped k-major. */
export class ChannelShuffle extends Module {
  readonly groups: number;

  constructor(...args: BoundArgs<[groups: number], [], { groups?: number }>) {
    super();
    [this.groups] = channelShuffleArgs.bind(args);
  }

  override forward(input: Tensor): Tensor {
    return F.channelShuffle(input, this.groups);
  }

  override extraRepr(): string {
    return `groups=${this.groups}`;
  }
}
