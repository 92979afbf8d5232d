/**
 * torch.fft against PyTorch 1.13's CPU (goldens/fft.json, scripts/goldens/fft.py): every
 * transform family with n / s, dim and norm, real, integer and complex inputs, the lengths
 * of both CPU plans (mixed radix and Bluestein: kernels-cpu Note [CPU FFT plans]),
 * fftfreq / rfftfreq / fftshift, the gradients of real losses (PyTorch's fft_r2c_backward and
 * fft_c2r_backward), gradcheck and gradgradcheck in float64, the errors with PyTorch's
 * messages, and a leak loop. Forward cases run on every device the testing package tests
 * (CPU, and WebGPU where an adapter is found); gradients on CPU.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { IndexError, TorchError, type Tensor } from '@torch-ts/torch';

interface GTensor {
  readonly dtype: string;
  readonly shape: number[];
  readonly re: number[];
  readonly im?: number[];
}
/** Non-finite values travel as "nan" / "inf" / "-inf". */
const decode = (v: number | string): number => (typeof v === 'number' ? v : v === 'nan' ? NaN : v === 'inf' ? Infinity : -Infinity);
type Kwargs = Record<string, unknown>;
interface Golden {
  readonly forward: { fn: string; input: GTensor; kwargs: Kwargs; out: GTensor }[];
  readonly freq: { fn: string; n: number; kwargs: Kwargs; out: GTensor }[];
  readonly shifts: { fn: string; input: GTensor; kwargs: Kwargs; out: GTensor }[];
  readonly grads: { fn: string; input: GTensor; kwargs: Kwargs; weight: GTensor; grad: GTensor }[];
  readonly errors: { fn: string; input?: { dtype: string; shape: number[] }; n?: number; kwargs: Kwargs; type: string; message: string }[];
}

const G: Golden = JSON.parse(readFileSync(new URL('../goldens/fft.json', import.meta.url), 'utf8'), (key, v) =>
  (key === 're' || key === 'im') && Array.isArray(v) ? v.map(decode) : v,
);

type Fn = (x: Tensor, opts?: Kwargs) => Tensor;
const F = torch.fft as unknown as Record<string, Fn>;
type DType = torch.DType;

const REAL_OF: Record<string, DType> = { complex64: 'float32', complex128: 'float64' };

function make(g: GTensor, device = 'cpu'): Tensor {
  return torch.tidy(() => {
    const shape = g.shape;
    if (g.im) {
      const d = REAL_OF[g.dtype];
      const re = torch.tensor(Float64Array.from(g.re)).reshape(shape).to(d);
      const im = torch.tensor(Float64Array.from(g.im)).reshape(shape).to(d);
      return torch.complex(re, im).to(device);
    }
    return torch.tensor(Float64Array.from(g.re)).reshape(shape).to(g.dtype as DType).to(device);
  });
}

/** The (re, im) values of a CPU tensor as doubles. */
function partsOf(t: Tensor): { re: Float64Array; im: Float64Array | null } {
  return torch.tidy(() => {
    if (torch.isComplex(t)) {
      const p = torch.viewAsReal(t.contiguous()).to('float64').contiguous().dataSync() as Float64Array;
      const re = new Float64Array(p.length / 2);
      const im = new Float64Array(p.length / 2);
      for (let i = 0; i < re.length; i++) [re[i], im[i]] = [p[2 * i], p[2 * i + 1]];
      return { re, im };
    }
    return { re: Float64Array.from(t.to('float64').contiguous().dataSync() as Float64Array), im: null };
  });
}

const EPS: Record<string, number> = { float32: 2 ** -23, complex64: 2 ** -23, float64: 2 ** -52, complex128: 2 ** -52 };

/**
 * |ours - PyTorch's| <= 8 eps log2(N) max|X| (the accuracy target of a few ulps times log n,
 * relative to the largest output), N the number of input values transformed.
 */
function expectClose(got: Tensor, want: GTensor, count: number, what: string): void {
  expect(got.dtype, what).toBe(want.dtype);
  expect([...got.shape], what).toEqual(want.shape);
  const { re, im } = partsOf(got);
  let scale = 1;
  for (let i = 0; i < want.re.length; i++) scale = Math.max(scale, Math.hypot(want.re[i], want.im?.[i] ?? 0));
  const tol = 8 * EPS[want.dtype] * Math.max(1, Math.log2(Math.max(2, count))) * scale;
  let err = 0;
  for (let i = 0; i < want.re.length; i++) {
    err = Math.max(err, Math.abs(re[i] - want.re[i]));
    if (want.im) err = Math.max(err, Math.abs((im?.[i] ?? 0) - want.im[i]));
  }
  expect(err, `${what}: max error ${err} > ${tol}`).toBeLessThanOrEqual(tol);
}

