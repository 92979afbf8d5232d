import { header } from './linalg';
import { rootOfUnity } from './fft-plans';

/**
 * The WGSL of the FFT kernels (Note [WebGPU FFT: Stockham passes, Bluestein for large
 * primes], fft.ts): a pass kernel per radix (2, 3, 4, 5, 7: the butterfly unrolled, in
 * registers), the one-dispatch workgroup-memory kernel (a stage function per radix, picked
 * by a switch on the stage's radix) and Bluestein's pointwise kernel; seven sources in all,
 * each compiled once. Pass, stride, direction and layout are parameters, so a new length
 * compiles nothing.
 *
 * Layouts: a "line" is one transform's n complex values; line `l` of a tensor laid out as
 * [outer, len, inner, 2] has element j at base + (((l / inner) * len + j) * inner + l % inner) * 2
 * (floats). Scratch tensors are [lines, len, 2] (inner 1).
 */

/** Invocations of a pass workgroup, and of the one-dispatch (workgroup memory) kernel. */
export const PASS_WG = 64;
export const SHARED_WG = 256;
/** The longest line the one-dispatch kernel takes: two ping-pong arrays of it fill 16 KiB. */
export const SHARED_MAX = 1024;
/** Stages the one-dispatch kernel's parameters have room for (<= 6 for n <= 1024 by fft.ts's radix order). */
export const SHARED_STAGES = 8;
/** Parameter words of every FFT kernel (a multiple of 4). */
export const FFT_WORDS = 24;

const COMMON = [
  'fn at(base: u32, len: u32, inner: u32, l: u32, j: u32) -> u32 {',
  '  return base + (((l / inner) * len + j) * inner + l % inner) * 2u;',
  '}',
  'fn cmul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> { return vec2<f32>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }',
  // the table holds exp(-2 pi i k / n); the inverse transform reads its conjugate
  'fn twid(k: u32, inv: bool) -> vec2<f32> {',
  '  let w = tw[k];',
  '  if (inv) { return vec2<f32>(w.x, -w.y); }',
  '  return w;',
  '}',
  // x times table entry e; entry 0 is 1 and skipped (so an inf stays an inf, as with no twiddle)
  'fn tmul(x: vec2<f32>, e: u32, inv: bool) -> vec2<f32> {',
  '  if (e == 0u) { return x; }',
  '  return cmul(x, twid(e, inv));',
  '}',
];

/** The radices the kernels have butterflies for (fft.ts's `radices` picks from them). */
export const RADICES = [2, 3, 4, 5, 7] as const;

const seq = (n: number) => Array.from({ length: n }, (_, i) => i);

/** A float64 constant as a WGSL literal (17 significant digits: the f32 it rounds to is the nearest). */
const literal = (v: number) => v.toPrecision(17);

/**
 * Statements that define y0..y{R-1}, the length-R DFT of x0..x{R-1} (`inv` in scope: the
 * sign). Unrolled, so every value stays in registers (no dynamically indexed array). Radix 2
 * and 4 need no multiplication; 3, 5 and 7 multiply by w_R^e, constants computed here in
 * float64 (Note [WebGPU FFT tables]: never WGSL's sin/cos).
 */
function dftStatements(R: number): string[] {
  if (R === 2) return ['let y0 = x0 + x1;', 'let y1 = x0 - x1;'];
  if (R === 4) {
    return [
      'let a = x0 + x2;',
      'let b = x0 - x2;',
      'let c = x1 + x3;',
      'let e = x1 - x3;',
      // w_4 = -i forward, +i inverse: -i (x + iy) = y - ix
      'let d = select(vec2<f32>(e.y, -e.x), vec2<f32>(-e.y, e.x), inv);',
      'let y0 = a + c;',
      'let y1 = b + d;',
      'let y2 = a - c;',
      'let y3 = b - d;',
    ];
  }
  // exp(s 2 pi i e / R): s = -1 forward, +1 inverse
  const out = ['let s = select(-1.0, 1.0, inv);'];
  for (let q = 0; q < R; q++) {
    const terms = seq(R).map((r) => {
      const e = (r * q) % R;
      if (e === 0) return `x${r}`;
      const [c, minusSin] = rootOfUnity(e, R);
      return `cmul(x${r}, vec2<f32>(${literal(c)}, s * ${literal(-minusSin)}))`;
    });
    out.push(`let y${q} = ${terms.join(' + ')};`);
  }
  return out;
}

/** Loads x0..x{R-1} with `load(index)` (an expression of r's index), twiddled by w_n^(r k ts). */
function loads(R: number, load: (index: string) => string, j: string): string[] {
  return seq(R).map((r) => (r === 0 ? `let x0 = ${load(j)};` : `let x${r} = tmul(${load(`${j} + ${r}u * M`)}, k * ${r}u * ts, inv);`));
}

