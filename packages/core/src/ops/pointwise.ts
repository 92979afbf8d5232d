import type { OperatorHandle } from '../dispatch/dispatcher';
import { getDefaultDtype, isFloatingType, resultType, type DType } from '../dtype';
import { DTypeError, TorchError } from '../errors';
import { broadcastShapes } from '../iterator';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { makeBinder } from './binder';
import { overloadedFront } from './front';
import { callFunctional, callMutating, optionalTensor, tensorArg, unwrapTensor, unwrapTensorOrScalar } from './call';
import {
  allocateOutput,
  broadcastTo,
  castTo,
  checkWritable,
  commonDevice,
  releaseAll,
  sameShape,
  scalarTensor,
  torchTypeName,
  UNINITIALIZED,
  type Scalar,
} from './meta-utils';
import { defineStructured, implOf, type Backend } from './registry';
import { whereCondition } from './masked';
import { tensor } from './factories';

/**
 * How a pointwise op chooses its dtypes (TensorIterator's config in PyTorch):
 *  - promote: compute and result in `result_type` of the operands;
 *  - float: as promote, but integral/bool inputs compute in the default float dtype;
 *  - compare: compute in `result_type`, result is bool.
 */
type DtypeRule = 'promote' | 'float' | 'compare';

export interface PointwiseDef {
  readonly name: string;
  /** Schema arguments after the tensor operands, e.g. `*, Scalar alpha=1`. */
  readonly extraArgs?: string;
  /** Number of leading tensor-or-scalar operands. */
  readonly arity: 1 | 2 | 3;
  /** The operands' names in the schema, as PyTorch's (`self, end, weight`); default `self, other, other2`. */
  readonly operandNames?: readonly string[];
  readonly rule: DtypeRule | ((args: unknown[]) => DtypeRule);
  /** Rejects dtypes PyTorch rejects (names the op). */
  readonly check?: (op: string, computeDtype: DType, operands: readonly (TensorImpl | Scalar)[], args: unknown[]) => void;
  readonly compute: (b: Backend, op: string, out: TensorImpl, inputs: TensorImpl[], args: unknown[]) => void;
  /** Whether `name_` exists. */
  readonly inplace?: boolean;
  /**
   * `where`: a bool condition comes first; it broadcasts with the operands but takes no
   * part in type promotion and is passed to `compute` as `args[0]`, uncast.
   */
  readonly leadingCondition?: boolean;
}

export interface PointwiseOp {
  readonly functional: OperatorHandle;
  readonly inplace: OperatorHandle | null;
  readonly out: OperatorHandle;
}

type Mode = 'functional' | 'inplace' | 'out';

export function definePointwise(def: PointwiseDef): PointwiseOp {
  const names = def.operandNames ?? ['self', 'other', 'other2'];
  const operands = [...(def.leadingCondition ? ['Tensor condition'] : []), ...names.slice(0, def.arity).map((n) => `Tensor ${n}`)];
  const extra = def.extraArgs ? `, ${def.extraArgs}` : '';
  const star = def.extraArgs?.includes('*') ? '' : ', *';
  const tags = ['pointwise'];
  const inplaceName = `${def.name}_`;
  const functional = defineStructured(
    `${def.name}(${operands.join(', ')}${extra}) -> Tensor`,
    (args, b) => runPointwise(def, 'functional', def.name, args, b),
    tags,
  );
  const inplaceArgs = ['Tensor(a!) self', ...operands.slice(1)].join(', ');
  const inplace =
    def.inplace === false
      ? null
      : defineStructured(
          `${def.name}_(${inplaceArgs}${extra}) -> Tensor(a!)`,
          (args, b) => runPointwise(def, 'inplace', inplaceName, args, b),
          [...tags, 'inplace'],
        );
  const out = defineStructured(
    `${def.name}.out(${operands.join(', ')}${extra}${star}, Tensor(a!) out) -> Tensor(a!)`,
    (args, b) => runPointwise(def, 'out', def.name, args, b),
    [...tags, 'out'],
  );
  return { functional, inplace, out };
}

