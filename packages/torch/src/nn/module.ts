import { Device, emptyLike, parseDType, toDevice, type DType, type DeviceLike, type MemoryFormatName } from '@torch-ts/core';
import { Tensor, TorchError, noGradGuard, ownGrad, setGrad } from './internal';
import { Parameter } from './parameter';
import { BackwardHook, type FullBackwardHook, type FullBackwardPreHook } from './backward-hook';

export type { FullBackwardHook, FullBackwardPreHook } from './backward-hook';

export type StateDict = Map<string, Tensor>;
export type ForwardHook = (module: Module, args: unknown[], output: unknown) => unknown;
export type ForwardPreHook = (module: Module, args: unknown[]) => unknown;

/** `hook(module, prefix, keepVars)`. */
export type StateDictPreHook = (module: Module, prefix: string, keepVars: boolean) => void;
/** What a state-dict hook gets as `local_metadata` (torch-ts records no per-module versions). */
export type StateDictMetadata = Record<string, unknown>;
/** `hook(module, stateDict, prefix, localMetadata)`: a private `_registerStateDictHook` hook may return a replacement map. */
export type StateDictHook = (module: Module, stateDict: StateDict, prefix: string, localMetadata: StateDictMetadata) => StateDict | undefined | void;
/** `hook(module, stateDict, prefix, localMetadata, strict, missingKeys, unexpectedKeys, errorMsgs)`. */
export type LoadStateDictPreHook = (
  module: Module,
  stateDict: Map<string, Tensor>,
  prefix: string,
  localMetadata: StateDictMetadata,
  strict: boolean,
  missingKeys: string[],
  unexpectedKeys: string[],
  errorMsgs: string[],
) => void;
/** `hook(module, incompatibleKeys)`: edits the lists in place, returns undefined. */
export type LoadStateDictPostHook = (module: Module, incompatibleKeys: IncompatibleKeys) => void;

export interface RemovableHandle {
  remove(): void;
}

export interface LoadStateDictOptions {
  strict?: boolean;
}

export interface IncompatibleKeys {
  missingKeys: string[];
  unexpectedKeys: string[];
}

/** `module.to(...)`: a dtype, a device, or both. */
export interface ModuleToOptions {
  dtype?: DType | string;
  device?: DeviceLike;
  /** Applied to the 4-d and 5-d parameters and buffers only, as PyTorch's `Module.to(memory_format=...)`. */
  memoryFormat?: MemoryFormatName;
}

/** Names a Module keeps for itself; assigning them never registers anything. */
const INTERNAL = new Set([
  '_parameters',
  '_buffers',
  '_nonPersistent',
  '_modules',
  '_forwardHooks',
  '_forwardPreHooks',
  '_backwardHooks',
  '_backwardPreHooks',
  '_stateDictPreHooks',
  '_stateDictHooks',
  '_loadStateDictPreHooks',
  '_loadStateDictPostHooks',
  'training',
]);

/**
 * Note [Module registration by assignment]
 * PyTorch's `Module.__setattr__` files a Parameter under `_parameters`, a Module under
 * `_modules`, and a tensor assigned to a registered buffer's name under `_buffers`. A
 * Module here is a Proxy around itself whose `set` / `defineProperty` traps do the same
 * filing, so `this.fc = new nn.Linear(2, 3)` in a subclass constructor registers `fc`
 * (registration order is PyTorch's key order). The value also stays a plain own property,
 * so reading `this.fc` costs nothing. Only assignment is trapped, never reads; internal
 * state uses ordinary (not `#private`) fields because a Proxy cannot reach those. The
 * same holds for subclasses: use TypeScript `private` (or `registerParameter` /
 * `registerBuffer` / `registerModule`), not `#private` fields, in a Module.
 *
 * Note [Callable modules]
 * `model(x)` runs `model.call(x)` (hooks, then `forward`), as PyTorch's `__call__`. A class
 * instance cannot be called in JavaScript, so the object the constructor returns is a
 * function: an arrow function (no `prototype` property of its own, and its own `name` and
 * `length` deleted, so that a module may use those attribute names) whose prototype is
 * set to the class's, wrapped in the Proxy above. `instanceof`, methods, subclass fields and
 * registration by assignment are unchanged, `forward` stays the method to override, and
 * `typeof model` is 'function'. In TypeScript a callable type also shows Function's
 * members, so a subclass field named `name` or `length` is declared with `override`.
 * Calling goes through the Proxy (no `apply` trap) and one arrow function: measured on
 * Node 20 (best of 15 rounds of 200,000 calls of a module whose forward adds 1 to a number),
 * `m(x)` 92 ns, `m.call(x)` 72 ns, `m.forward(x)` 15 ns: about 20 ns over `call`, against
 * microseconds for any tensor op.
 */