const BINDINGS = ['src: array<f32>', 'dst: array<f32>', 'tw: array<vec2<f32>>'];

/**
 * One Stockham pass of radix R over every line (Govindaraju et al. 2008, mixed radix): the
 * invocation for (line, j), j < n / R, reads x[j + r n/R] (r < R), multiplies by the twiddles
 * w_n^(r (j mod Ns) n/(Ns R)), takes the length-R DFT and writes it to
 * (j / Ns) Ns R + (j mod Ns) + q Ns (q < R), Ns the product of the earlier radices. One
 * source per radix (the butterfly unrolled).
 * Words: 0 invocations (lines * n/R), 1 n, 2 R, 3 Ns, 4 n/R, 5 src base, 6 src len, 7 src
 * inner, 8 dst base, 9 dst len, 10 dst inner, 11 inverse, 12 scale (f32 bits), 13 lines,
 * 14 whether the line index runs fastest (inner > 1: neighbours in memory are neighbouring lines).
 */
function passSource(R: number): string {
  return [
    ...header(BINDINGS, FFT_WORDS),
    ...COMMON,
    'fn ldg(l: u32, j: u32) -> vec2<f32> {',
    '  let a = at(p(5u), p(6u), p(7u), l, j);',
    '  return vec2<f32>(src[a], src[a + 1u]);',
    '}',
    'fn stg(l: u32, j: u32, y: vec2<f32>) {',
    '  let a = at(p(8u), p(9u), p(10u), l, j);',
    '  dst[a] = y.x;',
    '  dst[a + 1u] = y.y;',
    '}',
    `@compute @workgroup_size(${PASS_WG})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let t = gid.x + gid.y * nwg.x * ${PASS_WG}u;`,
    '  if (t >= p(0u)) { return; }',
    '  let n = p(1u);',
    '  let Ns = p(3u);',
    '  let M = p(4u);',
    '  let inv = p(11u) != 0u;',
    '  var l = t / M;',
    '  var j = t % M;',
    '  if (p(14u) != 0u) { l = t % p(13u); j = t / p(13u); }',
    '  let k = j % Ns;',
    `  let ts = n / (Ns * ${R}u);`,
    ...loads(R, (i) => `ldg(l, ${i})`, 'j').map((x) => `  ${x}`),
    ...dftStatements(R).map((x) => `  ${x}`),
    `  let base = (j / Ns) * Ns * ${R}u + k;`,
    '  let sc = bitcast<f32>(p(12u));',
    ...seq(R).map((q) => `  stg(l, base + ${q}u * Ns, y${q} * sc);`),
    '}',
  ].join('\n');
}

/** The pass kernel of each radix. */
export const FFT_PASS: Readonly<Record<number, string>> = Object.fromEntries(RADICES.map((r) => [r, passSource(r)]));

/** The workgroup-memory stage of radix R for one (line, j): from one array into the other. */
function stageFunction(R: number): string[] {
  return [
    `fn stage${R}(second: bool, lb: u32, j: u32, Ns: u32, M: u32, ts: u32, inv: bool) {`,
    '  let k = j % Ns;',
    ...loads(R, (i) => `wld(second, lb + ${i})`, 'j').map((x) => `  ${x}`),
    ...dftStatements(R).map((x) => `  ${x}`),
    `  let base = lb + (j / Ns) * Ns * ${R}u + k;`,
    ...seq(R).map((q) => `  wst(!second, base + ${q}u * Ns, y${q});`),
    '}',
  ];
}

/**
 * Every pass of lines of length n <= SHARED_MAX in one dispatch: a workgroup takes L =
 * floor(SHARED_MAX / n) lines into workgroup memory, runs the Stockham passes between two
 * workgroup arrays (a barrier between passes), and writes the result, scaled.
 * Loads and stores run over the workgroup's lines with the line index fastest when word 20
 * says so (inner > 1: there neighbouring lines are neighbours in memory), else along lines.
 * Words: 0 lines, 1 n, 2 L, 3 stages, 4 inverse, 5 scale (f32 bits), 6 src base, 7 src len,
 * 8 src inner, 9 dst base, 10 dst len, 11 dst inner, 12..19 the radices, 20 line index fastest.
 */