function runPointwise(def: PointwiseDef, mode: Mode, op: string, args: unknown[], b: Backend): TensorImpl {
  const out = mode === 'out' ? (args[args.length - 1] as TensorImpl) : null;
  const x = sameGeometryOperands(def, args, out);
  if (x !== null) {
    const rule = typeof def.rule === 'function' ? def.rule(args) : def.rule;
    if (rule !== 'float' || isFloatingType(x.dtype)) return runSameGeometry(def, op, mode === 'inplace' ? x : out, x, rule, args, b);
  }
  const first = def.leadingCondition ? 1 : 0;
  const operands = args.slice(first, first + def.arity) as (TensorImpl | Scalar)[];
  const cond = def.leadingCondition ? (args[0] as TensorImpl) : null;
  const dst = mode === 'out' ? (args[args.length - 1] as TensorImpl) : mode === 'inplace' ? (operands[0] as TensorImpl) : null;
  const device = commonDevice(op, [...operands, ...(cond ? [cond] : []), ...(dst ? [dst] : [])]);
  const rule = typeof def.rule === 'function' ? def.rule(args) : def.rule;
  let compute = resultType(
    op,
    operands.map((o) => (o instanceof TensorImpl ? { dtype: o.dtype, shape: o.sizes } : o)),
  );
  if (rule === 'float' && !isFloatingType(compute)) compute = getDefaultDtype();
  def.check?.(op, compute, operands, args);
  const resultDtype: DType = rule === 'compare' ? 'bool' : compute;
  const tensors = operands.filter((o): o is TensorImpl => o instanceof TensorImpl);
  const shape = broadcastShapes(op, ...(cond ? [cond.sizes] : []), ...tensors.map((t) => t.sizes));
  if (dst) checkWritable(op, dst, shape, resultDtype, device, cond ? [cond, ...tensors] : tensors);

  const temps: TensorImpl[] = [];
  try {
    const inputs = operands.map((o) => {
      const c = o instanceof TensorImpl ? castTo(b, op, o, compute, device) : scalarTensor(b, op, o, compute, device);
      temps.push(c);
      const v = broadcastTo(c, shape);
      temps.push(v);
      return v;
    });
    if (dst && dst.dtype === resultDtype) {
      def.compute(b, op, dst, inputs, args);
    } else {
      const result = allocateOutput(op, shape, resultDtype, device, tensors);
      if (!dst) {
        try {
          def.compute(b, op, result, inputs, args);
        } catch (e) {
          result.release(); // a kernel that throws (ZeroDivisionError) must not leak its output
          throw e;
        }
        return result;
      }
      temps.push(result);
      def.compute(b, op, result, inputs, args);
      implOf(b, 'copy', 'copy_')(dst, result);
    }
    return dst;
  } finally {
    releaseAll(temps);
  }
}

/**
 * Note [Pointwise fast path]
 * Most calls in a training loop combine tensors of one dtype, one device and one shape
 * (`x * x`, `a + b`, `out=` of that shape on that device). For them the general meta above
 * has nothing to decide: result_type is the operands' dtype, the broadcast shape is their
 * shape, the device is theirs, no operand needs a cast copy or a broadcast view (castTo and
 * broadcastTo would hand back the operand itself), and when every operand is contiguous the
 * output is contiguous (Note [Output layout of pointwise ops], step 1). The fast path checks
 * exactly these conditions, then runs the same checks and kernel in the same order without
 * the general path's temporaries, arrays and closures. Anything else (a scalar operand, two
 * dtypes, broadcasting, an int input of a 'float' op, `where`'s condition, an `out` on another
 * device) takes the general path, so both give the same result and the same errors.
 */
function sameGeometryOperands(def: PointwiseDef, args: readonly unknown[], dst: TensorImpl | null): TensorImpl | null {
  if (def.leadingCondition) return null;
  const x = args[0];
  if (!(x instanceof TensorImpl)) return null;
  for (let k = 1; k < def.arity; k++) {
    const y = args[k];
    if (!(y instanceof TensorImpl) || y.dtype !== x.dtype || y.device !== x.device || !sameShape(y.sizes, x.sizes)) return null;
  }
  if (dst !== null && dst.device !== x.device) return null;
  return x;
}

