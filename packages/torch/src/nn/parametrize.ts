/**
 * `torch.nn.utils.parametrize`: a module's tensor computed from an `original` one by modules.
 *
 * Note [Parametrizations are accessor properties]
 * PyTorch's `register_parametrization(module, 'weight', p)` moves the parameter to
 * `module.parametrizations.weight.original` (a ParametrizationList, itself a ModuleList of
 * the parametrizations), swaps the module's class for `ParametrizedLinear` and gives that
 * class a `weight` property whose getter runs the list and whose setter runs the
 * `rightInverse`s. A torch-ts module is a Proxy around itself (Note [Module registration by
 * assignment]): here `weight` becomes an accessor property of the instance itself (the Proxy
 * files nothing for an accessor, and `_fileAttribute` skips names that have one), and the
 * printed name becomes `Parametrized${name}` through an own `_getName`. State-dict keys
 * follow from the module tree, as PyTorch's: `parametrizations.weight.original` (or
 * `original0`, `original1`... when `rightInverse` returns several tensors).
 * `cached(fn)` (PyTorch's `with parametrize.cached():`) computes each parametrized tensor once
 * while `fn` runs.
 */
import { ValueError } from '@torch-ts/core';
import { ModuleDict } from './modules/container';
import { Tensor, TorchError, noGradGuard } from './internal';
import { Module } from './module';
import { Parameter } from './parameter';

/** A parametrization: a Module whose `forward` maps the original tensor(s) to the value; `rightInverse` optional. */
export type Parametrization = Module & { rightInverse?: (value: Tensor) => Tensor | Tensor[] };

let cacheEnabled = 0;
const cache = new Map<Module, Map<string, Tensor>>();

/** Runs `fn` with parametrized tensors computed once each and reused (PyTorch's `with parametrize.cached():`). */
export function cached<T>(fn: () => T): T {
  cacheEnabled++;
  try {
    return fn();
  } finally {
    cacheEnabled--;
    if (cacheEnabled === 0) cache.clear();
  }
}

/** A parameter stays a Parameter (keeping requiresGrad); a buffer a tensor. */
function asOriginal(like: Tensor, value: Tensor): Tensor {
  return like instanceof Parameter ? new Parameter(value, like.requiresGrad) : noGradGuard(() => value.detach());
}

function registerTensor(m: Module, name: string, t: Tensor): void {
  if (t instanceof Parameter) m.registerParameter(name, t);
  else m.registerBuffer(name, t);
}

/** Puts `value` in the place of `target`'s data: in place when the shape and dtype allow (PyTorch's `set_`), else a new tensor. */
function setData(owner: Module, name: string, target: Tensor, value: Tensor): void {
  if (target.shape.join() === value.shape.join() && target.dtype === value.dtype && target.device.type === value.device.type) {
    noGradGuard(() => target.copy_(value));
  } else {
    registerTensor(owner, name, asOriginal(target, value));
  }
}

/** PyTorch's ParametrizationList: the parametrizations of one tensor, and its `original`(s). */
export class ParametrizationList extends Module {
  declare isTensor: boolean;
  declare ntensors: number;
  declare unsafe: boolean;

  constructor(modules: Parametrization[], original: Tensor, unsafe = false) {
    super();
    modules.forEach((m) => this.append(m));
    if (modules.length === 0) throw new ValueError('ParametrizationList requires one or more modules.');
    Object.defineProperty(this, 'unsafe', { value: unsafe, writable: true, enumerable: false });
    const news = noGradGuard(() => {
      let v: Tensor | Tensor[] = original;
      for (const m of [...modules].reverse()) if (typeof m.rightInverse === 'function') v = m.rightInverse(v as Tensor);
      return v;
    });
    if (!(news instanceof Tensor) && !Array.isArray(news)) {
      throw new ValueError(`registerParametrization: 'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). Got ${typeof news}`);
    }
    Object.defineProperty(this, 'isTensor', { value: news instanceof Tensor, writable: true, enumerable: false });
    Object.defineProperty(this, 'ntensors', { value: news instanceof Tensor ? 1 : news.length, writable: true, enumerable: false });
    if (news instanceof Tensor) {
      if (original.dtype !== news.dtype) {
        throw new ValueError(
          `registerParametrization: When \`right_inverse\` outputs one tensor, it may not change the dtype.\noriginal.dtype: ${original.dtype}\nright_inverse(original).dtype: ${news.dtype}`,
        );
      }
      if (news === original) registerTensor(this, 'original', original);
      else registerTensor(this, 'original', asOriginal(original, news));
    } else {
      news.forEach((t, i) => {
        if (!(t instanceof Tensor)) throw new ValueError(`registerParametrization: 'right_inverse' must return a sequence of tensors. Got ${typeof t}.`);
        registerTensor(this, `original${i}`, asOriginal(original, t));
      });
    }
    if (!unsafe) this.checkConsistency(original);
  }

