/**
 * pdist, bilinear, max_unpool2d, chain_matmul and frexp on WebGPU (compositions of ops every backend
 * has): float32 values and gradients against the float64 goldens of
 * scripts/goldens/nn_composites_more.py.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { checkRampGradsWebgpu, onWebgpu, type Golden, type RampGradCase } from './webgpu-goldens';
import golden from './goldens/nn_composites_more.json';
import gcdGolden from './goldens/gcd_lcm.json';

const F = torch.nn.functional;

const ready = await torch.webgpu.init();
if (!ready) console.warn('[nn-composites-more-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');

describe.skipIf(!ready)('more nn composites on webgpu', () => {
  it('pdist, bilinear, max_unpool2d, chain_matmul: values and gradients', async () => {
    const pd = golden.pdist as Record<string, RampGradCase>;
    await checkRampGradsWebgpu('pdist p=2', pd['2.0'], (x) => torch.pdist(x), golden.x);
    await checkRampGradsWebgpu('pdist p=1', pd['1.0'], (x) => torch.pdist(x, 1), golden.x);
    await checkRampGradsWebgpu('bilinear', golden.bilinear.bias as RampGradCase, (a, b, w, bias) => F.bilinear(a, b, w, bias), golden.a, golden.b, golden.w, golden.bias);
    const u = golden.unpool['2d'] as RampGradCase & { input: Golden; indices: Golden };
    const idx = onWebgpu({ ...u.indices, dtype: 'int64' });
    await checkRampGradsWebgpu('max_unpool2d', u, (x) => F.maxUnpool2d(x, idx, 2), u.input);
    // an index outside the output plane: the device's scatter reports it when the result is read
    const bad = torch.tensor([[[[0, 1], [2, 20]]]], { dtype: 'int64' }).to('webgpu');
    await expect(F.maxUnpool2d(torch.ones([1, 1, 2, 2]).to('webgpu'), bad, 2).data()).rejects.toThrow(/index 20 is out of bounds/);
    await checkRampGradsWebgpu('chain_matmul', golden.chain as RampGradCase, (a, b, c) => torch.chainMatmul(a, b, c), ...golden.chain_in);
  });

  it('frexp (normal floats, zeros, infinities, NaN; float32 arithmetic on the device)', async () => {
    const xs = [0, -0, 1, 8, 0.3, -5.5, Infinity, -Infinity, NaN, 3e38, 1 - 2 ** -24, -(2 ** 100), 1e-30];
    const [m, e] = torch.frexp(torch.tensor(xs).to('webgpu'));
    const [mc, ec] = torch.frexp(torch.tensor(xs));
    expect(Array.from((await m.data()) as Float32Array)).toEqual(Array.from(mc.dataSync() as Float32Array));
    expect(Array.from((await e.data()) as Int32Array)).toEqual(Array.from(ec.dataSync() as Int32Array));
  });

  it('gcd and lcm (int32 and int64, Euclid for the dtype\'s worst case on the device) equal 1.13\'s', async () => {
    for (const key of ['int32', 'int64', 'int8']) {
      const c = (gcdGolden.cases as Record<string, { a: { values: string[]; dtype: string }; b: { values: string[]; dtype: string }; gcd: { values: string[] }; lcm: { values: string[] } }>)[key];
      const mk = (g: { values: string[]; dtype: string }) =>
        (g.dtype === 'int64' ? torch.tensor(g.values.map((v) => BigInt(v)), { dtype: 'int64' }) : torch.tensor(g.values.map(Number), { dtype: g.dtype as torch.DType })).to('webgpu');
      const read = async (t: torch.Tensor) => Array.from((await (t.dtype === 'int64' ? t.data({ bigint: true }) : t.data())) as ArrayLike<number | bigint>, (v) => String(v));
      expect(await read(torch.gcd(mk(c.a), mk(c.b))), `${key} gcd`).toEqual(c.gcd.values);
      expect(await read(torch.lcm(mk(c.a), mk(c.b))), `${key} lcm`).toEqual(c.lcm.values);
    }
  });
});
