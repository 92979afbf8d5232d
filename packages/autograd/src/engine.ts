import { DispatchKey, Tensor, TensorImpl, add, clone, isContiguousAs, isDense, obeysLayoutContract, sparseCooTensor, type SparseTensorImpl } from '@torch-ts/core';
import { metaOf, type AutogradMeta, type TensorHook } from './autograd-meta';
import { checkAnomaly } from './anomaly';
import { enableGrad, noGrad } from './grad-mode';
import { AccumulateGrad, Node, type Edge } from './node';
import { checkHookList, checkHookValue } from './validate-grads';

export interface ExecuteOptions {
  /** Keep saved tensors after the run (`retainGraph`). */
  readonly keepGraph: boolean;
  /** Run formulas with grad mode on, so gradients have a graph of their own. */
  readonly createGraph: boolean;
  /** `autograd.grad`: capture the gradients flowing into these edges instead of accumulating. */
  readonly captures?: readonly Edge[];
  /** `backward({ inputs })`: accumulate only into these leaves / non-leaves. */
  readonly only?: readonly Edge[];
  /** For `only` edges of non-leaves: the tensor whose `.grad` receives that gradient. */
  readonly onlyMetas?: readonly (AutogradMeta | null)[];
}

/**
 * Note [GraphTask]
 * One backward run, as PyTorch's engine does it on one thread:
 *  1. dependencies: for every node reachable from the roots, the number of edges into it
 *     (counted by an explicit stack, never recursion);
 *  2. exec info: with `captures` / `only`, just the nodes on a path to a target run;
 *  3. input buffers: gradients arriving at a node are summed per input slot;
 *  4. the ready queue: a node is ready when all its dependencies have delivered; the ready
 *     node with the highest sequence number (the most recent op) runs first, and
 *     AccumulateGrad nodes as soon as they are ready;
 *  5. each node's outputs flow along its edges; leaves accumulate into `.grad`.
 * Every gradient handle belongs to the task: a node's input handles are disposed after it
 * ran, and whatever is left is disposed at the end, so a backward leaks nothing.
 */
export function execute(roots: readonly Edge[], rootGrads: readonly Tensor[], options: ExecuteOptions): (Tensor | null)[] {
  const held = roots.map((e) => e.node.retain());
  const deps = computeDependencies(roots);
  const targets = options.captures ?? options.only;
  const needed = targets ? computeNeeded(roots, new Set(targets.map((e) => e.node))) : null;
  const captureSlots = new Map<Node, Map<number, number>>();
  options.captures?.forEach((e, i) => {
    if (!captureSlots.has(e.node)) captureSlots.set(e.node, new Map());
    captureSlots.get(e.node)!.set(e.inputNr, i);
  });
  const captured: (Tensor | null)[] = (options.captures ?? []).map(() => null);
  const onlyInto = new Map<Node, Map<number, AutogradMeta>>();
  options.only?.forEach((e, i) => {
    const meta = options.onlyMetas?.[i];
    if (!meta || e.node instanceof AccumulateGrad) return;
    if (!onlyInto.has(e.node)) onlyInto.set(e.node, new Map());
    onlyInto.get(e.node)!.set(e.inputNr, meta);
  });
  const buffers = new Map<Node, (Tensor | null)[]>();
  const ready = new ReadyQueue();

  const deliver = (e: Edge, g: Tensor | null) => {
    const n = e.node;
    if (g !== null && (needed === null || needed.has(n))) addToBuffer(buffers, n, e.inputNr, g);
    else g?.dispose();
    const left = deps.get(n)! - 1;
    deps.set(n, left);
    if (left === 0) ready.push(n);
  };

  try {
    using _mode = options.createGraph ? enableGrad() : noGrad();
    roots.forEach((e, i) => deliver(e, rootGrads[i]));
    let node: Node | undefined;
    while ((node = ready.pop()) !== undefined) {
      const grads = buffers.get(node) ?? [];
      buffers.delete(node);
      if (needed !== null && !needed.has(node)) {
        disposeAll(grads);
        continue;
      }
      let inputs: (Tensor | null)[] = grads;
      try {
        // Tensor hooks first (a leaf's run in its accumulator), then captures see the result.
        if (node instanceof AccumulateGrad) grads[0] = runHooks(metaOf(node.leaf)?.hooks ?? [], grads[0] ?? null);
        else for (const [nr, hooks] of node.outputHooks) grads[nr] = runHooks(hooks, grads[nr] ?? null);
        const slots = captureSlots.get(node);
        if (slots) for (const [nr, i] of slots) captured[i] = grads[nr] ? new Tensor(grads[nr]!.impl.retain()) : null;
        if (node instanceof AccumulateGrad) {
          const g = grads[0] ?? null;
          grads[0] = null;
          if (slots) g?.dispose();
          else accumulate(node, g, options.createGraph);
          continue;
        }
        for (const [nr, meta] of node.retainedGrads) if (grads[nr]) retain(meta, grads[nr]!, options.createGraph);
        for (const [nr, meta] of onlyInto.get(node) ?? []) if (grads[nr]) retain(meta, grads[nr]!, options.createGraph);
        for (const h of node.preHooks) inputs = adopt(inputs, h, (users) => h(users));
        let outs: (Tensor | null)[] = node.apply(Array.from(inputs, (g) => g ?? null));
        try {
          checkAnomaly(node, outs);
          for (const h of node.postHooks) outs = adopt(outs, h, (users) => h(users, inputs.map(userHandle)), inputs);
        } catch (e) {
          // The node's outputs are the task's until delivered (an output may be an input too).
          disposeAll([...new Set(outs)].filter((t) => !inputs.includes(t)));
          throw e;
        }
        if (!options.keepGraph) node.releaseVariables();
        const owned = ownEach(outs, inputs);
        disposeAll(inputs);
        inputs = [];
        node.nextEdges.forEach((e, i) => {
          if (e) deliver(e, owned[i] ?? null);
          else owned[i]?.dispose();
        });
      } catch (err) {
        disposeAll(inputs); // a node that throws must not leak the gradients it was given
        throw err;
      }
    }
    return captured;
  } catch (e) {
    disposeAll(captured);
    throw e;
  } finally {
    for (const b of buffers.values()) disposeAll(b);
    for (const n of held) n.release();
  }
}