// A Module can be called as a function (Note [Callable modules]). The result is typed from
// the subclass's `forward`; the arguments are not, since parameters typed from `this` would
// make every subclass unassignable to Module (call signatures are checked contravariantly).
export interface Module {
  (...args: any[]): ReturnType<this['forward']>;
}
/** Set while `_substituteTensor` assigns: the assignment is filed by it, unchecked. */
let substituting = false;

export class Module {
  declare _parameters: Map<string, Parameter | null>;
  declare _buffers: Map<string, Tensor | null>;
  declare _nonPersistent: Set<string>;
  declare _modules: Map<string, Module | null>;
  declare _forwardHooks: Map<number, ForwardHook>;
  declare _forwardPreHooks: Map<number, ForwardPreHook>;
  declare _backwardHooks: Map<number, FullBackwardHook>;
  declare _backwardPreHooks: Map<number, FullBackwardPreHook>;
  declare _stateDictPreHooks: Map<number, StateDictPreHook>;
  declare _stateDictHooks: Map<number, { fn: StateDictHook; isPublic: boolean }>;
  declare _loadStateDictPreHooks: Map<number, LoadStateDictPreHook>;
  declare _loadStateDictPostHooks: Map<number, LoadStateDictPostHook>;
  declare training: boolean;

  constructor() {
    const call = (...args: unknown[]) => proxy.call(...args);
    Reflect.deleteProperty(call, 'name');
    Reflect.deleteProperty(call, 'length');
    Object.setPrototypeOf(call, new.target.prototype);
    // (the one place the compiler is told a type: the function now has Module's prototype,
    // and gets its fields just below; Note [Callable modules])
    const self = call as Module;
    const define = (k: string, v: unknown) => Object.defineProperty(self, k, { value: v, writable: true, enumerable: false, configurable: true });
    define('_parameters', new Map());
    define('_buffers', new Map());
    define('_nonPersistent', new Set());
    define('_modules', new Map());
    define('_forwardHooks', new Map());
    define('_forwardPreHooks', new Map());
    for (const k of ['_backwardHooks', '_backwardPreHooks', '_stateDictPreHooks', '_stateDictHooks', '_loadStateDictPreHooks', '_loadStateDictPostHooks']) define(k, new Map());
    define('training', true);
    const proxy: Module = new Proxy(self, {
      set(target, key, value, receiver) {
        if (typeof key === 'string' && !INTERNAL.has(key)) target._fileAttribute(key, value);
        return Reflect.set(target, key, value, receiver === proxy ? target : receiver);
      },
      defineProperty(target, key, desc) {
        if (typeof key === 'string' && !INTERNAL.has(key) && 'value' in desc) target._fileAttribute(key, desc.value);
        return Reflect.defineProperty(target, key, desc);
      },
      deleteProperty(target, key) {
        if (typeof key === 'string') {
          target._parameters.delete(key);
          target._buffers.delete(key);
          target._nonPersistent.delete(key);
          target._modules.delete(key);
        }
        return Reflect.deleteProperty(target, key);
      },
    });
    return proxy;
  }

  /**
   * Puts any tensor (or null) in the place of the parameter or buffer `name` of this module,
   * unchecked, and returns what was there: `torch.func.functionalCall`'s substitution
   * (Note [functionalCall substitutes in place]), which restores the old value the same way.
   */
  _substituteTensor(name: string, value: Tensor | null): Tensor | null {
    const map: Map<string, Tensor | null> | null = this._parameters.has(name) ? this._parameters : this._buffers.has(name) ? this._buffers : null;
    if (!map) throw new TorchError(`functionalCall: ${this.constructor.name} has no parameter or buffer \`${name}\``);
    const old = map.get(name) ?? null;
    substituting = true;
    try {
      map.set(name, value as Parameter | null);
      (this as unknown as Record<string, unknown>)[name] = value;
    } finally {
      substituting = false;
    }
    return old;
  }

