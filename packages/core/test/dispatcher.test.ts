import { describe, it, expect } from 'vitest';
import {
  AUTOGRAD_KEYSET,
  AFTER_AUTOGRAD_EXCLUDED,
  DispatchKey,
  DispatchKeySet,
  ExcludeGuard,
  FALLTHROUGH,
  IncludeGuard,
  TorchError,
  callBoxed,
  computeKeySet,
  findOperator,
  getOperator,
  localExcluded,
  localIncluded,
  redispatch,
  registerFallback,
  registerKernel,
  registerOperator,
  withExcluded,
  type BoxedKernel,
  type HasKeySet,
} from '../src/index';

const { CPU, WebGPU, Meta, ADInplaceOrView, AutogradCPU, AutogradMeta } = DispatchKey;

/** A stand-in for a tensor: the dispatcher only reads `keySet` from tensor arguments. */
function fakeTensor(...keys: DispatchKey[]): HasKeySet {
  return { keySet: DispatchKeySet.of(...keys) };
}
/** The key set a real CPU tensor carries. */
const cpuTensor = () => fakeTensor(CPU, ADInplaceOrView, AutogradCPU);
const metaTensor = () => fakeTensor(Meta, ADInplaceOrView, AutogradMeta);

/** A kernel that records its name and the key set it was called with. */
function recorder(log: string[], name: string, result: unknown = name): BoxedKernel {
  return (ks) => {
    log.push(`${name}:${ks.keys().join(',')}`);
    return result;
  };
}

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

describe('operator declarations', () => {
  it('declares an operator once, with its parsed schema', () => {
    const h = registerOperator({ schema: 'dsp_decl.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', tags: ['out'] });
    expect(h.name).toBe('dsp_decl.out');
    expect(h.schema.name).toBe('dsp_decl');
    expect(h.schema.overload).toBe('out');
    expect(h.def.tags).toEqual(['out']);
    expect(findOperator('dsp_decl.out')).toBe(h);
    expect(getOperator('dsp_decl.out')).toBe(h);
    expect(findOperator('dsp_decl')).toBeUndefined();
  });

  it('a second declaration of the same name throws a TorchError naming the op', () => {
    registerOperator({ schema: 'dsp_twice(Tensor self) -> Tensor' });
    const e = thrown(() => registerOperator({ schema: 'dsp_twice(Tensor self, Tensor other) -> Tensor' }));
    expect(e).toBeInstanceOf(TorchError);
    expect(e.message).toMatch(/aten::dsp_twice is declared twice/);
    // the first declaration is untouched
    expect(getOperator('dsp_twice').schema.args.map((a) => a.name)).toEqual(['self']);
  });

  it('getOperator / registerKernel of an undeclared op throw', () => {
    expect(thrown(() => getOperator('dsp_nope'))).toBeInstanceOf(TorchError);
    expect(thrown(() => getOperator('dsp_nope')).message).toMatch(/no operator aten::dsp_nope is declared/);
    expect(thrown(() => registerKernel('dsp_nope', CPU, () => 0)).message).toMatch(/aten::dsp_nope/);
  });

  it('registerKernel by name or handle; a second registration at a key replaces the first', () => {
    const h = registerOperator({ schema: 'dsp_replace(Tensor self) -> Tensor' });
    registerKernel('dsp_replace', CPU, () => 'first');
    expect(h.hasKernel(CPU)).toBe(true);
    expect(h.hasKernel(Meta)).toBe(false);
    expect(callBoxed(h, [cpuTensor()])).toBe('first');
    registerKernel(h, CPU, () => 'second');
    expect(callBoxed(h, [cpuTensor()])).toBe('second');
  });
});

