import { ShapeError, ValueError, cat, isOptionsObject, stack, tidy, zeros, type BoundArgs, type DType, type DeviceLike } from '@torch-ts/core';
import * as F from '../functional';
import { FACTORY_PARAMS, initBinder } from '../init-args';
import * as init from '../init';
import { Tensor } from '../internal';
import { Module } from '../module';
import type { Parameter } from '../parameter';
import { pyFloat, pyRepr } from '../repr';
import { emptyParam, type FactoryKwargs } from './linear';
import { gruStep, lstmStep, simpleStep, type CellWeights } from './rnn-cell';

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

  /** `check_input`: a 3-D input with `input_size` features. */
  protected checkInput(input: Tensor): void {
    if (input.dim() !== 3) throw new ShapeError(`${this._getName()}: input must have 3 dimensions, got ${input.dim()}`);
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

  /** `get_expected_hidden_size` of a batched input: [layers * directions, batch, proj_size or hidden_size]. */
  protected expectedHiddenSize(input: Tensor): number[] {
    const batch = input.size(this.batchFirst ? 0 : 1);
    return [this.numLayers * (this.bidirectional ? 2 : 1), batch, this.projSize > 0 ? this.projSize : this.hiddenSize];
  }

  protected zerosState(input: Tensor, size: number): Tensor {
    const batch = input.size(this.batchFirst ? 0 : 1);
    return zeros([this.numLayers * (this.bidirectional ? 2 : 1), batch, size], { dtype: input.dtype, device: input.device });
  }

  /**
   * Runs the layers over a batched input (batch-first or not, as the module's) from the
   * initial states h0 (and c0 for an LSTM): [output, h_n, c_n or null].
   */
  protected run(input: Tensor, h0: Tensor, c0: Tensor | null): [Tensor, Tensor, Tensor | null] {
    const dirs = this.bidirectional ? 2 : 1;
    let layerInput = this.batchFirst ? input.transpose(0, 1) : input;
    const hs: Tensor[] = [];
    const cs: Tensor[] = [];
    for (let layer = 0; layer < this.numLayers; layer++) {
      const outs: Tensor[] = [];
      for (let d = 0; d < dirs; d++) {
        const k = layer * dirs + d;
        const [out, h, c] = this.runDirection(layerInput, h0.select(0, k), c0 === null ? null : c0.select(0, k), this.cellWeights(layer, d), d === 1);
        outs.push(out);
        hs.push(h);
        if (c !== null) cs.push(c);
      }
      let layerOutput = dirs === 1 ? outs[0] : cat(outs, -1);
      if (this.dropout !== 0 && this.training && layer < this.numLayers - 1) layerOutput = F.dropout(layerOutput, { p: this.dropout, training: true });
      layerInput = layerOutput;
    }
    const output = this.batchFirst ? layerInput.transpose(0, 1) : layerInput;
    return [output, stack(hs, 0), c0 === null ? null : stack(cs, 0)];
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
      const g = gi.select(0, t);
      if (this.mode === 'LSTM') [h, c] = lstmStep(g, h, c!, w);
      else if (this.mode === 'GRU') h = gruStep(g, h, w);
      else h = simpleStep(g, h, w, this.mode === 'RNN_RELU');
      outs[t] = h;
    }
    return [stack(outs, 0), h, c];
  }

  /**
   * The forward of RNN and GRU (one state h): PyTorch's unbatched-input handling, h0 checks
   * and zeros, then `run`.
   */
  protected forwardH(input: Tensor, hx: Tensor | null): [Tensor, Tensor] {
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
    if (h === null) h = this.zerosState(x, this.hiddenSize);
    this.checkInput(x);
    this.checkHiddenSize(h, this.expectedHiddenSize(x));
    const [out, hn] = this.run(x, h, null);
    return batched ? [out, hn] : [out.squeeze(batchDim), hn.squeeze(1)];
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

  override forward(input: Tensor, hx: Tensor | null = null): [Tensor, Tensor] {
    return tidy(() => this.forwardH(input, hx));
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

  override forward(input: Tensor, hx: Tensor | null = null): [Tensor, Tensor] {
    return tidy(() => this.forwardH(input, hx));
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

  override forward(input: Tensor, hx: readonly [Tensor, Tensor] | null = null): [Tensor, [Tensor, Tensor]] {
    return tidy(() => {
      const batched = input.dim() === 3;
      const batchDim = this.batchFirst ? 0 : 1;
      const x = batched ? input : input.unsqueeze(batchDim);
      let h: Tensor;
      let c: Tensor;
      if (hx === null) {
        h = this.zerosState(x, this.projSize > 0 ? this.projSize : this.hiddenSize);
        c = this.zerosState(x, this.hiddenSize);
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
      this.checkInput(x);
      const expected = this.expectedHiddenSize(x);
      this.checkHiddenSize(h, expected, 'Expected hidden[0] size');
      this.checkHiddenSize(c, [expected[0], expected[1], this.hiddenSize], 'Expected hidden[1] size');
      const [out, hn, cn] = this.run(x, h, c);
      return batched ? [out, [hn, cn!]] : [out.squeeze(batchDim), [hn.squeeze(1), cn!.squeeze(1)]];
    });
  }
}
