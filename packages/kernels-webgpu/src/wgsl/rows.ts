import type { TensorImpl } from '@torch-ts/core';

/**
 * Note [Row kernels]
 * The scans, sorts and selections (join-sort-scan family) work on the 1-D lines of a tensor
 * along one dim ("rows"). Their geometry is uniform data, as in Note [Pointwise kernel
 * layout]: after `header` words of the kernel's own, for each of the `k` operands (all of
 * one shape but the size at `dim`) its storage offset and its stride along `dim`, then the
 * number of other dims, their sizes (outermost first) and each operand's strides over them,
 * in slots of `rowSlots(outer)` dims. A kernel turns its row number into each operand's base
 * offset with `rowBaseCode`; negative strides (flipped views) wrap as u32 and still land
 * right, since offsets only add and multiply.
 * Up to ROW_OUTER_MAX other dims the decode is a loop over the dim count read from the
 * parameters, so one source serves every rank up to it (`rowVariant` is what a kernel cache
 * keys on): these kernels have barriers in loops, which SwiftShader compiles slowly (0.2 to
 * 0.7 s of CPU each), and one source per rank multiplied them. The decode runs once per row
 * (per element in a few light kernels), so the loop costs next to nothing. Past the bound the
 * decode is unrolled for the exact rank.
 */
export interface RowGeometry {
  /** Words before the geometry. */
  readonly header: number;
  /** Operands. */
  readonly k: number;
  /** Dims other than the row's. */
  readonly outer: number;
}

/** Other dims a rank-generic row kernel takes (Note [Row kernels]). */
export const ROW_OUTER_MAX = 7;

/** Dim slots of the geometry: room for any rank up to the bound, else the exact count. */
function rowSlots(outer: number): number {
  return Math.max(outer, ROW_OUTER_MAX);
}

/** What a row kernel's source depends on of its `outer` (a cache key): 'any' up to ROW_OUTER_MAX. */
export function rowVariant(outer: number): string {
  return outer <= ROW_OUTER_MAX ? 'any' : String(outer);
}

export function rowWords(g: RowGeometry): number {
  const slots = rowSlots(g.outer);
  return g.header + 2 * g.k + 1 + slots + g.k * slots;
}

/** The params words: `header`, then the geometry of `operands` along `dim`. */
export function rowParams(header: readonly number[], operands: readonly TensorImpl[], dim: number): Uint32Array {
  const nd = operands[0].sizes.length;
  const outerDims: number[] = [];
  for (let d = 0; d < nd; d++) if (d !== dim) outerDims.push(d);
  const g: RowGeometry = { header: header.length, k: operands.length, outer: outerDims.length };
  const slots = rowSlots(g.outer);
  const w = new Uint32Array(Math.max(4, rowWords(g)));
  let i = 0;
  for (const h of header) w[i++] = h >>> 0;
  for (const t of operands) {
    w[i++] = t.storageOffset >>> 0;
    w[i++] = (nd === 0 ? 0 : t.strides[dim]) >>> 0;
  }
  w[i++] = outerDims.length;
  const sizes = i;
  outerDims.forEach((d, j) => (w[sizes + j] = operands[0].sizes[d]));
  operands.forEach((t, o) => outerDims.forEach((d, j) => (w[sizes + slots + o * slots + j] = t.strides[d] >>> 0)));
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
  const count = g.header + 2 * g.k;
  const sizes = count + 1;
  const slots = rowSlots(g.outer);
  if (g.outer <= ROW_OUTER_MAX) {
    const adds = Array.from({ length: g.k }, (_, i) => `base${i} += c * p(${sizes + slots + i * slots}u + d);`).join(' ');
    lines.push(`  for (var d = p(${count}u); d > 0u; ) { d--; let s = p(${sizes}u + d); let c = rrem % s; rrem = rrem / s; ${adds} }`);
  } else {
    for (let d = g.outer - 1; d >= 0; d--) {
      const adds = Array.from({ length: g.k }, (_, i) => `base${i} += c * p(${sizes + slots + i * slots + d}u);`).join(' ');
      lines.push(`  { let s = p(${sizes + d}u); let c = rrem % s; rrem = rrem / s; ${adds} }`);
    }
  }
  return lines.join('\n');
}

/** The flat id of a workgroup in a grid spread over x and y (launch.ts's `grid`). */
export const GROUP_ID = 'wid.x + wid.y * nwg.x';
