import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

/**
 * Method-level views. Every expected size, stride, storage offset and contiguity below was
 * printed by real PyTorch (1.13) for the same expression on
 *   x = torch.arange(24.).view(2, 3, 4)   and   y = torch.arange(12.).view(3, 4).
 */
const X = () => torch.arange(24, { dtype: 'float32' }).view(2, 3, 4);
const Y = () => torch.arange(12, { dtype: 'float32' }).view(3, 4);

interface ViewCase {
  /** The PyTorch expression the numbers came from. */
  readonly py: string;
  readonly base: 'x' | 'y';
  readonly make: (b: Tensor) => Tensor;
  readonly shape: number[];
  readonly stride: number[];
  readonly offset: number;
  readonly contiguous: boolean;
  /** Writing through it is refused by PyTorch (internal overlap): check sharing by reading only. */
  readonly overlapping?: boolean;
}

const CASES: ViewCase[] = [
  { py: 'x.view(6, 4)', base: 'x', make: (x) => x.view(6, 4), shape: [6, 4], stride: [4, 1], offset: 0, contiguous: true },
  { py: 'x.view(-1)', base: 'x', make: (x) => x.view(-1), shape: [24], stride: [1], offset: 0, contiguous: true },
  { py: 'x.view(3, -1, 2)', base: 'x', make: (x) => x.view([3, -1, 2]), shape: [3, 4, 2], stride: [8, 2, 1], offset: 0, contiguous: true },
  { py: 'x.reshape(4, 6)', base: 'x', make: (x) => x.reshape(4, 6), shape: [4, 6], stride: [6, 1], offset: 0, contiguous: true },
  { py: 'y.t()', base: 'y', make: (y) => y.t(), shape: [4, 3], stride: [1, 4], offset: 0, contiguous: false },
  { py: 'x.permute(2, 0, 1)', base: 'x', make: (x) => x.permute(2, 0, 1), shape: [4, 2, 3], stride: [1, 12, 4], offset: 0, contiguous: false },
  { py: 'x.transpose(0, 2)', base: 'x', make: (x) => x.transpose(0, 2), shape: [4, 3, 2], stride: [1, 4, 12], offset: 0, contiguous: false },
  { py: 'x.mT', base: 'x', make: (x) => x.mT, shape: [2, 4, 3], stride: [12, 1, 4], offset: 0, contiguous: false },
  { py: 'x.narrow(2, 1, 2)', base: 'x', make: (x) => x.narrow(2, 1, 2), shape: [2, 3, 2], stride: [12, 4, 1], offset: 1, contiguous: false },
  { py: 'x.narrow(1, -2, 2)', base: 'x', make: (x) => x.narrow(1, -2, 2), shape: [2, 2, 4], stride: [12, 4, 1], offset: 4, contiguous: false },
  { py: 'x.select(1, -1)', base: 'x', make: (x) => x.select(1, -1), shape: [2, 4], stride: [12, 1], offset: 8, contiguous: false },
  { py: 'x.unsqueeze(-1)', base: 'x', make: (x) => x.unsqueeze(-1), shape: [2, 3, 4, 1], stride: [12, 4, 1, 1], offset: 0, contiguous: true },
  { py: 'x.unsqueeze(1)', base: 'x', make: (x) => x.unsqueeze(1), shape: [2, 1, 3, 4], stride: [12, 12, 4, 1], offset: 0, contiguous: true },
  { py: 'x.view(2,1,3,1,4).squeeze()', base: 'x', make: (x) => x.view(2, 1, 3, 1, 4).squeeze(), shape: [2, 3, 4], stride: [12, 4, 1], offset: 0, contiguous: true },
  { py: 'x.view(2,1,3,1,4).squeeze(3)', base: 'x', make: (x) => x.view(2, 1, 3, 1, 4).squeeze(3), shape: [2, 1, 3, 4], stride: [12, 12, 4, 1], offset: 0, contiguous: true },
  { py: 'x[:, :, :1].expand(2, 3, 4)', base: 'x', make: (x) => x.index(':', ':', ':1').expand(2, 3, 4), shape: [2, 3, 4], stride: [12, 4, 0], offset: 0, contiguous: false, overlapping: true },
  { py: 'x[0, 0].expand(3, -1)', base: 'x', make: (x) => x.index(0, 0).expand(3, -1), shape: [3, 4], stride: [0, 1], offset: 0, contiguous: false, overlapping: true },
  { py: 'x[0].expand_as(x)', base: 'x', make: (x) => x.index(0).expandAs(torch.empty([2, 3, 4])), shape: [2, 3, 4], stride: [0, 4, 1], offset: 0, contiguous: false, overlapping: true },
  { py: 'x.permute(2,0,1).flatten(1)', base: 'x', make: (x) => x.permute(2, 0, 1).flatten(1), shape: [4, 6], stride: [1, 4], offset: 0, contiguous: false },
  { py: 'x.flatten(0, 1)', base: 'x', make: (x) => x.flatten(0, 1), shape: [6, 4], stride: [4, 1], offset: 0, contiguous: true },
  { py: 'x.unflatten(2, (2, 2))', base: 'x', make: (x) => x.unflatten(2, [2, 2]), shape: [2, 3, 2, 2], stride: [12, 4, 2, 1], offset: 0, contiguous: true },
  { py: 'x.unfold(2, 2, 1)', base: 'x', make: (x) => x.unfold(2, 2, 1), shape: [2, 3, 3, 2], stride: [12, 4, 1, 1], offset: 0, contiguous: false, overlapping: true },
  { py: 'x.unfold(1, 2, 2)', base: 'x', make: (x) => x.unfold(1, 2, 2), shape: [2, 1, 4, 2], stride: [12, 8, 1, 4], offset: 0, contiguous: false },
  { py: 'y.diagonal()', base: 'y', make: (y) => y.diagonal(), shape: [3], stride: [5], offset: 0, contiguous: false },
  { py: 'y.diagonal(1)', base: 'y', make: (y) => y.diagonal(1), shape: [3], stride: [5], offset: 1, contiguous: false },
  { py: 'y.diagonal(-1)', base: 'y', make: (y) => y.diagonal(-1), shape: [2], stride: [5], offset: 4, contiguous: false },
  { py: 'x.diagonal(0, 1, 2)', base: 'x', make: (x) => x.diagonal(0, 1, 2), shape: [2, 3], stride: [12, 5], offset: 0, contiguous: false },
  { py: 'x.movedim(0, -1)', base: 'x', make: (x) => x.movedim(0, -1), shape: [3, 4, 2], stride: [4, 1, 12], offset: 0, contiguous: false },
  { py: 'x.movedim((0, 1), (2, 0))', base: 'x', make: (x) => x.movedim([0, 1], [2, 0]), shape: [3, 4, 2], stride: [4, 1, 12], offset: 0, contiguous: false },
  { py: 'x.detach()', base: 'x', make: (x) => x.detach(), shape: [2, 3, 4], stride: [12, 4, 1], offset: 0, contiguous: true },
  { py: 'x.as_strided((2, 2), (1, 2), 1)', base: 'x', make: (x) => x.asStrided([2, 2], [1, 2], 1), shape: [2, 2], stride: [1, 2], offset: 1, contiguous: false },
  { py: 'x.as_strided((3,), (5,))', base: 'x', make: (x) => x.asStrided([3], [5]), shape: [3], stride: [5], offset: 0, contiguous: false },
  { py: 'x[1]', base: 'x', make: (x) => x.index(1), shape: [3, 4], stride: [4, 1], offset: 12, contiguous: true },
  { py: 'x[:, 1:3, ::2]', base: 'x', make: (x) => x.index(':', '1:3', '::2'), shape: [2, 2, 2], stride: [12, 4, 2], offset: 4, contiguous: false },
  { py: 'x[..., 1]', base: 'x', make: (x) => x.index('...', 1), shape: [2, 3], stride: [12, 4], offset: 1, contiguous: false },
  { py: 'x[None, 0, 1::2]', base: 'x', make: (x) => x.index(null, 0, torch.slice(1, null, 2)), shape: [1, 1, 4], stride: [24, 8, 1], offset: 4, contiguous: true },
  { py: 'x[1, None, ..., -2:]', base: 'x', make: (x) => x.index(1, null, '...', '-2:'), shape: [1, 3, 2], stride: [12, 4, 1], offset: 14, contiguous: false },
  { py: 'x[:, -1, 1:5:2]', base: 'x', make: (x) => x.index(torch.slice(), -1, '1:5:2'), shape: [2, 2], stride: [12, 2], offset: 9, contiguous: false },
  { py: 'x[0, 10:]', base: 'x', make: (x) => x.index(0, '10:'), shape: [0, 4], stride: [4, 1], offset: 12, contiguous: true },
];

