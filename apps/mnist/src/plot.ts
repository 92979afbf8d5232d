/**
 * The loss curve as a standalone SVG: the training loss of every step (light) and its
 * per-epoch mean (dark), with epoch ticks. No dependencies, so it opens in any browser.
 */
export interface LossCurve {
  /** The loss of each training step, in order. */
  readonly steps: readonly number[];
  /** Steps per epoch, to mark epoch boundaries. */
  readonly stepsPerEpoch: number;
  /** Held-out accuracy after each epoch (0..1), printed in the legend. */
  readonly testAccuracy: readonly number[];
}

const W = 640;
const H = 360;
const M = { left: 56, right: 16, top: 28, bottom: 40 };

export function lossCurveSvg(c: LossCurve): string {
  const n = c.steps.length;
  const max = Math.max(...c.steps.filter(Number.isFinite), 1e-6);
  const x = (i: number) => M.left + (n <= 1 ? 0 : (i / (n - 1)) * (W - M.left - M.right));
  const y = (v: number) => M.top + (1 - Math.min(v, max) / max) * (H - M.top - M.bottom);
  const path = (pts: [number, number][]) => pts.map(([px, py], i) => `${i ? 'L' : 'M'}${px.toFixed(1)},${py.toFixed(1)}`).join('');
  const raw = path(c.steps.map((v, i) => [x(i), y(v)]));
  const means: [number, number][] = [];
  for (let e = 0; e * c.stepsPerEpoch < n; e++) {
    const part = c.steps.slice(e * c.stepsPerEpoch, (e + 1) * c.stepsPerEpoch);
    means.push([x(Math.min(n - 1, (e + 1) * c.stepsPerEpoch - 1)), y(part.reduce((a, b) => a + b, 0) / part.length)]);
  }
  const ticks: string[] = [];
  for (let e = 1; e * c.stepsPerEpoch <= n; e++) {
    const px = x(e * c.stepsPerEpoch - 1).toFixed(1);
    ticks.push(`<line x1="${px}" y1="${H - M.bottom}" x2="${px}" y2="${H - M.bottom + 5}" stroke="#444"/>`);
    ticks.push(`<text x="${px}" y="${H - M.bottom + 18}" font-size="11" text-anchor="middle">${e}</text>`);
  }
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const v = f * max;
    return `<text x="${M.left - 6}" y="${(y(v) + 4).toFixed(1)}" font-size="11" text-anchor="end">${v.toFixed(2)}</text>` +
      `<line x1="${M.left}" y1="${y(v).toFixed(1)}" x2="${W - M.right}" y2="${y(v).toFixed(1)}" stroke="#eee"/>`;
  });
  const acc = c.testAccuracy.length ? ` — held-out accuracy ${(c.testAccuracy[c.testAccuracy.length - 1] * 100).toFixed(2)}%` : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    ...yTicks,
    `<text x="${M.left}" y="18" font-size="13">torch-ts MNIST training loss${acc}</text>`,
    `<line x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}" stroke="#444"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${H - M.bottom}" stroke="#444"/>`,
    ...ticks,
    `<text x="${(W + M.left) / 2}" y="${H - 6}" font-size="11" text-anchor="middle">epoch</text>`,
    `<path d="${raw}" fill="none" stroke="#9ecae1" stroke-width="1"/>`,
    `<path d="${path(means)}" fill="none" stroke="#08519c" stroke-width="2"/>`,
    '</svg>',
    '',
  ].join('\n');
}