function runSameGeometry(
  def: PointwiseDef,
  op: string,
  dst: TensorImpl | null,
  x: TensorImpl,
  rule: DtypeRule,
  args: unknown[],
  b: Backend,
): TensorImpl {
  const compute = x.dtype;
  const inputs = args.slice(0, def.arity) as TensorImpl[];
  def.check?.(op, compute, inputs, args);
  const resultDtype: DType = rule === 'compare' ? 'bool' : compute;
  if (dst) checkWritable(op, dst, x.sizes, resultDtype, x.device, inputs);
  if (dst && dst.dtype === resultDtype) {
    def.compute(b, op, dst, inputs, args);
    return dst;
  }
  let contiguous = true;
  for (let k = 0; k < inputs.length; k++) if (!inputs[k].isContiguous) contiguous = false;
  const shape = x.sizes.slice();
  const result = contiguous
    ? TensorImpl.empty(op, shape, resultDtype, x.device, UNINITIALIZED)
    : allocateOutput(op, shape, resultDtype, x.device, inputs);
  try {
    def.compute(b, op, result, inputs, args);
    if (dst) implOf(b, 'copy', 'copy_')(dst, result);
  } catch (e) {
    result.release(); // a kernel that throws (ZeroDivisionError) must not leak its output
    throw e;
  }
  if (!dst) return result;
  result.release();
  return dst;
}

// ---- where ----
// (the binary ops with kernels, add sub mul div pow and the rest, are rows of the op table:
// table/binary.ts)
export const WHERE = definePointwise({
  name: 'where',
  arity: 2,
  leadingCondition: true,
  rule: 'promote',
  inplace: false,
  compute: (b, op, out, [x, y], args) => {
    const c = broadcastTo(args[0] as TensorImpl, out.sizes);
    try {
      implOf(b, 'where', op)(out, c, x, y);
    } finally {
      c.release();
    }
  },
});

// ---- front ends ----
export interface OutOptions {
  out?: Tensor | null;
}

/**
 * The function and in-place front ends of a binary pointwise op, bound by Note [The argument
 * binder]: `other` (named `otherName` in the schema) a Tensor, or also a Number where PyTorch's
 * parser allows numbers there (`numbers`), and `extra` keyword-only arguments in schema syntax
 * (`Scalar alpha=1`) passed to the op after `other`.
 */
export function binaryFront(p: PointwiseOp, extra = '', { numbers = true, otherName = 'other', numberSelf = false } = {}) {
  const name = p.functional.schema.name;
  const inplaceName = `${name}_`;
  const kw = extra ? `*, ${extra}, ` : '*, ';
  // (`numberSelf`: the function form also takes a number for self, `torch.sub(1, p)`)
  const fnArgs = makeBinder(name, `${name}(Tensor self, Tensor ${otherName}, ${kw}Tensor? out=None) -> Tensor`, { numbersAsTensors: numbers, numberSelf });
  const inplaceArgs = makeBinder(inplaceName, `${inplaceName}(Tensor self, Tensor ${otherName}${extra ? `, *, ${extra}` : ''}) -> Tensor`, { numbersAsTensors: numbers });
  const nExtra = fnArgs.schema.args.length - 3;
  /** The function form's call of the operators, given the bound values `b` and the unwrapped operands. */
  const run = (x: TensorImpl | Scalar, y: TensorImpl | Scalar, b: readonly unknown[]): Tensor => {
    // (built without spreads: this runs on every call)
    const a: unknown[] = [x, y];
    for (let i = 0; i < nExtra; i++) a.push(b[2 + i] ?? null);
    const out = b[2 + nExtra] as Tensor | undefined;
    if (!out) return callFunctional(p.functional, a);
    a.push(unwrapTensor(name, 'out', out));
    return callMutating(p.out, a, out);
  };
  return {
    fn: (...args: unknown[]): Tensor => {
      const b = fnArgs.bind(args);
      const y = unwrapTensorOrScalar(name, otherName, b[1]);
      const x = numberSelf ? unwrapTensorOrScalar(name, 'input', b[0]) : unwrapTensor(name, 'input', b[0]);
      if (x instanceof TensorImpl || y instanceof TensorImpl) return run(x, y, b);
      // Two numbers (`torch.add(2, 3)`): PyTorch's parser wraps both; the first becomes the
      // 0-dim tensor `torch.tensor(2)` would be, which gives the same result dtype.
      const wrapped = tensor(x);
      try {
        return run(wrapped.impl, y, b);
      } finally {
        wrapped.dispose();
      }
    },
    inplace: (...args: unknown[]): Tensor => {
      if (!p.inplace) throw new TorchError(`${inplaceName}: there is no in-place variant of ${name}`);
      const b = inplaceArgs.bind(args);
      const self = b[0];
      const x = unwrapTensor(inplaceName, 'self', self);
      const y = unwrapTensorOrScalar(inplaceName, otherName, b[1]);
      const a: unknown[] = [x, y];
      for (let i = 0; i < nExtra; i++) a.push(b[2 + i] ?? null);
      return callMutating(p.inplace, a, self);
    },
  };
}

