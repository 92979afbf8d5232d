/**
 * Process-wide print options, PyTorch's `torch.set_printoptions` / `PRINT_OPTS`.
 *
 * Note [sciMode is reset by every setPrintOptions call]
 * PyTorch assigns `sci_mode` unconditionally, so `set_printoptions(precision=2)` after
 * `set_printoptions(sci_mode=True)` switches scientific notation back to automatic. We
 * keep that behaviour so that scripts ported line by line print the same thing: leaving
 * `sciMode` out of the options object means `null` (automatic), not "unchanged".
 */

export interface PrintOptions {
  /** Digits after the decimal point for floating-point elements. */
  readonly precision: number;
  /** Tensors with more elements than this are summarised with `...`. */
  readonly threshold: number;
  /** Items kept at each end of every summarised dimension. */
  readonly edgeitems: number;
  /** Characters per line used to wrap rows and suffixes. */
  readonly linewidth: number;
  /** `true` / `false` force scientific / fixed notation; `null` chooses per tensor. */
  readonly sciMode: boolean | null;
}

export type PrintProfile = 'default' | 'short' | 'full';

export interface SetPrintOptionsArgs {
  precision?: number;
  threshold?: number;
  edgeitems?: number;
  linewidth?: number;
  /** See Note [sciMode is reset by every setPrintOptions call]. */
  sciMode?: boolean | null;
  /** Applied first; the other fields then override it. */
  profile?: PrintProfile;
}

const PROFILES: { readonly [P in PrintProfile]: Omit<PrintOptions, 'sciMode'> } = {
  default: { precision: 4, threshold: 1000, edgeitems: 3, linewidth: 80 },
  short: { precision: 2, threshold: 1000, edgeitems: 2, linewidth: 80 },
  full: { precision: 4, threshold: Infinity, edgeitems: 3, linewidth: 80 },
};

let current: PrintOptions = { ...PROFILES.default, sciMode: null };

/** The options in force now (a snapshot; later changes do not alter it). */
export function getPrintOptions(): PrintOptions {
  return current;
}

/** PyTorch's `torch.set_printoptions`; see Note [sciMode is reset by every setPrintOptions call]. */
export function setPrintOptions(args: SetPrintOptionsArgs = {}): void {
  const base = args.profile === undefined ? current : PROFILES[args.profile];
  if (base === undefined) {
    throw new TypeError(`setPrintOptions: unknown profile '${String(args.profile)}'`);
  }
  current = {
    precision: checkCount('precision', args.precision ?? base.precision),
    threshold: checkCount('threshold', args.threshold ?? base.threshold),
    edgeitems: checkCount('edgeitems', args.edgeitems ?? base.edgeitems),
    linewidth: checkCount('linewidth', args.linewidth ?? base.linewidth),
    sciMode: args.sciMode ?? null,
  };
}

function checkCount(name: string, value: number): number {
  const ok = value === Infinity ? name === 'threshold' : Number.isInteger(value) && value >= 0;
  if (!ok) throw new RangeError(`setPrintOptions: ${name} must be a non-negative integer, got ${value}`);
  return value;
}
