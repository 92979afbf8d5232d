/** Shard 0 of 2 of the OpInfo table on WebGPU (test/ops-webgpu-suite.ts). */
import { opsWebgpuSuite } from './ops-webgpu-suite';

await opsWebgpuSuite({ index: 0, count: 2 });
