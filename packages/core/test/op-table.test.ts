import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ACTIVATION_OPS,
  ACTIVATION_TABLE,
  allOperators,
  BINARY_TABLE,
  dispatcherName,
  elu,
  gelu,
  KERNEL_OP_NAMES,
  leakyRelu,
  logicalAnd,
  logsumexp,
  mean,
  prod,
  REDUCTION_TABLE,
  reductionOperators,
  sum,
  type ReductionRow,
  logicalAnd_,
  logit,
  softplus,
  Tensor,
  empty,
  TERNARY_TABLE,
  UNARY_TABLE,
  parseSchema,
  type ActivationRow,
  type BinaryRow,
  type TernaryRow,
} from '../src/index';
import { frontFiles } from '../scripts/front-files';
import { opTableFiles } from '../scripts/op-table-files';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('the op table (Note [The op table])', () => {
  it('the files derived from it are current (run `pnpm gen:ops` after editing the table)', () => {
    for (const [path, text] of Object.entries({ ...opTableFiles(), ...frontFiles() })) {
      expect(readFileSync(root + path, 'utf8'), path).toBe(text);
    }
  });

  it('each binary row is a functional, an out= and (where the row has it) an in-place operator, and a kernel op', () => {
    const ops = new Map(allOperators().map((o) => [o.name, o]));
    for (const [key, row] of Object.entries(BINARY_TABLE) as [string, BinaryRow][]) {
      const name = dispatcherName(key);
      const inplace = row.inplace !== false;
      // (then the row's keyword-only arguments: add's alpha)
      const args = ['self', 'other', ...(row.args ? parseSchema(`${name}(${row.args}) -> Tensor`).args.map((a) => a.name) : [])];
      expect(ops.get(name)?.schema.args.map((a) => a.name), name).toEqual(args);
      expect(ops.get(`${name}.out`)?.schema.args.map((a) => a.name), name).toEqual([...args, 'out']);
      expect(ops.has(`${name}_`), `${name}_`).toBe(inplace);
      expect(KERNEL_OP_NAMES.includes(`${name}_` as never), `${name}_`).toBe(inplace);
      expect(KERNEL_OP_NAMES).toContain(name);
    }
  });

  it("each ternary row is a functional, an in-place and an out= operator with PyTorch's operand names, and a kernel op", () => {
    const ops = new Map(allOperators().map((o) => [o.name, o]));
    for (const [key, row] of Object.entries(TERNARY_TABLE) as [string, TernaryRow][]) {
      const name = dispatcherName(key);
      const args = [...row.operands, ...(row.args ? parseSchema(`${name}(${row.args}) -> Tensor`).args.map((a) => a.name) : [])];
      expect(ops.get(name)?.schema.args.map((a) => a.name), name).toEqual(args);
      expect(ops.get(`${name}_`)?.schema.args.map((a) => a.name), `${name}_`).toEqual(args);
      expect(ops.get(`${name}.out`)?.schema.args.map((a) => a.name), `${name}.out`).toEqual([...args, 'out']);
      expect(KERNEL_OP_NAMES).toContain(name);
      expect(KERNEL_OP_NAMES.includes(`${name}_` as never), `${name}_`).toBe(true);
    }
  });

  it('each unary row is a functional, an in-place and an out= operator, and a kernel op', () => {
    const ops = new Map(allOperators().map((o) => [o.name, o]));
    for (const name of Object.keys(UNARY_TABLE).map(dispatcherName)) {
      for (const op of [name, `${name}_`, `${name}.out`]) {
        expect(ops.get(op)?.schema.args.map((a) => a.name), op).toEqual(op.endsWith('.out') ? ['self', 'out'] : ['self']);
      }
      expect(KERNEL_OP_NAMES).toContain(name);
      expect(KERNEL_OP_NAMES).toContain(`${name}_`);
    }
  });

  it("each activation row is a functional, an out= and (where the row has it) an in-place operator of its schema, and a kernel op", () => {
    const ops = new Map(allOperators().map((o) => [o.name, o]));
    for (const [key, row] of Object.entries(ACTIVATION_TABLE) as [string, ActivationRow][]) {
      const name = dispatcherName(key);
      const extra = row.args ? `, ${row.args}` : '';
      expect(ops.get(name)?.def.schema, name).toBe(`${name}(Tensor self${extra}) -> Tensor`);
      expect(ops.get(`${name}.out`)?.schema.args.at(-1)?.name, name).toBe('out');
      expect(ops.has(`${name}_`), `${name}_`).toBe(row.inplace !== false);
      expect(KERNEL_OP_NAMES).toContain(name);
      expect(KERNEL_OP_NAMES.includes(`${name}_` as never), `${name}_`).toBe(row.inplace !== false);
      expect(ACTIVATION_OPS[key as keyof typeof ACTIVATION_OPS].inplace === null, key).toBe(row.inplace === false);
    }
  });

  it("binds an activation's front end by its row: positionally in schema order or by keyword, F.*'s spelling where it differs", () => {
    // (meta tensors: binding and the operators' checks run before any kernel)
    const x = empty([4], { device: 'meta' });
    expect(leakyRelu(x, 0.2).shape).toEqual([4]);
    expect(leakyRelu(x, { negativeSlope: 0.2, inplace: false }).shape).toEqual([4]);
    expect(() => leakyRelu(x, '0.2' as never)).toThrow("leaky_relu(): argument 'negativeSlope' (position 2) must be Number, not string");
    // F.elu takes alpha only: the kernel's scale and input_scale are not F's arguments
    expect(() => elu(x, { scale: 2 } as never)).toThrow("elu() got an unexpected keyword argument 'scale'");
    expect(() => elu(x, 0.5, false, 3 as never)).toThrow('elu() takes from 1 to 3 positional arguments but 4 were given');
    // gelu's approximate is keyword-only, and one of its choices; gelu and softplus have no inplace=
    expect(() => gelu(x, 'tanh' as never)).toThrow('gelu() takes 1 positional argument but 2 were given');
    expect(() => gelu(x, { approximate: 'cubic' as never })).toThrow('gelu: approximate argument must be either none or tanh.');
    expect(() => gelu(x, { inplace: true } as never)).toThrow("gelu() got an unexpected keyword argument 'inplace'");
    expect(() => softplus(x, 1, 20, true as never)).toThrow('softplus() takes from 1 to 3 positional arguments but 4 were given');
    expect(logit(x, { eps: -1 }).shape).toEqual([4]);
  });

  it('each reduction row is a functional operator of its schema, an out= operator, and a kernel op', () => {
    const ops = new Map(allOperators().map((o) => [o.name, o]));
    for (const [key, row] of Object.entries(REDUCTION_TABLE) as [keyof typeof REDUCTION_TABLE, ReductionRow][]) {
      const name = row.overload ? `${dispatcherName(key)}.${row.overload}` : dispatcherName(key);
      expect(ops.get(name)?.def.schema, name).toBe(`${name}(Tensor self, ${row.args}) -> Tensor`);
      expect(reductionOperators(key).op.name, key).toBe(name);
      const out = row.overload ? `${name}_out` : `${name}.out`;
      expect(ops.get(out)?.schema.args.at(-1)?.name, out).toBe('out');
      expect(KERNEL_OP_NAMES).toContain(name);
    }
  });

  it("binds a reduction's front end by its row: positionally in schema order or by keyword, dtype= keyword-only", () => {
    const x = empty([2, 3], { device: 'meta' });
    expect(sum(x).shape).toEqual([]);
    expect(sum(x, 1, true).shape).toEqual([2, 1]);
    expect(sum(x, { dim: [0, 1], keepdim: true, dtype: 'float64' }).dtype).toBe('float64');
    expect(x.sum({ dtype: 'int32' }).dtype).toBe('int32');
    expect(sum(empty([2], { dtype: 'bool', device: 'meta' })).dtype).toBe('int64');
    expect(() => sum(x, 0, false, 'float64' as never)).toThrow('sum() takes from 1 to 3 positional arguments but 4 were given');
    expect(() => prod(x, [0, 1] as never)).toThrow("prod(): argument 'dim' (position 2) must be int, not Array");
    expect(() => logsumexp(x, undefined as never)).toThrow('logsumexp() missing 1 required positional argument: "dim"');
    expect(logsumexp(x, { dim: 0 }).shape).toEqual([3]);
    expect(() => mean(empty([2], { dtype: 'int32', device: 'meta' }))).toThrow(
      'mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Int',
    );
    expect(() => x.amax({ dim: 0, dtype: 'float32' } as never)).toThrow("amax() got an unexpected keyword argument 'dtype'");
  });

  it('names a row in the dispatcher as PyTorch does, and its front end, method and impl as torch-ts does', () => {
    expect(dispatcherName('logicalAnd')).toBe('logical_and');
    expect(dispatcherName('bitwiseNot')).toBe('bitwise_not');
    expect(dispatcherName('log1p')).toBe('log1p');
    const names = new Set(allOperators().map((o) => o.name));
    expect(['logical_and', 'logical_and_', 'logical_and.out'].filter((n) => !names.has(n))).toEqual([]);
    expect([logicalAnd, logicalAnd_, Tensor.prototype.logicalAnd, Tensor.prototype.logicalAnd_].map((f) => typeof f)).toEqual(['function', 'function', 'function', 'function']);
  });
});
