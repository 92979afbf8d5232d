/**
 * `torch.utils.checkpoint`: `checkpoint(fn, ...args, { useReentrant: false, preserveRngState })`
 * and `checkpointSequential(functions, segments, input)`.
 *
 * Note [Non-reentrant checkpointing]
 * PyTorch's non-reentrant checkpoint, built on saved tensors hooks (autograd Note [Saved
 * tensors hooks]): `fn` runs once under a `pack` hook that replaces every tensor an op saves
 * with a small `Holder` and drops the tensor, so the activations inside `fn` are not kept
 * for backward. The first `unpack` in backward recomputes: it runs `fn` again on the same
 * arguments, with grad enabled and the default generator's state as it was when the forward
 * began (Note [Checkpoint and random state]), under an inner `pack` that hands the i-th
 * saved tensor of the recomputation to the i-th holder; `unpack` then gives each holder's
 * tensor once and forgets it. A holder unpacked again (a second backward with `retainGraph`)
 * triggers a new recomputation, as in PyTorch 2.x. A backward through a freed graph fails as
 * without checkpointing (the saved variables are released), and a recomputation that saves a
 * different number of tensors, or tensors of other shapes, dtypes or devices, is an error.
 *
 * Lifetimes: `fn` runs as `tidy` runs it, in the forward and in the recomputation, so the
 * tensors it makes and does not return are released at once: that is what lowers the peak.
 * (A tensor `fn` makes and stashes elsewhere must be `keep`-ed.) The checkpoint holds its own
 * handles on the tensor arguments (same data and autograd history) until the last holder is
 * released with the graph, so disposing the arguments after the forward is safe.
 *
 * Note [Checkpoint and random state]
 * With `preserveRngState` (the default), the state of the default generator is captured
 * before the forward and restored for the recomputation, and the state the caller had is put
 * back after it: dropout draws the same mask twice, and the recomputation consumes no random
 * numbers of the surrounding program. One generator feeds every device (WebGPU's Philox
 * streams are keyed by its seed and draw count, core Note [Counter-based random streams]),
 * so one state covers CPU and WebGPU, as PyTorch's CPU plus per-device states do.
 */
import {
  NotImplementedError,
  Tensor,
  TorchError,
  TorchTypeError,
  defaultGenerator,
  keep,
  tidy,
  type GeneratorState,
} from '@torch-ts/core';
import { enableGrad, savedTensorsHooks } from '@torch-ts/autograd';

export interface CheckpointOptions {
  /**
   * PyTorch's `use_reentrant`. Only the non-reentrant variant exists here (PyTorch's
   * recommendation); `true` is a NotImplementedError. Default: false.
   */
  useReentrant?: boolean;
  /** Restore the random state for the recomputation (Note [Checkpoint and random state]). Default: true. */
  preserveRngState?: boolean;
  /**
   * PyTorch 2.x's `determinism_check`: 'default' compares the number, shapes, dtypes and
   * devices of the recomputed saved tensors with the forward's; 'none' skips the comparison.
   */
  determinismCheck?: 'default' | 'none';
  /** PyTorch 2.x's `debug`: only `false` (the default) is supported. */
  debug?: boolean;
}

const OPTION_KEYS = new Set(['useReentrant', 'preserveRngState', 'determinismCheck', 'debug']);

/** The trailing options object: a plain object whose keys are all checkpoint options. */
function isOptions(v: unknown): v is CheckpointOptions {
  if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => OPTION_KEYS.has(k));
}

interface TensorMeta {
  readonly shape: readonly number[];
  readonly dtype: string;
  readonly device: string;
}

function metaOf(t: Tensor): TensorMeta {
  return { shape: [...t.shape], dtype: t.dtype, device: String(t.device) };
}

function sameMeta(a: TensorMeta, b: TensorMeta): boolean {
  return a.dtype === b.dtype && a.device === b.device && a.shape.length === b.shape.length && a.shape.every((s, i) => s === b.shape[i]);
}

function describeMeta(m: TensorMeta): string {
  return `{shape: [${m.shape.join(', ')}], dtype: ${m.dtype}, device: ${m.device}}`;
}

