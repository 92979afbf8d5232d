/**
 * Note [The forward-AD sweep]
 * Forward-mode AD on the differentiable ops of the OpInfo table (autograd Note [JVPs from
 * backward formulas]), on the gradcheck samples (Note [OpInfo gradcheck]): the tangent forward
 * AD gives, J v along a fixed direction v, must match
 *   - on the CPU in float64 (test/forward-ad-ops.test.ts, every op, form and layout): central
 *     finite differences of the op along v, and <J v, u> = <v, J^T u> with the VJP the
 *     reverse engine gives (`forwardAdProblems`);
 *   - on a device (the WebGPU shards, test/ops-webgpu-suite.ts, one sample per op): the
 *     float32 tangent the CPU gives for the same inputs and direction cast to float32
 *     (`deviceTangentProblems`), which the float64 checks have validated, within the op's
 *     float32 tolerance with its atol scaled by the tangent's magnitude (a tangent sums
 *     products, as a gradient does: test/grads-webgpu.test.ts scales the same way).
 */
import * as torch from '@torch-ts/torch';
import type { DeviceLike, Tensor } from '@torch-ts/torch';
import { caseId, type GoldenCase } from './goldens';
import { DEFAULT_TOLERANCE } from './op-info/common';
import { gradcheckSamples, type GradcheckSample } from './op-info/gradcheck';
import type { OpInfo, Tolerance } from './op-info/types';

const { forwardAd: fa, grad } = torch.autograd;

/** A deterministic direction of `like`'s shape (float64, on the CPU). */
export const direction = (like: Tensor, seed: number): Tensor =>
  torch.arange(like.numel(), { dtype: 'float64' }).mul(1.37).add(seed).sin().reshape(like.shape);

/** The direction of input `i` (null where it does not require grad). */
const directions = (inputs: readonly Tensor[]): (Tensor | null)[] => inputs.map((x, i) => (x.requiresGrad ? direction(x, i + 0.3) : null));

/** |a - b| <= 1e-5 + 1e-3 |b| everywhere (gradcheck's tolerances), NaN matching NaN. */
function close(a: Tensor, b: Tensor): boolean {
  const y = b.contiguous().dataSync() as Float64Array;
  const xa = a.contiguous().dataSync() as Float64Array;
  return xa.length === y.length && xa.every((v, i) => (Number.isNaN(v) && Number.isNaN(y[i])) || Math.abs(v - y[i]) <= 1e-5 + 1e-3 * Math.abs(y[i]));
}

const asList = (r: Tensor | readonly Tensor[]) => (Array.isArray(r) ? [...r] : [r as Tensor]);

type Floating = 'float64' | 'float32';

/** Each output's tangent where it is of the sweep's floating dtype (zeros where it has none), null for the others. */
const tangentsOf = (outs: readonly Tensor[], dtype: Floating): (Tensor | null)[] =>
  outs.map((o) => (o.dtype === dtype ? (fa.unpackDual(o).tangent?.clone() ?? torch.zerosLike(o)) : null));

/** J v by forward AD. */
function tangents(fn: (...xs: Tensor[]) => Tensor | readonly Tensor[], primals: readonly Tensor[], vs: readonly (Tensor | null)[], dtype: Floating): (Tensor | null)[] {
  return fa.dualLevel(() => tangentsOf(asList(fn(...primals.map((x, i) => (vs[i] ? fa.makeDual(x, vs[i]!) : x)))), dtype));
}

/** The float64 CPU checks of one sample: J v against finite differences and against the VJP. */
export function forwardAdProblems(s: Pick<GradcheckSample, 'make'>): string[] {
  const problems: string[] = [];
  torch.tidy(() => {
    const { inputs, fn } = s.make();
    const diff = inputs.map((x) => x.requiresGrad);
    const vs = directions(inputs);
    const plain = inputs.map((x) => x.detach());
    const jv = tangents(fn, plain, vs, 'float64');
    // central differences along v
    const eps = 1e-6;
    const shifted = (sign: number) => asList(fn(...plain.map((x, i) => (vs[i] ? x.add(vs[i]!.mul(sign * eps)) : x))));
    const plus = shifted(1);
    const minus = shifted(-1);
    jv.forEach((t, k) => {
      if (!t) return;
      const fd = plus[k].sub(minus[k]).div(2 * eps);
      if (!close(t, fd)) {
        problems.push(`output ${k}: J v ${JSON.stringify(t.tolist())} but finite differences ${JSON.stringify(fd.tolist())}`);
      }
    });
    // <J v, u> = <v, J^T u>
    const outs = asList(fn(...inputs));
    const live = outs.map((o, k) => [o, k] as const).filter(([o]) => o.dtype === 'float64' && o.requiresGrad);
    if (live.length === 0) return;
    const us = live.map(([o], j) => direction(o, 2.1 + j));
    const vjp = grad(live.map(([o]) => o), inputs.filter((_, i) => diff[i]), us, { allowUnused: true });
    let lhs = 0;
    live.forEach(([, k], j) => {
      lhs += Number(jv[k]!.mul(us[j]).sum().item());
    });
    let rhs = 0;
    let m = 0;
    inputs.forEach((_, i) => {
      if (!diff[i]) return;
      const g = vjp[m++];
      if (g) rhs += Number(g.mul(vs[i]!).sum().item());
    });
    if (!(Math.abs(lhs - rhs) <= 1e-7 + 1e-7 * Math.abs(rhs)) && !(Number.isNaN(lhs) && Number.isNaN(rhs))) {
      problems.push(`<J v, u> = ${lhs} but <v, J^T u> = ${rhs}`);
    }
  });
  return problems;
}