const label = (fn: string, x: { dtype: string; shape: number[] }, kw: Kwargs): string => `${fn}(${x.dtype}${JSON.stringify(x.shape)}, ${JSON.stringify(kw)})`;

const webgpuReady = await torch.webgpu.init().catch(() => false);
const DEVICES = webgpuReady ? (['cpu', 'webgpu'] as const) : (['cpu'] as const);

/** WebGPU has no 64-bit floats: its cases are those whose input and result are 32-bit. */
const WIDE = new Set(['float64', 'complex128']);
const runsOn = (device: string, ...ts: GTensor[]): boolean => device === 'cpu' || ts.every((t) => !WIDE.has(t.dtype));

for (const device of DEVICES) {
  describe(`torch.fft forward against PyTorch 1.13 (${device})`, () => {
    for (const c of G.forward.filter((c) => runsOn(device, c.input, c.out))) {
      it(label(c.fn, c.input, c.kwargs), async () => {
        const x = make(c.input, device);
        const out = F[c.fn](x, c.kwargs);
        const host = await out.toAsync('cpu');
        expectClose(host, c.out, Math.max(1, c.input.re.length), c.fn);
        for (const t of new Set([x, out, host])) t.dispose();
      });
    }
    for (const c of G.shifts.filter((c) => runsOn(device, c.input, c.out))) {
      it(label(c.fn, c.input, c.kwargs), async () => {
        const x = make(c.input, device);
        const out = F[c.fn](x, c.kwargs);
        const host = await out.toAsync('cpu');
        expectClose(host, c.out, 1, c.fn);
      });
    }
    for (const c of G.freq.filter((c) => runsOn(device, c.out))) {
      it(`${c.fn}(${c.n}, ${JSON.stringify(c.kwargs)})`, async () => {
        const f = torch.fft as unknown as Record<string, (n: number, o: Kwargs) => Tensor>;
        const out = f[c.fn](c.n, { ...c.kwargs, device });
        const host = await out.toAsync('cpu');
        // (one rounding of arange * (1 / (n d)) in the dtype: bit for bit)
        expect(host.dtype).toBe(c.out.dtype);
        expect([...host.shape]).toEqual(c.out.shape);
        expect(Array.from(partsOf(host).re)).toEqual(c.out.re); // (toEqual: NaN equals NaN)
      });
    }
  });
}

describe('torch.fft gradients of real losses against PyTorch 1.13 (CPU, float64 / complex128)', () => {
  for (const c of G.grads) {
    it(`${label(c.fn, c.input, c.kwargs)}: sum |f(x) w|^2`, () => {
      const x = make(c.input).requiresGrad_(true);
      const w = make(c.weight);
      const out = F[c.fn](x, c.kwargs);
      torch.mul(out, w).abs().pow(2).sum().backward();
      expectClose(x.grad!, c.grad, c.input.re.length, `${c.fn} grad`);
    });
  }
});