/** What the pack hook keeps instead of a saved tensor (PyTorch's `_Holder`). */
class Holder implements Disposable {
  /** The recomputed tensor, until unpacked. */
  tensor: Tensor | null = null;
  released = false;

  constructor(
    private readonly frame: CheckpointFrame,
    readonly index: number,
    readonly meta: TensorMeta,
  ) {}

  /** Called with the saved variable's release (the graph is freed). */
  [Symbol.dispose](): void {
    if (this.released) return;
    this.released = true;
    this.tensor?.dispose();
    this.tensor = null;
    this.frame.holderReleased();
  }
}

/** One checkpointed call: its function, its own handles on the arguments, its holders, the random state. */
class CheckpointFrame {
  readonly holders: Holder[] = [];
  private live = 0;
  private argsReleased = false;

  constructor(
    private readonly fn: (...args: unknown[]) => unknown,
    private readonly args: readonly unknown[],
    private readonly rngState: GeneratorState | null,
    private readonly checkDeterminism: boolean,
  ) {}

  pack(t: Tensor): Holder {
    const h = new Holder(this, this.holders.length, metaOf(t));
    this.holders.push(h);
    this.live++;
    return h;
  }

  unpack(h: Holder): Tensor {
    if (h.released) throw new TorchError('checkpoint: a saved tensor was unpacked after its graph was freed');
    if (h.tensor === null) this.recompute();
    const t = h.tensor!;
    h.tensor = null;
    // a fresh handle for the backward's scope; the holder forgets the data (Note [Non-reentrant checkpointing])
    const out = t.detach();
    t.dispose();
    return out;
  }

  holderReleased(): void {
    if (--this.live === 0) this.releaseArgs();
  }

  /** Drops the frame's handles on the arguments (no holder can ask for a recomputation any more). */
  releaseArgs(): void {
    if (this.argsReleased) return;
    this.argsReleased = true;
    for (const a of this.args) if (a instanceof Tensor) a.dispose();
  }

  private recompute(): void {
    if (this.argsReleased) throw new TorchError('checkpoint: cannot recompute: the arguments were released');
    let count = 0;
    const mismatches: string[] = [];
    const innerPack = (inner: Tensor): null => {
      const k = count++;
      const h = this.holders[k];
      if (h === undefined || h.released) return null;
      const m = metaOf(inner);
      if (this.checkDeterminism && !sameMeta(m, h.meta)) {
        mismatches.push(`tensor at position ${k}:\nsaved metadata: ${describeMeta(h.meta)}\nrecomputed metadata: ${describeMeta(m)}`);
        return null;
      }
      h.tensor?.dispose();
      h.tensor = keep(inner.detach());
      return null;
    };
    const innerUnpack = (): Tensor => {
      throw new TorchError('checkpoint: you are calling backwards on a tensor that is never exposed');
    };
    const caller = this.rngState ? defaultGenerator.getState() : null;
    try {
      if (this.rngState) defaultGenerator.setState(this.rngState);
      enableGrad(() =>
        savedTensorsHooks(innerPack, innerUnpack, () =>
          tidy(() => {
            this.fn(...this.args);
            return null; // everything the recomputation made goes, except what the holders kept
          }),
        ),
      );
    } finally {
      if (caller) defaultGenerator.setState(caller);
    }
    if (this.checkDeterminism && count !== this.holders.length) {
      throw new TorchError(
        `torch.utils.checkpoint: A different number of tensors was saved during the original forward and recomputation.\nNumber of tensors saved during forward: ${this.holders.length}\nNumber of tensors saved during recomputation: ${count}`,
      );
    }
    if (mismatches.length) {
      throw new TorchError(
        `torch.utils.checkpoint: Recomputed values for the following tensors have different metadata than during the forward pass.\n${mismatches.join('\n')}`,
      );
    }
  }
}

/**
 * `torch.utils.checkpoint.checkpoint(fn, ...args, { useReentrant: false, preserveRngState: true })`:
 * runs `fn(...args)` without keeping its activations for backward, and recomputes them
 * when backward needs them (Note [Non-reentrant checkpointing]). Returns `fn`'s result.
 */
