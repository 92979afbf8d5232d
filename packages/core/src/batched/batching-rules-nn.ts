/**
 * Batching rules for the ops a small network runs: matrix products (one broadcasting
 * matmul of the physical values), convolution, transposed or not (the batch folded into N
 * where only the input is batched, into the channels with N× the groups where the weight is), 2-D max
 * pooling (the batch folded into N) and nll_loss (the batch folded into the loss's batch,
 * reduced per sample after). Combinations not listed run the per-sample loop.
 */
import { DispatchKey } from '../dispatch/dispatch-key';
import { getOperator, registerKernel, type BoxedKernel, type OperatorHandle } from '../dispatch/dispatcher';
import { TorchError } from '../errors';
import { TensorImpl } from '../tensor/tensor-impl';
import { atLevel, maxLevel } from './batched-tensor';
import { loopFallback } from './batched-fallback';
import { defineBatchRule, moveBdimToFront, padAfterBatch, physicalAtFront, type RuleCall, type RuleResult } from './batching-util';

/** A matrix operand: batched ones moved to the front and padded to `rank` + 1 dims, others as they are. */
function matOperand(c: RuleCall, t: TensorImpl, rank: number): TensorImpl {
  const b = atLevel(t, c.level);
  return b ? padAfterBatch(c.s, moveBdimToFront(c.s, b), rank + 1) : t;
}

function matmulRule(c: RuleCall): RuleResult {
  const [a, b] = c.args as TensorImpl[];
  const rank = Math.max(a.dim, b.dim);
  return [c.s.call('matmul', [matOperand(c, a, rank), matOperand(c, b, rank)]), 0];
}

/** mv / dot: the vector operand as a column (mv) or a product summed over its dim (dot). */
function mvRule(c: RuleCall): RuleResult {
  const [a, v] = c.args as TensorImpl[];
  const col = c.s.call('unsqueeze', [atLevel(v, c.level) ? moveBdimToFront(c.s, atLevel(v, c.level)!) : v, -1]);
  const m = atLevel(a, c.level) ? moveBdimToFront(c.s, atLevel(a, c.level)!) : a;
  const r = c.s.call('matmul', [m, col]);
  return [c.s.call('squeeze.dims', [r, [-1]]), 0];
}

function dotRule(c: RuleCall): RuleResult {
  const [a, b] = c.args as TensorImpl[];
  const p = c.s.call('mul', [matOperand(c, a, 1), matOperand(c, b, 1)]);
  return [c.s.call('sum.dim_IntList', [p, [-1], false]), 0];
}

function addmmRule(c: RuleCall): RuleResult {
  const [self, m1, m2, beta, alpha] = c.args as [TensorImpl, TensorImpl, TensorImpl, number | undefined, number | undefined];
  const prod = c.s.call('matmul', [matOperand(c, m1, 2), matOperand(c, m2, 2)]);
  const scaled = alpha === undefined || Number(alpha) === 1 ? prod : c.s.call('mul', [prod, alpha]);
  if (beta !== undefined && Number(beta) === 0) return [scaled, 0];
  const bias = matOperand(c, self, 2);
  const b = beta === undefined || Number(beta) === 1 ? bias : c.s.call('mul', [bias, beta]);
  // (the batched product's batch dim leads; the sum broadcasts an unbatched or padded bias)
  return [c.s.call('add', [scaled, b]), 0];
}

const fold = (c: RuleCall, t: TensorImpl): TensorImpl => c.s.call('reshape', [t, [t.sizes[0] * t.sizes[1], ...t.sizes.slice(2)]]);
const unfold = (c: RuleCall, t: TensorImpl, n: number): TensorImpl => c.s.call('view', [t, [n, t.sizes[0] / n, ...t.sizes.slice(1)]]);

