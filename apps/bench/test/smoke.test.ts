import { describe, expect, it } from 'vitest';
import { torchTsCpu } from '../src/libs/torch-ts';
import { isNa } from '../src/libs/types';
import { measure } from '../src/measure';
import { compareProbes, probeOf } from '../src/probe';
import { cellOf, checkCells, checkSameAs, formatTable, median } from '../src/report';
import { uniform } from '../src/data';
import { TINY_WORKLOADS, WORKLOADS, workOf } from '../src/workloads';

// The torch-ts side of `pnpm bench --quick`, on tiny sizes: every workload sets up, runs,
// reads its result back and disposes what it made. No timing is asserted.
const OPTIONS = { targetMs: 1, maxReps: 2, warmupMs: 0, maxWarmups: 1, slowMs: 10_000, probe: true };
const torchTs = torchTsCpu('one');

/** What torch-ts's run of a tiny workload gives, read back (values in PyTorch's layout). */
function run(id: string): number[] {
  const s = torchTs.setup(TINY_WORKLOADS.find((w) => w.id === id)!);
  if (s instanceof Promise || isNa(s)) throw new Error(`${id}: no setup`);
  return s.open((p) => {
    try {
      if (p.mode !== 'sync') throw new Error(`${id}: torch-ts on the CPU runs synchronously`);
      const out = p.run();
      const values = Array.from(p.values(p.read(out)));
      p.free?.(out);
      return values;
    } finally {
      p.dispose();
    }
  });
}

/**
 * A conv backward row's gradients (Note [Conv backward rows]) by the definition, in float64:
 * y[n, o, i, j] = sum over (c, a, b) of x[n, c, i + a - p, j + b - p] w[o, c, a, b], so each
 * product sends dy[n, o, i, j] w[o, c, a, b] to grad_x and dy[n, o, i, j] x[...] to grad_w.
 */
function convGradsReference(id: string): number[] {
  const c = TINY_WORKLOADS.find((w) => w.id === id)!.shapes.conv!;
  const [N, C, H, W] = c.input;
  const [O, , KH, KW] = c.weight;
  const p = c.padding;
  const [HO, WO] = [H + 2 * p - KH + 1, W + 2 * p - KW + 1];
  const x = uniform(N * C * H * W, 1);
  const w = uniform(O * C * KH * KW, 2, -0.1, 0.1);
  const dy = uniform(N * O * HO * WO, 3);
  const gx = new Float64Array(x.length);
  const gw = new Float64Array(w.length);
  for (let n = 0; n < N; n++)
    for (let o = 0; o < O; o++)
      for (let i = 0; i < HO; i++)
        for (let j = 0; j < WO; j++) {
          const d = dy[((n * O + o) * HO + i) * WO + j];
          for (let ch = 0; ch < C; ch++)
            for (let a = 0; a < KH; a++)
              for (let b = 0; b < KW; b++) {
                const [hi, wi] = [i + a - p, j + b - p];
                if (hi < 0 || hi >= H || wi < 0 || wi >= W) continue;
                const xi = ((n * C + ch) * H + hi) * W + wi;
                const ki = ((o * C + ch) * KH + a) * KW + b;
                gx[xi] += d * w[ki];
                gw[ki] += d * x[xi];
              }
        }
  return [...gx, ...gw];
}

