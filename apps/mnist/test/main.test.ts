/**
 * The main job end to end, as the README runs it but on a shortened schedule: the CLI trains
 * the CNN on the real digits, must reach the accuracy bar (97 % held out), and writes the
 * weights and the loss curve; --predict reloads the weights and gets the same accuracy.
 * Bad flags and bad weights files give one line and a non-zero status.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as torch from '@torch-ts/torch';
import { describe, expect, it } from 'vitest';

const APP = new URL('..', import.meta.url).pathname;
const TSX = join(APP, 'node_modules', '.bin', 'tsx');
// The app takes torch-ts from where the test's own imports do (Note [Tests import the other
// packages' builds] in tools/vitest/workspace-deps.ts): the builds under the root `pnpm test`.
const CONDITIONS = process.env.TORCH_TS_TEST_DEPS === 'dist' ? [] : ['--conditions=@torch-ts/source'];

function mnist(...args: string[]) {
  const r = spawnSync(TSX, [...CONDITIONS, 'src/main.ts', ...args], { cwd: APP, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Whether this machine has a WebGPU adapter (with TORCH_TS_REQUIRE_WEBGPU=1, init throws if not).
const webgpu = await torch.webgpu.init();
if (!webgpu) console.warn('[mnist] the --device webgpu check is SKIPPED: no WebGPU adapter');

const heldOut = (text: string) => Number(/held-out accuracy (?:of \S+: )?([\d.]+)%/.exec(text)?.[1]);

describe('apps/mnist', () => {
  const out = mkdtempSync(join(tmpdir(), 'mnist-'));

  it('trains to >= 97% held-out accuracy on a shortened schedule and saves weights and loss curve', () => {
    const r = mnist('--epochs', '3', '--out', out);
    expect(r.stderr.trim()).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/epoch 3\/3 .* 8000\/8000 loss [\d.]+ acc [\d.]+% \d+ samples\/s \| held-out [\d.]+%/);
    expect(heldOut(r.stdout)).toBeGreaterThanOrEqual(97);
    expect(readFileSync(join(out, 'loss.svg'), 'utf8')).toMatch(/^<svg /);
    // the safetensors header: an 8-byte length, then JSON naming the layers' tensors
    const bytes = readFileSync(join(out, 'model.safetensors'));
    const n = Number(bytes.readBigUInt64LE(0));
    const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
    expect(Object.keys(header).sort()).toEqual(['0.bias', '0.weight', '3.bias', '3.weight', '7.bias', '7.weight']);
    expect(header['0.weight']).toMatchObject({ dtype: 'F32', shape: [16, 1, 3, 3] });
    const accuracy = heldOut(r.stdout);

    const p = mnist('--predict', '--weights', join(out, 'model.safetensors'), '--count', '3');
    expect(p.status).toBe(0);
    expect(p.stdout.match(/held-out digit \d: predicted \d \([\d.]+%\), label \d/g)).toHaveLength(3);
    expect(heldOut(p.stdout)).toBe(accuracy);

    // The same weights on WebGPU classify the held-out digits as on the CPU (at most 2 of
    // 2,000 may flip on float32 rounding); skipped only where no adapter is found.
    if (webgpu) {
      const g = mnist('--predict', '--device', 'webgpu', '--weights', join(out, 'model.safetensors'), '--count', '2');
      expect(g.stderr.trim()).toBe('');
      expect(g.status).toBe(0);
      expect(Math.abs(heldOut(g.stdout) - accuracy)).toBeLessThanOrEqual(0.1);
    }
  });

  it('gives one line and status 2 for a bad flag', () => {
    const r = mnist('--epochs', 'many');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(["mnist: --epochs must be an integer >= 1, not 'many' (see --help)"]);
  });

  it('gives one line and status 1 for a missing or corrupt weights file', () => {
    const missing = mnist('--predict', '--weights', join(out, 'nope.safetensors'));
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^mnist: no weights at .*nope\.safetensors/);
    const bad = join(out, 'bad.safetensors');
    writeFileSync(bad, 'not a safetensors file at all');
    const corrupt = mnist('--predict', '--weights', bad);
    expect(corrupt.status).toBe(1);
    expect(corrupt.stderr.trim().split('\n')).toHaveLength(1);
    expect(corrupt.stderr).toMatch(/^mnist: cannot load weights from .*bad\.safetensors: /);
    expect(existsSync(bad)).toBe(true);
  });
});