  /** Files an assigned value as PyTorch's `__setattr__` does (Note [Module registration by assignment]). */
  _fileAttribute(name: string, value: unknown): void {
    if (substituting) return;
    // (a parametrized tensor is an accessor; its setter files the value: Note [Parametrizations are accessor properties])
    if (Object.getOwnPropertyDescriptor(this, name)?.set !== undefined) return;
    if (value instanceof Parameter) {
      this._buffers.delete(name);
      this._nonPersistent.delete(name);
      this._modules.delete(name);
      this._parameters.set(name, value);
    } else if (this._parameters.has(name)) {
      if (value !== null && value !== undefined) {
        throw new TorchError(
          `Module: cannot assign '${describeValue(value)}' as parameter '${name}' (nn.Parameter or null expected)`,
        );
      }
      this._parameters.set(name, null);
    } else if (value instanceof Module) {
      this._buffers.delete(name);
      this._nonPersistent.delete(name);
      this._parameters.delete(name);
      this._modules.set(name, value);
    } else if (this._modules.has(name)) {
      if (value !== null && value !== undefined) {
        throw new TorchError(`Module: cannot assign '${describeValue(value)}' as child module '${name}' (nn.Module or null expected)`);
      }
      this._modules.set(name, null);
    } else if (this._buffers.has(name)) {
      if (value !== null && value !== undefined && !(value instanceof Tensor)) {
        throw new TorchError(`Module: cannot assign '${describeValue(value)}' as buffer '${name}' (Tensor or null expected)`);
      }
      this._buffers.set(name, value ?? null);
    }
  }

  /** The computation; subclasses override it. `call` runs it with the hooks. */
  forward(..._args: unknown[]): unknown {
    throw new TorchError(`Module [${this.constructor.name}] is missing the required "forward" function`);
  }

  /**
   * `module(x)`: forward pre-hooks, `forward`, then forward hooks (each may replace args /
   * output); with backward hooks, the tensor arguments and outputs pass through the identity
   * that carries them (Note [Module full backward hooks]).
   */
  call(...args: unknown[]): any {
    for (const hook of [...this._forwardPreHooks.values()]) {
      const r = hook(this, args);
      if (r !== undefined && r !== null) args = Array.isArray(r) ? r : [r];
    }
    let bwHook: BackwardHook | null = null;
    if (this._backwardHooks.size > 0 || this._backwardPreHooks.size > 0) {
      bwHook = new BackwardHook(this, [...this._backwardHooks.values()], [...this._backwardPreHooks.values()]);
      args = bwHook.setupInputHook(args);
    }
    let out = this.forward(...args);
    for (const hook of [...this._forwardHooks.values()]) {
      const r = hook(this, args, out);
      if (r !== undefined && r !== null) out = r;
    }
    if (bwHook !== null) out = bwHook.setupOutputHook(out);
    return out;
  }

  /**
   * `hook(module, gradInput, gradOutput)` runs once per backward through this module's call,
   * with the gradients w.r.t. its tensor arguments (null for a non-tensor or one that takes
   * no gradient) and outputs; an array it returns replaces gradInput
   * (Note [Module full backward hooks]).
   */
  registerFullBackwardHook(hook: FullBackwardHook, options: { prepend?: boolean } = {}): RemovableHandle {
    return addHook(this._backwardHooks, hook, options.prepend);
  }

  /** `hook(module, gradOutput)` runs before the module's gradients are computed; an array it returns replaces gradOutput (PyTorch 2.x). */
  registerFullBackwardPreHook(hook: FullBackwardPreHook, options: { prepend?: boolean } = {}): RemovableHandle {
    return addHook(this._backwardPreHooks, hook, options.prepend);
  }

  registerForwardHook(hook: ForwardHook): RemovableHandle {
    return addHook(this._forwardHooks, hook);
  }

  registerForwardPreHook(hook: ForwardPreHook): RemovableHandle {
    return addHook(this._forwardPreHooks, hook);
  }

  // ---- registration ----
  registerParameter(name: string, param: Parameter | null): void {
    checkName('registerParameter', 'parameter', name);
    if (hasAttribute(this, name) && !this._parameters.has(name)) {
      throw new TorchError(`registerParameter: attribute '${name}' already exists`);
    }
    if (param !== null && !(param instanceof Parameter)) {
      throw new TorchError(`registerParameter: cannot assign '${describeValue(param)}' object to parameter '${name}' (nn.Parameter or null required)`);
    }
    this._parameters.set(name, param);
    Reflect.set(this, name, param);
  }

