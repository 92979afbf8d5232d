/**
 * One library's round in its own process (main.ts forks it): loads the library, measures
 * the workloads it is given in order, and sends each measurement to the parent as it goes.
 * py/bench_torch.py is the same for PyTorch, on the same config and messages (pytorch.ts).
 */
import { loadLibrary } from './libs';
import type { LibName } from './libs/types';
import { parseChildConfig } from './messages';
import { measure, type MeasureOptions, type Measurement } from './measure';
import { WORKLOADS } from './workloads';

export interface ChildConfig {
  readonly lib: LibName;
  readonly ids: readonly string[];
  readonly options: MeasureOptions;
  /** Skip a size of a family when the previous size predicts a run longer than this. */
  readonly predictLimitMs: number;
}

export type ChildMessage =
  | { readonly kind: 'measurement'; readonly m: Measurement }
  | { readonly kind: 'describe'; readonly text: string };

function send(msg: ChildMessage): Promise<void> {
  return new Promise((resolve, reject) => process.send!(msg, (e: Error | null) => (e ? reject(e) : resolve())));
}

async function main(): Promise<void> {
  const config = parseChildConfig(process.env.TORCH_TS_BENCH_CHILD);
  let lib;
  try {
    lib = await loadLibrary(config.lib);
  } catch (e) {
    // No device for it here (no WebGPU adapter...): every workload is n/a, with the reason.
    const why = `${config.lib} unavailable: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`;
    for (const id of config.ids) await send({ kind: 'measurement', m: { id, samples: [], na: why } });
    return;
  }
  await send({ kind: 'describe', text: lib.describe() });
  // ms per n^3 of the last matmul, to skip sizes that would take minutes (js-pytorch).
  let matmulRate = 0;
  for (const id of config.ids) {
    const w = WORKLOADS.find((x) => x.id === id)!;
    const n = w.shapes.n;
    if (n !== undefined && matmulRate > 0 && matmulRate * n ** 3 > config.predictLimitMs) {
      const s = Math.round((matmulRate * n ** 3) / 1000);
      await send({ kind: 'measurement', m: { id, samples: [], na: `skipped: a run would take ~${s} s` } });
      continue;
    }
    const m = await measure(lib, w, config.options);
    if (n !== undefined && m.samples.length) matmulRate = Math.min(...m.samples) / n ** 3;
    await send({ kind: 'measurement', m });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
