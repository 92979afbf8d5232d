/**
 * PyTorch as a peer, where `/usr/bin/python3` (or `TORCH_TS_BENCH_PYTHON`) imports torch:
 * py/bench_torch.py runs a round, as child.ts does for a Node library, on the same config and
 * messages (one JSON object a line on its stdout). `pytorch` runs on the CPU, one thread;
 * `pytorch-cuda` on an NVIDIA GPU, each run ending with its result on the host as a WebGPU
 * run does. Where torch does not import (or sees no GPU), the column is left out with a notice.
 */
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ChildConfig, ChildMessage } from './child';
import type { PythonLibName } from './libs/types';
import { parseChildMessage } from './messages';
import { WORKLOADS, type Workload } from './workloads';

const PYTHON = process.env.TORCH_TS_BENCH_PYTHON ?? '/usr/bin/python3';
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', 'py', 'bench_torch.py');

/** null when Python imports torch and numpy (and, for `pytorch-cuda`, sees a CUDA device), else why not (one line). */
export function pytorchMissing(lib: PythonLibName = 'pytorch'): string | null {
  const code = lib === 'pytorch-cuda' ? 'import numpy, torch; assert torch.cuda.is_available(), "no CUDA device"' : 'import numpy, torch';
  const r = spawnSync(PYTHON, ['-c', code], { encoding: 'utf8', timeout: 120_000 });
  if (r.error) return `${PYTHON}: ${r.error.message}`;
  if (r.status !== 0) return `${PYTHON} -c "${code}": ${r.stderr.trim().split('\n').pop()}`;
  return null;
}

/** Runs py/bench_torch.py on `config` (the workloads of its ids from `table`), passing on each message; resolves with its exit. */
export function runPytorch(config: ChildConfig, onMessage: (msg: ChildMessage) => void, table: readonly Workload[] = WORKLOADS): Promise<string> {
  return new Promise((done) => {
    const workloads = config.ids.map((id) => table.find((w) => w.id === id)!);
    const child = spawn(PYTHON, [SCRIPT], {
      env: {
        ...process.env,
        TORCH_TS_BENCH_CHILD: JSON.stringify({ ...config, workloads }),
        TORCH_TS_BENCH_TORCH_DEVICE: config.lib === 'pytorch-cuda' ? 'cuda' : 'cpu',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    createInterface({ input: child.stdout }).on('line', (line) => onMessage(parseChildMessage(line)));
    child.on('error', (e) => done(e.message));
    child.on('close', (code, signal) => done(signal ?? `exit ${code}`));
  });
}
