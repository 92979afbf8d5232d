import type { BackendImplTable, BackendImpls } from '@torch-ts/core';
import { matmulImpls } from './kernels/matmul';
import { randomImpls } from './kernels/random';
import { convImpls } from './kernels/conv';
import { poolingImpls } from './kernels/pooling';
import { resampleImpls } from './kernels/resample';
import { binaryImpls, copy, fill, scalarImpls, unaryImpls } from './kernels/pointwise';
import { argReduceImpls, reduceImpls } from './kernels/reduce';
import { statsImpls } from './kernels/stats';
import { normalizationImpls } from './kernels/normalization';
import { joinImpls, reorderImpls } from './kernels/join';
import { scanImpls } from './kernels/scan';
import { selectImpls, sortImpls } from './kernels/sort';
import { indexingImpls } from './kernels/indexing';
import { softmaxImpls } from './kernels/softmax';
import { lossImpls } from './kernels/losses';
import { poisonsArgument } from './runtime/poison';

/**
 * Note [A partial WebGPU impl table]
 * The CPU backend's table `satisfies BackendImplTable`, so a missing CPU impl is a compile
 * error. The WebGPU table is PARTIAL on purpose while the backend grows (issue 5): it is
 * typed `Partial<BackendImpls>` and registered as it is, and an op whose impl is absent
 * raises, from core's `implOf`, the TorchError "op: no kernel for aten::op on WebGPU (not
 * registered)", never a silent CPU round trip. New impls that other families add to
 * BackendImpls therefore do not break this package's build; the OpInfo suite on WebGPU
 * lists every op still missing here, with its reason, in NOT_ON_WEBGPU
 * (packages/testing/test/webgpu-xfails.ts) and runs a strict probe per op
 * (ops-webgpu.test.ts): once the op runs everywhere the probe fails until the entry goes,
 * so the gap stays visible and cannot rot. Today every impl the CPU table has is here; a few
 * raise a TorchError by design (`unique`, `nonzeroCount`: sizes that need a synchronous read,
 * Note [Data-dependent sizes on async-read backends] in core).
 */
export const webgpuImpls: Partial<BackendImpls> = {
  copy,
  fill,
  ...unaryImpls,
  ...binaryImpls,
  ...scalarImpls,
  ...reduceImpls,
  ...argReduceImpls,
  ...statsImpls,
  ...normalizationImpls,
  ...joinImpls,
  ...reorderImpls,
  ...scanImpls,
  ...sortImpls,
  ...selectImpls,
  ...matmulImpls,
  ...randomImpls,
  ...indexingImpls,
  ...convImpls,
  ...poolingImpls,
  ...resampleImpls,
  ...softmaxImpls,
  ...lossImpls,
  // core calls these outside a structured op (Note [Poisoned storages])
  bernoulliTensor: poisonsArgument(randomImpls.bernoulliTensor, 0),
  multinomial: poisonsArgument(randomImpls.multinomial, 0),
};

/** The table as core's registry takes it (absent entries read as "not registered"). */
export const webgpuImplTable = webgpuImpls as BackendImplTable;
