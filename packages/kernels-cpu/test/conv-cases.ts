/** A convolution test case and its geometry, shared by the NCHW and channels-last conv tests. */
import type { Conv2dGeometry } from '@torch-ts/core';

export interface Case {
  N: number;
  C: number;
  H: number;
  W: number;
  Cout: number;
  k: [number, number];
  stride?: [number, number];
  pad?: [number, number];
  dil?: [number, number];
  groups?: number;
  bias?: boolean;
}

export function geometry(c: Case): Conv2dGeometry {
  const [sH, sW] = c.stride ?? [1, 1];
  const [pH, pW] = c.pad ?? [0, 0];
  const [dH, dW] = c.dil ?? [1, 1];
  const [kH, kW] = c.k;
  return {
    channels: c.C / (c.groups ?? 1), height: c.H, width: c.W, kernelH: kH, kernelW: kW,
    strideH: sH, strideW: sW, padH: pH, padW: pW, dilationH: dH, dilationW: dW,
    outH: Math.floor((c.H + 2 * pH - dH * (kH - 1) - 1) / sH) + 1,
    outW: Math.floor((c.W + 2 * pW - dW * (kW - 1) - 1) / sW) + 1,
  };
}