function convolutionRule(c: RuleCall): RuleResult {
  const { args, level, size: n, s } = c;
  const [input, weight, bias, stride, padding, dilation, transposed, outputPadding, groups] = args as [TensorImpl, TensorImpl, TensorImpl | null, number[], number[], number[], boolean, number[], number];
  const bi = atLevel(input, level);
  const bw = atLevel(weight, level);
  const bb = bias ? atLevel(bias, level) : null;
  const spatial = weight.dim - 2;
  const unbatchedInput = input.dim === spatial + 1; // [C, *spatial]
  let out: TensorImpl;
  let outBdim: number;
  if (!bw) {
    // the batch joins the input's N
    const x = bi ? moveBdimToFront(s, bi) : input;
    const xin = !bi ? x : unbatchedInput ? x : fold(c, x);
    const r = s.call('convolution', [xin, weight, bb ? null : bias, stride, padding, dilation, transposed, outputPadding, groups]);
    out = !bi ? r : unbatchedInput ? r : unfold(c, r, n);
    outBdim = bi ? 0 : -1;
  } else {
    // the batch joins the channels: [B, N*C, ...] * [N*O, C/g, ...] with N*groups groups (transposed:
    // the weight is [N*C, O/g, ...], its groups split the input channels the same way)
    const w = moveBdimToFront(s, bw);
    const b = unbatchedInput ? 1 : input.sizes[0];
    const cin = input.sizes[unbatchedInput ? 0 : 1];
    const sp = input.sizes.slice(unbatchedInput ? 1 : 2);
    // the input as [N, B, C, ...] (batched) or [B, C, ...] (unbatched)
    const front = bi ? moveBdimToFront(s, bi) : input;
    const xb = unbatchedInput ? s.call('unsqueeze', [front, bi ? 1 : 0]) : front;
    const xs = bi
      ? s.call('permute', [xb, [1, 0, ...Array.from({ length: xb.dim - 2 }, (_, i) => i + 2)]])
      : s.call('expand', [s.call('unsqueeze', [xb, 1]), [b, n, cin, ...sp], false]);
    const x = s.call('reshape', [xs, [b, n * cin, ...sp]]);
    const wf = fold(c, w);
    const r = s.call('convolution', [x, wf, null, stride, padding, dilation, transposed, outputPadding, groups * n]);
    const o = transposed ? weight.sizes[1] * groups : weight.sizes[0];
    const rv = s.call('view', [r, [b, n, o, ...r.sizes.slice(2)]]);
    out = unbatchedInput ? s.call('select.int', [rv, 0, 0]) : rv;
    outBdim = unbatchedInput ? 0 : 1;
    if (bias && !bb) {
      const shape = [o, ...Array.from({ length: spatial }, () => 1)];
      out = s.call('add', [out, s.call('view', [bias, shape])]);
    }
  }
  if (bb) {
    // a batched bias [N, O] added per sample, its batch dim aligned with the output's
    const o = bb.sizes[0];
    const bv = moveBdimToFront(s, bb);
    const ones = Array.from({ length: spatial }, () => 1);
    if (outBdim === -1) return [s.call('add', [out, s.call('view', [bv, unbatchedInput ? [n, o, ...ones] : [n, 1, o, ...ones]])]), 0];
    const shape = outBdim === 0 ? (unbatchedInput ? [n, o, ...ones] : [n, 1, o, ...ones]) : [1, n, o, ...ones];
    return [s.call('add', [out, s.call('view', [bv, shape])]), outBdim];
  }
  return outBdim === -1 ? [out, null] : [out, outBdim];
}

function maxPoolRule(c: RuleCall): RuleResult[] {
  const { args, level, size: n, s } = c;
  const x = moveBdimToFront(s, atLevel(args[0], level)!);
  const plain = (args[0] as TensorImpl).dim === 3; // [C, H, W]: [N, C, H, W] is already a batch
  const r = s.callMulti('max_pool2d_with_indices', [plain ? x : fold(c, x), ...args.slice(1)]);
  return r.map((t) => [plain ? t : unfold(c, t, n), 0] as const);
}

