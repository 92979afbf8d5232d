import { ShapeError, ValueError, cat, isOptionsObject, stack, tidy, zeros, type BoundArgs, type DType, type DeviceLike } from '@torch-ts/core';
import * as F from '../functional';
import { FACTORY_PARAMS, initBinder } from '../init-args';
import * as init from '../init';
import { Tensor } from '../internal';
import { Module } from '../module';
import type { Parameter } from '../parameter';
import { pyFloat, pyRepr } from '../repr';
import { emptyParam, type FactoryKwargs } from './linear';
import { PackedSequence } from '../rnn-utils';
import { gruStep, lstmStep, simpleStep, type CellWeights } from './rnn-cell';

/** `permute_hidden`: the states in a PackedSequence's sorted (or original) batch order. */
function permute(hx: Tensor, permutation: Tensor | null): Tensor {
  return permutation === null ? hx : hx.indexSelect(1, permutation);
}

/** The recurrence an RNNBase runs (PyTorch's `mode`). */
export type RNNMode = 'RNN_TANH' | 'RNN_RELU' | 'LSTM' | 'GRU';

export interface RNNBaseOptions extends FactoryKwargs {
  numLayers?: number | null;
  bias?: boolean | null;
  batchFirst?: boolean | null;
  dropout?: number | null;
  bidirectional?: boolean | null;
}

export interface RNNOptions extends RNNBaseOptions {
  nonlinearity?: 'tanh' | 'relu' | null;
}

export interface LSTMOptions extends RNNBaseOptions {
  projSize?: number | null;
}

// PyTorch's RNN and GRU take RNNBase's positional arguments (proj_size among them) and refuse
// `proj_size` by keyword; RNN's `nonlinearity` is keyword-only (popped from **kwargs).
const BASE = `int input_size, int hidden_size, int num_layers=1, bool bias=True, bool batch_first=False, float dropout=0.0, bool bidirectional=False, int proj_size=0, ${FACTORY_PARAMS}`;
const rnnArgs = initBinder('RNN', `${BASE}, *, str nonlinearity='tanh'`);
const lstmArgs = initBinder('LSTM', BASE);
const gruArgs = initBinder('GRU', BASE);

type Bound = [number, number, number, boolean, boolean, number, boolean, number, DeviceLike | undefined, DType | undefined];
type RnnArgs<O> = BoundArgs<
  [inputSize: number, hiddenSize: number],
  [numLayers: number, bias: boolean, batchFirst: boolean, dropout: number, bidirectional: boolean, projSize: number, device: DeviceLike, dtype: DType | string],
  O & { inputSize?: number; hiddenSize?: number }
>;

/** Whether the call's options object names `key` (PyTorch's `'proj_size' in kwargs`). */
function keywordGiven(args: readonly unknown[], key: string): boolean {
  const last = args[args.length - 1];
  return isOptionsObject(last) && key in last;
}

const GATES: Record<RNNMode, number> = { RNN_TANH: 1, RNN_RELU: 1, LSTM: 4, GRU: 3 };

/**
 * Note [Recurrent layers]
 * `RNNBase` holds PyTorch's parameters under PyTorch's names and order: for each layer l and
 * direction (suffix `_reverse` for the backward one), `weight_ih_l{l}`, `weight_hh_l{l}`, then
 * with `bias` `bias_ih_l{l}`, `bias_hh_l{l}`, then with `proj_size` `weight_hr_l{l}`; all drawn
 * from U(-1/√hidden, 1/√hidden) in that order, so a seeded layer equals PyTorch's. `forward`
 * is ATen's `_rnn_impl` for a padded (time-major) input: each layer runs each direction over
 * the sequence (the reverse direction from the last step back, its outputs kept in time
 * order), the two directions' outputs are concatenated on the feature dim, and in training
 * mode dropout (F.dropout, PyTorch's generator order: one mask per layer but the last, drawn
 * after that layer's both directions) is applied to every layer's output but the last's.
 * h_n (and c_n) stack the final states as `[layer0 fwd, layer0 bwd, layer1 fwd, ...]`. The
 * input projection of a whole sequence is one `linear` before the time loop (Note [Recurrent
 * cells are composites]). Each forward runs in a `tidy` scope, so the per-step handles are
 * released at once while autograd keeps what backward needs.
 */