function computeDependencies(roots: readonly Edge[]): Map<Node, number> {
  const deps = new Map<Node, number>();
  const stack: Node[] = [];
  for (const e of roots) {
    if (!deps.has(e.node)) stack.push(e.node);
    deps.set(e.node, (deps.get(e.node) ?? 0) + 1);
  }
  const seen = new Set<Node>(stack);
  while (stack.length) {
    const n = stack.pop()!;
    for (const e of n.nextEdges) {
      if (!e) continue;
      deps.set(e.node, (deps.get(e.node) ?? 0) + 1);
      if (!seen.has(e.node)) {
        seen.add(e.node);
        stack.push(e.node);
      }
    }
  }
  return deps;
}

/** The nodes from which a target is reachable (the only ones worth running), iteratively. */
function computeNeeded(roots: readonly Edge[], targets: ReadonlySet<Node>): Set<Node> {
  const needed = new Set<Node>();
  const state = new Map<Node, number>(); // 1: visiting, 2: done
  const stack: Node[] = roots.map((e) => e.node);
  while (stack.length) {
    const n = stack[stack.length - 1];
    const s = state.get(n);
    if (s === undefined) {
      state.set(n, 1);
      for (const e of n.nextEdges) if (e && !state.has(e.node)) stack.push(e.node);
      continue;
    }
    stack.pop();
    if (s === 2) continue;
    state.set(n, 2);
    if (targets.has(n) || n.nextEdges.some((e) => e !== null && needed.has(e.node))) needed.add(n);
  }
  return needed;
}

function addToBuffer(buffers: Map<Node, (Tensor | null)[]>, n: Node, nr: number, g: Tensor): void {
  let b = buffers.get(n);
  if (!b) buffers.set(n, (b = []));
  const old = b[nr];
  if (!old) {
    b[nr] = g;
    return;
  }
  // (dense + sparse, never sparse + dense, which PyTorch refuses: its InputBuffer puts the dense one first)
  b[nr] = old.isSparse && !g.isSparse ? add(g, old) : add(old, g);
  old.dispose();
  g.dispose();
}

/** Gives every output its own handle (outputs may repeat an input or each other). */
function ownEach(outs: readonly (Tensor | null)[], inputs: readonly (Tensor | null)[]): (Tensor | null)[] {
  const seen = new Set<Tensor>(inputs.filter((t): t is Tensor => t !== null));
  return outs.map((t) => {
    if (t === null || t === undefined) return null;
    if (seen.has(t)) return new Tensor(t.impl.retain());
    seen.add(t);
    return t;
  });
}

