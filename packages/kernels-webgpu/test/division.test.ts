/**
 * Note [Division on WebGPU]: the three versions of div_f each keep IEEE's special quotients
 * (and the scaled ones those of a divisor above 2^126, where a * (1 / b) gives 0), whichever
 * the device picks. The Newton step's rounding itself needs a fused fma (NVIDIA's): the
 * OpInfo sweep on a real GPU checks that (packages/testing/scripts/webgpu-sweep.ts).
 */
import { describe, expect, it } from 'vitest';
import { gpu } from '../src/runtime/device';
import { PLAIN_DIVISION, probeDivision, runOneWorkgroup, withDivision, type DivisionProbe } from '../src/wgsl/division';
import { webgpuReady } from './helpers';

const PAIRS: readonly [number, number][] = [
  [3e38, 3e38], [-3e38, 1e38], [1e10, 3e38], [3e38, -3e38], [6, 3], [-1, 0], [1, 0], [0, 0],
  [Infinity, Infinity], [1, Infinity], [Infinity, 2], [0, -5], [7, 10], [1, 3],
];

async function divide(probe: DivisionProbe, vec4: boolean): Promise<Float32Array> {
  const { device } = gpu('division test');
  const n = PAIRS.length;
  const body = vec4
    ? 'let q = div_f4(vec4<f32>(x[2u * i]), vec4<f32>(x[2u * i + 1u])); y[i] = q.z;'
    : 'y[i] = div_f(x[2u * i], x[2u * i + 1u]);';
  const code = withDivision(
    `${PLAIN_DIVISION}
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@compute @workgroup_size(${n}) fn main(@builtin(local_invocation_index) i: u32) { ${body} }`,
    probe,
  );
  return runOneWorkgroup(device, code, new Float32Array(PAIRS.flat()), n);
}

const ulpsApart = (a: number, b: number): number => {
  const f = new Float32Array([a, b]);
  const i = new Int32Array(f.buffer);
  return Math.abs(i[0] - i[1]);
};

describe.skipIf(!webgpuReady)('Note [Division on WebGPU]', () => {
  it('probes the device once at init', async () => {
    const probe = await probeDivision(gpu('division test').device);
    expect(gpu('division test').division).toEqual(probe);
    // SwiftShader (CI) divides as IEEE does and does not fuse fma
    if (gpu('division test').source === 'dawn+swiftshader') expect(probe).toEqual({ exact: true, fusedFma: false });
  });

  for (const probe of [{ exact: true, fusedFma: false }, { exact: false, fusedFma: false }, { exact: false, fusedFma: true }]) {
    for (const vec4 of [false, true]) {
      it(`div_f for ${JSON.stringify(probe)}${vec4 ? ' (vec4)' : ''}: IEEE's special quotients, a huge divisor, others within an ulp`, async () => {
        const got = await divide(probe, vec4);
        const device = gpu('division test');
        PAIRS.forEach(([a, b], i) => {
          const want = Math.fround(Math.fround(a) / Math.fround(b));
          const special = !Number.isFinite(want) || want === 0 || Math.abs(b) > 2 ** 126;
          // (the plain version keeps the device's own division, which only an exact one makes IEEE's)
          if (special && (!probe.exact || device.division.exact)) expect(Object.is(got[i], want), `${a} / ${b}: got ${got[i]}, want ${want}`).toBe(true);
          else if (!special) expect(ulpsApart(got[i], want), `${a} / ${b}: got ${got[i]}, want ${want}`).toBeLessThanOrEqual(1);
        });
      });
    }
  }
});
