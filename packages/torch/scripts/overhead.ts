// Per-op fixed cost, in µs per call: `pnpm --filter @torch-ts/torch overhead` (or
// `pnpm exec tsx --conditions=@torch-ts/source scripts/overhead.ts` in packages/torch).
// Each case runs a warm-up, then several timed rounds; the median round is reported.
// `--only=<name>` runs the case of that name, else those whose name contains it (for `node --cpu-prof`), `--rounds=<n>`
// sets the rounds. `--cold=<n>` times only the first n calls of the (one) selected case in a
// fresh process instead: the cost before the JIT has optimised the path, which short
// scripts pay.
import * as torch from '../src/index';
import { setGrad } from '../src/nn/internal';

interface Case {
  readonly name: string;
  readonly iters: number;
  readonly run: (n: number) => void;
}

const a1 = torch.tensor([1.5], { dtype: 'float32' });
const b1 = torch.tensor([2.5], { dtype: 'float32' });
const o1 = torch.empty([1], { dtype: 'float32' });
const a64 = torch.rand([64], { dtype: 'float32' });
const b64 = torch.rand([64], { dtype: 'float32' });
const x4 = torch.tensor([1, 2, 3, 4], { dtype: 'float32', requiresGrad: true });

const cases: Case[] = [
  {
    name: 'add [1] float32',
    iters: 20000,
    run: (n) => {
      for (let i = 0; i < n; i++) torch.add(a1, b1).dispose();
    },
  },
  {
    name: 'add [1] float32 out=',
    iters: 20000,
    run: (n) => {
      for (let i = 0; i < n; i++) torch.add(a1, b1, { out: o1 });
    },
  },
  {
    name: 'add [64] float32',
    iters: 20000,
    run: (n) => {
      for (let i = 0; i < n; i++) torch.add(a64, b64).dispose();
    },
  },
  {
    name: 'x.mul(x).sum().backward() [4]',
    iters: 5000,
    run: (n) => {
      for (let i = 0; i < n; i++) {
        const y = x4.mul(x4);
        const s = y.sum();
        s.backward();
        s.dispose();
        y.dispose();
      }
      setGrad(x4, null);
    },
  },
  {
    // Handles left to the garbage collector (the FinalizationRegistry releases them): the
    // way most scripts use tensors. Runs last, since it leaves live tensors until a GC.
    name: 'add [1] float32, no dispose (GC)',
    iters: 20000,
    run: (n) => {
      for (let i = 0; i < n; i++) torch.add(a1, b1);
    },
  },
];

const args = process.argv.slice(2);
const only = args.find((s) => s.startsWith('--only='))?.slice('--only='.length);
const rounds = Number(args.find((s) => s.startsWith('--rounds='))?.slice('--rounds='.length) ?? 7);

const cold = args.find((s) => s.startsWith('--cold='));
if (cold !== undefined) {
  const n = Number(cold.slice('--cold='.length));
  const c = cases.find((k) => only !== undefined && k.name.includes(only));
  if (c === undefined) throw new Error('--cold needs --only=<name> naming one case');
  const t0 = process.hrtime.bigint();
  c.run(n);
  console.log(`${c.name.padEnd(34)} ${(Number(process.hrtime.bigint() - t0) / 1e3 / n).toFixed(2).padStart(8)} µs/call over the first ${n} calls`);
  process.exit(0);
}

// A name that is exactly a case's runs that case alone (`add [1] float32` is a prefix of others).
const exact = only !== undefined && cases.some((c) => c.name === only);
const before = torch.memory.stats('cpu');
let after = before;
for (const c of cases) {
  if (c.name.includes('no dispose')) after = torch.memory.stats('cpu');
  if (only !== undefined && (exact ? c.name !== only : !c.name.includes(only))) continue;
  c.run(c.iters); // warm-up: compile the path
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    c.run(c.iters);
    times.push(Number(process.hrtime.bigint() - t0) / 1e3 / c.iters);
  }
  times.sort((x, y) => x - y);
  const med = times[Math.floor(times.length / 2)];
  console.log(`${c.name.padEnd(34)} ${med.toFixed(2).padStart(8)} µs/call  (min ${times[0].toFixed(2)})`);
}
if (after === before) after = torch.memory.stats('cpu');
// The disposing cases must leave the counts where they were.
console.log(`live tensors ${before.liveTensors} -> ${after.liveTensors}, storages ${before.liveStorages} -> ${after.liveStorages}`);
