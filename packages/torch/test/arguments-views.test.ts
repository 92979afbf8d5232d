import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { TorchTypeError } from '@torch-ts/torch';
import { expectForms, inputs, untyped } from './arguments-golden';

// Issue 15, views and shape ops: each argument positionally, by keyword, mixed and as a
// method gives PyTorch's result for its keyword call (goldens/arguments.json, with strides and
// offsets for the views); an unknown keyword and one positional too many raise PyTorch's TypeError.
describe('views and shape ops bind their arguments as PyTorch does', () => {
  const { x, y, s, col } = inputs();

  it('view and reshape: variadic sizes, a list, -1, and the keyword', () => {
    expectForms('view', [() => x.view(6, 4), () => x.view([6, 4]), () => x.view({ size: [6, 4] }), () => torch.view(x, 6, 4), () => x.view(6, -1)], true);
    expectForms('view-1', [() => x.view(3, -1, 2), () => x.view([3, -1, 2]), () => torch.view(x, { size: [3, -1, 2] })], true);
    expectForms('reshape', [() => torch.reshape(x, [4, -1]), () => torch.reshape(x, { shape: [4, -1] }), () => x.reshape(4, -1), () => torch.reshape({ input: x, shape: [4, -1] } as never)], true);
    expect(x.view(-1).shape).toEqual([24]);
  });

  it('permute, transpose, swapaxes, swapdims, t', () => {
    expectForms('permute', [() => x.permute(2, 0, 1), () => x.permute([2, 0, 1]), () => torch.permute(x, { dims: [2, 0, 1] }), () => torch.permute(x, [2, 0, 1])], true);
    expectForms('transpose', [() => x.transpose(0, 2), () => torch.transpose(x, 0, { dim1: 2 }), () => torch.transpose(x, { dim0: 0, dim1: 2 }), () => x.transpose(-3, -1)], true);
    expectForms('swapaxes', [() => x.swapaxes(0, 2), () => torch.swapaxes(x, { axis0: 0, axis1: 2 }), () => torch.swapaxes(x, 0, { axis1: 2 })], true);
    expectForms('swapdims', [() => x.swapdims(2, 1), () => torch.swapdims(x, { dim0: 2, dim1: 1 })], true);
    expectForms('t', [() => y.t(), () => torch.t(y), () => torch.t({ input: y } as never)], true);
  });

  it('squeeze (no dim, an int, a list), unsqueeze, flatten, unflatten', () => {
    expectForms('squeeze', [() => s.squeeze(), () => torch.squeeze(s, null), () => torch.squeeze(s, { dim: null }), () => s.squeeze([1, 3])], true);
    expectForms('squeeze1', [() => s.squeeze(1), () => torch.squeeze(s, { dim: 1 }), () => s.squeeze([1])], true);
    expectForms('unsqueeze', [() => x.unsqueeze(1), () => torch.unsqueeze(x, { dim: 1 }), () => x.unsqueeze(-3)], true);
    expectForms('flatten', [() => x.flatten(1), () => torch.flatten(x, { startDim: 1 }), () => x.flatten(1, -1), () => x.flatten(undefined, undefined, { startDim: 1 } as never)], true);
    expectForms('flatten01', [() => x.flatten(0, 1), () => torch.flatten(x, { endDim: 1 }), () => torch.flatten(x, 0, { endDim: -2 })], true);
    expectForms('unflatten', [() => x.unflatten(2, [2, 2]), () => torch.unflatten(x, { dim: 2, sizes: [2, 2] }), () => x.unflatten(-1, { sizes: [2, -1] })], true);
  });

  it('expand, expandAs, narrow, select, unfold, diagonal, asStrided', () => {
    expectForms('expand', [() => col.expand(3, 4), () => col.expand([3, 4]), () => col.expand({ size: [-1, 4] }), () => col.expand([3, 4], { implicit: true })], true);
    expectForms('expand_as', [() => col.expandAs(y), () => torch.expandAs(col, { other: y })], true);
    expectForms('narrow', [() => x.narrow(2, 1, 2), () => torch.narrow(x, { dim: 2, start: 1, length: 2 }), () => x.narrow(2, 1, { length: 2 })], true);
    expectForms('select', [() => x.select(1, -1), () => torch.select(x, { dim: 1, index: 2 }), () => x.select(1, { index: -1 })], true);
    expectForms('unfold', [() => x.unfold(2, 2, 1), () => x.unfold({ dimension: 2, size: 2, step: 1 }), () => torch.unfold(x, 2, 2, { step: 1 })], true);
    expectForms('diagonal', [() => x.diagonal(1, 1, 2), () => torch.diagonal(x, { offset: 1, dim1: 1, dim2: 2 }), () => x.diagonal(1, { dim1: -2, dim2: -1 })], true);
    expectForms('as_strided', [() => x.asStrided([2, 2], [1, 2], 1), () => torch.asStrided(x, { size: [2, 2], stride: [1, 2], storageOffset: 1 }), () => x.asStrided([2, 2], [1, 2], { storageOffset: 1 })], true);
  });

  it('split, chunk, unbind, movedim, moveaxis', () => {
    expectForms('split', [() => x.split([1, 3], 2), () => torch.split(x, { splitSizeOrSections: [1, 3], dim: 2 }), () => torch.split(x, [1, 3], { dim: 2 })], true);
    expectForms('split2', [() => x.split(2, 2), () => torch.split(x, 2, { dim: -1 }), () => torch.split(x, { splitSizeOrSections: 2, dim: 2 })], true);
    expectForms('chunk', [() => x.chunk(2, 2), () => torch.chunk(x, { chunks: 2, dim: 2 }), () => x.chunk(2, { dim: -1 })], true);
    expectForms('unbind', [() => x.unbind(1), () => torch.unbind(x, { dim: 1 }), () => x.unbind(-2)], true);
    expectForms('movedim', [() => x.movedim(0, 2), () => torch.movedim(x, { source: 0, destination: 2 }), () => x.movedim([0], [2]), () => torch.moveaxis(x, 0, { destination: 2 })], true);
    expectForms('moveaxis', [() => x.moveaxis([0, 1], [2, 0]), () => torch.moveaxis(x, { source: [0, 1], destination: [2, 0] }), () => torch.movedim(x, [0, 1], [2, 0])], true);
  });

  it('repeat, tile, flip, fliplr, flipud, triu, tril, repeatInterleave', () => {
    expectForms('repeat', [() => y.repeat(2, 1), () => y.repeat([2, 1]), () => torch.repeat(y, { repeats: [2, 1] })]);
    expectForms('tile', [() => y.tile(2), () => torch.tile(y, { dims: [2] }), () => y.tile([1, 2])]);
    expectForms('flip', [() => x.flip(0, 2), () => x.flip([0, 2]), () => torch.flip(x, { dims: [0, -1] })]);
    expectForms('fliplr', [() => y.fliplr(), () => torch.fliplr({ input: y } as never)]);
    expectForms('flipud', [() => y.flipud(), () => torch.flipud(y)]);
    expectForms('triu', [() => y.triu(1), () => torch.triu(y, { diagonal: 1 }), () => y.clone().triu_(1), () => y.clone().triu_({ diagonal: 1 })]);
    expectForms('tril', [() => y.tril(-1), () => torch.tril(y, { diagonal: -1 }), () => y.clone().tril_(-1)]);
    expectForms('repeat_interleave', [
      () => y.repeatInterleave(2, 0),
      () => torch.repeatInterleave(y, { repeats: 2, dim: 0 }),
      () => torch.repeatInterleave(y, torch.tensor([2, 2, 2]), 0),
      () => torch.repeatInterleave(y, 2, { dim: 0, outputSize: 6 }),
    ]);
  });

  it('refuses an unknown keyword, one positional too many and a wrong type, in PyTorch words', () => {
    const refused: [() => unknown, string][] = [
      [() => x.view(6, 4, { sizes: [6, 4] } as never), "view() got an unexpected keyword argument 'sizes'"],
      [() => x.view(6, 'a' as never), "view(): argument 'size' must be tuple of ints, but found element of type string at pos 2"],
      [() => untyped(x, 'view', [6, 4], [1]), 'view() takes 2 positional arguments but 3 were given'],
      [() => x.transpose(0, 1, 2 as never), 'transpose() takes 3 positional arguments but 4 were given'],
      [() => x.transpose(0, { dim2: 1 } as never), "transpose() got an unexpected keyword argument 'dim2'"],
      [() => untyped(x, 'transpose', 0), 'transpose() missing 1 required positional argument: "dim1"'],
      [() => x.flatten(0, 1, 2 as never), 'flatten() takes from 1 to 3 positional arguments but 4 were given'],
      [() => x.flatten({ start: 1 } as never), "flatten() got an unexpected keyword argument 'start'"],
      [() => x.squeeze(1.5 as never), "squeeze(): argument 'dim' (position 2) must be tuple of ints, not number"],
      [() => x.narrow(0, 0, 1, { step: 1 } as never), "narrow() got an unexpected keyword argument 'step'"],
      [() => x.select(0, 1, 2 as never), 'select() takes 3 positional arguments but 4 were given'],
      [() => x.permute(0, 1, 2, { dim: 0 } as never), "permute() got an unexpected keyword argument 'dim'"],
      [() => x.expand(2, 3, 4, { implicit: 1 } as never), "expand(): argument 'implicit' must be bool, not number"],
      [() => x.split(2, 2, 0 as never), 'split() received an invalid combination of arguments'],
      [() => x.chunk(2, 2, 0 as never), 'chunk() takes from 2 to 3 positional arguments but 4 were given'],
      [() => x.unbind({ dims: 0 } as never), "unbind() got an unexpected keyword argument 'dims'"],
      [() => x.movedim(0, 1, 2 as never), 'movedim() takes 3 positional arguments but 4 were given'],
      [() => x.diagonal(0, 0, 1, 2 as never), 'diagonal() takes from 1 to 4 positional arguments but 5 were given'],
      [() => y.repeat(2, 1, { times: 2 } as never), "repeat() got an unexpected keyword argument 'times'"],
      [() => y.triu(1, { diag: 1 } as never), "triu() got an unexpected keyword argument 'diag'"],
      [() => untyped(y, 't', 1), 't() takes 1 positional argument but 2 were given'],
      [() => y.asStrided([2], [1], 0, 1 as never), 'as_strided() takes from 3 to 4 positional arguments but 5 were given'],
      // (a method's self is its input: naming it again is giving it twice)
      [() => x.reshape({ input: x, shape: [4, 6] } as never), "reshape(): argument 'input' given by name ('input') and position (1)"],
      [() => x.flatten(null, null, { startDim: 1 } as never), "flatten(): argument 'startDim' given by name ('startDim') and position (2)"],
    ];
    for (const [fn, message] of refused) {
      expect(fn).toThrow(TorchTypeError);
      expect(fn).toThrow(message);
    }
  });
});
