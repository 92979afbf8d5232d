/**
 * `torch.nn.utils.rnn` (`nn.utils.rnn`): PackedSequence and the functions that make and undo
 * one (`packPaddedSequence`, `padPackedSequence`, `padSequence`, `packSequence`).
 */
import { ShapeError, ValueError, arange, cat, full, stack, tensor, tidy, zeros, type DeviceLike } from '@torch-ts/core';
import { Tensor, TorchError } from './internal';

/**
 * Note [PackedSequence]
 * A batch of sequences of different lengths, sorted by decreasing length, stored time step by
 * time step: `data` holds, for t = 0, 1, ..., the rows of the sequences still running at t
 * (`batchSizes[t]` of them, a non-increasing int64 CPU tensor), so `data` is
 * [sum(batchSizes), *features]. `sortedIndices` is the permutation that sorted the original
 * batch (null if it was given sorted), `unsortedIndices` its inverse. As PyTorch's namedtuple
 * it destructures: `const [data, batchSizes] = packed`. Packing and padding are `narrow`,
 * `cat` and `stack`, so gradients flow through both.
 */
export class PackedSequence {
  readonly data: Tensor;
  readonly batchSizes: Tensor;
  readonly sortedIndices: Tensor | null;
  readonly unsortedIndices: Tensor | null;

  constructor(data: Tensor, batchSizes: Tensor, sortedIndices: Tensor | null = null, unsortedIndices: Tensor | null = null) {
    if (batchSizes.device.type !== 'cpu') {
      throw new ValueError(
        'PackedSequence: batch_sizes should always be on CPU. Instances of PackedSequence should never be created manually. They should be instantiated by functions like pack_sequence and pack_padded_sequences in nn.utils.rnn.',
      );
    }
    this.data = data;
    this.batchSizes = batchSizes;
    this.sortedIndices = sortedIndices;
    this.unsortedIndices = unsortedIndices ?? invertPermutation(sortedIndices);
  }

  /** `batch_sizes` as numbers. */
  batchSizesList(): number[] {
    return [...this.batchSizes.dataSync()].map(Number);
  }

  /** The same sequence with `data` (and the indices) moved to `device`; `batchSizes` stays on the CPU. */
  to(device: DeviceLike): PackedSequence {
    const move = (t: Tensor | null) => (t === null ? null : t.to(device));
    return new PackedSequence(this.data.to(device), this.batchSizes, move(this.sortedIndices), move(this.unsortedIndices));
  }

  *[Symbol.iterator](): IterableIterator<Tensor | null> {
    yield this.data;
    yield this.batchSizes;
    yield this.sortedIndices;
    yield this.unsortedIndices;
  }

  toString(): string {
    return `PackedSequence(data=${String(this.data)}, batch_sizes=${String(this.batchSizes)}, sorted_indices=${this.sortedIndices === null ? 'None' : String(this.sortedIndices)}, unsorted_indices=${this.unsortedIndices === null ? 'None' : String(this.unsortedIndices)})`;
  }
}

/**
 * The values of the permutations that packPaddedSequence made from a JS array, and of their
 * inverses: padPackedSequence reorders the (CPU) lengths by `unsortedIndices` as PyTorch's
 * `lengths[unsorted_indices.cpu()]` does, which on WebGPU would be a read-back that cannot be
 * synchronous.
 */
const hostPermutations = new WeakMap<Tensor, number[]>();

/** `invert_permutation`: the inverse of a permutation (null stays null). */
export function invertPermutation(permutation: Tensor | null): Tensor | null {
  if (permutation === null) return null;
  const host = hostPermutations.get(permutation);
  if (host !== undefined) {
    const inverse = new Array<number>(host.length);
    host.forEach((p, i) => (inverse[p] = i));
    const t = tensor(inverse, { dtype: 'int64', device: permutation.device });
    hostPermutations.set(t, inverse);
    return t;
  }
  return tidy(() => zeros(permutation.shape, { dtype: permutation.dtype, device: permutation.device }).scatter_(0, permutation, arange(permutation.numel(), { device: permutation.device })));
}

function lengthsList(lengths: Tensor | readonly number[]): number[] {
  if (lengths instanceof Tensor) {
    if (lengths.dim() !== 1) throw new ShapeError(`pack_padded_sequence: 'lengths' should be a 1D tensor, but got ${lengths.dim()}D tensor`);
    return [...lengths.to('cpu').dataSync()].map(Number);
  }
  return [...lengths];
}

export interface PackPaddedSequenceOptions {
  batchFirst?: boolean;
  enforceSorted?: boolean;
}

/**
 * `pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True)`: a padded
 * batch [T, B, *] ([B, T, *] with `batchFirst`) with `lengths` (a list or an int tensor) as a
 * PackedSequence. Without `enforceSorted` the batch is sorted by decreasing length first.
 */