function disposeAll(ts: readonly (Tensor | null | undefined)[]): void {
  for (const t of ts) t?.dispose();
}

/**
 * Note [User code in backward]
 * Hooks and custom Functions' `backward` are user code, and run as user code does anywhere:
 * not inside a scope of the engine's. Tensors they make belong to the caller's context (the
 * `tidy` around `backward()` if there is one, else their own handles and the
 * FinalizationRegistry safety net), so `x.registerHook((g) => { seen = g.clone(); })` or
 * `grads.push(g)` keeps a live tensor after `backward()` returns, as in PyTorch. For the same
 * reason user code gets handles of its own on the gradients (`userHandle`): the engine
 * disposes its handles when a node has run, and a kept argument must not die with them.
 * Conversely the engine takes a handle of its own on whatever user code returns
 * (`engineHandle`), so the user may keep, reuse or dispose what they returned.
 */
export function userHandle(t: Tensor): Tensor;
export function userHandle(t: Tensor | null): Tensor | null;
export function userHandle(t: Tensor | null): Tensor | null {
  return t === null ? null : new Tensor(t.impl.retain());
}

const engineHandle = userHandle;

/** Runs tensor hooks in order; a returned tensor replaces the gradient (checked first, Note [Validating gradients]). */
function runHooks(hooks: readonly TensorHook[], g: Tensor | null): Tensor | null {
  if (g === null) return null;
  let cur = g;
  for (const h of hooks) {
    const arg = userHandle(cur);
    const out = checkHookValue(h, cur, h(arg));
    if (out !== null && out !== arg && out.impl !== cur.impl) {
      const own = engineHandle(out);
      cur.dispose();
      cur = own;
    }
  }
  return cur;
}

/**
 * Runs a Node hook on user handles (`call` receives them); when it returns replacement
 * gradients (checked against `current`), the task takes handles of its own on them and
 * drops the gradients they replace (Note [User code in backward]).
 */
function adopt(
  current: (Tensor | null)[],
  hook: (...args: never[]) => unknown,
  call: (users: (Tensor | null)[]) => unknown,
  keep: readonly (Tensor | null)[] = [],
): (Tensor | null)[] {
  const users = current.map(userHandle);
  const r = call(users);
  if (r === users || r === current) return current;
  const checked = checkHookList(hook, current, r);
  if (checked === null) return current;
  const replaced = checked.map((t) => (t ? engineHandle(t) : null));
  for (const t of current) if (t && !keep.includes(t)) t.dispose();
  return replaced;
}

/**
 * Note [Accumulating into .grad]
 * The first gradient is stolen when nothing else holds its data (else copied, so a later
 * in-place accumulation cannot change another tensor); later ones are added in place, or
 * out of place under `createGraph` so the sum keeps its graph, as PyTorch's AccumulateGrad.
 */
function accumulate(acc: AccumulateGrad, g: Tensor | null, createGraph: boolean): void {
  const meta = metaOf(acc.leaf);
  if (!meta || g === null) {
    g?.dispose();
    return;
  }
  const old = meta.grad;
  if (!old) {
    // Steal only a plain tensor: its own storage, contiguous, held by nothing else (an
    // expanded or sliced gradient must not become a .grad that in-place updates go through).
    const i = g.impl;
    const leaf = acc.leaf;
    // (a sparse gradient has no memory format or layout contract: core Note [Sparse COO tensors])
    // (and, as 1.13's, members held by nothing else: else the gradient is cloned, keeping its flag)
    const layoutOk = g.isSparse ? i.isContiguous && membersUnshared(i as SparseTensorImpl) : obeysLayoutContract(i, leaf);
    const plain = i.useCount === 1 && i.base === null && layoutOk && i.storageOffset === 0 && !createGraph;
    // (a sparse gradient taken as it is becomes a new sparse tensor over the same members, as
    // PyTorch 1.13's AccumulateGrad does with _sparse_coo_tensor_unsafe: so uncoalesced unless
    // it has fewer than two entries; a cloned one keeps its flag)
    const own = plain ? (g.isSparse ? shallowSparse(g) : g) : g.isSparse ? clone(g) : cloneObeyContract(g, leaf, createGraph);
    meta.setGrad(own.impl);
    own.dispose();
    if (own !== g) g.dispose();
    return;
  }
  if (createGraph) {
    const oldH = new Tensor(old.retain());
    const sum = add(oldH, g);
    meta.setGrad(sum.impl);
    sum.dispose();
    oldH.dispose();
  } else if (old.keySet.has(DispatchKey.SparseCPU) && !g.isSparse) {
    // A sparse .grad plus a dense gradient is dense: the .grad becomes a new tensor, as
    // PyTorch's AccumulateGrad (`new_grad + variable_grad`).
    const oldH = new Tensor(old.retain());
    const sum = noGrad(() => add(g!, oldH));
    meta.setGrad(sum.impl);
    sum.dispose();
    oldH.dispose();
  } else {
    // (dense += dense, dense += sparse, and sparse += sparse: the sparse kernel merges in place)
    const oldH = new Tensor(old.retain());
    noGrad(() => oldH.add_(g!));
    oldH.dispose();
  }
  g.dispose();
}