export abstract class RNNBase extends Module {
  /** The parameters by PyTorch's names (`lstm.weight_ih_l0`, `gru.bias_hh_l1_reverse`); biases only with `bias`. */
  [param: `weight_${'ih' | 'hh' | 'hr'}_l${number}` | `weight_${'ih' | 'hh' | 'hr'}_l${number}_reverse`]: Parameter;
  [bias: `bias_${'ih' | 'hh'}_l${number}` | `bias_${'ih' | 'hh'}_l${number}_reverse`]: Parameter;
  readonly mode: RNNMode;
  readonly inputSize: number;
  readonly hiddenSize: number;
  readonly numLayers: number;
  readonly bias: boolean;
  readonly batchFirst: boolean;
  readonly dropout: number;
  readonly bidirectional: boolean;
  readonly projSize: number;
  /** The parameter names of each (layer, direction), PyTorch's `_all_weights`. */
  readonly _allWeightNames: string[][];

  /** @internal (RNN, LSTM and GRU bind their arguments and call it with their mode) */
  protected constructor(mode: RNNMode, bound: Bound) {
    super();
    const [inputSize, hiddenSize, numLayers, bias, batchFirst, dropout, bidirectional, projSize, device, dtype] = bound;
    const name = mode === 'LSTM' || mode === 'GRU' ? mode : 'RNN';
    this.mode = mode;
    this.inputSize = inputSize;
    this.hiddenSize = hiddenSize;
    this.numLayers = numLayers;
    this.bias = bias;
    this.batchFirst = batchFirst;
    this.dropout = dropout;
    this.bidirectional = bidirectional;
    this.projSize = projSize;
    if (!(dropout >= 0 && dropout <= 1)) {
      throw new ValueError(`${name}: dropout should be a number in range [0, 1] representing the probability of an element being zeroed`);
    }
    if (projSize < 0) throw new ValueError(`${name}: proj_size should be a positive integer or zero to disable projections`);
    if (projSize >= hiddenSize) throw new ValueError(`${name}: proj_size has to be smaller than hidden_size`);
    const gateSize = GATES[mode] * hiddenSize;
    const dirs = bidirectional ? 2 : 1;
    const realHidden = projSize > 0 ? projSize : hiddenSize;
    const o = { device, dtype };
    this._allWeightNames = [];
    for (let layer = 0; layer < numLayers; layer++) {
      for (let d = 0; d < dirs; d++) {
        const layerInput = layer === 0 ? inputSize : realHidden * dirs;
        const suffix = d === 1 ? '_reverse' : '';
        const params: [string, number[]][] = [
          [`weight_ih_l${layer}${suffix}`, [gateSize, layerInput]],
          [`weight_hh_l${layer}${suffix}`, [gateSize, realHidden]],
        ];
        if (bias) params.push([`bias_ih_l${layer}${suffix}`, [gateSize]], [`bias_hh_l${layer}${suffix}`, [gateSize]]);
        if (projSize > 0) params.push([`weight_hr_l${layer}${suffix}`, [projSize, hiddenSize]]);
        for (const [n, shape] of params) this.registerParameter(n, emptyParam(shape, o));
        this._allWeightNames.push(params.map(([n]) => n));
      }
    }
    this.resetParameters();
  }

  resetParameters(): void {
    const stdv = this.hiddenSize > 0 ? 1.0 / Math.sqrt(this.hiddenSize) : 0;
    for (const w of this.parameters()) init.uniform_(w, -stdv, stdv);
  }

  /** PyTorch's `all_weights`: each (layer, direction)'s parameters, in registration order. */
  get allWeights(): Parameter[][] {
    return this._allWeightNames.map((names) => names.map((n) => this._parameters.get(n)!));
  }

