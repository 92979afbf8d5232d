/**
 * Flags of the MNIST app. Every mistake is a UsageError: main prints its one line (no stack
 * trace) and exits with status 2.
 */
export class UsageError extends Error {}

/** A failure the user can fix without --help (a missing or corrupt weights file): one line, status 1. */
export class FatalError extends Error {}

export interface Options {
  readonly device: 'cpu' | 'webgpu';
  readonly epochs: number;
  readonly batchSize: number;
  readonly lr: number;
  readonly seed: number;
  /** Where the weights (model.safetensors) and the loss curve (loss.svg) go. */
  readonly outDir: string;
  /** Classify digits with saved weights instead of training. */
  readonly predict: boolean;
  /** The weights file for --predict. */
  readonly weights: string | null;
  /** How many held-out digits --predict shows. */
  readonly count: number;
  readonly help: boolean;
}

export const USAGE = `usage: pnpm mnist [--device cpu|webgpu] [--epochs N] [--batch-size N] [--lr X] [--seed N] [--out DIR]
       pnpm mnist --predict [--weights FILE] [--count N] [--device cpu|webgpu]`;

const DEFAULTS: Options = {
  device: 'cpu',
  epochs: 4,
  batchSize: 32,
  lr: 3e-3,
  seed: 0,
  outDir: 'out',
  predict: false,
  weights: null,
  count: 10,
  help: false,
};

export function parseArgs(argv: readonly string[]): Options {
  const o: { -readonly [K in keyof Options]: Options[K] } = { ...DEFAULTS };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, null];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || (inline === null && v.startsWith('--'))) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--device': {
        const v = value();
        if (v !== 'cpu' && v !== 'webgpu') throw new UsageError(`--device must be cpu or webgpu, not '${v}'`);
        o.device = v;
        break;
      }
      case '--epochs': o.epochs = int(flag, value(), 1); break;
      case '--batch-size': o.batchSize = int(flag, value(), 1); break;
      case '--seed': o.seed = int(flag, value(), 0); break;
      case '--count': o.count = int(flag, value(), 1); break;
      case '--lr': {
        const v = value();
        const lr = Number(v);
        if (!(lr > 0) || !Number.isFinite(lr)) throw new UsageError(`--lr must be a positive number, not '${v}'`);
        o.lr = lr;
        break;
      }
      case '--out': o.outDir = value(); break;
      case '--weights': o.weights = value(); break;
      case '--predict': o.predict = true; break;
      case '--help':
      case '-h': o.help = true; break;
      default:
        throw new UsageError(`unknown flag '${arg}'`);
    }
  }
  return o;
}

function int(flag: string, v: string, min: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${flag} must be an integer >= ${min}, not '${v}'`);
  return n;
}
