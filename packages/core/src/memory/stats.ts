import { toDevice, type DeviceLike } from '../device';
import { emptyStats, hasAllocator, getAllocator, type AllocatorStats } from './allocator';
import { liveCounts } from './live-counts';

/** What `torch.memory.stats(device)` reports. */
export interface MemoryStats {
  readonly device: string;
  /** Bytes held by live storages (allocated and in use). */
  readonly liveBytes: number;
  /** The highest `liveBytes` since start or the last `resetPeakStats`. */
  readonly peakBytes: number;
  /** Bytes the allocator holds from the system (live + cached). */
  readonly reservedBytes: number;
  /** Bytes cached by the allocator for reuse and not in use. */
  readonly cacheBytes: number;
  readonly liveTensors: number;
  readonly liveStorages: number;
  readonly allocations: number;
  readonly frees: number;
  /** The allocator's own report, with its backend-specific counters (a caching allocator's active bytes, cache hits). */
  readonly allocator: AllocatorStats;
}

export function memoryStats(device: DeviceLike = 'cpu'): MemoryStats {
  const d = toDevice('memory.stats', device);
  const a = hasAllocator(d.type) ? getAllocator('memory.stats', d.type).stats() : emptyStats();
  const live = liveCounts(d.type);
  return {
    device: String(d),
    liveBytes: a.allocatedBytes,
    peakBytes: a.peakAllocatedBytes,
    reservedBytes: a.reservedBytes,
    cacheBytes: a.cachedBytes,
    liveTensors: live.tensors,
    liveStorages: live.storages,
    allocations: a.allocations,
    frees: a.frees,
    allocator: a,
  };
}

export function resetPeakMemoryStats(device: DeviceLike = 'cpu'): void {
  const d = toDevice('memory.resetPeakStats', device);
  if (hasAllocator(d.type)) getAllocator('memory.resetPeakStats', d.type).resetPeakStats();
}