describe('kernel selection', () => {
  it('runs the kernel of the backend key of the arguments and passes the arguments through', () => {
    const h = registerOperator({ schema: 'dsp_per_key(Tensor self, int n) -> Tensor' });
    const seen: unknown[][] = [];
    registerKernel(h, CPU, (_ks, args) => {
      seen.push(args);
      return 'cpu';
    });
    registerKernel(h, Meta, () => 'meta');
    const t = cpuTensor();
    expect(callBoxed(h, [t, 7])).toBe('cpu');
    expect(seen).toEqual([[t, 7]]);
    expect(seen[0][0]).toBe(t);
    expect(callBoxed(h, [metaTensor(), 7])).toBe('meta');
  });

  it('the highest key of the call wins', () => {
    const h = registerOperator({ schema: 'dsp_highest(Tensor self) -> Tensor' });
    const log: string[] = [];
    registerKernel(h, CPU, recorder(log, 'cpu'));
    registerKernel(h, AutogradCPU, recorder(log, 'autograd'));
    expect(callBoxed(h, [cpuTensor()])).toBe('autograd');
    // the kernel sees the whole key set of the call, its own key included
    expect(log).toEqual([`autograd:${CPU},${ADInplaceOrView},${AutogradCPU}`]);
    // a tensor without the autograd key goes to the backend
    expect(callBoxed(h, [fakeTensor(CPU)])).toBe('cpu');
  });

  it('unions the keys of every tensor argument, tensor lists included, and ignores non-tensor arguments', () => {
    const h = registerOperator({ schema: 'dsp_union(Tensor self, Tensor[] others, Tensor? maybe, int n) -> Tensor' });
    const ks = computeKeySet(h, [fakeTensor(CPU), [fakeTensor(Meta), null, fakeTensor(AutogradMeta)], null, fakeTensor(WebGPU)]);
    expect(ks.keys()).toEqual([CPU, Meta, AutogradMeta]); // WebGPU came from an `int` argument
    const ks2 = computeKeySet(h, [fakeTensor(CPU), [], fakeTensor(WebGPU), 1]);
    expect(ks2.keys()).toEqual([CPU, WebGPU]);
  });

  it('a FALLTHROUGH kernel skips to the next key down, which sees the set without it', () => {
    const h = registerOperator({ schema: 'dsp_fallthrough(Tensor self) -> Tensor' });
    const log: string[] = [];
    registerKernel(h, AutogradCPU, FALLTHROUGH);
    registerKernel(h, ADInplaceOrView, recorder(log, 'view'));
    registerKernel(h, CPU, recorder(log, 'cpu'));
    expect(callBoxed(h, [cpuTensor()])).toBe('view');
    expect(log).toEqual([`view:${CPU},${ADInplaceOrView}`]);
    registerKernel(h, ADInplaceOrView, FALLTHROUGH);
    expect(callBoxed(h, [cpuTensor()])).toBe('cpu');
    expect(log[1]).toBe(`cpu:${CPU}`);
  });

  it('core registers fallthrough fallbacks at the autograd and view keys: an op with only a backend kernel reaches it', () => {
    const h = registerOperator({ schema: 'dsp_backend_only(Tensor self) -> Tensor' });
    const log: string[] = [];
    registerKernel(h, CPU, recorder(log, 'cpu'));
    expect(callBoxed(h, [cpuTensor()])).toBe('cpu');
    expect(log).toEqual([`cpu:${CPU}`]);
  });

  it('a backend fallback runs for every op without a kernel at that key; an op kernel beats it', () => {
    const a = registerOperator({ schema: 'dsp_fb_a(Tensor self) -> Tensor' });
    const b = registerOperator({ schema: 'dsp_fb_b(Tensor self, Tensor other) -> Tensor' });
    const gpu = () => fakeTensor(WebGPU);
    const e = thrown(() => callBoxed(a, [gpu()]));
    expect(e.message).toBe('dsp_fb_a: no kernel for aten::dsp_fb_a on WebGPU');
    const calls: unknown[][] = [];
    registerFallback(WebGPU, (_ks, args) => {
      calls.push(args);
      return 'fallback';
    });
    expect(callBoxed(a, [gpu()])).toBe('fallback');
    expect(callBoxed(b, [gpu(), gpu()])).toBe('fallback');
    expect(calls.length).toBe(2);
    expect(calls[1].length).toBe(2);
    registerKernel(b, WebGPU, () => 'own kernel');
    expect(callBoxed(b, [gpu(), gpu()])).toBe('own kernel');
    expect(callBoxed(a, [gpu()])).toBe('fallback');
  });

  it('a composite kernel runs when the op has no kernel at the key, on any backend', () => {
    const log: string[] = [];
    const h = registerOperator({ schema: 'dsp_composite(Tensor self) -> Tensor', composite: recorder(log, 'composite') });
    expect(callBoxed(h, [cpuTensor()])).toBe('composite');
    expect(callBoxed(h, [metaTensor()])).toBe('composite');
    expect(callBoxed(h, [fakeTensor(WebGPU)])).toBe('composite');
    // an explicit kernel at the highest key of the call takes precedence over the composite
    registerKernel(h, AutogradMeta, recorder(log, 'autograd-meta'));
    expect(callBoxed(h, [metaTensor()])).toBe('autograd-meta');
    expect(callBoxed(h, [cpuTensor()])).toBe('composite');
  });

  it('a backend kernel registered for a composite op is used on that backend', () => {
    const log: string[] = [];
    const h = registerOperator({ schema: 'dsp_composite_fast(Tensor self) -> Tensor', composite: recorder(log, 'composite') });
    registerKernel(h, CPU, recorder(log, 'cpu-fast'));
    expect(callBoxed(h, [cpuTensor()])).toBe('cpu-fast');
    expect(callBoxed(h, [metaTensor()])).toBe('composite');
  });

  it('no kernel at the highest non-fallthrough key is a TorchError naming the op and the key', () => {
    const h = registerOperator({ schema: 'dsp_myop(Tensor self) -> Tensor' });
    registerKernel(h, Meta, () => 'meta');
    const e = thrown(() => callBoxed(h, [cpuTensor()]));
    expect(e).toBeInstanceOf(TorchError);
    expect(e.message).toMatch(/no kernel for aten::dsp_myop on CPU/);
    expect(e.message.startsWith('dsp_myop:')).toBe(true);
    const o = registerOperator({ schema: 'dsp_myop.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)' });
    expect(thrown(() => callBoxed(o, [metaTensor(), metaTensor()])).message).toBe(
      'dsp_myop: no kernel for aten::dsp_myop.out on Meta',
    );
  });

  it('a call with no keys at all (no tensors, or every key falls through) is a TorchError', () => {
    const h = registerOperator({ schema: 'dsp_nokeys(Tensor self) -> Tensor' });
    registerKernel(h, CPU, FALLTHROUGH);
    const e1 = thrown(() => callBoxed(h, [null]));
    expect(e1).toBeInstanceOf(TorchError);
    expect(e1.message).toMatch(/dsp_nokeys: no kernel for aten::dsp_nokeys on any key of the call/);
    const e2 = thrown(() => callBoxed(h, [cpuTensor()]));
    expect(e2.message).toMatch(/no kernel for aten::dsp_nokeys on any key of the call/);
  });

  it('FALLTHROUGH itself throws if ever called directly', () => {
    expect(thrown(() => FALLTHROUGH(DispatchKeySet.EMPTY, []))).toBeInstanceOf(TorchError);
  });
});

