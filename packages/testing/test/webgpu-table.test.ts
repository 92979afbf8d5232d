/**
 * The OpInfo table on WebGPU: every op's forward cases (test/ops-webgpu-suite.ts), then every
 * gradcheck sample's gradients against the CPU's (test/grads-webgpu-suite.ts).
 *
 * Note [One process for the WebGPU table]
 * On SwiftShader, compiling the kernels is most of the table's CPU time (each new WGSL source
 * is a pipeline the driver compiles on the CPU, about 80 ms, and nothing carries compiled
 * pipelines from one process to another: Dawn's node binding has no blob cache). Composite ops
 * share the kernels of the ops they are made of, and the gradients reuse the forward kernels,
 * so the table runs in ONE file, hence one process: split into two files (two workers), half
 * of the second shard's kernels were compiled again by the first's process. It is the longest
 * file of the package, so the config's sequencer starts it first (vitest.config.ts), and the
 * package's other worker takes the other files meanwhile.
 */
import { gradsWebgpuSuite } from './grads-webgpu-suite';
import { opsWebgpuSuite } from './ops-webgpu-suite';

await opsWebgpuSuite();
await gradsWebgpuSuite();