  // (a ModuleList's slots: `(0): Symmetric()` when printed, `0.` in state-dict keys of the parametrizations' own buffers)
  override get length(): number {
    return this._modules.size;
  }

  get(i: number): Module {
    return this._modules.get(String(i))!;
  }

  append(m: Module): this {
    this.registerModule(String(this._modules.size), m);
    return this;
  }

  private originals(): Tensor[] {
    if (this.isTensor) return [this._parameters.get('original') ?? this._buffers.get('original')!];
    return Array.from({ length: this.ntensors }, (_, i) => this._parameters.get(`original${i}`) ?? this._buffers.get(`original${i}`)!);
  }

  /** PyTorch's checks that the parametrization keeps the tensor's shape and dtype (unless `unsafe`). */
  checkConsistency(original: Tensor): void {
    const z = noGradGuard(() => this.forward());
    if (!(z instanceof Tensor)) throw new ValueError(`registerParametrization: A parametrization must return a tensor. Got ${typeof z}.`);
    if (z.dtype !== original.dtype) {
      throw new ValueError(
        `registerParametrization: Registering a parametrization may not change the dtype of the tensor, unless \`unsafe\` flag is enabled.\nunparametrized dtype: ${original.dtype}\nparametrized dtype: ${z.dtype}`,
      );
    }
    if (z.shape.join() !== original.shape.join()) {
      throw new ValueError(
        `registerParametrization: Registering a parametrization may not change the shape of the tensor, unless \`unsafe\` flag is enabled.\nunparametrized shape: torch.Size([${original.shape.join(', ')}])\nparametrized shape: torch.Size([${z.shape.join(', ')}])`,
      );
    }
  }

  /** `module.weight = value`: the right inverses, in reverse order, then into the original(s). */
  rightInverse(value: Tensor): void {
    noGradGuard(() => {
      let v: Tensor | Tensor[] = value;
      for (let i = this.length - 1; i >= 0; i--) {
        const m = this.get(i) as Parametrization;
        if (typeof m.rightInverse === 'function') v = m.rightInverse(v as Tensor);
        else if (!(v instanceof Tensor)) throw new ValueError(`parametrize: parametrization ${m._getName()} does not implement right_inverse.`);
      }
      if (this.isTensor) {
        if (!(v instanceof Tensor)) throw new ValueError(`parametrize: \`right_inverse\` should return a tensor. Got ${typeof v}`);
        const original = this.originals()[0];
        if (original.dtype !== v.dtype) {
          throw new ValueError(`parametrize: The tensor returned by \`right_inverse\` has dtype ${v.dtype} while \`original\` has dtype ${original.dtype}`);
        }
        setData(this, 'original', original, v);
      } else {
        if (!Array.isArray(v) || v.length !== this.ntensors) {
          throw new ValueError(`parametrize: 'right_inverse' must return a sequence of tensors of length ${this.ntensors}. Got ${Array.isArray(v) ? `a sequence of length ${v.length}` : typeof v}.`);
        }
        const originals = this.originals();
        v.forEach((t, i) => setData(this, `original${i}`, originals[i], t));
      }
    });
  }

  override forward(): Tensor {
    const first = this.get(0);
    let x = (this.isTensor ? first(this.originals()[0]) : first(...this.originals())) as Tensor;
    for (let i = 1; i < this.length; i++) x = this.get(i)(x) as Tensor;
    return x;
  }
}

/** The ParametrizationList of `module`'s parametrized tensor `name` (checked). */
function listOf(module: Module, name: string): ParametrizationList {
  const list = parametrizationsOf(module)?.get(name);
  if (!(list instanceof ParametrizationList)) throw new TorchError(`parametrize: '${name}' of ${module._getName()} is not parametrized`);
  return list;
}

function parametrizationsOf(module: Module): ModuleDict | null {
  const p = module._modules.get('parametrizations');
  return p instanceof ModuleDict ? p : null;
}

/** Whether `module` has a parametrization (on `tensorName`, when given). */
export function isParametrized(module: Module, tensorName?: string): boolean {
  const p = parametrizationsOf(module);
  if (p === null) return false;
  return tensorName === undefined ? p.size > 0 : p.has(tensorName);
}