describe('redispatch', () => {
  it('an autograd kernel hands the call to the keys below it', () => {
    const h = registerOperator({ schema: 'dsp_redispatch(Tensor self) -> Tensor' });
    const log: string[] = [];
    registerKernel(h, AutogradCPU, (ks, args) => {
      log.push(`autograd:${ks.keys().join(',')}`);
      return `wrapped(${String(redispatch(h, ks, AutogradCPU, args))})`;
    });
    registerKernel(h, CPU, recorder(log, 'cpu', 'computed'));
    expect(callBoxed(h, [cpuTensor()])).toBe('wrapped(computed)');
    // ADInplaceOrView (between the two) falls through; the CPU kernel sees only CPU
    expect(log).toEqual([`autograd:${CPU},${ADInplaceOrView},${AutogradCPU}`, `cpu:${CPU}`]);
  });

  it('redispatch removes the given key and everything above it, even keys not yet visited', () => {
    const h = registerOperator({ schema: 'dsp_redispatch_below(Tensor self) -> Tensor' });
    const log: string[] = [];
    registerKernel(h, ADInplaceOrView, recorder(log, 'view'));
    registerKernel(h, AutogradCPU, recorder(log, 'autograd'));
    registerKernel(h, CPU, recorder(log, 'cpu'));
    const full = DispatchKeySet.of(CPU, ADInplaceOrView, AutogradCPU);
    expect(redispatch(h, full, AutogradCPU, [cpuTensor()])).toBe('view');
    expect(redispatch(h, full, ADInplaceOrView, [cpuTensor()])).toBe('cpu');
    expect(log).toEqual([`view:${CPU},${ADInplaceOrView}`, `cpu:${CPU}`]);
    expect(thrown(() => redispatch(h, full, CPU, [cpuTensor()])).message).toMatch(/on any key of the call/);
  });
});

