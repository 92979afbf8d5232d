/**
 * A one-line progress bar per epoch: samples done, running loss and accuracy, samples/s.
 * On a terminal it redraws in place; otherwise (CI logs) it prints only each epoch's last state.
 */
export interface EpochState {
  readonly epoch: number;
  readonly epochs: number;
  readonly done: number;
  readonly total: number;
  readonly loss: number;
  readonly accuracy: number;
  readonly samplesPerSec: number;
}

const WIDTH = 24;

export function formatProgress(s: EpochState): string {
  const filled = s.total === 0 ? WIDTH : Math.round((s.done / s.total) * WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(WIDTH - filled);
  const pad = String(s.epochs).length;
  return (
    `epoch ${String(s.epoch).padStart(pad)}/${s.epochs} ${bar} ${String(s.done).padStart(String(s.total).length)}/${s.total}` +
    ` loss ${s.loss.toFixed(4)} acc ${(s.accuracy * 100).toFixed(2)}% ${Math.round(s.samplesPerSec)} samples/s`
  );
}

export class ProgressBar {
  readonly #stream: NodeJS.WriteStream;
  readonly #tty: boolean;
  #last: EpochState | null = null;
  #lastDraw = 0;

  constructor(stream: NodeJS.WriteStream = process.stdout) {
    this.#stream = stream;
    this.#tty = Boolean(stream.isTTY);
  }

  update(s: EpochState): void {
    this.#last = s;
    const now = Date.now();
    if (this.#tty && (now - this.#lastDraw > 100 || s.done === s.total)) {
      this.#stream.write(`\r${formatProgress(s)}`);
      this.#lastDraw = now;
    }
  }

  /** Ends the epoch's line, with what follows it (the held-out accuracy). */
  end(suffix = ''): void {
    if (!this.#last) return;
    const line = formatProgress(this.#last) + suffix;
    this.#stream.write(this.#tty ? `\r${line}\n` : `${line}\n`);
    this.#last = null;
  }
}