export const FFT_SHARED = [
  ...header(BINDINGS, FFT_WORDS),
  ...COMMON,
  `var<workgroup> wa: array<vec2<f32>, ${SHARED_MAX}>;`,
  `var<workgroup> wb: array<vec2<f32>, ${SHARED_MAX}>;`,
  'fn wld(second: bool, i: u32) -> vec2<f32> {',
  '  if (second) { return wb[i]; }',
  '  return wa[i];',
  '}',
  'fn wst(second: bool, i: u32, x: vec2<f32>) {',
  '  if (second) { wb[i] = x; } else { wa[i] = x; }',
  '}',
  // element e of the workgroup's `lines` lines of length n as (line, j)
  'fn split(e: u32, n: u32, lines: u32) -> vec2<u32> {',
  '  if (p(20u) != 0u) { return vec2<u32>(e % lines, e / lines); }',
  '  return vec2<u32>(e / n, e % n);',
  '}',
  ...RADICES.flatMap(stageFunction),
  `@compute @workgroup_size(${SHARED_WG})`,
  'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {',
  '  let lines = p(0u);',
  '  let n = p(1u);',
  '  let line0 = (wid.x + wid.y * nwg.x) * p(2u);',
  '  if (line0 >= lines) { return; }',
  '  let total = min(p(2u), lines - line0) * n;',
  '  let inv = p(4u) != 0u;',
  `  for (var e = lid; e < total; e += ${SHARED_WG}u) {`,
  '    let lj = split(e, n, total / n);',
  '    let a = at(p(6u), p(7u), p(8u), line0 + lj.x, lj.y);',
  '    wa[lj.x * n + lj.y] = vec2<f32>(src[a], src[a + 1u]);',
  '  }',
  '  workgroupBarrier();',
  '  var second = false;',
  '  var Ns = 1u;',
  '  for (var s = 0u; s < p(3u); s++) {',
  '    let R = p(12u + s);',
  '    let M = n / R;',
  '    let ts = n / (Ns * R);',
  '    let count = (total / n) * M;',
  `    for (var t = lid; t < count; t += ${SHARED_WG}u) {`,
  '      let lb = (t / M) * n;',
  '      let j = t % M;',
  '      switch R {',
  ...RADICES.map((r) => `        case ${r}u: { stage${r}(second, lb, j, Ns, M, ts, inv); }`),
  '        default: {}',
  '      }',
  '    }',
  '    second = !second;',
  '    Ns = Ns * R;',
  '    workgroupBarrier();',
  '  }',
  '  let sc = bitcast<f32>(p(5u));',
  `  for (var e = lid; e < total; e += ${SHARED_WG}u) {`,
  '    let lj = split(e, n, total / n);',
  '    let a = at(p(9u), p(10u), p(11u), line0 + lj.x, lj.y);',
  '    let y = wld(second, lj.x * n + lj.y) * sc;',
  '    dst[a] = y.x;',
  '    dst[a + 1u] = y.y;',
  '  }',
  '}',
].join('\n');

/**
 * Bluestein's pointwise steps; `tw` is the step's table. Mode 0: dst[l, j] = src[l, j] c[j]
 * for j < n, 0 for n <= j < m (c the chirp, conjugated for the inverse); mode 1: dst[l, j] =
 * src[l, j] B[j] (the filter's DFT, already of the direction and divided by m); mode 2:
 * dst[l, k] = scale c[k] src[l, k] for k < n.
 * Words: 0 invocations, 1 mode, 2 n, 3 m, 4 inverse, 5 scale (f32 bits), 6 src base, 7 src
 * len, 8 src inner, 9 dst base, 10 dst len, 11 dst inner, 12 the length each line runs over (m or n).
 */
export const FFT_BLUESTEIN = [
  ...header(BINDINGS, FFT_WORDS),
  ...COMMON,
  `@compute @workgroup_size(${PASS_WG})`,
  'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
  `  let t = gid.x + gid.y * nwg.x * ${PASS_WG}u;`,
  '  if (t >= p(0u)) { return; }',
  '  let mode = p(1u);',
  '  let n = p(2u);',
  '  let inv = p(4u) != 0u;',
  '  let l = t / p(12u);',
  '  let j = t % p(12u);',
  '  var y = vec2<f32>(0.0, 0.0);',
  '  if (mode == 1u) {',
  '    let a = at(p(6u), p(7u), p(8u), l, j);',
  '    y = cmul(vec2<f32>(src[a], src[a + 1u]), tw[j]);',
  '  } else if (j < n) {',
  '    let a = at(p(6u), p(7u), p(8u), l, j);',
  '    y = cmul(vec2<f32>(src[a], src[a + 1u]), twid(j, inv));',
  '    if (mode == 2u) { y = y * bitcast<f32>(p(5u)); }',
  '  }',
  '  let d = at(p(9u), p(10u), p(11u), l, j);',
  '  dst[d] = y.x;',
  '  dst[d + 1u] = y.y;',
  '}',
].join('\n');
