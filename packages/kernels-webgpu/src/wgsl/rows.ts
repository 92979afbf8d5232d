import type { TensorImpl } from '@torch-ts/core';

/**
 * Note [Row kernels]
 * The scans, sorts and selections (join-sort-scan family) work on the 1-D lines of a tensor
 * along one dim ("rows"). Their geometry is uniform data, as in Note [Pointwise kernel
 * layout]: after `header` words of the kernel's own, for each of the `k` operands (all of
 * one shape but the size at `dim`) its storage offset and its stride along `dim`, then the
 * sizes of the other dims (outermost first) and each operand's strides over them. A kernel
 * turns its row number into each operand's base offset with `rowBaseCode`; negative strides
 * (flipped views) wrap as u32 and still land right, since offsets only add and multiply.
 */
export interface RowGeometry {
  /** Words before the geometry. */
  readonly header: number;
  /** Operands. */
  readonly k: number;
  /** Dims other than the row's. */
  readonly outer: number;
}

export function rowWords(g: RowGeometry): number {
  return g.header + 2 * g.k + g.outer + g.k * g.outer;
}

/** The params words: `header`, then the geometry of `operands` along `dim`. */
export function rowParams(header: readonly number[], operands: readonly TensorImpl[], dim: number): Uint32Array {
  const nd = operands[0].sizes.length;
  const outerDims: number[] = [];
  for (let d = 0; d < nd; d++) if (d !== dim) outerDims.push(d);
  const g: RowGeometry = { header: header.length, k: operands.length, outer: outerDims.length };
  const w = new Uint32Array(Math.max(4, rowWords(g)));
  let i = 0;
  for (const h of header) w[i++] = h >>> 0;
  for (const t of operands) {
    w[i++] = t.storageOffset >>> 0;
    w[i++] = (nd === 0 ? 0 : t.strides[dim]) >>> 0;
  }
  for (const d of outerDims) w[i++] = operands[0].sizes[d];
  for (const t of operands) for (const d of outerDims) w[i++] = t.strides[d] >>> 0;
  return w;
}

/** The uniform block of `words` u32 words with its accessor `p(i)`, at binding `binding`. */
export function paramsDecl(words: number, binding: number): string {
  return [
    `struct Params { w: array<vec4<u32>, ${Math.max(1, Math.ceil(words / 4))}> };`,
    `@group(0) @binding(${binding}) var<uniform> P: Params;`,
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
  ].join('\n');
}

/**
 * WGSL statements declaring `base<i>` (operand i's offset of row `rowVar`) and `dstr<i>`
 * (its stride along the row) for every operand.
 */
export function rowBaseCode(g: RowGeometry, rowVar: string): string {
  const lines: string[] = [];
  for (let i = 0; i < g.k; i++) {
    lines.push(`  var base${i} = p(${g.header + 2 * i}u);`);
    lines.push(`  let dstr${i} = p(${g.header + 2 * i + 1}u);`);
  }
  lines.push(`  var rrem = ${rowVar};`);
  const sizes = g.header + 2 * g.k;
  for (let d = g.outer - 1; d >= 0; d--) {
    const adds = Array.from({ length: g.k }, (_, i) => `base${i} += c * p(${sizes + g.outer + i * g.outer + d}u);`).join(' ');
    lines.push(`  { let s = p(${sizes + d}u); let c = rrem % s; rrem = rrem / s; ${adds} }`);
  }
  return lines.join('\n');
}

/** The flat id of a workgroup in a grid spread over x and y (launch.ts's `grid`). */
export const GROUP_ID = 'wid.x + wid.y * nwg.x';