export function checkpoint<R>(fn: (...args: never[]) => R, ...argsAndOptions: unknown[]): R {
  if (typeof fn !== 'function') throw new TorchTypeError(`checkpoint: expected a function as the first argument, but got ${typeof fn}`);
  const last = argsAndOptions[argsAndOptions.length - 1];
  const options: CheckpointOptions = isOptions(last) ? last : {};
  const args = isOptions(last) ? argsAndOptions.slice(0, -1) : argsAndOptions;
  if (options.useReentrant === true) {
    throw new NotImplementedError('checkpoint: useReentrant: true is not supported; torch-ts implements the non-reentrant variant (useReentrant: false)');
  }
  const determinism = options.determinismCheck ?? 'default';
  if (determinism !== 'default' && determinism !== 'none') {
    throw new TorchError(`checkpoint: determinismCheck should be 'default' or 'none', but got ${JSON.stringify(determinism)}`);
  }
  if (options.debug === true) throw new NotImplementedError('checkpoint: debug: true is not supported');
  const preserve = options.preserveRngState ?? true;
  const call = fn as (...args: unknown[]) => R;
  // the frame's own handles: same data and history, alive until the graph is freed
  const own = args.map((a) => (a instanceof Tensor ? keep(new Tensor(a.impl.retain())) : a));
  const frame = new CheckpointFrame(call as (...args: unknown[]) => unknown, own, preserve ? defaultGenerator.getState() : null, determinism === 'default');
  let result: R;
  try {
    result = savedTensorsHooks(
      (t) => frame.pack(t),
      (h) => frame.unpack(h as Holder),
      () => tidy(() => call(...own)),
    );
  } catch (e) {
    frame.releaseArgs();
    throw e;
  }
  // `fn` returned an argument: give back the caller's handle, not the frame's
  const i = own.indexOf(result);
  if (i >= 0) result = args[i] as R;
  if (frame.holders.length === 0) frame.releaseArgs(); // nothing saved (grad off, or no input requires grad)
  return result;
}

/** A module or a function of one input. */
export type SequentialFunction = (input: Tensor) => Tensor;

/**
 * `torch.utils.checkpoint.checkpointSequential(functions, segments, input, options)`: runs
 * `functions` (an array, or an `nn.Sequential`'s children) in `segments` chunks, each but the
 * last checkpointed, as PyTorch's `checkpoint_sequential`.
 */
export function checkpointSequential(
  functions: readonly SequentialFunction[] | { children(): Iterable<unknown> },
  segments: number,
  input: Tensor,
  options: CheckpointOptions = {},
): Tensor {
  const fns: SequentialFunction[] = Array.isArray(functions)
    ? [...(functions as readonly SequentialFunction[])]
    : [...(functions as { children(): Iterable<unknown> }).children()].map((m) => m as SequentialFunction);
  if (!Number.isInteger(segments) || segments < 1) {
    throw new TorchError(`checkpointSequential: segments must be a positive integer, but got ${segments}`);
  }
  if (segments > fns.length) {
    throw new TorchError(`checkpointSequential: segments (${segments}) is larger than the number of functions (${fns.length})`);
  }
  for (const [i, f] of fns.entries()) {
    if (typeof f !== 'function') throw new TorchTypeError(`checkpointSequential: functions[${i}] is not callable (a module or a function)`);
  }
  const runRange = (start: number, end: number) => (x: Tensor): Tensor => {
    for (let j = start; j <= end; j++) x = fns[j](x);
    return x;
  };
  const size = Math.floor(fns.length / segments);
  let end = -1;
  let x = input;
  for (let start = 0; start < size * (segments - 1); start += size) {
    end = start + size - 1;
    const next = checkpoint(runRange(start, end), x, { useReentrant: options.useReentrant ?? false, preserveRngState: options.preserveRngState ?? true });
    // a segment's output is the next checkpoint's argument, which holds its own handle on it
    if (x !== input && next !== x) x.dispose();
    x = next;
  }
  return runRange(end + 1, fns.length - 1)(x);
}
