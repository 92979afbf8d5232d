import { ShapeError, tidy, zeros, type BoundArgs, type DType, type DeviceLike } from '@torch-ts/core';
import * as F from '../functional';
import { FACTORY_PARAMS, initBinder } from '../init-args';
import * as init from '../init';
import { Tensor, TorchError } from '../internal';
import { Module } from '../module';
import type { Parameter } from '../parameter';
import { pyRepr } from '../repr';
import { emptyParam, type FactoryKwargs } from './linear';

/**
 * Note [Recurrent cells are composites]
 * One step of each recurrent cell is written with ordinary differentiable ops (linear, add,
 * chunk, sigmoid, tanh, mul), so CPU and WebGPU both run it and autograd differentiates it
 * with no kernel or derivative of its own (a fused per-step kernel would need a benchmark
 * first). The formulas and their operand order are ATen's (aten/src/ATen/native/RNN.cpp:
 * SimpleCell, LSTMCell, GRUCell):
 *   RNN:  h' = act(W_hh h + b_hh + gi)
 *   LSTM: i, f, g, o = chunk(W_hh h + b_hh + gi, 4); c' = σ(f) c + σ(i) tanh(g);
 *         h' = σ(o) tanh(c') (then h' W_hr^T with a projection)
 *   GRU:  r = σ(h_r + i_r), z = σ(h_z + i_z), n = tanh(i_n + r h_n), h' = (h - n) z + n
 * where gi = x W_ih^T + b_ih is the input's projection. The full layers (rnn.ts) compute gi
 * for the whole sequence in one linear before the time loop, as ATen's CPU path does; the
 * cells compute it per call.
 */

/** One direction of one layer's weights (PyTorch's `_all_weights[k]`); W_hr only with `proj_size`. */
export interface CellWeights {
  readonly wIh: Tensor;
  readonly wHh: Tensor;
  readonly bIh: Tensor | null;
  readonly bHh: Tensor | null;
  readonly wHr: Tensor | null;
}

/** An Elman step: act(W_hh h + b_hh + gi). */
export function simpleStep(gi: Tensor, h: Tensor, w: CellWeights, relu: boolean): Tensor {
  const pre = F.linear(h, w.wHh, w.bHh).add(gi);
  return relu ? pre.relu() : pre.tanh();
}

/** An LSTM step: [h', c'] from the input projection gi and the state [h, c]. */
export function lstmStep(gi: Tensor, h: Tensor, c: Tensor, w: CellWeights): [Tensor, Tensor] {
  const gates = F.linear(h, w.wHh, w.bHh).add(gi);
  const [i, f, g, o] = gates.chunk(4, 1);
  const cy = f.sigmoid().mul(c).add(i.sigmoid().mul(g.tanh()));
  let hy = o.sigmoid().mul(cy.tanh());
  if (w.wHr !== null) hy = hy.matmul(w.wHr.t());
  return [hy, cy];
}

/** A GRU step (the reset gate multiplies W_hn h + b_hn, as PyTorch's and cuDNN's GRU). */
export function gruStep(gi: Tensor, h: Tensor, w: CellWeights): Tensor {
  const gh = F.linear(h, w.wHh, w.bHh);
  const [ir, iz, iN] = gi.chunk(3, 1);
  const [hr, hz, hN] = gh.chunk(3, 1);
  const r = hr.add(ir).sigmoid();
  const z = hz.add(iz).sigmoid();
  const n = iN.add(hN.mul(r)).tanh();
  return h.sub(n).mul(z).add(n);
}

export interface RNNCellOptions extends FactoryKwargs {
  bias?: boolean | null;
}

export interface RNNCellNonlinearityOptions extends RNNCellOptions {
  nonlinearity?: 'tanh' | 'relu' | null;
}

const rnnCellArgs = initBinder('RNNCell', `int input_size, int hidden_size, bool bias=True, str nonlinearity='tanh', ${FACTORY_PARAMS}`);
const lstmCellArgs = initBinder('LSTMCell', `int input_size, int hidden_size, bool bias=True, ${FACTORY_PARAMS}`);
const gruCellArgs = initBinder('GRUCell', `int input_size, int hidden_size, bool bias=True, ${FACTORY_PARAMS}`);

