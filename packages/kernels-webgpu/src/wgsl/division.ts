/**
 * Note [Division on WebGPU]
 * WGSL lets `a / b` on f32 be off by 2.5 ulp, and real drivers use that: NVIDIA's computes
 * a * (1 / b), which is an ulp off now and then (enough to move a histc bin) and gives 0 for
 * |b| > 2^126, where 1 / b is subnormal and flushed (3e38 / 3e38 = 0, so logit, hypot,
 * atan2 and the incomplete gamma function go wrong at large arguments). SwiftShader divides
 * as IEEE does. Kernels whose quotient a user sees call `div_f` / `div_f4` (the prelude
 * holds them as plain `/`); when the device's division is found inexact at init
 * (`probeDivision`: a probe kernel against JavaScript's quotients), every kernel source is
 * compiled with corrected versions instead: |b| > 2^126 is scaled by 1/4 first, and, where
 * the probe finds WGSL's fma fused, one Newton step on its exact remainder rounds the
 * quotient as IEEE does (bar rare double-rounding ties). An unfused fma would make that step
 * move correct quotients (seen on SwiftShader when forced), so without one only the scaling
 * is done. A device whose division is exact keeps the plain one.
 */
import { BufferUsage, MapMode } from '../runtime/flags';

export const PLAIN_DIVISION = /* wgsl */ `fn div_f(a: f32, b: f32) -> f32 { return a / b; }
fn div_f4(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> { return a / b; }`;

const CORRECTED_DIVISION = /* wgsl */ `fn div_f(a: f32, b: f32) -> f32 {
  let s = select(1.0, 0.25, abs(b) > 8.507059e37);
  let bs = b * s;
  let as_ = a * s;
  let q = as_ / bs;
  let u = bitcast<u32>(q) & 0x7fffffffu;
  if (u == 0u || u >= 0x7f800000u) { return q; }
  return fma(fma(-q, bs, as_), 1.0 / bs, q);
}
fn div_f4(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
  return vec4<f32>(div_f(a.x, b.x), div_f(a.y, b.y), div_f(a.z, b.z), div_f(a.w, b.w));
}`;

const SCALED_DIVISION = /* wgsl */ `fn div_f(a: f32, b: f32) -> f32 {
  let s = select(1.0, 0.25, abs(b) > 8.507059e37);
  return (a * s) / (b * s);
}
fn div_f4(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
  let s = select(vec4<f32>(1.0), vec4<f32>(0.25), abs(b) > vec4<f32>(8.507059e37));
  return (a * s) / (b * s);
}`;

/** A kernel source as the device should compile it (Note [Division on WebGPU]). */
export function withDivision(source: string, probe: DivisionProbe): string {
  if (probe.exact) return source;
  return source.replace(PLAIN_DIVISION, probe.fusedFma ? CORRECTED_DIVISION : SCALED_DIVISION);
}

/** Quotients IEEE division rounds one way and a * (1 / b) another, or that underflow in 1 / b. */
const PROBES: readonly (readonly [number, number])[] = [
  [3e38, 3e38], [-3e38, 1e38], [1, 3], [7, 10], [2, 3], [1, 10], [5, 7], [0.3, 0.1],
  [1e-3, 3], [100, 7], [22, 7], [1, 49], [1, 98], [9, 11], [123456, 789], [0.1, 0.3],
];

/** What the probe kernel found (Note [Division on WebGPU]). */
export interface DivisionProbe {
  /** Whether f32 `a / b` is IEEE's on a few hard quotients. */
  readonly exact: boolean;
  /** Whether WGSL's fma rounds once (the Newton step needs it). */
  readonly fusedFma: boolean;
}

export async function probeDivision(device: GPUDevice): Promise<DivisionProbe> {
  const n = PROBES.length;
  // (the quotients, then a = b = 1 + 2^-12 for fma(a, b, -a b): 2^-24 when fused, 0 when not)
  const input = new Float32Array(2 * n + 2);
  PROBES.forEach(([a, b], i) => {
    input[2 * i] = a;
    input[2 * i + 1] = b;
  });
  input[2 * n] = input[2 * n + 1] = 1 + 2 ** -12;
  const code = /* wgsl */ `
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@compute @workgroup_size(${n}) fn main(@builtin(local_invocation_index) i: u32) {
  y[i] = x[2u * i] / x[2u * i + 1u];
  if (i == 0u) { let a = x[${2 * n}]; let b = x[${2 * n + 1}]; y[${n}] = fma(a, b, -(a * b)); }
}`;
  const got = await runOneWorkgroup(device, code, input, n + 1);
  return {
    exact: PROBES.every((_, i) => Object.is(got[i], Math.fround(input[2 * i] / input[2 * i + 1]))),
    fusedFma: got[n] === 2 ** -24,
  };
}

/**
 * Runs a one-workgroup kernel outside the backend's queue (it runs before the queue exists):
 * binding 0 the f32 `input`, binding 1 `outWords` f32 results, read back.
 */
export async function runOneWorkgroup(device: GPUDevice, code: string, input: Float32Array<ArrayBuffer>, outWords: number): Promise<Float32Array> {
  const size = 4 * outWords;
  const inBuf = device.createBuffer({ size: input.byteLength, usage: BufferUsage.STORAGE | BufferUsage.COPY_DST });
  const outBuf = device.createBuffer({ size, usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC });
  const readBuf = device.createBuffer({ size, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  try {
    device.queue.writeBuffer(inBuf, 0, input);
    const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: 'main' } });
    const group = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: inBuf } },
        { binding: 1, resource: { buffer: outBuf } },
      ],
    });
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(1);
    pass.end();
    enc.copyBufferToBuffer(outBuf, 0, readBuf, 0, size);
    device.queue.submit([enc.finish()]);
    await readBuf.mapAsync(MapMode.READ);
    const got = new Float32Array(readBuf.getMappedRange().slice(0));
    readBuf.unmap();
    return got;
  } finally {
    inBuf.destroy();
    outBuf.destroy();
    readBuf.destroy();
  }
}
