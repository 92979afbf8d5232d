import type { Tensor } from '../../tensor/tensor';
import * as factories from '../factories';
import * as pointwise from '../pointwise';
import { ACTIVATION_OPS, BINARY_OPS, UNARY_OPS } from '../pointwise-table';
import { reductionFn } from '../reduction-table';
import * as views from '../views';

/**
 * The ops the table's formulas call, each with its types declared. The table's own are looked
 * up when a formula runs: pointwise-table.ts defines them from the table modules, so they do
 * not exist yet while those load. The others are front ends (Note [Front ends are declared
 * once]), whose parameter types offer an options object at each position: resolving a call
 * against them compares a Tensor argument with that object, which needs Tensor's members,
 * i.e. the methods derived from the tables. Declared types here keep the tables' types
 * independent of Tensor's.
 */
type Other = Tensor | number | bigint;

export const neg = (x: Tensor): Tensor => UNARY_OPS.neg.fn(x);
export const exp = (x: Tensor): Tensor => UNARY_OPS.exp.fn(x);
export const sin = (x: Tensor): Tensor => UNARY_OPS.sin.fn(x);
export const cos = (x: Tensor): Tensor => UNARY_OPS.cos.fn(x);
export const sinh = (x: Tensor): Tensor => UNARY_OPS.sinh.fn(x);
export const cosh = (x: Tensor): Tensor => UNARY_OPS.cosh.fn(x);
export const rsqrt = (x: Tensor): Tensor => UNARY_OPS.rsqrt.fn(x);
export const reciprocal = (x: Tensor): Tensor => UNARY_OPS.reciprocal.fn(x);
export const erf = (x: Tensor): Tensor => UNARY_OPS.erf.fn(x);
export const erfinv = (x: Tensor): Tensor => UNARY_OPS.erfinv.fn(x);
export const log1p = (x: Tensor): Tensor => UNARY_OPS.log1p.fn(x);
export const sign = (x: Tensor): Tensor => UNARY_OPS.sign.fn(x);
export const lgamma = (x: Tensor): Tensor => UNARY_OPS.lgamma.fn(x);
export const digamma = (x: Tensor): Tensor => UNARY_OPS.digamma.fn(x);
export const i0 = (x: Tensor): Tensor => UNARY_OPS.i0.fn(x);
export const polygamma = (x: Tensor, n: number): Tensor => ACTIVATION_OPS.polygamma.fn(x, n);
export const specialI0e = (x: Tensor): Tensor => ACTIVATION_OPS.specialI0e.fn(x);
export const specialI1 = (x: Tensor): Tensor => ACTIVATION_OPS.specialI1.fn(x);
export const specialI1e = (x: Tensor): Tensor => ACTIVATION_OPS.specialI1e.fn(x);
export const specialErfcx = (x: Tensor): Tensor => ACTIVATION_OPS.specialErfcx.fn(x);
export const specialLogNdtr = (x: Tensor): Tensor => ACTIVATION_OPS.specialLogNdtr.fn(x);
export const xlogy = (x: Tensor, y: Tensor | number): Tensor => BINARY_OPS.xlogy.fn(x, y);
export const specialXlog1py = (x: Tensor, y: Tensor | number): Tensor => BINARY_OPS.specialXlog1py.fn(x, y);
export const specialZeta = (x: Tensor | number, q: Tensor | number): Tensor => BINARY_OPS.specialZeta.fn(x, q);
export const tanh = (x: Tensor): Tensor => UNARY_OPS.tanh.fn(x);
export const sigmoid = (x: Tensor): Tensor => UNARY_OPS.sigmoid.fn(x);
export const softplus = (x: Tensor): Tensor => ACTIVATION_OPS.softplus.fn(x);
export const add = (x: Tensor, y: Other): Tensor => BINARY_OPS.add.fn(x, y);
export const sub = (x: Tensor, y: Other): Tensor => BINARY_OPS.sub.fn(x, y);
export const mul = (x: Tensor, y: Other): Tensor => BINARY_OPS.mul.fn(x, y);
export const div = (x: Tensor, y: Other, options?: { roundingMode?: 'trunc' | 'floor' | null }): Tensor => BINARY_OPS.div.fn(x, y, options);
export const pow = (x: Tensor, y: Other): Tensor => BINARY_OPS.pow.fn(x, y);
export const log = (x: Tensor): Tensor => UNARY_OPS.log.fn(x);
export const logicalAnd = (x: Tensor, y: Tensor): Tensor => BINARY_OPS.logicalAnd.fn(x, y);
export const eq = (x: Tensor, y: Other): Tensor => BINARY_OPS.eq.fn(x, y);
export const ne = (x: Tensor, y: Other): Tensor => BINARY_OPS.ne.fn(x, y);
export const lt = (x: Tensor, y: Other): Tensor => BINARY_OPS.lt.fn(x, y);
export const le = (x: Tensor, y: Other): Tensor => BINARY_OPS.le.fn(x, y);
export const gt = (x: Tensor, y: Other): Tensor => BINARY_OPS.gt.fn(x, y);
export const ge = (x: Tensor, y: Other): Tensor => BINARY_OPS.ge.fn(x, y);
export const where = (condition: Tensor, x: Tensor | Other, y: Tensor | Other): Tensor => pointwise.where(condition, x, y);
export const zerosLike = (x: Tensor): Tensor => factories.zerosLike(x);
export const fullLike = (x: Tensor, value: number | bigint | boolean): Tensor => factories.fullLike(x, value);
export const unsqueeze = (x: Tensor, dim: number): Tensor => views.unsqueeze(x, dim);
export const expand = (x: Tensor, sizes: readonly number[]): Tensor => views.expand(x, sizes);

// (the reduction rows': over every element, or over the given dims keeping them)
export const sum = (x: Tensor, dims?: readonly number[], keepdim?: boolean): Tensor => (dims === undefined ? reductionFn('sum')(x) : reductionFn('sum')(x, dims, keepdim === true));
export const prod = (x: Tensor, dim?: number, keepdim?: boolean): Tensor => (dim === undefined ? reductionFn('prod')(x) : reductionFn('prod')(x, dim, keepdim === true));
