/**
 * The pytrees torch.func's transforms take and return: a Tensor, or arrays and plain objects
 * of them (PyTorch's `torch.utils._pytree` for tuples, lists and dicts). Other values are
 * leaves that the transforms pass through untouched.
 */
import { Tensor, ValueError } from '@torch-ts/core';

/** A Tensor or a nested array / plain object of them (other leaves pass through). */
export type PyTree = Tensor | readonly PyTree[] | { readonly [key: string]: PyTree } | number | boolean | string | null | undefined;

function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== 'object' || x instanceof Tensor) return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/** The tensors of `tree`, depth first, in key order of its objects. */
export function treeLeaves(tree: unknown): Tensor[] {
  const out: Tensor[] = [];
  const walk = (t: unknown): void => {
    if (t instanceof Tensor) out.push(t);
    else if (Array.isArray(t)) for (const c of t) walk(c);
    else if (isPlainObject(t)) for (const k of Object.keys(t)) walk(t[k]);
  };
  walk(tree);
  return out;
}

/** `tree` with each tensor leaf replaced by `fn(leaf, i)` (i: its position in treeLeaves). */
export function treeMap(tree: unknown, fn: (t: Tensor, i: number) => unknown): unknown {
  let i = 0;
  const walk = (t: unknown): unknown => {
    if (t instanceof Tensor) return fn(t, i++);
    if (Array.isArray(t)) return t.map(walk);
    if (isPlainObject(t)) {
      const o: Record<string, unknown> = {};
      for (const k of Object.keys(t)) o[k] = walk(t[k]);
      return o;
    }
    return t;
  };
  return walk(tree);
}

/**
 * A per-leaf option broadcast over `tree`: `spec` is a leaf value (applies to every tensor
 * under it) or a structure matching `tree`'s arrays and objects (`inDims: [0, [null, 1]]`).
 */
export function broadcastSpec<S>(where: string, spec: unknown, tree: unknown, isLeaf: (s: unknown) => s is S): S[] {
  const out: S[] = [];
  const walk = (s: unknown, t: unknown): void => {
    if (isLeaf(s)) {
      for (let n = treeLeaves(t).length; n > 0; n--) out.push(s);
    } else if (Array.isArray(s) && Array.isArray(t) && s.length === t.length) {
      s.forEach((c, k) => walk(c, t[k]));
    } else if (isPlainObject(s) && isPlainObject(t)) {
      for (const k of Object.keys(t)) walk(s[k], t[k]);
    } else {
      throw new ValueError(`${where}: expected it to be a number, null, or a structure matching the inputs' (an array of ${Array.isArray(t) ? t.length : 'one'} entries), got ${describe(s)}`);
    }
  };
  walk(spec, tree);
  return out;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (v instanceof Tensor) return 'a Tensor';
  return v === null ? 'null' : typeof v === 'object' ? 'an object' : String(v);
}
