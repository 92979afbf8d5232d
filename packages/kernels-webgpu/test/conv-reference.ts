/**
 * A float64 reference for the convolution kernels' tests: the geometry of a case and every
 * product term of its convolution, in NCHW / OIHW index terms.
 */
export interface Conv {
  N: number; C: number; H: number; W: number; O: number; kH: number; kW: number;
  s: [number, number]; p: [number, number]; d: [number, number]; g: number;
  /** batch elements before the input's in its storage (a storage offset) */
  skip?: number;
}

export function outSize(c: Conv): [number, number] {
  return [
    Math.floor((c.H + 2 * c.p[0] - c.d[0] * (c.kH - 1) - 1) / c.s[0]) + 1,
    Math.floor((c.W + 2 * c.p[1] - c.d[1] * (c.kW - 1) - 1) / c.s[1]) + 1,
  ];
}

/** Calls f(n, o, c, oh, ow, ih, iw, i, j) for every product term of the convolution. */
export function eachTerm(c: Conv, f: (n: number, o: number, ci: number, oh: number, ow: number, ih: number, iw: number, i: number, j: number, cl: number) => void): void {
  const [oH, oW] = outSize(c);
  const cig = c.C / c.g;
  const cog = c.O / c.g;
  for (let n = 0; n < c.N; n++) for (let o = 0; o < c.O; o++) for (let oh = 0; oh < oH; oh++) for (let ow = 0; ow < oW; ow++) {
    const gi = Math.floor(o / cog);
    for (let cl = 0; cl < cig; cl++) for (let i = 0; i < c.kH; i++) for (let j = 0; j < c.kW; j++) {
      const ih = oh * c.s[0] - c.p[0] + i * c.d[0];
      const iw = ow * c.s[1] - c.p[1] + j * c.d[1];
      if (ih < 0 || ih >= c.H || iw < 0 || iw >= c.W) continue;
      f(n, o, gi * cig + cl, oh, ow, ih, iw, i, j, cl);
    }
  }
}

/** eachTerm with the row-major NCHW / OIHW / NCHW flat indices of the input, weight and output terms. */
export function eachFlatTerm(c: Conv, f: (xi: number, wi: number, oi: number) => void): void {
  const [oH, oW] = outSize(c);
  const cig = c.C / c.g;
  eachTerm(c, (n, o, ci, oh, ow, ih, iw, i, j, cl) =>
    f(((n * c.C + ci) * c.H + ih) * c.W + iw, ((o * cig + cl) * c.kH + i) * c.kW + j, ((n * c.O + o) * oH + oh) * oW + ow),
  );
}
