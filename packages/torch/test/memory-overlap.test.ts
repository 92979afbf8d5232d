/**
 * Writes whose inputs overlap the written tensor (issue 15, core Note [Overlapping inputs and
 * outputs]): what PyTorch refuses is refused before anything is written, with PyTorch's
 * message after the op name; what it allows still runs. Cases and outcomes from PyTorch 1.13
 * on `a = torch.arange(5.)`.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { thrown } from './helpers';

const PARTIAL =
  'unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.';

const refused: [string, string, (a: Tensor) => unknown][] = [
  ['a[1:].sub_(a[:-1])', 'sub_', (a) => a.index('1:').sub_(a.index(':-1'))],
  ['a[:3].add_(a[2:])', 'add_', (a) => a.index(':3').add_(a.index('2:'))],
  ['a[1:].copy_(a[:-1])', 'copy_', (a) => a.index('1:').copy_(a.index(':-1'))],
  ['torch.add(a[:-1], 1, out=a[1:])', 'add', (a) => torch.add(a.index(':-1'), 1, { out: a.index('1:') })],
  ['torch.exp(a[:-1], out=a[1:])', 'exp', (a) => torch.exp(a.index(':-1'), { out: a.index('1:') })],
  ['a[1:].clamp_(a[:-1])', 'clamp_', (a) => a.index('1:').clamp_(a.index(':-1'))],
  ['a[1:].lerp_(a[:-1], 0.5)', 'lerp_', (a) => a.index('1:').lerp_(a.index(':-1'), 0.5)],
  ['a[1:].addcmul_(a[:-1], a[:-1])', 'addcmul_', (a) => a.index('1:').addcmul_(a.index(':-1'), a.index(':-1'))],
  ['torch.cat([a[:2], a[:2]], out=a[1:5])', 'cat', (a) => torch.cat([a.index(':2'), a.index(':2')], { out: a.index('1:5') })],
  // cat refuses a full overlap too (assert_no_overlap)
  ['torch.cat([a[:2]], out=a[:2])', 'cat', (a) => torch.cat([a.index(':2')], { out: a.index(':2') })],
];

const allowed: [string, (a: Tensor) => unknown, number[]][] = [
  ['a[1:].mul_(2)', (a) => a.index('1:').mul_(2), [0, 2, 4, 6, 8]],
  ['a.sub_(a)', (a) => a.sub_(a), [0, 0, 0, 0, 0]],
  ['a[1:].exp_()', (a) => a.index('1:').exp_(), [0, Math.fround(Math.E), 7.389056, 20.085537, 54.59815]],
  ['torch.add(a, 1, out=a)', (a) => torch.add(a, 1, { out: a }), [1, 2, 3, 4, 5]],
  ['a[:2].copy_(a[:2])', (a) => a.index(':2').copy_(a.index(':2')), [0, 1, 2, 3, 4]],
  // an expanded input is "too hard" to decide: PyTorch lets it through
  ['a[1:3].add_(a[:1].expand(2))', (a) => a.index('1:3').add_(a.index(':1').expand(2)), [0, 1, 2, 3, 4]],
  // a reduction's out= is not checked by PyTorch either
  ['torch.sum(a[:2], 0, keepdim=True, out=a[1:2])', (a) => torch.sum(a.index(':2'), 0, { keepdim: true, out: a.index('1:2') }), [0, 1, 2, 3, 4]],
];

describe('partial overlap between an input and the written tensor', () => {
  for (const [what, op, f] of refused) {
    it(`${what} is refused and writes nothing`, () => {
      const a = torch.arange(5, { dtype: 'float32' });
      const e = thrown(() => f(a));
      expect(e).toBeInstanceOf(torch.TorchError);
      expect(e.message).toBe(`${op}: ${PARTIAL}`);
      expect(a.tolist()).toEqual([0, 1, 2, 3, 4]);
    });
  }
  for (const [what, f, expected] of allowed) {
    it(`${what} runs`, () => {
      const a = torch.arange(5, { dtype: 'float32' });
      f(a);
      (a.tolist() as number[]).forEach((v, i) => expect(v).toBeCloseTo(expected[i], 4));
    });
  }
});