/** The storage positions a view covers, in its row-major element order. */
function positions(shape: readonly number[], stride: readonly number[], offset: number): number[] {
  const out: number[] = [];
  const walk = (d: number, at: number): void => {
    if (d === shape.length) {
      out.push(at);
      return;
    }
    for (let i = 0; i < shape[d]; i++) walk(d + 1, at + i * stride[d]);
  };
  walk(0, offset);
  return out;
}

describe('view geometry matches PyTorch', () => {
  for (const c of CASES) {
    it(`${c.py}: sizes ${JSON.stringify(c.shape)}, strides ${JSON.stringify(c.stride)}, offset ${c.offset}`, () => {
      const b = c.base === 'x' ? X() : Y();
      const v = c.make(b);
      expect(v.shape).toEqual(c.shape);
      expect(v.size()).toEqual(c.shape);
      expect(v.stride()).toEqual(c.stride);
      expect(v.storageOffset()).toBe(c.offset);
      expect(v.isContiguous()).toBe(c.contiguous);
      expect(v.dtype).toBe('float32');
      // a view reads the base's elements at exactly those storage positions
      const flat = b.view(-1).tolist() as number[];
      expect((v.reshape(-1).tolist() as number[])).toEqual(positions(c.shape, c.stride, c.offset).map((p) => flat[p]));
    });
  }
});

