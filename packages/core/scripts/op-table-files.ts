/**
 * The files derived from the op table (Note [The op table] in src/ops/table/types.ts), as
 * text: scripts/gen-op-table.ts writes them, test/op-table.test.ts checks that the committed
 * ones are current.
 */
import { BINARY_TABLE, UNARY_TABLE, allOperators } from '../src/index';

const HEADER = '// Generated from packages/core/src/ops/table/ by packages/core/scripts/gen-op-table.ts: do not edit.\n// Regenerate with `pnpm gen:ops` at the repository root.\n';

/** Repository-relative path -> contents. */
export function opTableFiles(): Record<string, string> {
  const unary = Object.keys(UNARY_TABLE) as (keyof typeof UNARY_TABLE)[];
  const binary = Object.keys(BINARY_TABLE) as (keyof typeof BINARY_TABLE)[];
  const hasInplace = (n: keyof typeof BINARY_TABLE) => (BINARY_TABLE[n] as { inplace?: boolean }).inplace !== false;
  const binaryKernelOps = binary.flatMap((n) => (hasInplace(n) ? [n, `${n}_`] : [n]));
  const inplaceDoc = (n: string) => `/** The in-place form of \`${n}\`: writes the result into \`self\`. */`;
  const quoted = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');
  const names = [
    HEADER,
    '/** The unary rows, in table order. */',
    `export const UNARY_TABLE_NAMES = [${quoted(unary)}] as const;`,
    '',
    '/** The dispatcher names of the unary rows\' operators with kernels (functional and in-place; `out` variants need no derivative). */',
    `export const UNARY_TABLE_KERNEL_OP_NAMES = [${quoted(unary.flatMap((n) => [n, `${n}_`]))}] as const;`,
    '',
    '/** The binary rows, in table order. */',
    `export const BINARY_TABLE_NAMES = [${quoted(binary)}] as const;`,
    '',
    '/** The dispatcher names of the binary rows\' operators with kernels. */',
    `export const BINARY_TABLE_KERNEL_OP_NAMES = [${quoted(binaryKernelOps)}] as const;`,
    '',
  ].join('\n');
  const ops = [
    HEADER,
    "import { BINARY_OPS, UNARY_OPS } from '../pointwise-table';",
    '',
    ...unary.flatMap((n) => [`/** ${UNARY_TABLE[n].doc} */`, `export const ${n} = UNARY_OPS.${n}.fn;`, inplaceDoc(n), `export const ${n}_ = UNARY_OPS.${n}.inplace;`]),
    ...binary.flatMap((n) => [
      `/** ${BINARY_TABLE[n].doc} */`,
      `export const ${n} = BINARY_OPS.${n}.fn;`,
      ...(hasInplace(n) ? [inplaceDoc(n), `export const ${n}_ = BINARY_OPS.${n}.inplace;`] : []),
    ]),
    '',
  ].join('\n');
  const facade = [
    HEADER,
    '// The functions of the op table, re-exported by the facade (torch.exp, torch.exp_).',
    'export {',
    ...unary.map((n) => `  ${n},\n  ${n}_,`),
    ...binary.map((n) => (hasInplace(n) ? `  ${n},\n  ${n}_,` : `  ${n},`)),
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
    'packages/core/src/ops/generated/table-names.ts': names,
    'packages/core/src/ops/generated/table-ops.ts': ops,
    'packages/torch/src/generated/table-ops.ts': facade,
  };
}