  registerBuffer(name: string, tensor: Tensor | null, options: { persistent?: boolean } = {}): void {
    checkName('registerBuffer', 'buffer', name);
    if (hasAttribute(this, name) && !this._buffers.has(name)) {
      throw new TorchError(`registerBuffer: attribute '${name}' already exists`);
    }
    if (tensor !== null && !(tensor instanceof Tensor)) {
      throw new TorchError(`registerBuffer: cannot assign '${describeValue(tensor)}' object to buffer '${name}' (Tensor or null required)`);
    }
    this._buffers.set(name, tensor);
    if (options.persistent === false) this._nonPersistent.add(name);
    else this._nonPersistent.delete(name);
    Reflect.set(this, name, tensor);
  }

  registerModule(name: string, module: Module | null): void {
    checkName('registerModule', 'module', name);
    if (hasAttribute(this, name) && !this._modules.has(name)) {
      throw new TorchError(`registerModule: attribute '${name}' already exists`);
    }
    if (module !== null && !(module instanceof Module)) {
      throw new TorchError(`registerModule: ${describeValue(module)} is not a Module subclass`);
    }
    this._modules.set(name, module);
    Reflect.set(this, name, module);
  }

  addModule(name: string, module: Module | null): void {
    this.registerModule(name, module);
  }

  getSubmodule(target: string): Module {
    if (target === '') return this;
    let mod: Module = this;
    for (const item of target.split('.')) {
      const next = mod._modules.get(item);
      if (!next) throw new TorchError(`getSubmodule: ${mod.constructor.name} has no attribute \`${item}\``);
      mod = next;
    }
    return mod;
  }

  /** `getParameter('0.weight')`: the parameter at that dotted path, with PyTorch's errors. */
  getParameter(target: string): Parameter {
    return this.registeredAt('getParameter', target, '_parameters', 'an nn.Parameter') as Parameter;
  }

  /** `getBuffer('1.running_mean')`: the buffer at that dotted path, with PyTorch's errors. */
  getBuffer(target: string): Tensor {
    return this.registeredAt('getBuffer', target, '_buffers', 'a buffer');
  }

  /** The parameter or buffer registered at a dotted path (PyTorch's get_parameter / get_buffer). */
  private registeredAt(op: string, target: string, table: '_parameters' | '_buffers', what: string): Tensor {
    const [mod, name] = this.ownerOf(op, target);
    const t = mod[table].get(name);
    if (t == null) {
      if (!Reflect.has(mod, name)) throw new TorchError(`${op}: ${mod.constructor.name} has no attribute \`${name}\``);
      throw new TorchError(`${op}: \`${name}\` is not ${what}`);
    }
    return t;
  }

  /** The module holding the last name of a dotted path, and that name. */
  private ownerOf(op: string, target: string): [Module, string] {
    const at = target.lastIndexOf('.');
    const path = at < 0 ? '' : target.slice(0, at);
    let mod: Module;
    try {
      mod = this.getSubmodule(path);
    } catch (e) {
      throw e instanceof TorchError ? new TorchError(e.message.replace(/^getSubmodule:/, `${op}:`)) : e;
    }
    return [mod, target.slice(at + 1)];
  }

  // ---- iteration (PyTorch's order: own entries first, then children, depth first) ----
  *namedModules(memo: Set<Module> = new Set(), prefix = '', removeDuplicate = true): IterableIterator<[string, Module]> {
    if (memo.has(this)) return;
    if (removeDuplicate) memo.add(this);
    yield [prefix, this];
    for (const [name, m] of this._modules) {
      if (m === null) continue;
      yield* m.namedModules(memo, prefix ? `${prefix}.${name}` : name, removeDuplicate);
    }
  }

  *modules(): IterableIterator<Module> {
    for (const [, m] of this.namedModules()) yield m;
  }

  *namedChildren(): IterableIterator<[string, Module]> {
    const memo = new Set<Module>();
    for (const [name, m] of this._modules) {
      if (m !== null && !memo.has(m)) {
        memo.add(m);
        yield [name, m];
      }
    }
  }

  *children(): IterableIterator<Module> {
    for (const [, m] of this.namedChildren()) yield m;
  }