describe('bench (torch-ts, tiny sizes)', () => {
  for (const w of TINY_WORKLOADS) {
    it(w.id, async () => {
      const m = await measure(torchTs, w, OPTIONS);
      expect(m.na).toBeUndefined();
      expect(m.samples.length).toBeGreaterThan(0);
      // The read-back is timed apart from the op, run for run (Note [What a run times]).
      expect(m.readSamples!.length).toBe(m.samples.length);
      expect(m.probe!.length).toBeGreaterThan(0);
      expect(Number.isFinite(m.probe!.sum)).toBe(true);
    });
  }

  it('computes what the workloads say', () => {
    const sum = run('sum-16M');
    const exp = run('exp-4M');
    expect(sum.length).toBe(1);
    expect(exp.length).toBe(1000);
    // add-transposed: (a^T + b) differs from a + b; the tiny shape is [7, 9] with a [9, 7].
    expect(run('add-transposed').length).toBe(63);
    expect(run('sum-lastdim').length).toBe(7);
    // The overhead rows: one element added; the last call's grad of sum(x * x) is 2x.
    expect(run('add-1').length).toBe(1);
    const x = [0.25414788722991943, -0.9945285320281982, 0.05489407852292061, 0.962101936340332]; // uniform(4, 1)
    expect(run('tiny-fwd-bwd')).toEqual(x.map((v) => Math.fround(2 * v)));
    // The FFT rows (tiny shape [3, 12]) against a plain float64 DFT of the same inputs, read
    // as (re, im) pairs (Note [FFT rows]): rfft keeps the 12 / 2 + 1 = 7 non-negative frequencies.
    const [rows, n] = [3, 12];
    const re = uniform(rows * n, 1);
    const im = uniform(rows * n, 2);
    const dft = (imag: Float32Array | null, keep: number): number[] => {
      const out: number[] = [];
      for (let r = 0; r < rows; r++)
        for (let k = 0; k < keep; k++) {
          let sr = 0;
          let si = 0;
          for (let j = 0; j < n; j++) {
            const [c, s] = [Math.cos((-2 * Math.PI * j * k) / n), Math.sin((-2 * Math.PI * j * k) / n)];
            const [a, b] = [re[r * n + j], imag ? imag[r * n + j] : 0];
            sr += a * c - b * s;
            si += a * s + b * c;
          }
          out.push(sr, si);
        }
      return out;
    };
    const close = (got: number[], want: number[]) => {
      expect(got.length).toBe(want.length);
      for (let i = 0; i < want.length; i++) expect(Math.abs(got[i] - want[i]), `element ${i}`).toBeLessThan(1e-5 * (1 + Math.abs(want[i])));
    };
    close(run('rfft'), dft(null, n / 2 + 1));
    close(run('fft'), dft(im, n));
  });

  it('computes the conv backward rows: both gradients, channels-last as contiguous', () => {
    const close = (got: number[], want: number[], what: string) => {
      expect(got.length, what).toBe(want.length);
      for (let i = 0; i < want.length; i++) expect(Math.abs(got[i] - want[i]), `${what}: element ${i}`).toBeLessThan(1e-5 * (1 + Math.abs(want[i])));
    };
    for (const [cl, contiguous] of [
      ['conv2d-cl-bwd', 'conv2d-bwd'],
      ['conv2d-cl-1x1-bwd', 'conv2d-1x1-bwd'],
    ] as const) {
      expect(WORKLOADS.find((w) => w.id === cl)!.sameAs).toBe(contiguous);
      const want = convGradsReference(contiguous);
      // grad_input [2, 32, 5, 6] then grad_weight ([16, 32, 3, 3] or [80, 32, 1, 1])
      expect(want.length).toBe(2 * 32 * 5 * 6 + (cl === 'conv2d-cl-bwd' ? 16 * 32 * 9 : 80 * 32));
      const base = run(contiguous);
      close(base, want, contiguous);
      // The channels-last kernels against the contiguous path (Note [Conv backward rows]).
      close(run(cl), base, cl);
    }
  });

  it('runs torch-ts on its default thread count as a column of its own', () => {
    const lib = torchTsCpu('default');
    expect(lib.name).toBe('torch-ts-threads');
    expect(lib.describe()).toMatch(/^torch-ts CPU, \d+ threads? /);
    expect(torchTsCpu('one').describe()).toMatch(/^torch-ts CPU, 1 thread /);
  });
});

