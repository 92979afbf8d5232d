/** Shard 1 of 2 of the OpInfo table on WebGPU (test/ops-webgpu-suite.ts). */
import { opsWebgpuSuite } from './ops-webgpu-suite';

await opsWebgpuSuite({ index: 1, count: 2 });