describe('views share storage and the version counter with their base', () => {
  for (const c of CASES) {
    it(`${c.py} aliases the base`, () => {
      const b = c.base === 'x' ? X() : Y();
      const v = c.make(b);
      const n = b.numel();
      const covered = new Set(positions(c.shape, c.stride, c.offset));
      const v0 = b.version;
      expect(v.version).toBe(v0);
      if (c.overlapping) {
        // write through the base, read through the view
        b.add_(100);
        const flat = b.view(-1).tolist() as number[];
        expect(v.reshape(-1).tolist()).toEqual(positions(c.shape, c.stride, c.offset).map((p) => flat[p]));
        expect(flat[0]).toBe(100);
        expect(v.version).toBe(v0 + 1);
        return;
      }
      v.fill_(-1);
      expect(b.version).toBe(v0 + 1);
      expect(v.version).toBe(b.version);
      const flat = b.view(-1).tolist() as number[];
      for (let p = 0; p < n; p++) expect(flat[p]).toBe(covered.has(p) ? -1 : p);
    });
  }
});

describe('writing through views, with values from PyTorch', () => {
  it('x[0, 1].fill_(100) and x[:, 1, ::2].add_(1000) change the base', () => {
    const x = X();
    const v0 = x.version;
    x.index(0, 1).fill_(100);
    x.index(':', 1, '::2').add_(1000);
    // PyTorch: the same two statements on torch.arange(24.).view(2, 3, 4)
    expect(x.tolist()).toEqual([
      [
        [0, 1, 2, 3],
        [1100, 100, 1100, 100],
        [8, 9, 10, 11],
      ],
      [
        [12, 13, 14, 15],
        [1016, 17, 1018, 19],
        [20, 21, 22, 23],
      ],
    ]);
    expect(x.version).toBe(v0 + 2);
  });

  it('y.t().mul_(2) and y.diagonal().zero_() write the base; a views-of-views chain shares one counter', () => {
    const y = Y();
    const v0 = y.version;
    const t = y.t();
    const d = y.diagonal();
    const dd = t.index('1:').diagonal();
    t.index(0).mul_(2); // y[:, 0] *= 2
    d.zero_();
    expect(y.tolist()).toEqual([
      [0, 1, 2, 3],
      [8, 0, 6, 7],
      [16, 9, 0, 11],
    ]);
    expect(dd.tolist()).toEqual([1, 6, 11]);
    expect([y.version, t.version, d.version, dd.version]).toEqual([v0 + 2, v0 + 2, v0 + 2, v0 + 2]);
  });

  it('split / chunk / unbind pieces are views of the base', () => {
    const x = X();
    const [a, b] = x.split([1, 2], 1);
    expect([a.shape, a.storageOffset(), b.shape, b.storageOffset()]).toEqual([[2, 1, 4], 0, [2, 2, 4], 4]);
    b.fill_(0);
    const chunks = x.chunk(2, 1);
    expect(chunks.map((p) => [p.shape, p.storageOffset()])).toEqual([
      [[2, 2, 4], 0],
      [[2, 1, 4], 8],
    ]);
    const rows = x.unbind(1);
    expect(rows.map((r) => [r.shape, r.stride(), r.storageOffset()])).toEqual([
      [[2, 4], [12, 1], 0],
      [[2, 4], [12, 1], 4],
      [[2, 4], [12, 1], 8],
    ]);
    rows[0].add_(1);
    expect(x.tolist()).toEqual([
      [
        [1, 2, 3, 4],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
      ],
      [
        [13, 14, 15, 16],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
      ],
    ]);
    // PyTorch: torch.arange(10.).chunk(4) has 4 pieces of 3,3,3,1; torch.arange(6.).chunk(4) has 3 of 2
    expect(torch.arange(10).chunk(4).map((p) => p.shape[0])).toEqual([3, 3, 3, 1]);
    expect(torch.arange(6).chunk(4).map((p) => p.storageOffset())).toEqual([0, 2, 4]);
    expect(x.split(2, 2).map((p) => [p.shape, p.stride(), p.storageOffset()])).toEqual([
      [[2, 3, 2], [12, 4, 1], 0],
      [[2, 3, 2], [12, 4, 1], 2],
    ]);
  });

  it('torch.* function forms return the same views as the methods', () => {
    const x = X();
    expect(torch.permute(x, [2, 0, 1]).stride()).toEqual([1, 12, 4]);
    expect(torch.transpose(x, 0, 1).stride()).toEqual([4, 12, 1]);
    expect(torch.select(x, 2, 3).storageOffset()).toBe(3);
    expect(torch.narrow(x, 0, 1, 1).storageOffset()).toBe(12);
    expect(torch.index(x, 1, '...', 2).tolist()).toEqual([14, 18, 22]);
    expect(torch.t(Y()).stride()).toEqual([1, 4]);
    expect(torch.diagonal(Y(), { offset: 1 }).tolist()).toEqual([1, 6, 11]);
    torch.squeeze(torch.unsqueeze(x, 0)).fill_(5);
    expect(x.sum().item()).toBe(120);
  });
});