  /** The weights of layer `layer`, direction `d` (read at each forward: `to()` and `loadStateDict` replace them). */
  private cellWeights(layer: number, d: number): CellWeights {
    const suffix = d === 1 ? '_reverse' : '';
    const get = (n: string) => this._parameters.get(`${n}_l${layer}${suffix}`) ?? null;
    return { wIh: get('weight_ih')!, wHh: get('weight_hh')!, bIh: get('bias_ih'), bHh: get('bias_hh'), wHr: get('weight_hr') };
  }

  /** `check_input`: a 3-D input (2-D packed data) with `input_size` features. */
  protected checkInput(input: Tensor, packed: boolean): void {
    const dims = packed ? 2 : 3;
    if (input.dim() !== dims) throw new ShapeError(`${this._getName()}: input must have ${dims} dimensions, got ${input.dim()}`);
    if (input.size(-1) !== this.inputSize) {
      throw new ShapeError(`${this._getName()}: input.size(-1) must be equal to input_size. Expected ${this.inputSize}, got ${input.size(-1)}`);
    }
  }

  /** `check_hidden_size`: `msg` gets PyTorch's tuple of the expected size and list of the actual one. */
  protected checkHiddenSize(hx: Tensor, expected: number[], msg = 'Expected hidden size'): void {
    if (hx.dim() !== expected.length || expected.some((s, i) => hx.size(i) !== s)) {
      throw new ShapeError(`${this._getName()}: ${msg} ${pyRepr(expected)}, got [${hx.shape.join(', ')}]`);
    }
  }

  /** `get_expected_hidden_size`: [layers * directions, batch, proj_size or hidden_size]. */
  protected expectedHiddenSize(batch: number): number[] {
    return [this.numLayers * (this.bidirectional ? 2 : 1), batch, this.projSize > 0 ? this.projSize : this.hiddenSize];
  }

  protected zerosState(like: Tensor, batch: number, size: number): Tensor {
    return zeros([this.numLayers * (this.bidirectional ? 2 : 1), batch, size], { dtype: like.dtype, device: like.device });
  }

  /**
   * Runs the layers from the initial states h0 (and c0 for an LSTM): [output, h_n, c_n or
   * null]. `input` is a padded batch (batch-first or not, as the module's), or with
   * `batchSizes` a PackedSequence's data (Note [PackedSequence]).
   */
  protected run(input: Tensor, h0: Tensor, c0: Tensor | null, batchSizes: number[] | null = null): [Tensor, Tensor, Tensor | null] {
    const dirs = this.bidirectional ? 2 : 1;
    const timeMajor = batchSizes === null && this.batchFirst;
    let layerInput = timeMajor ? input.transpose(0, 1) : input;
    const hs: Tensor[] = [];
    const cs: Tensor[] = [];
    for (let layer = 0; layer < this.numLayers; layer++) {
      const outs: Tensor[] = [];
      for (let d = 0; d < dirs; d++) {
        const k = layer * dirs + d;
        const args = [layerInput, h0.select(0, k), c0 === null ? null : c0.select(0, k), this.cellWeights(layer, d)] as const;
        const [out, h, c] =
          batchSizes === null ? this.runDirection(...args, d === 1) : d === 1 ? this.runPackedReverse(...args, batchSizes) : this.runPackedForward(...args, batchSizes);
        outs.push(out);
        hs.push(h);
        if (c !== null) cs.push(c);
      }
      let layerOutput = dirs === 1 ? outs[0] : cat(outs, -1);
      if (this.dropout !== 0 && this.training && layer < this.numLayers - 1) layerOutput = F.dropout(layerOutput, { p: this.dropout, training: true });
      layerInput = layerOutput;
    }
    const output = timeMajor ? layerInput.transpose(0, 1) : layerInput;
    return [output, stack(hs, 0), c0 === null ? null : stack(cs, 0)];
  }

  /** One step of the module's cell from the input projection `gi`. */
  private step(gi: Tensor, h: Tensor, c: Tensor | null, w: CellWeights): [Tensor, Tensor | null] {
    if (this.mode === 'LSTM') return lstmStep(gi, h, c!, w);
    if (this.mode === 'GRU') return [gruStep(gi, h, w), null];
    return [simpleStep(gi, h, w, this.mode === 'RNN_RELU'), null];
  }

