/**
 * What the OpInfo table covers, as data: one row per op x dtype x device. Meant for
 * generating docs/ops.md; nothing here runs an op.
 */
import { REAL_DTYPES as DTYPES, type DType } from '@torch-ts/torch';
import { deviceHarness, type DeviceHarness } from './devices';
import { loadOpGoldens } from './goldens';
import type { OpInfo } from './op-info/types';

/**
 * supported: the op accepts the dtype and its goldens pass;
 * known-failure: supported, but some of its tests are strict xfails (see `notes`);
 * rejected: PyTorch's CPU kernel rejects the dtype, and torch-ts throws as it does.
 */
export type CoverageStatus = 'supported' | 'known-failure' | 'rejected';

export interface CoverageRow {
  readonly op: string;
  readonly dtype: DType;
  readonly device: string;
  readonly status: CoverageStatus;
  /** Golden cases of the op for this dtype (values and expected errors). */
  readonly cases: number;
  /** The 2.x deviation and xfail reasons that concern this dtype. */
  readonly notes: readonly string[];
}

export function opCoverage(table: readonly OpInfo[], devices: readonly (string | DeviceHarness)[] = ['cpu']): CoverageRow[] {
  const goldens = loadOpGoldens();
  const rows: CoverageRow[] = [];
  for (const device of devices) {
    const h = deviceHarness(device);
    for (const op of table) {
      const xfails = { ...op.xfail, ...h.xfail?.[op.name] };
      const cases = goldens.get(op.name) ?? [];
      for (const dtype of DTYPES) {
        const notes: string[] = [];
        const deviation = op.pytorch2x?.[dtype];
        if (deviation) notes.push(`PyTorch 2.x: ${deviation}`);
        for (const [key, reason] of Object.entries(xfails)) {
          if (concernsDtype(key, dtype, cases.filter((c) => c.dtype === dtype).map((c) => c.sample))) notes.push(`xfail ${key}: ${reason}`);
        }
        const supported = op.dtypes.includes(dtype);
        const status: CoverageStatus = !supported ? 'rejected' : notes.some((n) => n.startsWith('xfail')) ? 'known-failure' : 'supported';
        rows.push({ op: op.name, dtype, device: h.name, status, cases: cases.filter((c) => c.dtype === dtype).length, notes });
      }
    }
  }
  return rows;
}

/** Whether an xfail key (Note [Strict xfails]) can select a test of `dtype`. */
function concernsDtype(key: string, dtype: DType, samples: readonly string[]): boolean {
  const selector = key.slice(key.indexOf('@') + 1);
  if (selector === '*' || selector === dtype) return true;
  const slash = selector.lastIndexOf('/');
  if (slash >= 0) return selector.slice(slash + 1) === dtype;
  const sample = selector.split(':')[0];
  return samples.includes(sample);
}