function defineAccessor(module: Module, name: string): void {
  const computed = (): Tensor => {
    const list = listOf(module, name);
    if (cacheEnabled === 0) return list.forward();
    let perModule = cache.get(module);
    if (!perModule) cache.set(module, (perModule = new Map()));
    let t = perModule.get(name);
    if (!t) perModule.set(name, (t = list.forward()));
    return t;
  };
  Object.defineProperty(module, name, {
    get: computed,
    set: (value: unknown) => {
      if (!(value instanceof Tensor)) throw new ValueError(`parametrize: assigning to '${name}' expects a Tensor. Got ${typeof value}`);
      listOf(module, name).rightInverse(value);
    },
    enumerable: true,
    configurable: true,
  });
}

/**
 * `register_parametrization(module, tensor_name, parametrization, *, unsafe=False)`: from now
 * on `module[tensorName]` is `parametrization(original)` (Note [Parametrizations are accessor
 * properties]); a second call on the same name appends to the list.
 */
export function registerParametrization(module: Module, tensorName: string, parametrization: Parametrization, options: { unsafe?: boolean } = {}): Module {
  if (!(parametrization instanceof Module)) throw new TorchError(`registerParametrization: the parametrization must be an nn.Module, got ${typeof parametrization}`);
  const unsafe = options.unsafe ?? false;
  noGradGuard(() => parametrization.train(module.training));
  if (isParametrized(module, tensorName)) {
    const list = listOf(module, tensorName);
    if (!unsafe) {
      const y = noGradGuard(() => list.forward());
      const x = noGradGuard(() => parametrization(y)) as Tensor;
      if (!(x instanceof Tensor)) throw new ValueError(`registerParametrization: A parametrization must return a tensor. Got ${typeof x}.`);
      if (x.dtype !== y.dtype || x.shape.join() !== y.shape.join()) {
        throw new ValueError(
          `registerParametrization: Registering a parametrization may not change the shape or dtype of the tensor, unless \`unsafe\` flag is enabled.\nunparametrized shape: [${y.shape.join(', ')}], dtype ${y.dtype}\nparametrized shape: [${x.shape.join(', ')}], dtype ${x.dtype}`,
        );
      }
    }
    list.append(parametrization);
    list.unsafe ||= unsafe;
    return module;
  }
  const original = module._parameters.get(tensorName) ?? module._buffers.get(tensorName);
  if (!(original instanceof Tensor)) {
    throw new ValueError(`registerParametrization: Module '${module._getName()}' does not have a parameter, a buffer, or a parametrized element with name '${tensorName}'`);
  }
  const list = new ParametrizationList([parametrization], original, unsafe);
  Reflect.deleteProperty(module, tensorName);
  if (!isParametrized(module)) {
    if (!parametrizationsOf(module)) module.registerModule('parametrizations', new ModuleDict());
    const base = module._getName();
    Object.defineProperty(module, '_getName', { value: () => `Parametrized${base}`, writable: true, enumerable: false, configurable: true });
  }
  parametrizationsOf(module)!.set(tensorName, list);
  defineAccessor(module, tensorName);
  return module;
}

/**
 * `remove_parametrizations(module, tensor_name, leave_parametrized=True)`: the tensor becomes
 * a plain parameter (or buffer) again, holding the parametrized value (or the original).
 */
export function removeParametrizations(module: Module, tensorName: string, leaveParametrized = true): Module {
  if (!isParametrized(module, tensorName)) {
    throw new ValueError(`removeParametrizations: Module ${String(module)} does not have a parametrization on ${tensorName}`);
  }
  const dict = parametrizationsOf(module)!;
  const list = listOf(module, tensorName);
  let restored: Tensor;
  if (list.isTensor) {
    const original = (list._parameters.get('original') ?? list._buffers.get('original'))!;
    restored = original;
    if (leaveParametrized) {
      const t = noGradGuard(() => list.forward());
      if (t.shape.join() === original.shape.join() && t.dtype === original.dtype) noGradGuard(() => original.copy_(t));
      else restored = asOriginal(original, t);
    }
  } else {
    if (!leaveParametrized) {
      throw new ValueError('removeParametrizations: Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is parametrized in terms of a sequence of tensors.');
    }
    const t = noGradGuard(() => list.forward());
    const first = (list._parameters.get('original0') ?? list._buffers.get('original0'))!;
    restored = first instanceof Parameter ? new Parameter(t, first.requiresGrad) : noGradGuard(() => t.detach());
  }
  Reflect.deleteProperty(module, tensorName);
  dict.delete(tensorName);
  registerTensor(module, tensorName, restored);
  if (!isParametrized(module)) {
    Reflect.deleteProperty(module, 'parametrizations');
    Reflect.deleteProperty(module, '_getName');
  }
  return module;
}

/** `type_before_parametrizations(module)`'s torch-ts form: the name the module printed before. */
export function nameBeforeParametrizations(module: Module): string {
  return isParametrized(module) ? module._getName().replace(/^Parametrized/, '') : module._getName();
}
