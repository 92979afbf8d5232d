import { deviceErrorWgsl } from '../runtime/device-errors';
import { WORKGROUP } from './pointwise';
import { I64_HELPERS } from './reduce64';

/**
 * Note [Indexed access kernels]
 * One generated kernel runs every gather and scatter of core's IndexedAccess (Note [Indexed
 * access]): invocation `idx` is one position of the iteration shape N (row-major). Operands:
 *   0  T    the indexed tensor (`access.data`, strides over N, 0 where an index stands in)
 *   1  O    gather: `out`; scatter: `src` (strides over N)
 *   2+ I_k  the int64 index tensors (strides over N)
 * Every binding is raw u32 words, whatever the dtype: a gather or a 'set' scatter moves
 * element bits by width (1, 2, 4 or 8 bytes), so it serves every dtype; the arithmetic
 * scatter modes combine values of one kind (f32, i32, u8, bool, and int8/int16 sign-extended
 * to i32: Note [int8 and int16 on WebGPU]) with an atomic compare-exchange loop on the
 * element's word (i32 'add' with atomicAdd), so duplicate
 * positions combine correctly whatever the order (float sums may round differently from
 * CPU's row-major order, as on CUDA). int64 has 'add' only: atomicAdd on the low word, then
 * atomicAdd of the high word plus that addition's carry on the high word (exact modulo 2^64
 * whatever the interleaving: the carries add up to the low words' overflow); its other
 * modes would need a 64-bit compare-exchange, which WGSL lacks. A 'set' scatter with
 * duplicate positions stores one of the values, unspecified which (as on CUDA; CPU's last
 * write wins). A byte or half element is written with atomics on its
 * word (Note [WebGPU dtypes]). Geometry is uniform data (Note [Pointwise kernel layout]):
 *   [n, offT, offO, offI_0..K-1, N sizes[nd], strT[nd], strO[nd], strI_k[nd].., size_k[K],
 *    stride_k[K], dim_k[K], alpha, skip, errCode, alphaHi]
 * An index is its int64's low word; a high word that is not the low word's sign extension,
 * or a value outside [-size, size) ('wrap') / [0, size) ('nowrap'), reports a device error
 * (Note [Device-side errors]) with the value, dim and size, and the position is skipped.
 * `skip` (embedding's padding_idx): a position whose first index equals the `skip` word is
 * skipped.
 */
export type AccessMode = 'gather' | 'set' | 'add' | 'mul' | 'amax' | 'amin';
export type CombineKind = 'f32' | 'i32' | 'u8' | 'bool' | 'i64' | 'i8' | 'i16';

export interface AccessSpec {
  readonly mode: AccessMode;
  /** Element width in bytes (raw moves). */
  readonly width: 1 | 2 | 4 | 8;
  /** The value kind of the arithmetic modes. */
  readonly kind: CombineKind | null;
  readonly ndim: number;
  readonly nidx: number;
  readonly wrap: boolean;
  readonly skip: boolean;
  /** Binding number of each operand [T, O, I_0..]; operands of one storage block share one. */
  readonly binding: readonly number[];
}

export function accessWords(ndim: number, nidx: number): number {
  return 3 + nidx + (3 + nidx) * ndim + 3 * nidx + 4;
}