/** The function and in-place front ends of a unary pointwise op. */
export function unaryFront(p: PointwiseOp, { inplaceArg = false } = {}) {
  const name = p.functional.schema.name;
  const inplaceName = `${name}_`;
  // (`inplaceArg`: F.relu's `inplace=False`, the F.* spelling of the in-place form)
  const fnArgs = makeBinder(name, `${name}(Tensor self${inplaceArg ? ', bool inplace=False' : ''}, *, Tensor? out=None) -> Tensor`);
  const inplaceArgs = makeBinder(inplaceName, `${name}_(Tensor self) -> Tensor`);
  return {
    fn: (...args: unknown[]): Tensor => {
      const bound = fnArgs.bind(args);
      const self = bound[0];
      const out = bound[bound.length - 1] as Tensor | undefined;
      if (inplaceArg && bound[1] === true) {
        if (out) throw new TorchError(`${name}: out= cannot be combined with inplace=True`);
        return callMutating(p.inplace!, [unwrapTensor(inplaceName, 'self', self)], self);
      }
      const x = unwrapTensor(name, 'input', self);
      return out ? callMutating(p.out, [x, unwrapTensor(name, 'out', out)], out) : callFunctional(p.functional, [x]);
    },
    inplace: (...args: unknown[]): Tensor => {
      const [self] = inplaceArgs.bind(args);
      return callMutating(p.inplace!, [unwrapTensor(inplaceName, 'self', self)], self);
    },
  };
}

/**
 * `where(cond, self, other)`: elements of `self` where `cond` is true, else of `other`.
 * `where(cond)` alone is `nonzero(cond, { asTuple: true })`, as in PyTorch.
 */
export const where = overloadedFront(
  // (`input`, not `self`: PyTorch's where also takes a number there, where.ScalarSelf)
  ['where.self(Tensor condition, Tensor input, Tensor other, *, Tensor? out=None) -> Tensor', 'where(Tensor condition) -> Tensor[]'],
  // (the method is `x.where(condition, other)`, self second: methods.ts)
  { numbersAsTensors: true, method: false },
).runEach<[Tensor, Tensor[]]>((call): Tensor | Tensor[] => {
  if (call.index === 1) return whereCondition(tensorArg('where', 'condition', call.values[0]));
  const [condition, self, other, outArg] = call.values;
  const cond = unwrapTensor('where', 'condition', condition);
  if (cond.dtype !== 'bool') {
    throw new DTypeError(`where: expected condition to be a boolean tensor, but got a tensor with dtype ${torchTypeName(cond.dtype)}`);
  }
  const a = [cond, unwrapTensorOrScalar('where', 'input', self), unwrapTensorOrScalar('where', 'other', other)];
  const out = optionalTensor('where', 'out', outArg);
  return out ? callMutating(WHERE.out, [...a, unwrapTensor('where', 'out', out)], out) : callFunctional(WHERE.functional, a);
});
