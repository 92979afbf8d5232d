/**
 * Training and evaluation loops. Each step runs inside `tidy`, so every intermediate tensor
 * (activations, the loss, the batch) is released at the end of the step; parameters,
 * gradients and optimizer state live outside it.
 */
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import type { Split } from './data';
import type { makeModel } from './model';
import { ProgressBar } from './progress';

type Model = ReturnType<typeof makeModel>;
const F = torch.nn.functional;

export interface TrainOptions {
  readonly epochs: number;
  readonly batchSize: number;
  readonly lr: number;
  readonly seed: number;
  readonly device: 'cpu' | 'webgpu';
  /** Called after each epoch with its held-out accuracy. */
  readonly onEpoch?: (epoch: number, testAccuracy: number) => void;
  readonly progress?: ProgressBar | null;
}

export interface TrainResult {
  readonly stepLosses: number[];
  readonly stepsPerEpoch: number;
  readonly testAccuracy: number[];
  readonly seconds: number;
}

/** Number of correct predictions of `model` (on `device`) on `split`, in batches, without a graph. */
export async function evaluate(
  model: Model,
  split: Split,
  device: 'cpu' | 'webgpu' = 'cpu',
  batchSize = 500,
): Promise<{ correct: number; total: number }> {
  model.eval();
  const n = split.labels.shape[0];
  let correct = 0;
  for (let start = 0; start < n; start += batchSize) {
    const count = torch.tidy(() =>
      torch.noGrad(() => {
        const len = Math.min(batchSize, n - start);
        const logits = model.forward(toDevice(split.images.narrow(0, start, len), device));
        return logits.argmax(1).eq(toDevice(split.labels.narrow(0, start, len), device)).sum();
      }),
    );
    correct += Number(await count.itemAsync());
    count.dispose();
  }
  model.train();
  return { correct, total: n };
}

export async function train(model: Model, train: Split, test: Split, o: TrainOptions): Promise<TrainResult> {
  const optimizer = new torch.optim.Adam(model.parameters(), { lr: o.lr });
  const n = train.labels.shape[0];
  const stepsPerEpoch = Math.ceil(n / o.batchSize);
  // One cycle (warm up to `lr`, then anneal): on this small set it reaches 97 % in 3 epochs,
  // where a constant rate plateaus just below.
  const scheduler = new torch.optim.lrScheduler.OneCycleLR(optimizer, o.lr, { totalSteps: o.epochs * stepsPerEpoch });
  const g = new torch.Generator().manualSeed(o.seed + 1);
  const stepLosses: number[] = [];
  const testAccuracy: number[] = [];
  const t0 = performance.now();
  model.train();
  for (let epoch = 1; epoch <= o.epochs; epoch++) {
    const perm = torch.randperm(n, { generator: g });
    const e0 = performance.now();
    let seen = 0;
    let lossSum = 0;
    let correct = 0;
    for (let step = 0; step < stepsPerEpoch; step++) {
      const len = Math.min(o.batchSize, n - step * o.batchSize);
      const [loss, hits] = torch.tidy(() => {
        const idx = perm.narrow(0, step * o.batchSize, len);
        const x = toDevice(train.images.indexSelect(0, idx), o.device);
        const y = toDevice(train.labels.indexSelect(0, idx), o.device);
        const logits = model.forward(x);
        const l = F.crossEntropy(logits, y);
        optimizer.zeroGrad();
        l.backward();
        optimizer.step();
        scheduler.step();
        return [l.detach(), logits.detach().argmax(1).eq(y).sum()] as const;
      });
      const [lv, hv] = await Promise.all([loss.itemAsync(), hits.itemAsync()]);
      loss.dispose();
      hits.dispose();
      stepLosses.push(Number(lv));
      lossSum += Number(lv) * len;
      correct += Number(hv);
      seen += len;
      o.progress?.update({
        epoch,
        epochs: o.epochs,
        done: seen,
        total: n,
        loss: lossSum / seen,
        accuracy: correct / seen,
        samplesPerSec: seen / ((performance.now() - e0) / 1000),
      });
    }
    perm.dispose();
    const { correct: c, total } = await evaluate(model, test, o.device);
    testAccuracy.push(c / total);
    o.progress?.end(` | held-out ${((c / total) * 100).toFixed(2)}%`);
    o.onEpoch?.(epoch, c / total);
  }
  return { stepLosses, stepsPerEpoch, testAccuracy, seconds: (performance.now() - t0) / 1000 };
}

export function toDevice(t: Tensor, device: 'cpu' | 'webgpu'): Tensor {
  return device === 'cpu' ? t : t.to(device);
}
