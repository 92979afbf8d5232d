import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../src/cli';
import { lossCurveSvg } from '../src/plot';
import { formatProgress } from '../src/progress';

describe('flags', () => {
  it('has defaults and reads each flag, spaced or with =', () => {
    expect(parseArgs([])).toMatchObject({ device: 'cpu', predict: false, outDir: 'out' });
    const o = parseArgs(['--device', 'webgpu', '--epochs=3', '--batch-size', '32', '--lr', '0.01', '--seed', '7', '--out', 'w']);
    expect(o).toMatchObject({ device: 'webgpu', epochs: 3, batchSize: 32, lr: 0.01, seed: 7, outDir: 'w' });
    expect(parseArgs(['--predict', '--weights', 'm.safetensors', '--count', '3'])).toMatchObject({ predict: true, weights: 'm.safetensors', count: 3 });
  });

  it.each([
    [['--bogus'], /unknown flag '--bogus'/],
    [['--device', 'tpu'], /--device must be cpu or webgpu, not 'tpu'/],
    [['--epochs', '0'], /--epochs must be an integer >= 1, not '0'/],
    [['--epochs', 'x'], /--epochs must be an integer >= 1, not 'x'/],
    [['--lr', '-1'], /--lr must be a positive number, not '-1'/],
    [['--out'], /--out needs a value/],
    [['--weights', '--predict'], /--weights needs a value/],
  ])('refuses %j with one line', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(UsageError);
    expect(() => parseArgs(argv)).toThrow(message);
  });
});

describe('progress line', () => {
  it('shows the bar, counts, loss, accuracy and throughput', () => {
    const line = formatProgress({ epoch: 2, epochs: 4, done: 4000, total: 8000, loss: 0.123456, accuracy: 0.9712, samplesPerSec: 1234.4 });
    expect(line).toBe('epoch 2/4 ████████████░░░░░░░░░░░░ 4000/8000 loss 0.1235 acc 97.12% 1234 samples/s');
  });
});

describe('loss curve', () => {
  it('is an SVG with one point per step and one per epoch mean', () => {
    const svg = lossCurveSvg({ steps: [2, 1.5, 1, 0.5, 0.4, 0.3], stepsPerEpoch: 3, testAccuracy: [0.9, 0.975] });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    const paths = [...svg.matchAll(/<path d="([^"]+)"/g)].map((m) => m[1]);
    expect(paths).toHaveLength(2);
    expect(paths[0].split('L')).toHaveLength(6);
    expect(paths[1].split('L')).toHaveLength(2);
    expect(svg).toContain('held-out accuracy 97.50%');
  });
});