  /** One direction of one layer over a time-major [T, B, F] input: [outputs [T, B, H], h_T, c_T]. */
  private runDirection(x: Tensor, h0: Tensor, c0: Tensor | null, w: CellWeights, reverse: boolean): [Tensor, Tensor, Tensor | null] {
    const steps = x.size(0);
    const gi = F.linear(x, w.wIh, w.bIh);
    const outs: Tensor[] = new Array<Tensor>(steps);
    let h = h0;
    let c = c0;
    for (let s = 0; s < steps; s++) {
      const t = reverse ? steps - 1 - s : s;
      [h, c] = this.step(gi.select(0, t), h, c, w);
      outs[t] = h;
    }
    return [stack(outs, 0), h, c];
  }

  /**
   * The forward direction over packed data (ATen's PackedLayer): at each step the batch
   * shrinks to `batchSizes[t]`, and the states of the sequences that just ended are their
   * final states, gathered back in batch order at the end.
   */
  private runPackedForward(data: Tensor, h0: Tensor, c0: Tensor | null, w: CellWeights, batchSizes: number[]): [Tensor, Tensor, Tensor | null] {
    const gi = F.linear(data, w.wIh, w.bIh);
    const finalH: Tensor[] = [];
    const finalC: Tensor[] = [];
    const outs: Tensor[] = [];
    let h = h0;
    let c = c0;
    let last = batchSizes[0];
    let offset = 0;
    for (const b of batchSizes) {
      if (b < last) {
        finalH.push(h.narrow(0, b, last - b));
        h = h.narrow(0, 0, b);
        if (c !== null) {
          finalC.push(c.narrow(0, b, last - b));
          c = c.narrow(0, 0, b);
        }
      }
      last = b;
      [h, c] = this.step(gi.narrow(0, offset, b), h, c, w);
      offset += b;
      outs.push(h);
    }
    finalH.push(h);
    if (c !== null) finalC.push(c);
    return [cat(outs, 0), cat(finalH.reverse(), 0), c === null ? null : cat(finalC.reverse(), 0)];
  }

  /**
   * The reverse direction over packed data (ATen's ReversedPackedLayer): from the last step
   * back, the batch grows to `batchSizes[t]`, the sequences joining with their rows of h0.
   */
  private runPackedReverse(data: Tensor, h0: Tensor, c0: Tensor | null, w: CellWeights, batchSizes: number[]): [Tensor, Tensor, Tensor | null] {
    const gi = F.linear(data, w.wIh, w.bIh);
    const outs: Tensor[] = [];
    let last = batchSizes[batchSizes.length - 1];
    let h = h0.narrow(0, 0, last);
    let c = c0 === null ? null : c0.narrow(0, 0, last);
    let offset = data.size(0);
    for (let t = batchSizes.length - 1; t >= 0; t--) {
      const b = batchSizes[t];
      if (b > last) {
        h = cat([h, h0.narrow(0, last, b - last)], 0);
        if (c !== null) c = cat([c, c0!.narrow(0, last, b - last)], 0);
      }
      last = b;
      offset -= b;
      [h, c] = this.step(gi.narrow(0, offset, b), h, c, w);
      outs.push(h);
    }
    return [cat(outs.reverse(), 0), h, c];
  }

