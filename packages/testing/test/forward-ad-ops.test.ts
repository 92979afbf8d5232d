/**
 * Forward-mode AD on every differentiable op of the OpInfo table (Note [The forward-AD
 * sweep] in src/forward-ad-sweep.ts; autograd Note [JVPs from backward formulas]): for one
 * float64 gradcheck sample per op and form (functional, in-place, and the strided layout of
 * each), the tangent forward AD gives, J v, matches central finite differences of the op
 * along v, and satisfies <J v, u> = <v, J^T u> with the VJP the reverse engine gives. (The
 * complex samples are left to the functional goldens: their real leaves go through
 * view_as_complex, checked there as a view.) The ops whose explicit linear-algebra formulas
 * are not derived from their backward (autograd Note [SVD and pinv JVPs]; det's singular
 * form, core Note [The determinant's derivative]; and masked_fill with a tensor value) get
 * every sample, complex128 ones included, and a few complex samples of their own: the SVD
 * with its pairs' phases fixed (so U and Vh are functions of A), eigvals (no OpInfo entry)
 * and det at exactly singular complex matrices. The WebGPU shards (test/ops-webgpu-suite.ts)
 * mirror the first check in float32, one sample per op, against the CPU's tangents.
 */
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { describe, expect, it } from 'vitest';
import { loadOpGoldens } from '../src/goldens';
import { OP_TABLE } from '../src/op-info';
import { gradcheckSamples, type GradcheckSample } from '../src/op-info/gradcheck';
import { forwardAdProblems as check, forwardAdSamples } from '../src/forward-ad-sweep';

const all = gradcheckSamples(OP_TABLE, loadOpGoldens());
/** One sample per op, form and layout. */
const chosen = forwardAdSamples(all);

/** The ops with explicit linear-algebra or tensor-value formulas: every contiguous sample, complex ones included. */
const EXPLICIT = new Set(['linalgSvd', 'svd', 'linalgPinv', 'pinverse', 'linalgDet', 'det', 'maskedFill']);
const explicit = all.filter((s) => EXPLICIT.has(s.op.name) && s.layout === 'contiguous' && !chosen.includes(s));

/** A float64 leaf [...shape, 2] for a complex128 matrix: sin(0.37 k^2 + 1.37 k + seed) (a plain sinusoid of k would make it rank 2). */
function pairsLeaf(shape: number[], seed: number): Tensor {
  const k = torch.arange(shape.reduce((a, b) => a * b, 2), { dtype: 'float64' });
  return k.mul(k).mul(0.37).add(k.mul(1.37)).add(seed).sin().reshape([...shape, 2]).requiresGrad_();
}

/**
 * Each pair (u_i, v_i) times the conjugate phase of u_i's entry of largest modulus, which
 * makes that entry real and positive: U and Vh are then functions of A (the phase is locally
 * constant in A nowhere else), as the goldens' sign_fix does for real pairs.
 */
function phaseFixed(U: Tensor, S: Tensor, Vh: Tensor): Tensor[] {
  const k = S.shape[S.dim() - 1];
  const Uk = U.narrow(-1, 0, k);
  const big = torch.gather(Uk, -2, torch.argmax(Uk.abs(), -2, true));
  const p = big.div(big.abs());
  return [Uk.mul(torch.conj(p)), S, Vh.narrow(-2, 0, k).mul(p.mT)];
}

/** Complex samples of the explicit formulas, through real leaves (as Note [OpInfo gradcheck]'s complex samples). */
const complexSamples: { label: string; make: GradcheckSample['make'] }[] = [
  ...(
    [
      [[3, 3], false],
      [[4, 2], true],
      [[2, 4], true],
      [[2, 3, 2], false],
    ] as const
  ).map(([shape, full]) => ({
    label: `linalgSvd complex128 [${shape}] full=${full}`,
    make: () => ({
      inputs: [pairsLeaf([...shape], 0.1)],
      fn: (x: Tensor) => phaseFixed(...(torch.linalg.svd(torch.viewAsComplex(x), { fullMatrices: full }) as unknown as [Tensor, Tensor, Tensor])).map((t) => (t.isComplex() ? torch.viewAsReal(t) : t)),
    }),
  })),
  ...(
    [
      [[4, 2], 0.3],
      [[2, 2, 3], 0.6],
    ] as const
  ).map(([shape, seed]) => ({
    label: `linalgPinv complex128 [${shape}]`,
    make: () => ({ inputs: [pairsLeaf([...shape], seed)], fn: (x: Tensor) => torch.viewAsReal(torch.linalg.pinv(torch.viewAsComplex(x))) }),
  })),
  // eigvals of a dual tensor (the eigenvectors computed for the tangent only)
  {
    label: 'linalgEigvals float64 [3,3]',
    make: () => ({ inputs: [pairsLeaf([3, 3], 0.5).select(-1, 0).detach().requiresGrad_()], fn: (x: Tensor) => torch.viewAsReal(torch.linalg.eigvals(x)) }),
  },
  {
    label: 'linalgEigvals complex128 [3,3]',
    make: () => ({ inputs: [pairsLeaf([3, 3], 0.9)], fn: (x: Tensor) => torch.viewAsReal(torch.linalg.eigvals(torch.viewAsComplex(x))) }),
  },
  // exactly singular (rank 2 and rank 1 of 3): det stays smooth, its gradient the cofactors
  ...[
    [1, 2, 2, -1, 0, 1, 2, 4, 4, -2, 0, 2, 1, 0, 0, 3, -1, 1],
    [1, 1, 2, 0, 0, -1, 2, 2, 4, 0, 0, -2, -1, -1, -2, 0, 0, 1],
  ].map((v, r) => ({
    label: `linalgDet complex128 singular rank ${2 - r}`,
    make: () => ({
      inputs: [torch.tensor(v, { dtype: 'float64' }).reshape([3, 3, 2]).requiresGrad_()],
      fn: (x: Tensor) => torch.viewAsReal(torch.linalg.det(torch.viewAsComplex(x))),
    }),
  })),
];

// Each test walks hundreds of samples: about 20 s alone, past a minute on the loaded CI
// machine, so their limit only catches a hang (Note [Timeouts only catch hangs]).
describe('forward AD on the OpInfo table (float64, CPU)', { timeout: 600_000 }, () => {
  it(`J v matches finite differences and the VJP for ${chosen.length} samples`, () => {
    const failures: string[] = [];
    for (const s of chosen) {
      try {
        for (const p of check(s)) failures.push(`${s.op.name} ${s.caseId} (${s.form}, ${s.layout}): ${p}`);
      } catch (e) {
        failures.push(`${s.op.name} ${s.caseId} (${s.form}, ${s.layout}): threw ${(e as Error).message.split('\n')[0]}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it(`J v matches finite differences and the VJP for the explicit linalg formulas: ${explicit.length} OpInfo samples (complex128 too) and ${complexSamples.length} complex ones`, () => {
    const failures: string[] = [];
    for (const s of [...explicit.map((x) => ({ label: `${x.op.name} ${x.caseId} (${x.form})`, make: x.make })), ...complexSamples]) {
      try {
        for (const p of check(s)) failures.push(`${s.label}: ${p}`);
      } catch (e) {
        failures.push(`${s.label}: threw ${(e as Error).message.split('\n')[0]}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
