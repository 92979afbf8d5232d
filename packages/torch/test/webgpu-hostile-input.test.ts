/**
 * Issue 14 on WebGPU: values out of a dtype's range raise the CPU's TorchErrors (never a
 * raw RangeError from the kernels' scalar encoding), and autograd refuses gradients on the
 * wrong device (autograd Note [Validating gradients]). Skipped without a WebGPU adapter,
 * unless TORCH_TS_REQUIRE_WEBGPU=1 makes that an error (`webgpu.init` throws).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

const ready = await torch.webgpu.init();
if (!ready) console.warn('[webgpu-hostile-input] SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');

type Ctx = InstanceType<typeof torch.autograd.FunctionCtx>;

function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe.skipIf(!ready)('values out of range on WebGPU', () => {
  it('full / fill_ of NaN into int64 is the TorchError CPU raises, not a RangeError', () => {
    for (const f of [() => torch.full([2], NaN, { dtype: 'int64', device: 'webgpu' }), () => torch.zeros(2, { dtype: 'int64', device: 'webgpu' }).fill_(NaN)]) {
      const err = thrown(f);
      expect(err).toBeInstanceOf(torch.TorchError);
      expect(err.message).toMatch(/^(full|fill_): value cannot be converted to type int64_t without overflow$/);
    }
  });

  it('tensor data is checked as on CPU', () => {
    const err = thrown(() => torch.tensor([300], { dtype: 'uint8', device: 'webgpu' }));
    expect(err).toBeInstanceOf(torch.TorchError);
    expect(err.message).toBe('tensor(): value cannot be converted to type uint8 without overflow');
  });

  it('accepted values match CPU', async () => {
    const cases: [() => Tensor, unknown][] = [
      [() => torch.full([1], -1, { dtype: 'uint8', device: 'webgpu' }), [255]],
      [() => torch.full([2], NaN, { dtype: 'bool', device: 'webgpu' }), [true, true]],
      [() => torch.tensor([1.7, -2.5], { dtype: 'int32', device: 'webgpu' }), [1, -2]],
      [() => torch.tensor([1e39], { dtype: 'float32', device: 'webgpu' }), [Infinity]],
    ];
    for (const [make, expected] of cases) {
      const t = make();
      expect(await t.tolistAsync()).toEqual(expected);
      t.dispose();
    }
  });
});

describe.skipIf(!ready)('gradients on the wrong device', () => {
  it("a custom Function's gradient on another device is refused", () => {
    // -> Function CpuGradBackward returned an invalid gradient at index 0 - expected device webgpu:0 but got cpu
    class CpuGrad extends torch.autograd.Function {
      static override forward(_ctx: Ctx, x: Tensor): Tensor {
        return x.mul(2);
      }

      static override backward(): Tensor {
        return torch.ones([3]);
      }
    }
    const x = torch.ones([3], { device: 'webgpu', requiresGrad: true });
    const err = thrown(() => CpuGrad.apply<Tensor>(x).sum().backward());
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toBe('Function CpuGradBackward returned an invalid gradient at index 0 - expected device webgpu:0 but got cpu');
    expect(x.grad).toBeNull();
    x.dispose();
  });

  it('a 0-dim gradient on another device is moved, as PyTorch does', async () => {
    class ScalarGrad extends torch.autograd.Function {
      static override forward(_ctx: Ctx, x: Tensor): Tensor {
        return x.sum();
      }

      static override backward(): Tensor {
        return torch.tensor(5, { dtype: 'float32' });
      }
    }
    const x = torch.tensor(1, { dtype: 'float32', device: 'webgpu', requiresGrad: true });
    ScalarGrad.apply<Tensor>(x).backward();
    expect(x.grad!.device.type).toBe('webgpu');
    expect(await x.grad!.itemAsync()).toBe(5);
    x.dispose();
  });

  it('a hook that moves the gradient to another device is refused', () => {
    const x = torch.ones([3], { device: 'webgpu', requiresGrad: true });
    x.registerHook(function toCpu() {
      return torch.ones([3]);
    });
    const err = thrown(() => x.sum().backward());
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toBe("hook 'toCpu' has changed the type of value (was float32 on webgpu:0 got float32 on cpu)");
    x.dispose();
  });

  it('a backward() gradient on another device is refused (a 0-dim one is moved)', async () => {
    const x = torch.ones([3], { device: 'webgpu', requiresGrad: true });
    const err = thrown(() => x.mul(2).backward(torch.ones([3])));
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toBe('backward: invalid gradient at index 0 - expected device webgpu:0 but got cpu');
    x.sum().backward(torch.tensor(2, { dtype: 'float32' }));
    expect(await x.grad!.tolistAsync()).toEqual([2, 2, 2]);
    x.dispose();
  });
});
