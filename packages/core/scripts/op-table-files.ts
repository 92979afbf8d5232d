/**
 * The files derived from the op table (Note [The op table] in src/ops/table/types.ts), as
 * text: scripts/gen-op-table.ts writes them, test/op-table.test.ts checks that the committed
 * ones are current.
 */
import { ACTIVATION_TABLE, BINARY_TABLE, REDUCTION_TABLE, TERNARY_TABLE, UNARY_TABLE, allOperators, dispatcherName, type ActivationRow, type BinaryRow, type ReductionRow, type TernaryRow } from '../src/index';

const HEADER = '// Generated from packages/core/src/ops/table/ by packages/core/scripts/gen-op-table.ts: do not edit.\n// Regenerate with `pnpm gen:ops` at the repository root.\n';

/** Repository-relative path -> contents. */
export function opTableFiles(): Record<string, string> {
  const unary = Object.keys(UNARY_TABLE) as (keyof typeof UNARY_TABLE)[];
  const binary = Object.keys(BINARY_TABLE) as (keyof typeof BINARY_TABLE)[];
  const activation = Object.keys(ACTIVATION_TABLE) as (keyof typeof ACTIVATION_TABLE)[];
  const ternary = Object.keys(TERNARY_TABLE) as (keyof typeof TERNARY_TABLE)[];
  const terSignature = (n: keyof typeof TERNARY_TABLE) => {
    const row: TernaryRow = TERNARY_TABLE[n];
    const [, a, b] = row.operands;
    return `${dispatcherName(n)}(Tensor input, Tensor ${a}, ${row.scalarLast ? 'Tensor|Number' : 'Tensor'} ${b}${row.args ? `, ${row.args}` : ''})`;
  };
  const binRow = (n: keyof typeof BINARY_TABLE): BinaryRow => BINARY_TABLE[n];
  const hasInplace = (n: keyof typeof BINARY_TABLE) => binRow(n).inplace !== false;
  const reduction = Object.keys(REDUCTION_TABLE) as (keyof typeof REDUCTION_TABLE)[];
  const redRow = (n: keyof typeof REDUCTION_TABLE): ReductionRow => REDUCTION_TABLE[n];
  const actRow = (n: keyof typeof ACTIVATION_TABLE): ActivationRow => ACTIVATION_TABLE[n];
  const binArgs = (n: keyof typeof BINARY_TABLE) => binRow(n).args ?? '';
  // (the function form's schema, as the binder takes it: positional in order, any by keyword)
  const frontSignature = (n: keyof typeof ACTIVATION_TABLE) => {
    const row = actRow(n);
    const args = [row.frontArgs ?? row.args, row.inplaceArg ? 'bool inplace=False' : ''].filter((a) => a !== '');
    return `${dispatcherName(n)}(Tensor input${args.map((a) => `, ${a}`).join('')})`;
  };
  const inplaceDoc = (n: string) => `/** The in-place form of \`${n}\`: writes the result into \`self\`. */`;
  const quoted = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');
  const names = [
    HEADER,
    '/** The unary rows, in table order. */',
    `export const UNARY_TABLE_NAMES = [${quoted(unary)}] as const;`,
    '',

    '/** The binary rows, in table order. */',
    `export const BINARY_TABLE_NAMES = [${quoted(binary)}] as const;`,
    '',
    '/** The activation rows (unary with arguments), in table order. */',
    `export const ACTIVATION_TABLE_NAMES = [${quoted(activation)}] as const;`,
    '',
    '/** The ternary rows, in table order. */',
    `export const TERNARY_TABLE_NAMES = [${quoted(ternary)}] as const;`,
    '',
    '/** The reduction rows, in table order. */',
    `export const REDUCTION_TABLE_NAMES = [${quoted(reduction)}] as const;`,
    '',
  ].join('\n');
  // (Note [Ops that need a derivative]: every operator with kernels of its own, i.e. not a
  // composite and not an out= variant, as core registers them)
  const kernelOps = allOperators()
    .filter((o) => !o.def.composite && !o.schema.overload.endsWith('out'))
    .map((o) => o.name)
    .sort();
  const kernelNames = [
    HEADER.replace('packages/core/src/ops/table/', 'the operators core registers'),
    '/** Every operator with kernels of its own (Note [Ops that need a derivative]), sorted. */',
    'export const KERNEL_OP_NAMES = [',
    ...kernelOps.map((n) => `  '${n}',`),
    '] as const;',
    '',
  ].join('\n');
  const ops = [
    HEADER,
    "import { ACTIVATION_OPS, BINARY_OPS, TERNARY_OPS, UNARY_OPS } from '../pointwise-table';",
    "import { reductionFn, type ReductionFn } from '../reduction-table';",
    '',
    ...unary.flatMap((n) => [`/** ${UNARY_TABLE[n].doc} */`, `export const ${n} = UNARY_OPS.${n}.fn;`, inplaceDoc(n), `export const ${n}_ = UNARY_OPS.${n}.inplace;`]),
    ...binary.flatMap((n) => [
      `/** ${BINARY_TABLE[n].doc}${binArgs(n) ? ` PyTorch's signature: \`${dispatcherName(n)}(Tensor input, Tensor other, ${binArgs(n)})\`.` : ''} */`,
      `export const ${n} = BINARY_OPS.${n}.fn;`,
      ...(hasInplace(n) ? [inplaceDoc(n), `export const ${n}_ = BINARY_OPS.${n}.inplace;`] : []),
    ]),
    ...activation.flatMap((n) => [
      `/** ${actRow(n).doc} PyTorch's signature: \`${frontSignature(n)}\`. */`,
      `export const ${n} = ACTIVATION_OPS.${n}.fn;`,
      ...(actRow(n).inplace !== false ? [inplaceDoc(n), `export const ${n}_ = ACTIVATION_OPS.${n}.inplace;`] : []),
    ]),
    ...ternary.flatMap((n) => [
      `/** ${TERNARY_TABLE[n].doc} PyTorch's signature: \`${terSignature(n)}\`. */`,
      `export const ${n} = TERNARY_OPS.${n}.fn;`,
      inplaceDoc(n),
      `export const ${n}_ = TERNARY_OPS.${n}.inplace;`,
    ]),
    // (typed by the row: the front end itself takes its arguments as the binder checks them)
    ...reduction.flatMap((n) => [
      `/** ${redRow(n).doc} PyTorch's signature: \`${dispatcherName(n)}(Tensor input, ${redRow(n).args})\`. */`,
      `export const ${n}: ReductionFn<'${n}'> = reductionFn('${n}');`,
    ]),
    '',
  ].join('\n');
  const methods = [
    HEADER,
    "import { " + reduction.join(', ') + " } from './table-ops';",
    '',
    '/** The Tensor methods of the reduction rows: `x.sum()`, `x.argmax(1)` (Note [Tensor methods come from the op table]). */',
    `export const REDUCTION_METHODS = { ${reduction.join(', ')} };`,
    '',
  ].join('\n');
  const facade = [
    HEADER,
    '// The functions of the op table, re-exported by the facade (torch.exp, torch.exp_).',
    'export {',
    ...unary.map((n) => `  ${n},\n  ${n}_,`),
    ...binary.filter((n) => binRow(n).torchFunction !== false).map((n) => (hasInplace(n) ? `  ${n},\n  ${n}_,` : `  ${n},`)),
    // (not the rows PyTorch has no torch.name for: Note [torch.special's rows])
    ...activation.filter((n) => actRow(n).torchFunction !== false).map((n) => (actRow(n).inplace !== false ? `  ${n},\n  ${n}_,` : `  ${n},`)),
    ...ternary.map((n) => `  ${n},\n  ${n}_,`),
    ...reduction.map((n) => `  ${n},`),
    "} from '@torch-ts/core';",
    '',
  ].join('\n');
  // (the rows torch.nn.functional has, as PyTorch's functional.py: F.silu, and F.elu_ too)
  const nnFunctional = activation.filter((n) => actRow(n).nnFunctional !== undefined);
  const functional = [
    HEADER,
    "// The activations of the op table that torch.nn.functional has (F.leaky_relu, F.leaky_relu_).",
    'export {',
    ...nnFunctional.map((n) => (actRow(n).nnFunctional === 'fn and inplace' ? `  ${n},\n  ${n}_,` : `  ${n},`)),
    "} from '@torch-ts/core';",
    '',
  ].join('\n');
  // (every operator core declares, by dispatcher name: autograd's derivative entries take
  // the types of `ctx.args` from these, Note [Schema types])
  const schemas = [
    HEADER.replace('packages/core/src/ops/table/', 'the operators core registers'),
    '/** Each operator\'s schema, by its dispatcher name (Note [Schema types]). */',
    'export interface OpSchemas {',
    ...allOperators()
      .map((h) => [h.name, h.def.schema] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, schema]) => `  '${name}': '${schema.replace(/'/g, "\\'")}';`),
    '}',
    '',
  ].join('\n');
  return {
    'packages/core/src/ops/generated/schemas.ts': schemas,
    'packages/core/src/ops/generated/kernel-op-names.ts': kernelNames,
    'packages/core/src/ops/generated/table-names.ts': names,
    'packages/core/src/ops/generated/table-ops.ts': ops,
    'packages/core/src/ops/generated/table-methods.ts': methods,
    'packages/torch/src/generated/table-ops.ts': facade,
    'packages/torch/src/generated/functional-table-ops.ts': functional,
  };
}