describe('local included / excluded key sets', () => {
  function autogradOp(name: string) {
    const h = registerOperator({ schema: `${name}(Tensor self) -> Tensor` });
    registerKernel(h, AutogradCPU, () => 'autograd');
    registerKernel(h, CPU, () => 'cpu');
    return h;
  }

  it('withExcluded removes keys from every call inside and restores the previous set', () => {
    const h = autogradOp('dsp_excl');
    expect(localExcluded()).toBe(DispatchKeySet.EMPTY);
    expect(callBoxed(h, [cpuTensor()])).toBe('autograd');
    const inside = withExcluded(AUTOGRAD_KEYSET, () => {
      expect(localExcluded()).toBe(AUTOGRAD_KEYSET);
      // nested scopes accumulate
      withExcluded(DispatchKeySet.of(ADInplaceOrView), () => expect(localExcluded()).toBe(AFTER_AUTOGRAD_EXCLUDED));
      expect(localExcluded()).toBe(AUTOGRAD_KEYSET);
      return callBoxed(h, [cpuTensor()]);
    });
    expect(inside).toBe('cpu');
    expect(localExcluded()).toBe(DispatchKeySet.EMPTY);
    expect(callBoxed(h, [cpuTensor()])).toBe('autograd');
  });

  it('withExcluded restores the set when its function throws', () => {
    const boom = new Error('boom');
    expect(() =>
      withExcluded(AUTOGRAD_KEYSET, () => {
        throw boom;
      }),
    ).toThrow(boom);
    expect(localExcluded()).toBe(DispatchKeySet.EMPTY);
  });

  it('ExcludeGuard excludes keys until its `using` scope ends', () => {
    const h = autogradOp('dsp_guard');
    {
      using _g = new ExcludeGuard(AUTOGRAD_KEYSET);
      expect(localExcluded()).toBe(AUTOGRAD_KEYSET);
      expect(callBoxed(h, [cpuTensor()])).toBe('cpu');
    }
    expect(localExcluded()).toBe(DispatchKeySet.EMPTY);
    expect(callBoxed(h, [cpuTensor()])).toBe('autograd');
  });

  it('ExcludeGuard restores on a throw out of its scope, and disposing twice is harmless', () => {
    const run = () => {
      using _g = new ExcludeGuard(AUTOGRAD_KEYSET);
      throw new TorchError('inside');
    };
    expect(run).toThrow('inside');
    expect(localExcluded()).toBe(DispatchKeySet.EMPTY);
    const outer = new ExcludeGuard(DispatchKeySet.of(AutogradMeta));
    const inner = new ExcludeGuard(DispatchKeySet.of(AutogradCPU));
    inner[Symbol.dispose]();
    inner[Symbol.dispose](); // a second dispose must not restore anything again
    expect(localExcluded()).toBe(DispatchKeySet.of(AutogradMeta));
    outer[Symbol.dispose]();
    expect(localExcluded()).toBe(DispatchKeySet.EMPTY);
  });

  it('IncludeGuard adds keys to calls whose tensors lack them; exclusion wins over inclusion', () => {
    const h = autogradOp('dsp_incl');
    expect(callBoxed(h, [fakeTensor(CPU)])).toBe('cpu');
    {
      using _i = new IncludeGuard(DispatchKeySet.of(AutogradCPU));
      expect(localIncluded()).toBe(DispatchKeySet.of(AutogradCPU));
      expect(callBoxed(h, [fakeTensor(CPU)])).toBe('autograd');
      expect(withExcluded(AUTOGRAD_KEYSET, () => callBoxed(h, [fakeTensor(CPU)]))).toBe('cpu');
    }
    expect(localIncluded()).toBe(DispatchKeySet.EMPTY);
    expect(callBoxed(h, [fakeTensor(CPU)])).toBe('cpu');
  });
});