  /**
   * The forward of RNN and GRU (one state h): PyTorch's unbatched-input and PackedSequence
   * handling, h0 checks and zeros, then `run`.
   */
  protected forwardH(input: Tensor | PackedSequence, hx: Tensor | null): [Tensor | PackedSequence, Tensor] {
    if (input instanceof PackedSequence) {
      const bs = input.batchSizesList();
      const [out, hn] = tidy(() => {
        const h = hx === null ? this.zerosState(input.data, bs[0], this.hiddenSize) : permute(hx, input.sortedIndices);
        this.checkInput(input.data, true);
        this.checkHiddenSize(h, this.expectedHiddenSize(bs[0]));
        const [o, hN] = this.run(input.data, h, null, bs);
        return [o, permute(hN, input.unsortedIndices)];
      });
      return [new PackedSequence(out, input.batchSizes, input.sortedIndices, input.unsortedIndices), hn];
    }
    return tidy(() => {
      const batched = input.dim() === 3;
      const batchDim = this.batchFirst ? 0 : 1;
      let x = input;
      let h = hx;
      if (!batched) {
        x = input.unsqueeze(batchDim);
        if (h !== null) {
          if (h.dim() !== 2) throw new ShapeError(`${this._getName()}: For unbatched 2-D input, hx should also be 2-D but got ${h.dim()}-D tensor`);
          h = h.unsqueeze(1);
        }
      } else if (h !== null && h.dim() !== 3) {
        throw new ShapeError(`${this._getName()}: For batched 3-D input, hx should also be 3-D but got ${h.dim()}-D tensor`);
      }
      const batch = x.size(batchDim);
      if (h === null) h = this.zerosState(x, batch, this.hiddenSize);
      this.checkInput(x, false);
      this.checkHiddenSize(h, this.expectedHiddenSize(batch));
      const [out, hn] = this.run(x, h, null);
      return batched ? [out, hn] : [out.squeeze(batchDim), hn.squeeze(1)];
    });
  }

  override extraRepr(): string {
    let s = `${this.inputSize}, ${this.hiddenSize}`;
    if (this.projSize !== 0) s += `, proj_size=${this.projSize}`;
    if (this.numLayers !== 1) s += `, num_layers=${this.numLayers}`;
    if (this.bias !== true) s += `, bias=${pyRepr(this.bias)}`;
    if (this.batchFirst !== false) s += `, batch_first=${pyRepr(this.batchFirst)}`;
    if (this.dropout !== 0) s += `, dropout=${pyRepr(pyFloat(this.dropout))}`;
    if (this.bidirectional !== false) s += `, bidirectional=${pyRepr(this.bidirectional)}`;
    return s;
  }
}

/**
 * `nn.RNN(inputSize, hiddenSize, numLayers?, { nonlinearity: 'tanh' | 'relu', bias,
 * batchFirst, dropout, bidirectional })`: an Elman RNN. `forward(input, h0?)` returns
 * `[output, h_n]`.
 */
export class RNN extends RNNBase {
  readonly nonlinearity: string;

  constructor(...args: RnnArgs<RNNOptions>) {
    if (keywordGiven(args, 'projSize')) throw new ValueError('RNN: proj_size argument is only supported for LSTM, not RNN or GRU');
    const [inputSize, hiddenSize, numLayers, bias, batchFirst, dropout, bidirectional, projSize, device, dtype, nonlinearity] = rnnArgs.bind(args);
    if (nonlinearity !== 'tanh' && nonlinearity !== 'relu') throw new ValueError(`RNN: Unknown nonlinearity '${nonlinearity}'`);
    if (projSize !== 0) throw new ValueError('RNN: proj_size argument is only supported for LSTM, not RNN or GRU');
    super(nonlinearity === 'tanh' ? 'RNN_TANH' : 'RNN_RELU', [inputSize, hiddenSize, numLayers, bias, batchFirst, dropout, bidirectional, projSize, device, dtype]);
    this.nonlinearity = nonlinearity;
  }

  override forward(input: PackedSequence, hx?: Tensor | null): [PackedSequence, Tensor];
  override forward(input: Tensor, hx?: Tensor | null): [Tensor, Tensor];
  override forward(input: Tensor | PackedSequence, hx: Tensor | null = null): [Tensor | PackedSequence, Tensor] {
    return this.forwardH(input, hx);
  }
}

/** `nn.GRU(inputSize, hiddenSize, numLayers?, { bias, batchFirst, dropout, bidirectional })`: `forward(input, h0?)` returns `[output, h_n]`. */
export class GRU extends RNNBase {
  constructor(...args: RnnArgs<RNNBaseOptions>) {
    if (keywordGiven(args, 'projSize')) throw new ValueError('GRU: proj_size argument is only supported for LSTM, not RNN or GRU');
    const bound = gruArgs.bind(args);
    if (bound[7] !== 0) throw new ValueError('GRU: proj_size argument is only supported for LSTM, not RNN or GRU');
    super('GRU', bound);
  }