describe('bench reporting', () => {
  it('flags a wrong result and formats n/a', () => {
    const ref = probeOf(Float32Array.from([1, 2, 3, 4]));
    expect(compareProbes(probeOf(Float32Array.from([1, 2, 3, 4.0001])), ref)).toBeNull();
    expect(compareProbes(probeOf(Float32Array.from([1, 2, 3, 5])), ref)).toMatch(/sample 3/);
    expect(median([3, 1, 2, 10])).toBe(2.5);
    const rows = new Map([
      ['matmul-128', new Map([['torch-ts', cellOf([{ id: 'matmul-128', samples: [1, 2, 3] }])], ['tfjs-cpu', cellOf([{ id: 'matmul-128', samples: [], na: 'nope' }])]])],
    ]) as Parameters<typeof formatTable>[2];
    const table = formatTable(TINY_WORKLOADS.slice(0, 1), ['torch-ts', 'tfjs-cpu'], rows, { notes: true });
    expect(table).toContain('n/a');
    expect(table).toContain('matmul-128 on tfjs-cpu: n/a (nope)');
  });

  it('checks a channels-last row against its contiguous row (sameAs)', () => {
    const cl = WORKLOADS.find((w) => w.id === 'conv2d-cl-bwd')!;
    const base = WORKLOADS.find((w) => w.id === 'conv2d-bwd')!;
    const m = (id: string, values: number[]) => ({ id, samples: [1], probe: probeOf(values) });
    const rows = new Map([
      [base.id, new Map([['torch-ts', cellOf([m(base.id, [1, 2, 3])])], ['pytorch', cellOf([m(base.id, [1, 2, 3])])]])],
      [cl.id, new Map([['torch-ts', cellOf([m(cl.id, [1, 2, 4])])], ['pytorch', cellOf([m(cl.id, [1, 2, 3.0001])])]])],
    ]) as Parameters<typeof formatTable>[2];
    checkSameAs([base, cl], rows);
    expect(rows.get(cl.id)!.get('torch-ts')!.mismatch).toMatch(/^differs from its conv2d-bwd result: sample 2: 4, expected 3$/);
    expect(rows.get(cl.id)!.get('pytorch')!.mismatch).toBeUndefined();
    expect(rows.get(base.id)!.get('torch-ts')!.mismatch).toBeUndefined();
    const table = formatTable([base, cl], ['torch-ts', 'pytorch'], rows, { notes: true });
    expect(table).toContain('conv2d-cl-bwd on torch-ts: WRONG result (differs from its conv2d-bwd result');
    // Without its contiguous row in the run there is nothing to compare with.
    const alone = new Map([[cl.id, new Map([['torch-ts', cellOf([m(cl.id, [1, 2, 4])])]])]]) as Parameters<typeof formatTable>[2];
    checkSameAs([cl], alone);
    expect(alone.get(cl.id)!.get('torch-ts')!.mismatch).toBeUndefined();
    // Throughput: the forward and the two gradients, each every multiply-add once.
    expect(workOf(cl)).toEqual({ unit: 'GFLOP/s', amount: 3 * 2 * 8 * 64 * 56 * 56 * 64 * 9 });
  });

  it('shows µs per call, throughput and read-back, and names the thread columns', () => {
    const matmul = WORKLOADS.find((w) => w.id === 'matmul-1024')!;
    const add1 = WORKLOADS.find((w) => w.id === 'add-1')!;
    const m = (id: string, ms: number, probe = [1]) => ({ id, samples: [ms], readSamples: [0.5], probe: probeOf(probe) });
    const rows = new Map([
      [matmul.id, new Map([['torch-ts', cellOf([m(matmul.id, 2)])], ['torch-ts-threads', cellOf([m(matmul.id, 1)])], ['pytorch', cellOf([m(matmul.id, 4, [2])])]])],
      [add1.id, new Map([['torch-ts', cellOf([m(add1.id, 20)])], ['torch-ts-threads', cellOf([m(add1.id, 20)])], ['pytorch', cellOf([m(add1.id, 40)])]])],
    ]) as Parameters<typeof formatTable>[2];
    for (const cells of rows.values()) checkCells(cells);
    const names = new Map([['torch-ts', 'torch-ts (1 thread)'], ['torch-ts-threads', 'torch-ts (2 threads)']] as const);
    const o = { names, noRatio: ['torch-ts-threads'] as const };
    const libs = ['torch-ts', 'torch-ts-threads', 'pytorch'] as const;
    const wall = formatTable([matmul, add1], libs, rows, { ...o, notes: true });
    expect(wall).toMatch(/\| torch-ts \(1 thread\) \| torch-ts \(2 threads\) \| +pytorch \| vs pytorch \|/);
    expect(wall).not.toContain('vs torch-ts (2 threads)');
    // 10,000 calls in 20 ms: 2 µs per call; pytorch's is twice that.
    expect(wall).toMatch(/add 1 \+ 1 \(µs per call\) +\| +2\.00 \| +2\.00 \| +4\.00 \| +2\.00x \|/);
    expect(wall).toContain('matmul-1024 on pytorch: WRONG result');
    // 2 * 1024^3 FLOPs in 2 ms: 1073.7 GFLOP/s, shown as 1074; the overhead row has none.
    expect(workOf(matmul)).toEqual({ unit: 'GFLOP/s', amount: 2 * 1024 ** 3 });
    const rate = formatTable([matmul, add1], libs, rows, { ...o, metric: 'rate' });
    expect(rate).toMatch(/matmul 1024 \(GFLOP\/s\) +\| +1074 \| +2147 \| +537 WRONG \|/);
    expect(rate).not.toContain('add 1 + 1');
    const read = formatTable([matmul, add1], libs, rows, { ...o, metric: 'read' });
    expect(read).toMatch(/matmul 1024 +\| +0\.50 \| +0\.50 \| +0\.50 WRONG \|/);
    expect(read).not.toContain('add 1 + 1');
  });
});
