// Note [Convolution parameter block]
// A convolution task takes more numbers than a pool task may have arguments (Note [CPU
// thread pool]), so the caller writes them once into a block of the memory and every task
// gets its address: an unmanaged class over those words, in the field order below
// (src/kernels/conv2d.ts writes the same order). The three operands of every convolution
// are named by their shape, whatever the direction: `image` [N, C, H, W], `cols` [N, Cout,
// outH, outW] (the output of a forward, the grad output of a backward) and `weight`
// [Cout, C / G, kH, kW]; all contiguous, in one dtype.

// @ts-ignore: decorator
@unmanaged export class Geometry {
  image: usize;
  cols: usize;
  weight: usize;
  /** The bias [Cout] of a forward, or 0 for none. */
  bias: usize;
  N: i32;
  C: i32;
  H: i32;
  W: i32;
  Cout: i32;
  G: i32;
  kH: i32;
  kW: i32;
  sH: i32;
  sW: i32;
  pH: i32;
  pW: i32;
  dH: i32;
  dW: i32;
  outH: i32;
  outW: i32;
  /** Positions per window (Note [im2col over a window of positions]). */
  chunk: i32;
}
