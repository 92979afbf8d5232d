/**
 * The files derived from the op table (Note [The op table] in src/ops/table/types.ts), as
 * text: scripts/gen-op-table.ts writes them, test/op-table.test.ts checks that the committed
 * ones are current.
 */
import { UNARY_TABLE } from '../src/index';

const HEADER = '// Generated from packages/core/src/ops/table/ by packages/core/scripts/gen-op-table.ts: do not edit.\n// Regenerate with `pnpm gen:ops` at the repository root.\n';

/** Repository-relative path -> contents. */
export function opTableFiles(): Record<string, string> {
  const unary = Object.keys(UNARY_TABLE) as (keyof typeof UNARY_TABLE)[];
  const quoted = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');
  const names = [
    HEADER,
    '/** The unary rows, in table order. */',
    `export const UNARY_TABLE_NAMES = [${quoted(unary)}] as const;`,
    '',
    '/** The dispatcher names of the unary rows\' operators with kernels (functional and in-place; `out` variants need no derivative). */',
    `export const UNARY_TABLE_KERNEL_OP_NAMES = [${quoted(unary.flatMap((n) => [n, `${n}_`]))}] as const;`,
    '',
  ].join('\n');
  const ops = [
    HEADER,
    "import { UNARY_OPS } from '../pointwise-table';",
    '',
    ...unary.flatMap((n) => [
      `/** ${UNARY_TABLE[n].doc} */`,
      `export const ${n} = UNARY_OPS.${n}.fn;`,
      `/** The in-place form of \`${n}\`: writes the result into \`self\`. */`,
      `export const ${n}_ = UNARY_OPS.${n}.inplace;`,
    ]),
    '',
  ].join('\n');
  const facade = [
    HEADER,
    '// The functions of the op table, re-exported by the facade (torch.exp, torch.exp_).',
    'export {',
    ...unary.map((n) => `  ${n},\n  ${n}_,`),
    "} from '@torch-ts/core';",
    '',
  ].join('\n');
  return {
    'packages/core/src/ops/generated/table-names.ts': names,
    'packages/core/src/ops/generated/table-ops.ts': ops,
    'packages/torch/src/generated/table-ops.ts': facade,
  };
}
