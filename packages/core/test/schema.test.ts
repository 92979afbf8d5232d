import { describe, it, expect } from 'vitest';
import { TorchError, parseSchema, type ArgSchema } from '../src/index';

/** The fields of an argument a test states, in order. */
function brief(a: ArgSchema): [string, string, boolean, string | undefined, boolean, boolean, boolean] {
  return [a.name, a.type, a.kwargOnly, a.defaultValue, a.mutable, a.isTensor, a.isTensorList];
}

describe('parseSchema', () => {
  it('parses name, overload, arguments and returns', () => {
    const s = parseSchema('add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor');
    expect(s.name).toBe('add');
    expect(s.overload).toBe('Tensor');
    expect(s.qualifiedName).toBe('add.Tensor');
    expect(s.returns).toBe('Tensor');
    expect(s.args.map(brief)).toEqual([
      ['self', 'Tensor', false, undefined, false, true, false],
      ['other', 'Tensor', false, undefined, false, true, false],
      ['alpha', 'Scalar', true, '1', false, false, false],
    ]);
    expect(s.tensorArgs).toEqual([0, 1]);
  });

  it('a schema without an overload has the bare name as its qualified name', () => {
    const s = parseSchema('neg(Tensor self) -> Tensor');
    expect(s.overload).toBe('');
    expect(s.qualifiedName).toBe('neg');
    expect(s.args.length).toBe(1);
  });

  it('marks every argument after `*` keyword-only', () => {
    const s = parseSchema(
      'sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
    );
    expect(s.args.map((a) => [a.name, a.type, a.kwargOnly, a.defaultValue])).toEqual([
      ['self', 'Tensor', false, undefined],
      ['dim', 'int[1]?', false, undefined],
      ['keepdim', 'bool', false, 'False'],
      ['dtype', 'ScalarType?', true, 'None'],
    ]);
  });

  it('keeps defaults as written, including lists with commas and strings', () => {
    const s = parseSchema(
      "stuff(Tensor self, int[] dims=[0, 1], str mode='sum', float eps=1e-05, int? n=None, SymInt step=1) -> Tensor",
    );
    expect(s.args.map((a) => [a.name, a.type, a.defaultValue])).toEqual([
      ['self', 'Tensor', undefined],
      ['dims', 'int[]', '[0, 1]'],
      ['mode', 'str', "'sum'"],
      ['eps', 'float', '1e-05'],
      ['n', 'int?', 'None'],
      ['step', 'SymInt', '1'],
    ]);
  });

  it('`Tensor(a!)` is a mutable alias: in-place self and out=', () => {
    const inplace = parseSchema('add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)');
    expect(inplace.args.map(brief)).toEqual([
      ['self', 'Tensor', false, undefined, true, true, false],
      ['other', 'Tensor', false, undefined, false, true, false],
      ['alpha', 'Scalar', true, '1', false, false, false],
    ]);
    expect(inplace.returns).toBe('Tensor(a!)');
    const out = parseSchema('mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)');
    expect(out.args.map(brief)).toEqual([
      ['self', 'Tensor', false, undefined, false, true, false],
      ['other', 'Tensor', false, undefined, false, true, false],
      ['out', 'Tensor', true, undefined, true, true, false],
    ]);
    expect(out.tensorArgs).toEqual([0, 1, 2]);
  });

  it('`Tensor(a)` and `Tensor(a -> *)` are aliases that are not written', () => {
    const view = parseSchema('view(Tensor(a) self, SymInt[] size) -> Tensor(a)');
    expect(view.args.map(brief)).toEqual([
      ['self', 'Tensor', false, undefined, false, true, false],
      ['size', 'SymInt[]', false, undefined, false, false, false],
    ]);
    const split = parseSchema('split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]');
    expect(split.args.map(brief)).toEqual([
      ['self', 'Tensor', false, undefined, false, true, false],
      ['split_size', 'SymInt', false, undefined, false, false, false],
      ['dim', 'int', false, '0', false, false, false],
    ]);
    expect(split.returns).toBe('Tensor(a)[]');
  });

  it('tensor lists and optional tensors carry tensors', () => {
    const cat = parseSchema('cat(Tensor[] tensors, int dim=0) -> Tensor');
    expect(cat.args.map(brief)).toEqual([
      ['tensors', 'Tensor[]', false, undefined, false, false, true],
      ['dim', 'int', false, '0', false, false, false],
    ]);
    expect(cat.tensorArgs).toEqual([0]);
    const opt = parseSchema('linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor');
    expect(opt.args.map(brief)[2]).toEqual(['bias', 'Tensor?', false, 'None', false, true, false]);
    expect(opt.tensorArgs).toEqual([0, 1, 2]);
    const outList = parseSchema('split_copy.Tensor_out(Tensor self, SymInt split_size, int dim=0, *, Tensor(a!)[] out) -> ()');
    expect(outList.args.map(brief)[3]).toEqual(['out', 'Tensor[]', true, undefined, true, false, true]);
    expect(outList.tensorArgs).toEqual([0, 3]);
    expect(outList.returns).toBe('()');
  });

  it('parses the optional-tensor list `Tensor?[]` (aten::index.Tensor)', () => {
    const s = parseSchema('index.Tensor(Tensor self, Tensor?[] indices) -> Tensor');
    expect(s.args.map(brief)[1]).toEqual(['indices', 'Tensor?[]', false, undefined, false, false, true]);
    expect(s.tensorArgs).toEqual([0, 1]);
  });

  it('parses tuple returns and whitespace around the arrow', () => {
    const s = parseSchema('  max.dim(Tensor self, int dim, bool keepdim=False)   ->   (Tensor values, Tensor indices)  ');
    expect(s.qualifiedName).toBe('max.dim');
    expect(s.returns).toBe('(Tensor values, Tensor indices)');
    expect(s.args.map((a) => a.name)).toEqual(['self', 'dim', 'keepdim']);
  });

  it('accepts names with leading underscores and an empty argument list', () => {
    const s = parseSchema('_to_copy(Tensor self, *, ScalarType? dtype=None, Device? device=None) -> Tensor');
    expect(s.name).toBe('_to_copy');
    expect(s.args.every((a, i) => a.kwargOnly === i > 0)).toBe(true);
    const e = parseSchema('_nothing() -> ()');
    expect(e.args).toEqual([]);
    expect(e.tensorArgs).toEqual([]);
  });

  it('rejects malformed schemas and arguments with a TorchError naming parseSchema', () => {
    for (const bad of ['add(Tensor self', 'add(Tensor self) Tensor', '1add(Tensor self) -> Tensor', 'add.(Tensor self) -> Tensor']) {
      expect(() => parseSchema(bad), bad).toThrow(TorchError);
      expect(() => parseSchema(bad), bad).toThrow(/parseSchema: malformed schema/);
    }
    expect(() => parseSchema('add(Tensor) -> Tensor')).toThrow(/parseSchema: malformed argument 'Tensor'/);
    expect(() => parseSchema('add(Tensor self other) -> Tensor')).toThrow(/malformed argument/);
  });
});
