/**
 * PyTorch as a peer, where `/usr/bin/python3` imports torch: py/bench_torch.py runs a round,
 * as child.ts does for a Node library, on the same config and messages (one JSON object a
 * line on its stdout). Where torch does not import, the column is left out with a notice.
 */
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ChildConfig, ChildMessage } from './child';
import { WORKLOADS, type Workload } from './workloads';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', 'py', 'bench_torch.py');

/** null when `/usr/bin/python3` imports torch and numpy, else why not (one line). */
export function pytorchMissing(): string | null {
  const r = spawnSync(PYTHON, ['-c', 'import numpy, torch'], { encoding: 'utf8', timeout: 120_000 });
  if (r.error) return `${PYTHON}: ${r.error.message}`;
  if (r.status !== 0) return `${PYTHON} -c "import numpy, torch": ${r.stderr.trim().split('\n').pop()}`;
  return null;
}

/** Runs py/bench_torch.py on `config` (the workloads of its ids from `table`), passing on each message; resolves with its exit. */
export function runPytorch(config: ChildConfig, onMessage: (msg: ChildMessage) => void, table: readonly Workload[] = WORKLOADS): Promise<string> {
  return new Promise((done) => {
    const workloads = config.ids.map((id) => table.find((w) => w.id === id)!);
    const child = spawn(PYTHON, [SCRIPT], {
      env: { ...process.env, TORCH_TS_BENCH_CHILD: JSON.stringify({ ...config, workloads }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    createInterface({ input: child.stdout }).on('line', (line) => onMessage(JSON.parse(line) as ChildMessage));
    child.on('error', (e) => done(e.message));
    child.on('close', (code, signal) => done(signal ?? `exit ${code}`));
  });
}