  private *namedMembers<T>(get: (m: Module) => Map<string, T | null>, prefix: string, recurse: boolean): IterableIterator<[string, T]> {
    const memo = new Set<T>();
    const mods: Iterable<[string, Module]> = recurse ? this.namedModules(new Set(), prefix) : [[prefix, this]];
    for (const [modPrefix, m] of mods) {
      for (const [k, v] of get(m)) {
        if (v === null || memo.has(v)) continue;
        memo.add(v);
        yield [modPrefix ? `${modPrefix}.${k}` : k, v];
      }
    }
  }

  namedParameters(options: { prefix?: string; recurse?: boolean } = {}): IterableIterator<[string, Parameter]> {
    return this.namedMembers((m) => m._parameters, options.prefix ?? '', options.recurse ?? true);
  }

  *parameters(recurse = true): IterableIterator<Parameter> {
    for (const [, p] of this.namedParameters({ recurse })) yield p;
  }

  namedBuffers(options: { prefix?: string; recurse?: boolean } = {}): IterableIterator<[string, Tensor]> {
    return this.namedMembers((m) => m._buffers, options.prefix ?? '', options.recurse ?? true);
  }

  *buffers(recurse = true): IterableIterator<Tensor> {
    for (const [, b] of this.namedBuffers({ recurse })) yield b;
  }

  // ---- modes ----
  train(mode = true): this {
    if (typeof mode !== 'boolean') throw new TorchError('train: training mode is expected to be boolean');
    this.training = mode;
    for (const m of this.children()) m.train(mode);
    return this;
  }

  eval(): this {
    return this.train(false);
  }

  requiresGrad_(requiresGrad = true): this {
    for (const p of this.parameters()) p.requiresGrad_(requiresGrad);
    return this;
  }

  /** Sets every parameter's gradient to null (PyTorch 2.x's `set_to_none=True`), or zeroes it in place. */
  zeroGrad(setToNone = true): void {
    for (const p of this.parameters()) {
      if (setToNone) {
        setGrad(p, null);
      } else {
        const g = ownGrad(p);
        if (g !== null) {
          noGradGuard(() => g.zero_());
          g.dispose();
        }
      }
    }
  }

  apply(fn: (m: Module) => void): this {
    for (const m of this.children()) m.apply(fn);
    fn(this);
    return this;
  }

  /**
   * Converts every parameter and buffer as `fn` says (PyTorch's `_apply`). A converted
   * parameter is a new Parameter (PyTorch swaps `param.data` inside the old object; a
   * torch-ts tensor handle cannot change its TensorImpl), so build optimizers after `to()`.
   *
   * Note [Tied parameters stay tied through to()]
   * A parameter (or buffer) registered in two places, as tied embedding and output weights
   * are (`this.decoder.weight = this.encoder.weight`), is one object in PyTorch before and
   * after `to()`, because PyTorch converts it in place. Here conversion makes a new object, so
   * `memo` (one per `_apply` call, shared by the whole module tree) maps each tensor to its
   * conversion and every place that held the old one gets the same new one: the tie, its
   * single gradient and the optimizer's single state survive the move.
   */
  _apply(fn: (t: Tensor) => Tensor, recurse = true, memo: Map<Tensor, Tensor> = new Map()): this {
    if (recurse) for (const m of this.children()) m._apply(fn, true, memo);
    for (const [name, p] of [...this._parameters]) {
      if (p === null) continue;
      const done = memo.get(p);
      if (done !== undefined) {
        if (done !== p) Reflect.set(this, name, done);
        continue;
      }
      const converted = noGradGuard(() => fn(p));
      if (converted === p) {
        memo.set(p, p);
        continue;
      }
      const np = new Parameter(converted, p.requiresGrad);
      if (converted !== np) converted.dispose();
      const g = ownGrad(p);
      if (g !== null) {
        const cg = noGradGuard(() => fn(g));
        setGrad(np, cg);
        if (cg !== g) cg.dispose();
        g.dispose();
      }
      memo.set(p, np);
      Reflect.set(this, name, np);
    }
    for (const [name, b] of [...this._buffers]) {
      if (b === null) continue;
      const converted = memo.get(b) ?? noGradGuard(() => fn(b));
      memo.set(b, converted);
      if (converted !== b) Reflect.set(this, name, converted);
    }
    return this;
  }