/** nll_loss with reduction 'none' on the folded batch, then summed (and divided by each sample's total weight) per sample. */
function nllRule(op: 'nll_loss_forward' | 'nll_loss2d_forward') {
  return (c: RuleCall): RuleResult[] => {
    const { args, level, size: n, s } = c;
    const [self, target, weight, reduction, ignore] = args as [TensorImpl, TensorImpl, TensorImpl | null, number, number];
    const x = physicalAtFront(s, self, level, n);
    const t = physicalAtFront(s, target, level, n);
    const plain = self.dim === (op === 'nll_loss_forward' ? 1 : 3);
    const xs = plain ? x : fold(c, x);
    const ts = plain ? t : fold(c, t);
    const [outF, twF] = s.callMulti(op, [xs, ts, weight ?? null, 0, ignore]);
    const out = plain ? outF : unfold(c, outF, n);
    if (reduction === 0) return [[out, 0], [twF, null]];
    const flat = s.call('reshape', [out, [n, -1]]);
    const total = s.call('sum.dim_IntList', [flat, [1], false]);
    const valid = s.call('ne', [t, ignore]);
    const safe = s.call('where', [valid, t, 0]);
    const w = weight ? s.call('index_select', [weight, 0, s.call('reshape', [safe, [-1]])]) : s.call('_to_copy', [valid, self.dtype]);
    const wv = s.call('mul', [s.call('reshape', [w, t.sizes]), s.call('_to_copy', [valid, self.dtype])]);
    const tw = s.call('sum.dim_IntList', [s.call('reshape', [wv, [n, -1]]), [1], false]);
    if (reduction === 2) return [[total, 0], [tw, 0]];
    return [[s.call('div', [total, tw]), 0], [tw, 0]];
  };
}

/**
 * Batch norm folded into the channels (functorch 1.13's batch norm rules, BatchRulesNorm.cpp):
 * each sample normalises its channels over its own N and spatial dims, so the batch folds
 * into the channels, (N, B*C, ...), and one call without affine parameters gives every
 * sample's statistics; the weight and bias (batched or not) apply after, per channel. Running
 * stats fold the same way, (B, C) -> (B*C) (an unbatched one, in eval mode only, expanded):
 * training updates them in place, so where the fold is a copy the update is copied back.
 * An unbatched input is expanded over the batch (the samples differ by their stats).
 */
function foldedBatchNormRule(h: OperatorHandle) {
  return (c: RuleCall): RuleResult[] => {
    const training = c.args[5] === true;
    const x = physicalAtFront(c.s, c.args[0] as TensorImpl, c.level, c.size);
    const [b, n, ch] = [c.size, x.sizes[1]!, x.sizes[2]!];
    const spatial = x.sizes.slice(3);
    const nb = c.s.call('permute', [x, [1, 0, ...Array.from({ length: x.dim - 2 }, (_, i) => i + 2)]]);
    const folded = c.s.call('reshape', [nb, [n, b * ch, ...spatial]]);
    const stats = [c.args[3], c.args[4]].map((t) => {
      if (!(t instanceof TensorImpl)) return null;
      const front = physicalAtFront(c.s, t, c.level, c.size); // [B, C]
      return { front, flat: c.s.call('reshape', [front, [b * ch]]) };
    });
    const [out, mean, invstd] = c.s.callMulti(h, [folded, null, null, stats[0]?.flat ?? null, stats[1]?.flat ?? null, training, c.args[6], c.args[7]]);
    if (training) {
      // (a reshape that copied: the in-place update reached the copy only)
      for (const st of stats) if (st && st.flat.storage !== st.front.storage) c.s.call('copy_', [st.front, c.s.call('reshape', [st.flat, [b, ch]]), false]);
    }
    let r = c.s.call('reshape', [out, [n, b, ch, ...spatial]]);
    const ones = spatial.map(() => 1);
    // (a per-channel parameter: batched (B, C) lines up with r's (B, C, ...), unbatched (C) with (C, ...))
    const perChannel = (t: TensorImpl): TensorImpl => {
      const pb = atLevel(t, c.level);
      return pb ? c.s.call('reshape', [moveBdimToFront(c.s, pb), [b, ch, ...ones]]) : c.s.call('reshape', [t, [ch, ...ones]]);
    };
    if (c.args[1] instanceof TensorImpl) r = c.s.call('mul', [r, perChannel(c.args[1])]);
    if (c.args[2] instanceof TensorImpl) r = c.s.call('add', [r, perChannel(c.args[2])]);
    // (eval mode's saved statistics: whatever the kernel returns for the folded stats, per sample where it is per channel)
    const saved = (t: TensorImpl): RuleResult => (t.numel === b * ch ? [c.s.call('reshape', [t, [b, ch]]), 0] : [t, null]);
    return [[r, 1], saved(mean), saved(invstd)];
  };
}

