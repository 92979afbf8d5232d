import { getNumThreads } from './pool';
import { CTL } from './pool-layout';

/**
 * Elements of work below which a row kernel stays on the calling thread, and about the
 * least one pool task gets (about 10 us of a memory-bound pass): Note [CPU thread pool].
 */
export const ROW_GRAIN = 1 << 15;

/**
 * [lo, hi) ranges of `units` (rows, slabs, blocks) for pool tasks, about ROW_GRAIN of
 * `work` elements each, a few per thread so that a busy thread does not hold up the job.
 * The split depends on the thread count; kernels that use it compute each output the same
 * way in any range, so their results do not.
 */
export function taskRanges(units: number, work: number): [number, number][] {
  const threads = getNumThreads();
  const parts = threads <= 1 || work < 2 * ROW_GRAIN ? 1 : Math.max(1, Math.min(units, CTL.maxTasks, 4 * threads, Math.floor(work / ROW_GRAIN)));
  const ranges: [number, number][] = [];
  for (let t = 0; t < parts; t++) {
    const lo = Math.floor((t * units) / parts);
    const hi = Math.floor(((t + 1) * units) / parts);
    if (hi > lo) ranges.push([lo, hi]);
  }
  return ranges;
}