/**
 * PyTorch's clone_obey_contract: a copy of `g` with the leaf's strides when the leaf is
 * dense (so a channels-last parameter gets a channels-last `.grad`), else contiguous. Under
 * `createGraph` the copy must keep its graph, so it is a clone in the leaf's memory format.
 */
function cloneObeyContract(g: Tensor, leaf: TensorImpl, createGraph: boolean): Tensor {
  if (!isDense(leaf.sizes, leaf.strides)) return clone(g, { memoryFormat: 'contiguous' });
  if (createGraph) {
    const cl = !leaf.isContiguous && isContiguousAs(leaf.sizes, leaf.strides, 'channels_last', false);
    return clone(g, { memoryFormat: cl ? 'channels_last' : 'contiguous' });
  }
  const out = new Tensor(TensorImpl.emptyStrided('AccumulateGrad', leaf.sizes, leaf.strides, g.dtype, g.device));
  noGrad(() => out.copy_(g));
  return out;
}

/** `retainGrad()` on a non-leaf: its gradient is kept (and accumulated) like a leaf's. */
function retain(meta: AutogradMeta, g: Tensor, createGraph: boolean): void {
  const old = meta.grad;
  if (!old) {
    const c = g.isSparse ? clone(g) : clone(g, { memoryFormat: 'contiguous' });
    meta.setGrad(c.impl);
    c.dispose();
    return;
  }
  const oldH = new Tensor(old.retain());
  const [x, y] = oldH.isSparse && !g.isSparse ? [g, oldH] : [oldH, g];
  const sum = createGraph ? add(x, y) : noGrad(() => add(x, y));
  meta.setGrad(sum.impl);
  sum.dispose();
  oldH.dispose();
}

/** A max-heap of ready nodes: accumulators first, then the highest sequence number. */
class ReadyQueue {
  private readonly heap: Node[] = [];

  private static key(n: Node): number {
    return n instanceof AccumulateGrad ? Number.MAX_SAFE_INTEGER : n.sequenceNr;
  }

  push(n: Node): void {
    const h = this.heap;
    h.push(n);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (ReadyQueue.key(h[p]) >= ReadyQueue.key(h[i])) break;
      [h[p], h[i]] = [h[i], h[p]];
      i = p;
    }
  }

  pop(): Node | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && ReadyQueue.key(h[l]) > ReadyQueue.key(h[m])) m = l;
        if (r < h.length && ReadyQueue.key(h[r]) > ReadyQueue.key(h[m])) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i], h[m]];
        i = m;
      }
    }
    return top;
  }
}

/** Whether a sparse gradient's indices and values are held by it alone (1.13's use_count() <= 1 on each). */
function membersUnshared(t: SparseTensorImpl): boolean {
  return [t.indices, t.values].every((m) => m.useCount === 1 && m.base === null && m.storage.useCount === 1);
}

/** A new sparse tensor over `g`'s members (PyTorch's `_sparse_coo_tensor_unsafe(g._indices(), g._values(), g.sizes())`). */
function shallowSparse(g: Tensor): Tensor {
  const i = g._indices();
  const v = g._values();
  try {
    return noGrad(() => sparseCooTensor(i, v, g.shape));
  } finally {
    i.dispose();
    v.dispose();
  }
}