  /**
   * `to(dtype)`, `to(device)` or `to({ dtype, device, memoryFormat })`: only floating tensors
   * change dtype, and only 4-d and 5-d ones memory format, as in PyTorch (so a 5-d parameter
   * under 'channels_last' raises PyTorch's rank error).
   */
  to(target: DType | DeviceLike | ModuleToOptions | string, options: ModuleToOptions = {}): this {
    let dtype: DType | null = null;
    let device: Device | null = null;
    let opts = options;
    if (target instanceof Device) device = target;
    else if (typeof target === 'string') {
      if (isDTypeName(target)) dtype = parseDType('Module.to', target);
      // (a string that is no device raises in toDevice: the cast only says it may be one)
      else device = toDevice('Module.to', target as DeviceLike);
    } else if (typeof target === 'object' && target !== null) {
      // a `{ type, index }` device, or the options
      if ('type' in target) device = toDevice('Module.to', target);
      else opts = target;
    }
    if (opts.dtype != null) dtype = parseDType('Module.to', opts.dtype);
    if (opts.device != null) device = toDevice('Module.to', opts.device);
    if (dtype !== null && !isFloatDType(dtype)) {
      throw new TorchError(`Module.to only accepts floating point dtypes, but got desired dtype=${dtype}`);
    }
    const format = opts.memoryFormat ?? null;
    return this._apply((t) => {
      const d = dtype !== null && t.isFloatingPoint() ? dtype : t.dtype;
      if (format !== null && (t.dim() === 4 || t.dim() === 5)) return t.to({ dtype: d, device: device ?? t.device, memoryFormat: format });
      return t.to({ dtype: d, device: device ?? t.device });
    });
  }

  float(): this {
    return this.to('float32');
  }

  double(): this {
    return this.to('float64');
  }

  half(): this {
    return this.to('float16');
  }

  bfloat16(): this {
    return this.to('bfloat16');
  }

  cpu(): this {
    return this.to('cpu');
  }

  /**
   * Moves every parameter and buffer to `device` without copying data: each becomes
   * `emptyLike(t, { device })` (PyTorch's `to_empty`), the way to materialise a module built
   * on the meta device (Note [The default device] in core) before initialising it.
   */
  toEmpty(options: { device: DeviceLike; recurse?: boolean }): this {
    if (options === null || typeof options !== 'object' || options.device == null) throw new TorchError('toEmpty: expected { device }');
    const device = toDevice('Module.toEmpty', options.device);
    return this._apply((t) => emptyLike(t, { device }), options.recurse ?? true);
  }

  // ---- state dict ----
  /** Parameters and persistent buffers, keyed as PyTorch's `state_dict()` (detached aliases), through the state-dict hooks. */
  stateDict(options: { prefix?: string; keepVars?: boolean } = {}): StateDict {
    return this._stateDictInto(new Map(), options.prefix ?? '', options.keepVars ?? false);
  }

  /** PyTorch's recursive `state_dict(destination, prefix, keep_vars)`: pre-hooks, own tensors, children, post-hooks. */
  private _stateDictInto(dest: StateDict, prefix: string, keepVars: boolean): StateDict {
    for (const hook of [...this._stateDictPreHooks.values()]) hook(this, prefix, keepVars);
    this._saveToStateDict(dest, prefix, keepVars);
    for (const [name, m] of this._modules) if (m !== null) m._stateDictInto(dest, `${prefix}${name}.`, keepVars);
    const metadata: StateDictMetadata = {};
    for (const hook of [...this._stateDictHooks.values()]) {
      const r = hook.fn(this, dest, prefix, metadata);
      if (r === undefined || r === null) continue;
      if (hook.isPublic) throw new TorchError('stateDict: state_dict post-hook must return None');
      dest = r;
    }
    return dest;
  }

  /** This module's own entries (PyTorch's `_save_to_state_dict`). */
  _saveToStateDict(out: StateDict, prefix: string, keepVars: boolean): void {
    for (const [name, p] of this._parameters) if (p !== null) out.set(prefix + name, keepVars ? p : p.detach());
    for (const [name, b] of this._buffers) {
      if (b !== null && !this._nonPersistent.has(name)) out.set(prefix + name, keepVars ? b : b.detach());
    }
  }

  /** `hook(module, prefix, keepVars)` runs before `stateDict` saves this module (PyTorch 2.x `register_state_dict_pre_hook`). */
  registerStateDictPreHook(hook: StateDictPreHook): RemovableHandle {
    return addHook(this._stateDictPreHooks, hook);
  }

