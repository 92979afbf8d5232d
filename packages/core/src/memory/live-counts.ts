import type { DeviceType } from '../device';

/** Live TensorImpl and StorageImpl counts per device type, for `memory.stats` and leak tests. */
export interface LiveCounts {
  tensors: number;
  storages: number;
}

const counts: Record<DeviceType, LiveCounts> = {
  cpu: { tensors: 0, storages: 0 },
  webgpu: { tensors: 0, storages: 0 },
  meta: { tensors: 0, storages: 0 },
  privateuseone: { tensors: 0, storages: 0 },
};

export function liveCounts(type: DeviceType): LiveCounts {
  return counts[type];
}