  override forward(input: PackedSequence, hx?: Tensor | null): [PackedSequence, Tensor];
  override forward(input: Tensor, hx?: Tensor | null): [Tensor, Tensor];
  override forward(input: Tensor | PackedSequence, hx: Tensor | null = null): [Tensor | PackedSequence, Tensor] {
    return this.forwardH(input, hx);
  }
}

/**
 * `nn.LSTM(inputSize, hiddenSize, numLayers?, { bias, batchFirst, dropout, bidirectional,
 * projSize })`: `forward(input, [h0, c0]?)` returns `[output, [h_n, c_n]]`, as PyTorch's
 * `output, (h_n, c_n) = lstm(x)`; with `projSize` the hidden states (and the output) have
 * `projSize` features, the cell states `hiddenSize`.
 */
export class LSTM extends RNNBase {
  constructor(...args: RnnArgs<LSTMOptions>) {
    super('LSTM', lstmArgs.bind(args));
  }

  override forward(input: PackedSequence, hx?: readonly [Tensor, Tensor] | null): [PackedSequence, [Tensor, Tensor]];
  override forward(input: Tensor, hx?: readonly [Tensor, Tensor] | null): [Tensor, [Tensor, Tensor]];
  override forward(input: Tensor | PackedSequence, hx: readonly [Tensor, Tensor] | null = null): [Tensor | PackedSequence, [Tensor, Tensor]] {
    const hSize = this.projSize > 0 ? this.projSize : this.hiddenSize;
    if (input instanceof PackedSequence) {
      const bs = input.batchSizesList();
      const [out, hn, cn] = tidy(() => {
        const h = hx === null ? this.zerosState(input.data, bs[0], hSize) : permute(hx[0], input.sortedIndices);
        const c = hx === null ? this.zerosState(input.data, bs[0], this.hiddenSize) : permute(hx[1], input.sortedIndices);
        this.checkStates(input.data, true, bs[0], h, c);
        const [o, hN, cN] = this.run(input.data, h, c, bs);
        return [o, permute(hN, input.unsortedIndices), permute(cN!, input.unsortedIndices)];
      });
      return [new PackedSequence(out, input.batchSizes, input.sortedIndices, input.unsortedIndices), [hn, cn]];
    }
    return tidy(() => {
      const batched = input.dim() === 3;
      const batchDim = this.batchFirst ? 0 : 1;
      const x = batched ? input : input.unsqueeze(batchDim);
      const batch = x.size(batchDim);
      let h: Tensor;
      let c: Tensor;
      if (hx === null) {
        h = this.zerosState(x, batch, hSize);
        c = this.zerosState(x, batch, this.hiddenSize);
      } else {
        [h, c] = hx;
        if (batched && (h.dim() !== 3 || c.dim() !== 3)) {
          throw new ShapeError(`LSTM: For batched 3-D input, hx and cx should also be 3-D but got (${h.dim()}-D, ${c.dim()}-D) tensors`);
        }
        if (!batched) {
          if (h.dim() !== 2 || c.dim() !== 2) throw new ShapeError(`LSTM: For unbatched 2-D input, hx and cx should also be 2-D but got (${h.dim()}-D, ${c.dim()}-D) tensors`);
          [h, c] = [h.unsqueeze(1), c.unsqueeze(1)];
        }
      }
      this.checkStates(x, false, batch, h, c);
      const [out, hn, cn] = this.run(x, h, c);
      return batched ? [out, [hn, cn!]] : [out.squeeze(batchDim), [hn.squeeze(1), cn!.squeeze(1)]];
    });
  }

  /** LSTM's `check_forward_args`. */
  private checkStates(x: Tensor, packed: boolean, batch: number, h: Tensor, c: Tensor): void {
    this.checkInput(x, packed);
    const expected = this.expectedHiddenSize(batch);
    this.checkHiddenSize(h, expected, 'Expected hidden[0] size');
    this.checkHiddenSize(c, [expected[0], batch, this.hiddenSize], 'Expected hidden[1] size');
  }
}
