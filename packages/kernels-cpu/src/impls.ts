import type { BackendImplTable } from '@torch-ts/core';
import { argmax, argmin, maxDim, minDim } from './kernels/arg-reduce';
import { add, div, divFloor, divTrunc, maximum, minimum, mul, pow, remainder } from './kernels/binary';
import { eq, ge, gt, le, lt, ne } from './kernels/compare';
import { copy } from './kernels/copy';
import { fill } from './kernels/fill';
import { bmm, mm } from './kernels/matmul';
import { amax, amin, prod, sum } from './kernels/reduce';
import { abs, ceil, cos, exp, floor, log, neg, relu, sigmoid, sin, sqrt, tanh } from './kernels/unary';
import { where } from './kernels/where';

/**
 * The CPU backend's impls (Note [What a backend implements]): every entry computes into a
 * preallocated output from inputs core has already cast and broadcast. The compiler checks
 * the table against `BackendImplTable`, so a missing impl is a type error.
 */
export const cpuImpls = {
  copy,
  fill,
  add,
  mul,
  div,
  divTrunc,
  divFloor,
  pow,
  remainder,
  maximum,
  minimum,
  eq,
  ne,
  lt,
  le,
  gt,
  ge,
  neg,
  abs,
  exp,
  log,
  sqrt,
  sin,
  cos,
  tanh,
  sigmoid,
  relu,
  floor,
  ceil,
  where,
  sum,
  prod,
  amax,
  amin,
  maxDim,
  minDim,
  argmax,
  argmin,
  mm,
  bmm,
} satisfies BackendImplTable;
