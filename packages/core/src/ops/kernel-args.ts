import type { ArgSchema, OpSchema } from '../dispatch/schema';
import type { KernelRepr, SchemaValues } from '../dispatch/schema-types';
import { isDType } from '../dtype';
import { TorchError } from '../errors';
import { Generator } from '../random/generator';
import { TensorImpl } from '../tensor/tensor-impl';

/** The arguments a kernel of schema `S` receives: TensorImpls, None as undefined or null (Note [Schema types]). */
export type KernelArgs<S extends string> = SchemaValues<S, KernelRepr<TensorImpl>>;

/**
 * Note [Checking kernel arguments]
 * The boxed calling convention hands a kernel `unknown[]`; the kernel reads it as the tuple
 * its schema's types say (Note [Schema types]). That is a promise of every caller, so the
 * test suites check it: with TORCH_TS_CHECK_KERNEL_ARGS=1 in the environment (the vitest
 * configs of core and testing set it), every structured kernel first checks each argument
 * against its schema type and throws naming the op, the argument and what it got. Off, it
 * costs one boolean test per call.
 *
 * Pointwise ops take a number wherever their schema has a Tensor operand (PyTorch wraps a
 * Python number into a 0-dim "wrapped number" tensor before dispatch; torch-ts passes the
 * number itself and TensorIterator treats it so); the check allows that for ops tagged
 * `pointwise`, whose kernels are written for it.
 */
export const CHECK_KERNEL_ARGS: boolean = (() => {
  // (core compiles without Node's types: `process` is probed, not assumed)
  const g: object = globalThis;
  const p: unknown = 'process' in g ? g.process : undefined;
  if (typeof p !== 'object' || p === null || !('env' in p)) return false;
  const env: unknown = p.env;
  return typeof env === 'object' && env !== null && 'TORCH_TS_CHECK_KERNEL_ARGS' in env && env.TORCH_TS_CHECK_KERNEL_ARGS === '1';
})();

export function checkKernelArgs(schema: OpSchema, args: readonly unknown[], tags: readonly string[] = []): void {
  const n = schema.args.length;
  if (args.length > n) fail(schema, `${args.length} arguments for ${n} parameters`);
  const wrapped = tags.includes('pointwise');
  for (let i = 0; i < n; i++) {
    const a = schema.args[i];
    const v = args[i];
    if (wrapped && (a.type === 'Tensor' || a.type === 'Tensor?') && isScalarValue(v)) continue;
    if (!valueOf(a.type, v)) fail(schema, `argument '${a.name}' (${a.type}) got ${show(v)}`);
  }
}

function isScalarValue(v: unknown): boolean {
  return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint';
}

function fail(schema: OpSchema, what: string): never {
  throw new TorchError(`kernel arguments of aten::${schema.qualifiedName}: ${what} (Note [Checking kernel arguments])`);
}

function show(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`;
  if (typeof v === 'object') return v.constructor?.name ?? 'object';
  return `${typeof v} ${String(v)}`;
}

function valueOf(type: ArgSchema['type'], v: unknown): boolean {
  if (type.endsWith('?')) return v === null || v === undefined || valueOf(type.slice(0, -1), v);
  const list = /^(\w+\??)\[\d*\]$/.exec(type);
  if (list) return Array.isArray(v) && v.every((x) => valueOf(list[1], x));
  switch (type) {
    case 'Tensor':
      return v instanceof TensorImpl;
    case 'Scalar':
      return isScalarValue(v);
    case 'int':
    case 'SymInt':
    case 'float':
      return typeof v === 'number';
    case 'bool':
      return typeof v === 'boolean';
    case 'str':
    case 'MemoryFormat':
    case 'Layout':
    case 'Dimname':
      return typeof v === 'string';
    case 'ScalarType':
      return isDType(v);
    case 'Device':
      return typeof v === 'string' || (typeof v === 'object' && v !== null && 'type' in v);
    case 'Generator':
      return v instanceof Generator;
    default:
      return true;
  }
}