describe('copies are not views', () => {
  it('reshape of a non-viewable layout copies (PyTorch: x.transpose(0, 1).reshape(-1))', () => {
    const x = X();
    const v0 = x.version;
    const r = x.transpose(0, 1).reshape(-1);
    expect(r.shape).toEqual([24]);
    expect(r.stride()).toEqual([1]);
    expect((r.tolist() as number[]).slice(0, 8)).toEqual([0, 1, 2, 3, 12, 13, 14, 15]);
    r.fill_(-1);
    expect(x.index(0, 0).tolist()).toEqual([0, 1, 2, 3]);
    expect(x.version).toBe(v0);
    const f = x.transpose(0, 1).flatten();
    expect((f.tolist() as number[]).slice(0, 8)).toEqual([0, 1, 2, 3, 12, 13, 14, 15]);
  });

  it('contiguous() copies a permuted tensor and returns a contiguous tensor itself', () => {
    const x = X();
    expect(x.contiguous()).toBe(x);
    const p = x.permute(2, 0, 1);
    const c = p.contiguous();
    expect([c.shape, c.stride(), c.storageOffset(), c.isContiguous()]).toEqual([[4, 2, 3], [6, 3, 1], 0, true]);
    expect(c.tolist()).toEqual(p.tolist());
    c.fill_(0);
    expect(x.sum().item()).toBe(276);
  });

  it('clone() and detach(): a copy with its own counter vs an alias', () => {
    const x = X();
    const v0 = x.version;
    const c = x.clone();
    const d = x.detach();
    expect(c.version).toBe(0);
    c.add_(1);
    expect(x.index(0, 0, 0).item()).toBe(0);
    d.add_(1);
    expect(x.index(0, 0, 0).item()).toBe(1);
    expect([x.version, d.version, c.version]).toEqual([v0 + 1, v0 + 1, 1]);
  });

  it('a tensor fresh from a factory has version 0, as in PyTorch', () => {
    const made = [
      torch.zeros(2),
      torch.ones(2),
      torch.full([2], 7),
      torch.arange(5, { dtype: 'float32' }),
      torch.arange(5),
      torch.tensor([1.5]),
      torch.tensor([1, 2], { dtype: 'float32' }),
      torch.linspace(0, 1, 3),
      torch.eye(2),
      torch.zeros(2).clone(),
      torch.zeros(2).to('float64'),
    ];
    expect(made.map((t) => t.version)).toEqual(made.map(() => 0));
  });
});