  /** `hook(module, stateDict, prefix, localMetadata)` runs after this module and its children are saved; it may change the map in place and must return undefined (PyTorch 2.x `register_state_dict_post_hook`). */
  registerStateDictPostHook(hook: StateDictHook): RemovableHandle {
    return addHook(this._stateDictHooks, { fn: hook, isPublic: true });
  }

  /** PyTorch's private `_register_state_dict_hook`: as the post-hook, but a returned map replaces the state dict. */
  _registerStateDictHook(hook: StateDictHook): RemovableHandle {
    return addHook(this._stateDictHooks, { fn: hook, isPublic: false });
  }

  /**
   * `hook(module, stateDict, prefix, localMetadata, strict, missingKeys, unexpectedKeys, errorMsgs)`
   * runs before this module's entries are read from the (mutable) state dict, so it may rename
   * or convert them (PyTorch 2.x `register_load_state_dict_pre_hook`).
   */
  registerLoadStateDictPreHook(hook: LoadStateDictPreHook): RemovableHandle {
    return addHook(this._loadStateDictPreHooks, hook);
  }

  /** `hook(module, incompatibleKeys)` runs after this module and its children are checked; it may edit the key lists in place and must return undefined. */
  registerLoadStateDictPostHook(hook: LoadStateDictPostHook): RemovableHandle {
    return addHook(this._loadStateDictPostHooks, hook);
  }

  /**
   * Note [loadStateDict checks before it copies]
   * Copies `stateDict`'s tensors into this module's parameters and buffers (in place, under
   * no-grad), walking the modules as PyTorch's `load`: a module's load pre-hooks, then its own
   * keys, then its children (each given the entries under its prefix, in a map of its own),
   * then its load post-hooks, which may edit the missing / unexpected key lists. With `strict`
   * (the default), the missing or unexpected keys left then raise PyTorch's error; shape
   * mismatches always do. Unlike PyTorch, nothing is copied until every check (and every
   * post-hook) has passed, so a failed load changes nothing; post-hooks see the module as it
   * was before the load.
   */
  loadStateDict(stateDict: Map<string, Tensor> | Record<string, Tensor>, options: LoadStateDictOptions = {}): IncompatibleKeys {
    const strict = options.strict ?? true;
    const src = new Map<string, Tensor>(stateDict instanceof Map ? stateDict : Object.entries(stateDict));
    const keys: IncompatibleKeys = { missingKeys: [], unexpectedKeys: [] };
    const errors: string[] = [];
    const copies: [Tensor, Tensor][] = [];
    this._loadFrom(src, '', keys, errors, copies);
    if (strict) {
      if (keys.unexpectedKeys.length) errors.unshift(`Unexpected key(s) in state_dict: ${keys.unexpectedKeys.map((k) => `"${k}"`).join(', ')}. `);
      if (keys.missingKeys.length) errors.unshift(`Missing key(s) in state_dict: ${keys.missingKeys.map((k) => `"${k}"`).join(', ')}. `);
    }
    if (errors.length) {
      throw new TorchError(`Error(s) in loading state_dict for ${this.constructor.name}:\n\t${errors.join('\n\t')}`);
    }
    noGradGuard(() => {
      for (const [t, v] of copies) t.copy_(v);
    });
    return keys;
  }