export function packPaddedSequence(input: Tensor, lengths: Tensor | readonly number[], options: PackPaddedSequenceOptions = {}): PackedSequence {
  const batchFirst = options.batchFirst ?? false;
  const enforceSorted = options.enforceSorted ?? true;
  let lens = lengthsList(lengths);
  let sortedIndices: Tensor | null = null;
  let order: number[] | null = null;
  if (!enforceSorted) {
    order = lens.map((_, i) => i).sort((a, b) => lens[b] - lens[a] || a - b);
    lens = order.map((i) => lens[i]);
    sortedIndices = tensor(order, { dtype: 'int64', device: input.device });
    hostPermutations.set(sortedIndices, order);
  }
  // (tidy keeps the tensors of a returned array, not of a class instance: the PackedSequence is made outside)
  const [data, batchSizes] = tidy(() => {
    let x = sortedIndices === null ? input : input.indexSelect(batchFirst ? 0 : 1, sortedIndices);
    if (batchFirst) x = x.transpose(0, 1);
    const batch = x.size(1);
    if (lens.length !== batch) throw new ShapeError(`pack_padded_sequence: Expected \`len(lengths)\` to be equal to batch_size, but got ${lens.length} (batch_size=${batch})`);
    for (let i = 1; i < lens.length; i++) {
      if (lens[i] > lens[i - 1]) {
        throw new TorchError(
          'pack_padded_sequence: `lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this requirement if you do not need ONNX exportability.',
        );
      }
    }
    if (lens.length === 0 || lens[lens.length - 1] <= 0) {
      throw new TorchError("pack_padded_sequence: Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0");
    }
    if (lens[0] > x.size(0)) throw new ShapeError(`pack_padded_sequence: the longest length ${lens[0]} exceeds the input's ${x.size(0)} time steps`);
    const sizes: number[] = [];
    const rows: Tensor[] = [];
    for (let t = 0; t < lens[0]; t++) {
      const bs = lens.filter((l) => l > t).length;
      sizes.push(bs);
      rows.push(x.select(0, t).narrow(0, 0, bs));
    }
    return [cat(rows, 0), tensor(sizes, { dtype: 'int64' })];
  });
  return new PackedSequence(data, batchSizes, sortedIndices);
}

export interface PadPackedSequenceOptions {
  batchFirst?: boolean;
  paddingValue?: number;
  totalLength?: number | null;
}

/**
 * `pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None)`:
 * the padded batch [T, B, *] (in the original order) and the lengths (int64), as
 * `[padded, lengths]`.
 */
export function padPackedSequence(sequence: PackedSequence, options: PadPackedSequenceOptions = {}): [Tensor, Tensor] {
  const batchFirst = options.batchFirst ?? false;
  const paddingValue = options.paddingValue ?? 0.0;
  const bs = sequence.batchSizesList();
  let maxLen = bs.length;
  const total = options.totalLength ?? null;
  if (total !== null) {
    if (total < maxLen) {
      throw new ValueError(
        `pad_packed_sequence: Expected total_length to be at least the length of the longest sequence in input, but got total_length=${total} and max sequence length being ${maxLen}`,
      );
    }
    maxLen = total;
  }
  return tidy((): [Tensor, Tensor] => {
    const data = sequence.data;
    const batch = bs[0];
    const feat = data.shape.slice(1);
    const pad = (n: number) => full([n, ...feat], paddingValue, { dtype: data.dtype, device: data.device });
    const steps: Tensor[] = [];
    let offset = 0;
    for (const b of bs) {
      const rows = data.narrow(0, offset, b);
      offset += b;
      steps.push(b === batch ? rows : cat([rows, pad(batch - b)], 0));
    }
    for (let t = bs.length; t < maxLen; t++) steps.push(pad(batch));
    let padded = stack(steps, 0);
    const lens = Array.from({ length: batch }, (_, i) => bs.filter((b) => b > i).length);
    let lengths = tensor(lens, { dtype: 'int64' });
    if (batchFirst) padded = padded.transpose(0, 1);
    const unsorted = sequence.unsortedIndices;
    if (unsorted !== null) {
      padded = padded.indexSelect(batchFirst ? 0 : 1, unsorted);
      const host = hostPermutations.get(unsorted);
      lengths = lengths.indexSelect(0, host === undefined ? unsorted.to('cpu') : tensor(host, { dtype: 'int64' }));
    }
    return [padded, lengths];
  });
}

export interface PadSequenceOptions {
  batchFirst?: boolean;
  paddingValue?: number;
}

/** `pad_sequence(sequences, batch_first=False, padding_value=0.0)`: [L_i, *] tensors as one [max L, B, *] batch. */
export function padSequence(sequences: readonly Tensor[], options: PadSequenceOptions = {}): Tensor {
  const batchFirst = options.batchFirst ?? false;
  const paddingValue = options.paddingValue ?? 0.0;
  if (sequences.length === 0) throw new TorchError('pad_sequence: received an empty list of sequences');
  const trailing = sequences[0].shape.slice(1);
  for (const s of sequences) {
    if (s.dim() !== trailing.length + 1 || s.shape.slice(1).some((d, i) => d !== trailing[i])) {
      throw new ShapeError(`pad_sequence: every sequence must have the trailing dims of the first, [${trailing.join(', ')}], got [${s.shape.join(', ')}]`);
    }
  }
  const maxLen = Math.max(...sequences.map((s) => s.size(0)));
  return tidy(() => {
    const padded = sequences.map((s) =>
      s.size(0) === maxLen ? s : cat([s, full([maxLen - s.size(0), ...trailing], paddingValue, { dtype: s.dtype, device: s.device })], 0),
    );
    return stack(padded, batchFirst ? 0 : 1);
  });
}

export interface PackSequenceOptions {
  enforceSorted?: boolean;
}

/** `pack_sequence(sequences, enforce_sorted=True)`: `packPaddedSequence(padSequence(sequences), lengths)`. */
export function packSequence(sequences: readonly Tensor[], options: PackSequenceOptions = {}): PackedSequence {
  const lengths = sequences.map((s) => s.size(0));
  const padded = padSequence(sequences);
  const packed = packPaddedSequence(padded, lengths, { enforceSorted: options.enforceSorted ?? true });
  padded.dispose();
  return packed;
}