describe('dispatch cache (Note [Dispatch cache])', () => {
  it('a kernel registered after calls were cached is used by the next call, at the same key or above it', () => {
    const h = registerOperator({ schema: 'dsp_cache_late(Tensor self) -> Tensor' });
    registerKernel(h, CPU, () => 'cpu 1');
    expect(callBoxed(h, [cpuTensor()])).toBe('cpu 1');
    expect(callBoxed(h, [cpuTensor()])).toBe('cpu 1');
    registerKernel(h, CPU, () => 'cpu 2');
    expect(callBoxed(h, [cpuTensor()])).toBe('cpu 2');
    registerKernel(h, AutogradCPU, (ks, args) => `autograd(${String(redispatch(h, ks, AutogradCPU, args))})`);
    expect(callBoxed(h, [cpuTensor()])).toBe('autograd(cpu 2)');
    // a registration on another op invalidates too, and changes nothing here
    registerKernel(registerOperator({ schema: 'dsp_cache_other(Tensor self) -> Tensor' }), CPU, () => 'other');
    expect(callBoxed(h, [cpuTensor()])).toBe('autograd(cpu 2)');
  });

  it('caches each key set of an op apart: calls on two backends alternate correctly', () => {
    const h = registerOperator({ schema: 'dsp_cache_keys(Tensor self) -> Tensor' });
    registerKernel(h, CPU, () => 'cpu');
    registerKernel(h, Meta, () => 'meta');
    for (let i = 0; i < 3; i++) {
      expect(callBoxed(h, [cpuTensor()])).toBe('cpu');
      expect(callBoxed(h, [metaTensor()])).toBe('meta');
    }
  });

  it('follows the excluded set: the same op and tensors dispatch differently inside and outside withExcluded', () => {
    const h = registerOperator({ schema: 'dsp_cache_excluded(Tensor self) -> Tensor' });
    registerKernel(h, AutogradCPU, () => 'autograd');
    registerKernel(h, CPU, () => 'cpu');
    for (let i = 0; i < 2; i++) {
      expect(callBoxed(h, [cpuTensor()])).toBe('autograd');
      expect(withExcluded(AUTOGRAD_KEYSET, () => callBoxed(h, [cpuTensor()]))).toBe('cpu');
    }
  });

  it('a failed lookup caches nothing: the call throws until a kernel (or fallback) exists, then runs it', () => {
    const h = registerOperator({ schema: 'dsp_cache_missing(Tensor self) -> Tensor' });
    registerKernel(h, CPU, () => 'cpu');
    const gpu = () => fakeTensor(WebGPU);
    const before = thrown(() => callBoxed(h, [fakeTensor(Meta)]));
    expect(before.message).toBe('dsp_cache_missing: no kernel for aten::dsp_cache_missing on Meta');
    expect(thrown(() => callBoxed(h, [fakeTensor(Meta)])).message).toBe(before.message);
    registerKernel(h, Meta, () => 'meta');
    expect(callBoxed(h, [fakeTensor(Meta)])).toBe('meta');
    registerKernel(h, WebGPU, () => 'gpu');
    expect(callBoxed(h, [gpu()])).toBe('gpu');
  });

  it('a FALLTHROUGH registered after caching is skipped by the next call, which sees the set without it', () => {
    const h = registerOperator({ schema: 'dsp_cache_fallthrough(Tensor self) -> Tensor' });
    const log: string[] = [];
    registerKernel(h, AutogradCPU, recorder(log, 'autograd'));
    registerKernel(h, CPU, recorder(log, 'cpu'));
    expect(callBoxed(h, [cpuTensor()])).toBe('autograd');
    registerKernel(h, AutogradCPU, FALLTHROUGH);
    expect(callBoxed(h, [cpuTensor()])).toBe('cpu');
    expect(log).toEqual([`autograd:${CPU},${ADInplaceOrView},${AutogradCPU}`, `cpu:${CPU}`]);
  });
});