type CellArgs<O> = BoundArgs<[inputSize: number, hiddenSize: number], [bias: boolean, device: DeviceLike, dtype: DType | string], O & { inputSize?: number; hiddenSize?: number }>;
type RNNCellArgs = BoundArgs<
  [inputSize: number, hiddenSize: number],
  [bias: boolean, nonlinearity: 'tanh' | 'relu', device: DeviceLike, dtype: DType | string],
  RNNCellNonlinearityOptions & { inputSize?: number; hiddenSize?: number }
>;

/**
 * `RNNCellBase`: `weight_ih` [chunks * hidden, input], `weight_hh` [chunks * hidden, hidden]
 * and, with `bias`, `bias_ih` and `bias_hh`, all drawn from U(-1/√hidden, 1/√hidden) in that
 * order (PyTorch's `reset_parameters`), so the values equal PyTorch's after the same seed.
 */
export abstract class RNNCellBase extends Module {
  declare weight_ih: Parameter;
  declare weight_hh: Parameter;
  declare bias_ih: Parameter | null;
  declare bias_hh: Parameter | null;
  readonly inputSize: number;
  readonly hiddenSize: number;
  readonly bias: boolean;

  protected constructor(inputSize: number, hiddenSize: number, bias: boolean, numChunks: number, device: DeviceLike | undefined, dtype: DType | undefined) {
    super();
    const o = { device, dtype };
    this.inputSize = inputSize;
    this.hiddenSize = hiddenSize;
    this.bias = bias;
    this.weight_ih = emptyParam([numChunks * hiddenSize, inputSize], o);
    this.weight_hh = emptyParam([numChunks * hiddenSize, hiddenSize], o);
    if (bias) {
      this.bias_ih = emptyParam([numChunks * hiddenSize], o);
      this.bias_hh = emptyParam([numChunks * hiddenSize], o);
    } else {
      this.registerParameter('bias_ih', null);
      this.registerParameter('bias_hh', null);
    }
    this.resetParameters();
  }

  resetParameters(): void {
    const stdv = this.hiddenSize > 0 ? 1.0 / Math.sqrt(this.hiddenSize) : 0;
    for (const w of this.parameters()) init.uniform_(w, -stdv, stdv);
  }

  protected weights(): CellWeights {
    return { wIh: this.weight_ih, wHh: this.weight_hh, bIh: this.bias_ih, bHh: this.bias_hh, wHr: null };
  }

  /** PyTorch's `assert input.dim() in (1, 2)`: whether the input is batched. */
  protected isBatched(input: Tensor): boolean {
    if (input.dim() !== 1 && input.dim() !== 2) throw new ShapeError(`${this._getName()}: Expected input to be 1-D or 2-D but received ${input.dim()}-D tensor`);
    return input.dim() === 2;
  }

  /** ATen's `check_rnn_cell_forward_input`. */
  protected checkInput(input: Tensor): void {
    const got = input.size(1);
    if (got !== this.weight_ih.size(1)) throw new ShapeError(`${this._getName()}: input has inconsistent input_size: got ${got} expected ${this.weight_ih.size(1)}`);
  }

  /** ATen's `check_rnn_cell_forward_hidden` (its label is 0 for both of LSTMCell's states, as in PyTorch 1.13). */
  protected checkHidden(input: Tensor, hx: Tensor): void {
    const name = this._getName();
    if (hx.dim() < 2) throw new ShapeError(`${name}: hidden0 must be 2-D (batch, hidden_size) for a batched input, got ${hx.dim()}-D`);
    if (input.size(0) !== hx.size(0)) throw new ShapeError(`${name}: Input batch size ${input.size(0)} doesn't match hidden0 batch size ${hx.size(0)}`);
    const hidden = this.weight_hh.size(1);
    if (hx.size(1) !== hidden) throw new ShapeError(`${name}: hidden0 has inconsistent hidden_size: got ${hx.size(1)}, expected ${hidden}`);
  }

