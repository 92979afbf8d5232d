/**
 * torch.gradient against PyTorch 1.13 (scripts/goldens/torch_gradient.py): uniform and per-dim
 * spacing, coordinate tensors, edge_order 1 and 2, dim lists and negative dims, integer input;
 * float64 values and the input's gradient through all the outputs; errors.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/torch_gradient.json';
import { thrown } from './helpers';
import { expectFloat64, float64Tensor, type Float64Golden } from './float64-goldens';

type G = Float64Golden;
const t = float64Tensor;

describe('torch.gradient', () => {
  it('values and input gradients as 1.13', () => {
    for (const [key, c] of Object.entries(golden.cases as Record<string, { kw: Record<string, unknown>; outs: G[]; grad: G }>)) {
      const kw = { ...c.kw } as { spacing?: unknown; dim?: number | number[]; edgeOrder?: number; edge_order?: number };
      if (Array.isArray(kw.spacing) && typeof kw.spacing[0] === 'object') kw.spacing = (kw.spacing as G[]).map(t);
      if (kw.edge_order !== undefined) {
        kw.edgeOrder = kw.edge_order;
        delete kw.edge_order;
      }
      const x = t(golden.x).requiresGrad_();
      const outs = torch.gradient(x, kw as Parameters<typeof torch.gradient>[1]);
      expect(outs.length, key).toBe(c.outs.length);
      outs.forEach((o, i) => expectFloat64(o, c.outs[i], `${key} out ${i}`));
      let loss = torch.zeros([], { dtype: 'float64' });
      outs.forEach((o, k) => (loss = loss.add(o.mul(torch.linspace(-1, 1, o.numel(), { dtype: 'float64' }).view(o.shape)).mul(k + 1).sum())));
      loss.backward();
      expectFloat64(x.grad!, c.grad, `${key} grad`);
    }
    const ints = torch.gradient(torch.tensor([1, 2, 4, 8, 16]), { edgeOrder: 2 });
    expect(ints[0].dtype).toBe('float32');
    expect(Array.from(ints[0].dataSync() as Float32Array)).toEqual(golden.ints[0].values);
  });

  it('errors as 1.13', () => {
    const e = golden.errors;
    expect(thrown(() => torch.gradient(torch.ones([2]), { edgeOrder: 2 })).message).toContain(e.small);
    expect(thrown(() => torch.gradient(torch.ones([3]), { edgeOrder: 3 })).message).toContain(e.order);
    expect(thrown(() => torch.gradient(torch.ones([3, 4]), { spacing: [1, 2, 3] })).message).toContain(e['spacing length']);
    expect(thrown(() => torch.gradient(torch.ones([3, 4]), { dim: [0, 0] })).message).toContain(e['repeated dim']);
  });
});