export function accessSource(s: AccessSpec): string {
  const { ndim: nd, nidx: K, binding } = s;
  const nb = Math.max(...binding) + 1;
  const written = s.mode === 'gather' ? 1 : 0;
  const wb = binding[written];
  const atomic = s.width < 4 || (s.mode !== 'gather' && s.mode !== 'set');
  const words = accessWords(nd, K);
  const S = 3 + K;
  const A = S + (3 + K) * nd;
  const L: string[] = [];
  for (let b = 0; b < nb; b++) {
    L.push(`@group(0) @binding(${b}) var<storage, read_write> b${b}: array<${b === wb && atomic ? 'atomic<u32>' : 'u32'}>;`);
  }
  L.push(deviceErrorWgsl(nb));
  L.push(`struct Params { w: array<vec4<u32>, ${Math.ceil(words / 4)}> };`);
  L.push(`@group(0) @binding(${nb + 1}) var<uniform> P: Params;`);
  L.push('fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }');
  if (s.kind === 'i64') L.push(I64_HELPERS);
  if (s.kind === 'f32' && (s.mode === 'amax' || s.mode === 'amin')) {
    L.push('fn nan_ix(x: f32) -> bool { let u = bitcast<u32>(x); return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu) != 0u; }');
  }
  /** The u32 word `e` of operand j's binding. */
  const word = (j: number, e: string): string => (binding[j] === wb && atomic ? `atomicLoad(&b${wb}[${e}])` : `b${binding[j]}[${e}]`);
  const loadRaw = (j: number, o: string): string => {
    switch (s.width) {
      case 4:
        return word(j, o);
      case 8:
        return `vec2<u32>(${word(j, `2u * ${o}`)}, ${word(j, `2u * ${o} + 1u`)})`;
      case 2:
        return `((${word(j, `${o} >> 1u`)} >> ((${o} & 1u) * 16u)) & 65535u)`;
      case 1:
        return `((${word(j, `${o} >> 2u`)} >> ((${o} & 3u) * 8u)) & 255u)`;
    }
  };
  const storeRaw = (o: string, v: string): string => {
    const b = `b${wb}`;
    switch (s.width) {
      case 4:
        return atomic ? `atomicStore(&${b}[${o}], ${v});` : `${b}[${o}] = ${v};`;
      case 8:
        return atomic
          ? `{ let v2 = ${v}; atomicStore(&${b}[2u * ${o}], v2.x); atomicStore(&${b}[2u * ${o} + 1u], v2.y); }`
          : `{ let v2 = ${v}; ${b}[2u * ${o}] = v2.x; ${b}[2u * ${o} + 1u] = v2.y; }`;
      case 2:
        return `{ let sh = (${o} & 1u) * 16u; atomicAnd(&${b}[${o} >> 1u], ~(65535u << sh)); atomicOr(&${b}[${o} >> 1u], ((${v}) & 65535u) << sh); }`;
      case 1:
        return `{ let sh = (${o} & 3u) * 8u; atomicAnd(&${b}[${o} >> 2u], ~(255u << sh)); atomicOr(&${b}[${o} >> 2u], ((${v}) & 255u) << sh); }`;
    }
  };

  L.push(`@compute @workgroup_size(${WORKGROUP})`);
  L.push('fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {');
  L.push(`  let idx = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`);
  L.push('  if (idx >= p(0u)) { return; }');
  L.push('  var rem = idx;');
  L.push('  var oT = p(1u);');
  L.push('  var oO = p(2u);');
  for (let k = 0; k < K; k++) L.push(`  var oI${k} = p(${3 + k}u);`);
  for (let d = nd - 1; d >= 0; d--) {
    L.push(`  { let c = rem % p(${S + d}u); rem = rem / p(${S + d}u);`);
    L.push(`    oT += c * p(${S + nd + d}u); oO += c * p(${S + 2 * nd + d}u);`);
    for (let k = 0; k < K; k++) L.push(`    oI${k} += c * p(${S + (3 + k) * nd + d}u);`);
    L.push('  }');
  }
  for (let k = 0; k < K; k++) {
    const j = 2 + k;
    L.push('  {');
    L.push(`    let lo = ${word(j, `2u * oI${k}`)};`);
    L.push(`    let hi = ${word(j, `2u * oI${k} + 1u`)};`);
    L.push('    let v = bitcast<i32>(lo);');
    L.push(`    let sz = bitcast<i32>(p(${A + k}u));`);
    L.push(`    if (hi != bitcast<u32>(v >> 31u) || v < ${s.wrap ? '-sz' : '0'} || v >= sz) {`);
    L.push(`      report_error(p(${A + 3 * K + 2}u), lo, hi, p(${A + 2 * K + k}u), p(${A + k}u));`);
    L.push('      return;');
    L.push('    }');
    if (s.skip && k === 0) L.push(`    if (v == bitcast<i32>(p(${A + 3 * K + 1}u))) { return; }`);
    L.push(`    oT += u32(select(v, v + sz, v < 0)) * p(${A + K + k}u);`);
    L.push('  }');
  }
  const alpha = `p(${A + 3 * K}u)`;
  if (s.mode === 'gather') {
    L.push(`  ${storeRaw('oO', loadRaw(0, 'oT'))}`);
  } else if (s.mode === 'set') {
    L.push(`  ${storeRaw('oT', loadRaw(1, 'oO'))}`);
  } else if (s.kind === 'i64') {
    if (s.mode !== 'add') throw new Error(`accessSource: int64 ${s.mode} has no kernel`);
    L.push(`  let d = rd_mul64(vec2<u32>(${alpha}, p(${A + 3 * K + 3}u)), ${loadRaw(1, 'oO')});`);
    L.push(`  let old = atomicAdd(&b${wb}[2u * oT], d.x);`);
    L.push(`  atomicAdd(&b${wb}[2u * oT + 1u], d.y + select(0u, 1u, old + d.x < old));`);
  } else if (s.kind === 'i32' && s.mode === 'add') {
    L.push(`  atomicAdd(&b${wb}[oT], bitcast<u32>(bitcast<i32>(${alpha}) * bitcast<i32>(${loadRaw(1, 'oO')})));`);
  } else {
    const k = s.kind!;
    const byte = k === 'u8' || k === 'bool' || k === 'i8';
    // int8/int16 (Note [int8 and int16 on WebGPU]): sign-extended to i32 to combine, the low
    // bits put back into their word
    const narrow = k === 'i8' || k === 'i16';
    const bits = k === 'i16' ? 16 : 8;
    const mask = k === 'i16' ? '65535u' : '255u';
    L.push(`  let val = ${loadRaw(1, 'oO')};`);
    L.push(byte ? '  let w = oT >> 2u; let sh = (oT & 3u) * 8u;' : k === 'i16' ? '  let w = oT >> 1u; let sh = (oT & 1u) * 16u;' : '  let w = oT;');
    const extract =
      k === 'f32'
        ? 'bitcast<f32>(old)'
        : k === 'i32'
          ? 'bitcast<i32>(old)'
          : narrow
            ? `(bitcast<i32>(old << (${32 - bits}u - sh)) >> ${32 - bits}u)`
            : '((old >> sh) & 255u)';
    const v = k === 'f32' ? 'bitcast<f32>(val)' : k === 'i32' ? 'bitcast<i32>(val)' : narrow ? `(bitcast<i32>(val << ${32 - bits}u) >> ${32 - bits}u)` : 'val';
    const insert = (nv: string) =>
      k === 'f32' || k === 'i32'
        ? `bitcast<u32>(${nv})`
        : narrow
          ? `((old & ~(${mask} << sh)) | ((bitcast<u32>(${nv}) & ${mask}) << sh))`
          : `((old & ~(255u << sh)) | ((${nv} & 255u) << sh))`;
    let combine: string;
    switch (s.mode) {
      case 'add':
        combine =
          k === 'f32'
            ? `cur + bitcast<f32>(${alpha}) * v`
            : k === 'i32' || narrow
              ? `cur + bitcast<i32>(${alpha}) * v`
              : k === 'u8'
                ? `cur + ${alpha} * v`
                : 'select(0u, 1u, cur != 0u || v != 0u)';
        break;
      case 'mul':
        combine = k === 'bool' ? 'select(0u, 1u, cur != 0u && v != 0u)' : 'cur * v';
        break;
      case 'amax':
      case 'amin': {
        const f = s.mode === 'amax' ? 'max' : 'min';
        combine = k === 'f32' ? `select(select(${f}(cur, v), v, nan_ix(v)), cur, nan_ix(cur))` : `${f}(cur, v)`;
        break;
      }
    }
    L.push(`  let v = ${v};`);
    L.push(`  var old = atomicLoad(&b${wb}[w]);`);
    L.push('  loop {');
    L.push(`    let cur = ${extract};`);
    L.push(`    let r = atomicCompareExchangeWeak(&b${wb}[w], old, ${insert(`(${combine})`)});`);
    L.push('    if (r.exchanged) { break; }');
    L.push('    old = r.old_value;');
    L.push('  }');
  }
  L.push('}');
  return L.join('\n');
}