  /** One module's part of `loadStateDict` (PyTorch's `load` + `_load_from_state_dict`). */
  private _loadFrom(local: Map<string, Tensor>, prefix: string, keys: IncompatibleKeys, errors: string[], copies: [Tensor, Tensor][]): void {
    for (const hook of [...this._loadStateDictPreHooks.values()]) hook(this, local, prefix, {}, true, keys.missingKeys, keys.unexpectedKeys, errors);
    const own = new Map<string, Tensor>();
    for (const [name, p] of this._parameters) if (p !== null) own.set(name, p);
    for (const [name, b] of this._buffers) if (b !== null && !this._nonPersistent.has(name)) own.set(name, b);
    const optional = new Set(this._optionalStateKeys());
    for (const [name, t] of own) {
      const key = prefix + name;
      const v = local.get(key);
      if (v === undefined) {
        if (!optional.has(name)) keys.missingKeys.push(key);
        continue;
      }
      if (!(v instanceof Tensor)) {
        errors.push(`While copying the parameter named "${key}", expected torch.Tensor or Tensor-like object from checkpoint but received ${describeValue(v)}`);
        continue;
      }
      if (v.shape.join() !== t.shape.join()) {
        errors.push(
          `size mismatch for ${key}: copying a param with shape torch.Size([${v.shape.join(', ')}]) from checkpoint, the shape in current model is torch.Size([${t.shape.join(', ')}]).`,
        );
        continue;
      }
      copies.push([t, v]);
    }
    for (const key of local.keys()) {
      if (!key.startsWith(prefix)) continue;
      const first = key.slice(prefix.length).split('.', 1)[0];
      if (!this._modules.has(first) && !own.has(first)) keys.unexpectedKeys.push(key);
    }
    for (const [name, m] of this._modules) {
      if (m === null) continue;
      const childPrefix = `${prefix}${name}.`;
      const childDict = new Map([...local].filter(([k]) => k.startsWith(childPrefix)));
      m._loadFrom(childDict, childPrefix, keys, errors, copies);
    }
    for (const hook of [...this._loadStateDictPostHooks.values()]) {
      const r = hook(this, keys);
      if (r !== undefined && r !== null) {
        throw new TorchError(
          'loadStateDict: Hooks registered with ``register_load_state_dict_post_hook`` are not expected to return new values, if incompatible_keys need to be modified, it should be done inplace.',
        );
      }
    }
  }

  /**
   * State keys a checkpoint may lack without being "missing"; the module keeps its own
   * value (PyTorch 2.x BatchNorm's `num_batches_tracked`). Modules override `_optionalStateKeys`.
   */
  _optionalStateKeys(): string[] {
    return [];
  }

  // ---- printing ----
  /** The text inside this module's parentheses (PyTorch's `extra_repr`). */
  extraRepr(): string {
    return '';
  }

  /** `_get_name()`: the class name shown by `toString()`. */
  _getName(): string {
    return this.constructor.name;
  }

  toString(): string {
    const lines: string[] = [];
    const extra = this.extraRepr();
    if (extra) lines.push(...extra.split('\n'));
    for (const [name, m] of this._modules) {
      const child = m === null ? 'None' : addIndent(m.toString(), 2);
      lines.push(`(${name}): ${child}`);
    }
    let s = `${this._getName()}(`;
    if (lines.length) {
      if (lines.length === 1 && this._modules.size === 0) s += lines[0];
      else s += `\n  ${lines.join('\n  ')}\n`;
    }
    return `${s})`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

/** An attribute set to something (class fields start out undefined). */
function hasAttribute(m: Module, name: string): boolean {
  return Reflect.get(m, name) !== undefined;
}

function addIndent(s: string, n: number): string {
  const parts = s.split('\n');
  if (parts.length === 1) return s;
  return [parts[0], ...parts.slice(1).map((l) => ' '.repeat(n) + l)].join('\n');
}

let nextHookId = 0;

function addHook<H>(map: Map<number, H>, hook: H, prepend = false): RemovableHandle {
  const id = nextHookId++;
  if (prepend) {
    const rest = [...map];
    map.clear();
    map.set(id, hook);
    for (const [k, v] of rest) map.set(k, v);
  } else {
    map.set(id, hook);
  }
  return { remove: () => void map.delete(id) };
}

function checkName(op: string, kind: string, name: string): void {
  if (typeof name !== 'string') throw new TorchError(`${op}: ${kind} name should be a string. Got ${typeof name}`);
  if (name.includes('.')) throw new TorchError(`${op}: ${kind} name can't contain "."`);
  if (name === '') throw new TorchError(`${op}: ${kind} name can't be empty string ""`);
}

/** A value as the registration errors name it: `Tensor(float32)`, `Map`, `number`. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (v instanceof Tensor) return `Tensor(${v.dtype})`;
  if (typeof v === 'object' || v instanceof Module) return v.constructor?.name ?? 'object';
  return typeof v;
}

const DTYPE_NAMES = new Set(['float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int16', 'int32', 'int64', 'bool', 'float', 'double', 'half', 'long', 'int', 'short']);

function isDTypeName(s: string): boolean {
  return DTYPE_NAMES.has(s.replace(/^torch\./, ''));
}

function isFloatDType(d: DType): boolean {
  return d === 'float32' || d === 'float64' || d === 'float16' || d === 'bfloat16';
}