/** The CPU sweep's samples: the real ones, one per op, form and layout (the in-place form contiguous only), none empty. */
export function forwardAdSamples(all: readonly GradcheckSample[]): GradcheckSample[] {
  const samples = all.filter((s) => !s.complex && !(s.form === 'inplace' && s.layout === 'strided'));
  return [...new Map(samples.filter((s) => !/empty/.test(s.caseId)).map((s) => [`${s.op.name} ${s.form} ${s.layout}`, s])).values()];
}

/**
 * A device mirror's sample of each op of `table`: the function form, contiguous, real, not
 * empty, and not `excluded` (`op/caseId` keys: samples the device cannot run), fewest input
 * elements first (on a software device the time goes with the size).
 */
export function forwardAdDeviceSamples(table: readonly OpInfo[], goldens: ReadonlyMap<string, readonly GoldenCase[]>, excluded: (id: string) => boolean): GradcheckSample[] {
  const byOp = new Map<string, { s: GradcheckSample; numel: number }>();
  const elements = new Map(
    [...goldens.entries()].flatMap(([name, cases]) =>
      cases.filter((c) => c.dtype === 'float64').map((c) => [`${name}/${caseId(c)}`, c.inputs.reduce((n, i) => n + ('shape' in i ? i.shape.reduce((a, b) => a * b, 1) : 0), 0)] as const),
    ),
  );
  for (const s of gradcheckSamples(table, goldens)) {
    if (s.complex || s.form !== 'function' || s.layout !== 'contiguous' || /empty/.test(s.caseId) || excluded(`${s.op.name}/${s.caseId}`)) continue;
    const numel = elements.get(`${s.op.name}/${s.caseId}`) ?? Number.POSITIVE_INFINITY;
    if (numel === 0) continue;
    const best = byOp.get(s.op.name);
    if (!best || numel < best.numel) byOp.set(s.op.name, { s, numel });
  }
  return [...byOp.values()].map((b) => b.s);
}

/** The float32 tangents of `s` on `device`, read back to the host (null for outputs without one). */
async function deviceTangents(s: GradcheckSample, device: DeviceLike): Promise<(Float32Array | null)[]> {
  return torch.tidyAsync(async () => {
    const { inputs, fn, fnAsync } = s.make();
    const vs = directions(inputs).map((v) => (v ? v.to('float32').to(device) : null));
    const primals = inputs.map((x) => (x.requiresGrad ? x.detach().to('float32') : x).to(device));
    let jv: (Tensor | null)[];
    if (fnAsync && device !== 'cpu') {
      // (an op whose result size depends on the data runs its async form where reads are async only)
      const level = fa.dualLevel();
      try {
        const outs = asList(await fnAsync(...primals.map((x, i) => (vs[i] ? fa.makeDual(x, vs[i]!) : x))));
        jv = tangentsOf(outs, 'float32');
      } finally {
        level[Symbol.dispose]();
      }
    } else {
      jv = tangents(fn, primals, vs, 'float32');
    }
    return Promise.all(jv.map(async (t) => (t ? Float32Array.from((await t.data()) as ArrayLike<number>) : null)));
  });
}

/**
 * The device mirror of one sample: forward AD's float32 tangents on `device` against the
 * CPU's for the same inputs and direction; empty when they agree within `op`'s float32
 * tolerance (atol scaled by the CPU tangent's largest magnitude, at least 1).
 */
export async function deviceTangentProblems(s: GradcheckSample, device: DeviceLike): Promise<string[]> {
  const cpu = await deviceTangents(s, 'cpu');
  const dev = await deviceTangents(s, device);
  const tol: Tolerance = s.op.tolerance?.float32 ?? DEFAULT_TOLERANCE.float32!;
  const problems: string[] = [];
  if (cpu.length !== dev.length) return [`${dev.length} outputs on ${String(device)}, ${cpu.length} on cpu`];
  cpu.forEach((a, k) => {
    const b = dev[k];
    if ((a === null) !== (b === null)) problems.push(`output ${k}: a tangent ${a === null ? 'only on ' + String(device) : 'only on cpu'}`);
    if (!a || !b) return;
    if (a.length !== b.length) {
      problems.push(`output ${k}: ${b.length} elements on ${String(device)}, ${a.length} on cpu`);
      return;
    }
    let scale = 1;
    for (const v of a) if (Number.isFinite(v)) scale = Math.max(scale, Math.abs(v));
    let bad = 0;
    a.forEach((x, j) => {
      const y = b[j];
      if (Object.is(x, y) || (Number.isNaN(x) && Number.isNaN(y))) return;
      if (Math.abs(x - y) <= tol.atol * scale + tol.rtol * Math.abs(x)) return;
      if (bad++ < 4) problems.push(`output ${k}[${j}]: ${String(device)} ${y}, cpu ${x}`);
    });
    if (bad > 4) problems.push(`output ${k}: ${bad - 4} more of ${a.length} elements differ (rtol ${tol.rtol}, atol ${tol.atol} x ${scale})`);
  });
  return problems;
}