describe('torch.fft gradcheck and gradgradcheck (float64, through view_as_real of real leaves)', () => {
  const { gradcheck, gradgradcheck } = torch.autograd;
  const leaf = (shape: number[], seed: number) => torch.randn(shape, { dtype: 'float64', generator: new torch.Generator().manualSeed(seed) }).requiresGrad_(true);
  const realOut = (t: Tensor) => (torch.isComplex(t) ? torch.viewAsReal(t) : t);
  const complexIn = (fn: string, kw: Kwargs) => (p: Tensor) => realOut(F[fn](torch.viewAsComplex(p), kw));
  const realIn = (fn: string, kw: Kwargs) => (p: Tensor) => realOut(F[fn](p, kw));
  const cases: [string, (p: Tensor) => Tensor, number[]][] = [
    ['fft complex, n=7', complexIn('fft', { n: 7 }), [2, 5, 2]],
    ['ifft complex, ortho, dim 0', complexIn('ifft', { dim: 0, norm: 'ortho' }), [4, 3, 2]],
    ['fft real (r2c two-sided)', realIn('fft', {}), [3, 5]],
    ['rfft, n=6', realIn('rfft', { n: 6 }), [2, 5]],
    ['rfft of length 17 (Bluestein)', realIn('rfft', {}), [17]],
    ['irfft (even n)', complexIn('irfft', {}), [2, 4, 2]],
    ['irfft (odd n), forward', complexIn('irfft', { n: 5, norm: 'forward' }), [3, 2]],
    ['hfft', complexIn('hfft', { n: 6 }), [4, 2]],
    ['ihfft', realIn('ihfft', { norm: 'ortho' }), [2, 6]],
    ['fft2', complexIn('fft2', {}), [3, 4, 2]],
    ['rfftn', realIn('rfftn', { dim: [0, 2] }), [2, 3, 4]],
    ['irfftn', complexIn('irfftn', { s: [3, 4] }), [3, 3, 2]],
    ['hfftn', complexIn('hfftn', {}), [2, 3, 2]],
    ['ihfftn', realIn('ihfftn', {}), [3, 4]],
  ];
  cases.forEach(([name, fn, shape], i) => {
    it(name, async () => {
      const x = leaf(shape, 100 + i);
      expect(await gradcheck(fn, [x])).toBe(true);
      expect(await gradgradcheck(fn, [x])).toBe(true);
    });
  });

  it('the primitive records one real op: FftC2CBackward0 behind view_as_complex', () => {
    const x = leaf([4, 2], 7);
    const y = torch.viewAsReal(F.fft(torch.viewAsComplex(x)));
    expect(x.dtype).toBe('float64');
    expect(y.gradFn).not.toBeNull();
    y.sum().backward();
    // d/dx of sum(re X + im X) for X = DFT(x): each input (a, b) contributes sum_k (cos - sin) a + (sin + cos) b
    const g = x.grad!.tolist() as number[][];
    const n = 4;
    for (let j = 0; j < n; j++) {
      let ga = 0;
      let gb = 0;
      for (let k = 0; k < n; k++) {
        const t = (-2 * Math.PI * j * k) / n;
        ga += Math.cos(t) + Math.sin(t);
        gb += -Math.sin(t) + Math.cos(t);
      }
      expect(g[j][0]).toBeCloseTo(ga, 12);
      expect(g[j][1]).toBeCloseTo(gb, 12);
    }
  });
});

describe('torch.fft errors, with PyTorch 1.13 messages', () => {
  for (const e of G.errors) {
    const desc = e.input ? label(e.fn, e.input, e.kwargs) : `${e.fn}(${e.n}, ${JSON.stringify(e.kwargs)})`;
    it(`${desc}: ${e.type}`, () => {
      // (1.13's ihfftn of a complex input fails an internal check; its hint for PyTorch's developers is left out)
      const message = e.message.replace(/\s+\(Could this error message be improved\?.*$/, '');
      let call: () => unknown;
      if (e.input) {
        const shape = e.input.shape;
        const dtype = e.input.dtype as DType;
        const x = torch.zeros(shape, { dtype });
        call = () => F[e.fn](x, e.kwargs);
      } else {
        const f = torch.fft as unknown as Record<string, (n: number, o: Kwargs) => Tensor>;
        call = () => f[e.fn](e.n!, e.kwargs);
      }
      let caught: unknown = null;
      try {
        call();
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(e.type === 'IndexError' ? IndexError : TorchError);
      const text = (caught as Error).message;
      expect(text.startsWith(`fft.${e.fn}: `), text).toBe(true);
      expect(text.endsWith(message), `${text} should end with ${message}`).toBe(true);
    });
  }
});

describe('torch.fft leaks nothing (CPU)', () => {
  it('a loop of every transform, forward and backward, leaves the live tensor count flat', () => {
    const run = () => {
      const x = torch.randn([3, 8], { dtype: 'float64' }).requiresGrad_(true);
      const z = torch.complex(torch.randn([3, 5], { dtype: 'float64' }), torch.randn([3, 5], { dtype: 'float64' })).requiresGrad_(true);
      const outs = [F.fft(x), F.ifft(z, { n: 7 }), F.rfft(x), F.irfft(z), F.hfft(z, { n: 9 }), F.ihfft(x), F.fft2(z), F.rfftn(x), F.irfftn(z), F.hfftn(z), F.ihfftn(x), F.fftshift(x)];
      let loss = torch.zeros([], { dtype: 'float64' });
      for (const o of outs) loss = torch.add(loss, o.abs().sum());
      loss.backward();
      expect(x.grad).not.toBeNull();
      torch.fft.fftfreq(8);
    };
    for (let i = 0; i < 2; i++) torch.tidy(run);
    const before = torch.memory.stats('cpu');
    for (let i = 0; i < 5; i++) torch.tidy(run);
    const after = torch.memory.stats('cpu');
    expect(after.liveTensors).toBe(before.liveTensors);
    expect(after.liveStorages).toBe(before.liveStorages);
  });
});