/**
 * Training batch norm writes its running stats per call: unbatched ones cannot take per-sample
 * updates (functorch's error). Eval batch norm with unbatched stats and affine parameters is a
 * per-channel map: the batch folds into N. Every other combination with a logical input of
 * rank >= 2 folds the batch into the channels (foldedBatchNormRule); the rest loops.
 */
function batchNormCheck(h: OperatorHandle): BoxedKernel {
  const loop = loopFallback(h);
  defineBatchRule(h, (c) => {
    const x = moveBdimToFront(c.s, atLevel(c.args[0], c.level)!);
    const [out, mean, invstd] = c.s.callMulti(h, [fold(c, x), ...c.args.slice(1)]);
    // (eval's saved statistics are the running ones, the same for every sample)
    return [[unfold(c, out, c.size), 0], [mean, null], [invstd, null]];
  });
  const evalRule = h.kernels[DispatchKey.FuncTorchBatched]!;
  defineBatchRule(h, foldedBatchNormRule(h));
  const foldedRule = h.kernels[DispatchKey.FuncTorchBatched]!;
  return (ks, args) => {
    const level = maxLevel(args);
    const x = atLevel(args[0], level);
    const [, , , rm, rv, training] = args;
    if (training === false && x !== null && x.dim >= 2 && args.slice(1, 5).every((t) => !atLevel(t, level))) return evalRule(ks, args);
    const stale = (t: unknown) => t instanceof TensorImpl && !atLevel(t, level);
    if (training === true && x !== null && (stale(rm) || stale(rv))) {
      throw new TorchError(
        'native_batch_norm: Batch norm got a batched tensor as input while the running_mean or running_var, which will be updated in place, were not batched. If you are using a module and do not need eval mode, please set `track_running_stats` to be False.',
      );
    }
    const input = args[0] as TensorImpl;
    if (input.dim >= 2 && (training !== true || !(stale(rm) || stale(rv)))) return foldedRule(ks, args);
    return loop(ks, args);
  };
}

export function registerNnRules(): void {
  const bn = getOperator('native_batch_norm');
  registerKernel(bn, DispatchKey.FuncTorchBatched, batchNormCheck(bn));
  for (const op of ['mm', 'bmm']) defineBatchRule(op, matmulRule);
  defineBatchRule('addmm', addmmRule);
  defineBatchRule('mv', mvRule);
  defineBatchRule('dot', dotRule);
  const conv = getOperator('convolution');
  const convLoop = loopFallback(conv);
  defineBatchRule(conv, convolutionRule);
  wrapUncovered(conv, (args) => args[8] === undefined, convLoop);
  defineBatchRule('max_pool2d_with_indices', maxPoolRule);
  for (const op of ['nll_loss_forward', 'nll_loss2d_forward'] as const) {
    const h = getOperator(op);
    defineBatchRule(h, nllRule(op));
    // (a batched class weight goes to the loop)
    wrapUncovered(h, (args) => atLevel(args[2], maxLevel(args)) !== null, loopFallback(h));
  }
}

/** Sends the calls `uncovered` picks to `loop`, the others to the rule registered at FuncTorchBatched. */
function wrapUncovered(h: OperatorHandle, uncovered: (args: unknown[]) => boolean, loop: BoxedKernel): void {
  const rule = h.kernels[DispatchKey.FuncTorchBatched]!;
  registerKernel(h, DispatchKey.FuncTorchBatched, (ks, args) => (uncovered(args) ? loop(ks, args) : rule(ks, args)));
}
