/**
 * `torch.func.jvp` and `jacfwd`: forward-mode transforms on torch.autograd.forwardAd
 * (autograd Note [Forward-mode AD]). One dual level is open while `fn` runs, the primals are
 * made dual with their tangents, and the outputs' tangents are read before the level closes.
 * As forwardAd has one level at a time (PyTorch 1.13's forward_ad does too), these transforms
 * do not nest in one another or run inside a user's `dualLevel`; reverse-mode transforms
 * (`grad`, `vjp`, `jacrev`) compose with them from the inside (forward-over-reverse).
 */
import { Tensor, TorchTypeError, ValueError, fromPhysical, stack, toPhysical, vmapLevels, zerosLike } from '@torch-ts/core';
import { forwardAd } from '@torch-ts/autograd';
import { checkArgnums, splitAux } from './grad';
import { treeLeaves, treeMap } from './pytree';

const JVP = 'jvp(f, primals, tangents)';

/**
 * `torch.func.jvp(fn, primals, tangents, { hasAux })`: `[fn(...primals), J(primals) tangents]`
 * (with hasAux, `[output, jvpOut, aux]`). `primals` and `tangents` are arrays of the same
 * structure (tensors, or arrays / objects of them) with tensors of the same shapes; an output
 * that does not depend on the primals has a zero tangent.
 */
export function jvp(fn: (...args: any[]) => unknown, primals: readonly unknown[], tangents: readonly unknown[], options: { hasAux?: boolean } = {}): unknown[] {
  if (!Array.isArray(primals)) throw new TorchTypeError(`${JVP}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).`);
  if (!Array.isArray(tangents)) throw new TorchTypeError(`${JVP}: Expected tangents to be a tuple (an array).`);
  const ps = treeLeaves(primals);
  const ts = treeLeaves(tangents);
  if (ps.length !== ts.length || primals.length !== tangents.length) {
    throw new ValueError(`${JVP}: Expected primals and tangents to have the same python structure: ${ps.length} primal tensors in ${primals.length} arguments, ${ts.length} tangent tensors in ${tangents.length}`);
  }
  if (ps.length === 0) throw new ValueError(`${JVP}: Expected primals to be a tuple of Tensors, got none`);
  ps.forEach((p, i) => {
    const t = ts[i]!;
    if (p.shape.join() !== t.shape.join()) {
      throw new ValueError(`${JVP}: Expected primals and tangents to have the same shape; primal ${i} has [${p.shape.join(', ')}], tangent ${i} has [${t.shape.join(', ')}]`);
    }
  });
  const hasAux = options.hasAux ?? false;
  return forwardAd.dualLevel(() => {
    // (inside vmap the duals are physical and fn sees them batched: Note [Function transforms over the tape])
    const levels = vmapLevels();
    const phys = (t: Tensor): Tensor => (levels.length > 0 ? toPhysical(t, levels) : t);
    const logical = (t: Tensor): Tensor => (levels.length > 0 ? fromPhysical(t, levels) : t);
    const duals = treeMap(primals, (p, i) => logical(forwardAd.makeDual(phys(p), phys(ts[i]!)))) as unknown[];
    const [out, aux] = splitAux(JVP, fn(...duals), hasAux);
    if (treeLeaves(out).length === 0) throw new TorchTypeError(`${JVP}: Expected f to be a function that has Tensor outputs, got ${typeof out}`);
    const primalOut = treeMap(out, (o) => logical(forwardAd.unpackDual(phys(o)).primal));
    const tangentOut = treeMap(out, (o) => logical(forwardAd.unpackDual(phys(o)).tangent ?? zerosLike(phys(o))));
    return hasAux ? [primalOut, tangentOut, aux] : [primalOut, tangentOut];
  });
}

/**
 * `torch.func.jacfwd(fn, argnums = 0, { hasAux })`: the Jacobian by forward mode, one jvp per
 * input element (the columns). For an output of shape O and an input of shape I it has shape
 * O + I, as jacrev's; several argnums give an array per output.
 */
export function jacfwd(fn: (...args: any[]) => unknown, argnums: number | readonly number[] = 0, options: { hasAux?: boolean } = {}): (...args: any[]) => any {
  const hasAux = options.hasAux ?? false;
  return (...args: unknown[]) => {
    const where = 'jacfwd(f, argnums)(*args)';
    const nums = checkArgnums(where, argnums, args.length);
    const wrt = (...diff: unknown[]) => {
      const full = [...args];
      nums.forEach((a, k) => (full[a] = diff[k]));
      return fn(...full);
    };
    const primals = nums.map((a) => args[a]);
    const leaves = treeLeaves(primals);
    if (leaves.length === 0) throw new ValueError(`${where}: the arguments at argnums hold no Tensor`);
    const total = leaves.reduce((s, l) => s + l.numel(), 0);
    // column c: the tangent that is 1 at input element c (over all leaves) and 0 elsewhere
    const basis = (c: number): Tensor[] => {
      let at = 0;
      return leaves.map((l) => {
        const t = zerosLike(l);
        if (c >= at && c < at + l.numel()) t.view(-1).select(0, c - at).fill_(1);
        at += l.numel();
        return t;
      });
    };
    let out: unknown = null;
    let aux: unknown;
    const cols: Tensor[][] = [];
    for (let c = 0; c < total; c++) {
      const ts = basis(c);
      const r = jvp(wrt, primals, treeMap(primals, (_p, i) => ts[i]) as unknown[], { hasAux });
      if (c === 0) [out, , aux] = r;
      cols.push(treeLeaves(r[1]));
    }
    const outs = treeLeaves(out);
    const perOut = outs.map((o, oi) => {
      let at = 0;
      const perArg = nums.map((_a, k) =>
        treeMap(primals[k], (leaf) => {
          const mine = cols.slice(at, at + leaf.numel()).map((col) => col[oi]!);
          at += leaf.numel();
          // columns stacked last: [...O, numel(I)], then I's shape
          const j = mine.length > 0 ? stack(mine, -1) : zerosLike(o).unsqueeze(-1).narrow(-1, 0, 0);
          return j.reshape([...o.shape, ...leaf.shape]);
        }),
      );
      return typeof argnums === 'number' ? perArg[0] : perArg;
    });
    const jac = treeMap(out, (_o, i) => perOut[i]);
    return hasAux ? [jac, aux] : jac;
  };
}