  protected zerosState(input: Tensor): Tensor {
    return zeros([input.size(0), this.hiddenSize], { dtype: input.dtype, device: input.device });
  }

  override extraRepr(): string {
    let s = `${this.inputSize}, ${this.hiddenSize}`;
    if (!this.bias) s += `, bias=${pyRepr(this.bias)}`;
    return s;
  }
}

/** `nn.RNNCell(inputSize, hiddenSize, { bias, nonlinearity: 'tanh' | 'relu' })`: h' = act(W_ih x + b_ih + W_hh h + b_hh). */
export class RNNCell extends RNNCellBase {
  readonly nonlinearity: string;

  constructor(...args: RNNCellArgs) {
    const [inputSize, hiddenSize, bias, nonlinearity, device, dtype] = rnnCellArgs.bind(args);
    super(inputSize, hiddenSize, bias, 1, device, dtype);
    // (checked at forward, as PyTorch's RNNCell does)
    this.nonlinearity = nonlinearity;
  }

  override forward(input: Tensor, hx: Tensor | null = null): Tensor {
    return tidy(() => {
      const batched = this.isBatched(input);
      const x = batched ? input : input.unsqueeze(0);
      const h = hx === null ? this.zerosState(x) : batched ? hx : hx.unsqueeze(0);
      if (this.nonlinearity !== 'tanh' && this.nonlinearity !== 'relu') throw new TorchError(`RNNCell: Unknown nonlinearity: ${this.nonlinearity}`);
      this.checkInput(x);
      this.checkHidden(x, h);
      const w = this.weights();
      const y = simpleStep(F.linear(x, w.wIh, w.bIh), h, w, this.nonlinearity === 'relu');
      return batched ? y : y.squeeze(0);
    });
  }

  override extraRepr(): string {
    let s = super.extraRepr();
    if (this.nonlinearity !== 'tanh') s += `, nonlinearity=${this.nonlinearity}`;
    return s;
  }
}

/** `nn.LSTMCell(inputSize, hiddenSize, { bias })`: `forward(x, [h, c]?)` returns `[h', c']`. */
export class LSTMCell extends RNNCellBase {
  constructor(...args: CellArgs<RNNCellOptions>) {
    const [inputSize, hiddenSize, bias, device, dtype] = lstmCellArgs.bind(args);
    super(inputSize, hiddenSize, bias, 4, device, dtype);
  }

  override forward(input: Tensor, hx: readonly [Tensor, Tensor] | null = null): [Tensor, Tensor] {
    return tidy(() => {
      const batched = this.isBatched(input);
      const x = batched ? input : input.unsqueeze(0);
      let h: Tensor;
      let c: Tensor;
      if (hx === null) h = c = this.zerosState(x);
      else [h, c] = batched ? [hx[0], hx[1]] : [hx[0].unsqueeze(0), hx[1].unsqueeze(0)];
      this.checkInput(x);
      this.checkHidden(x, h);
      this.checkHidden(x, c);
      const w = this.weights();
      const [hy, cy] = lstmStep(F.linear(x, w.wIh, w.bIh), h, c, w);
      return batched ? [hy, cy] : [hy.squeeze(0), cy.squeeze(0)];
    });
  }
}

/** `nn.GRUCell(inputSize, hiddenSize, { bias })`. */
export class GRUCell extends RNNCellBase {
  constructor(...args: CellArgs<RNNCellOptions>) {
    const [inputSize, hiddenSize, bias, device, dtype] = gruCellArgs.bind(args);
    super(inputSize, hiddenSize, bias, 3, device, dtype);
  }

  override forward(input: Tensor, hx: Tensor | null = null): Tensor {
    return tidy(() => {
      const batched = this.isBatched(input);
      const x = batched ? input : input.unsqueeze(0);
      const h = hx === null ? this.zerosState(x) : batched ? hx : hx.unsqueeze(0);
      this.checkInput(x);
      this.checkHidden(x, h);
      const w = this.weights();
      const y = gruStep(F.linear(x, w.wIh, w.bIh), h, w);
      return batched ? y : y.squeeze(0);
    });
  }
}
