/**
 * `torch.serialization.add_safe_globals` for torch-ts: the globals a user allows beyond
 * the weights_only defaults. A name alone (`'argparse.Namespace'`) loads as an inert
 * `PyObject` (class name, arguments, BUILD state); a name with a factory loads as what
 * the factory returns for the pickled arguments. Names in `sys`, `os`, `posix` and `nt`
 * are refused, as PyTorch refuses them. Browser-safe.
 */
import { TorchError } from '@torch-ts/core';
import { BLOCKED_MODULES, PyObject, type PyCallable } from './pickle';

/** `'module.name'`, or `['module.name', make]`, or `['module.name', make, build]`. */
export type SafeGlobal =
  | string
  | readonly [name: string, make: (args: unknown[]) => unknown]
  | readonly [name: string, make: (args: unknown[]) => unknown, build: (obj: unknown, state: unknown) => void];

const registry = new Map<string, PyCallable>();

function entry(op: string, g: SafeGlobal): [string, PyCallable] {
  const name = typeof g === 'string' ? g : Array.isArray(g) ? g[0] : undefined;
  if (typeof name !== 'string' || !/^[^.\s]+(\.[^.\s]+)+$/.test(name)) {
    throw new TorchError(`${op}: expected 'module.name' or ['module.name', factory], but got ${JSON.stringify(typeof g === 'string' ? g : typeof g)}`);
  }
  const module = name.slice(0, name.lastIndexOf('.'));
  if (BLOCKED_MODULES.has(module.split('.')[0])) throw new TorchError(`${op}: ${name} is in module ${module}, which is blocked and cannot be allowed`);
  if (typeof g === 'string') {
    // (BUILD reaches only objects this callable made: PyObjects)
    const build = (o: unknown, s: unknown) => {
      if (o instanceof PyObject) o.state = s;
    };
    return [name, { call: (args) => new PyObject(name, [...args]), newobj: true, build }];
  }
  const [, make, build] = g;
  if (typeof make !== 'function' || (build !== undefined && typeof build !== 'function')) throw new TorchError(`${op}: the factory of ${name} is not a function`);
  return [name, { call: (args) => make(args), newobj: true, ...(build ? { build } : {}) }];
}

/** Allows `globals` in every later `loadPt` / `torch.load` (until `clearSafeGlobals`). */
export function addSafeGlobals(globals: readonly SafeGlobal[]): void {
  if (!Array.isArray(globals)) throw new TorchError('addSafeGlobals: expected an array');
  const entries = globals.map((g) => entry('addSafeGlobals', g));
  for (const [k, v] of entries) registry.set(k, v);
}

/** The names allowed with `addSafeGlobals`. */
export function getSafeGlobals(): string[] {
  return [...registry.keys()];
}

/** Forgets every name allowed with `addSafeGlobals`. */
export function clearSafeGlobals(): void {
  registry.clear();
}

/** Runs `fn` with `globals` allowed (the `with torch.serialization.safe_globals([...])` block). */
export function safeGlobals<T>(globals: readonly SafeGlobal[], fn: () => T): T {
  const entries = globals.map((g) => entry('safeGlobals', g));
  const saved = entries.map(([k]) => [k, registry.get(k)] as const);
  for (const [k, v] of entries) registry.set(k, v);
  try {
    return fn();
  } finally {
    for (const [k, v] of saved) {
      if (v) registry.set(k, v);
      else registry.delete(k);
    }
  }
}

/** The user's callable for `module.name`, from the per-call list first, then the registry. */
export function userGlobal(perCall: readonly SafeGlobal[] | undefined, module: string, name: string): PyCallable | undefined {
  const full = `${module}.${name}`;
  if (perCall) {
    for (const g of perCall) if ((typeof g === 'string' ? g : g[0]) === full) return entry('loadPt', g)[1];
  }
  return registry.get(full);
}
