import { Module, describeValue } from '../module';
import { Tensor, TorchError } from '../internal';
import { Parameter } from '../parameter';

/** Normalises a (possibly negative) index into a container of `n` modules. */
function absIndex(op: string, idx: number, n: number): number {
  if (!Number.isInteger(idx) || idx < -n || idx >= n) throw new TorchError(`${op}: index ${idx} is out of range`);
  return idx < 0 ? idx + n : idx;
}

/** The module at `idx` of a list of slots; an empty slot (a module set to null) is an error, not a module. */
function moduleAt(op: string, modules: Map<string, Module | null>, idx: number): Module {
  const list = [...modules.values()];
  const m = list[absIndex(op, idx, list.length)];
  if (m === null) throw new TorchError(`${op}: the module at index ${idx} is None`);
  return m;
}

/** `nn.Sequential(m1, m2, ...)` or `nn.Sequential(new Map([...]))`: calls its modules in order. */
export class Sequential extends Module {
  constructor(...modules: (Module | Map<string, Module> | Record<string, Module>)[]) {
    super();
    const first = modules[0];
    if (modules.length === 1 && !(first instanceof Module)) {
      const entries = first instanceof Map ? [...first] : Object.entries(first);
      for (const [k, m] of entries) this.registerModule(k, m);
    } else {
      modules.forEach((m, i) => {
        // (null registers an empty slot, as registerModule allows)
        if (m !== null && !(m instanceof Module)) throw new TorchError(`registerModule: ${describeValue(m)} is not a Module subclass`);
        this.registerModule(String(i), m);
      });
    }
  }

  override get length(): number {
    return this._modules.size;
  }

  /** The module at `idx` (negative counts from the end). */
  get(idx: number): Module {
    return moduleAt('Sequential', this._modules, idx);
  }

  append(module: Module): this {
    this.registerModule(String(this._modules.size), module);
    return this;
  }

  [Symbol.iterator](): Iterator<Module> {
    return [...this._modules.values()].filter((m) => m !== null)[Symbol.iterator]();
  }

  override forward(input: unknown): any {
    let x = input;
    for (const m of this._modules.values()) if (m !== null) x = m.call(x);
    return x;
  }
}

/** `nn.ModuleList`: holds submodules in a list, registered as "0", "1", ... */
export class ModuleList extends Module {
  constructor(modules: Iterable<Module> = []) {
    super();
    this.extend(modules);
  }

  override get length(): number {
    return this._modules.size;
  }

  get(idx: number): Module {
    return moduleAt('ModuleList', this._modules, idx);
  }

  set(idx: number, module: Module): void {
    const i = absIndex('ModuleList', idx, this._modules.size);
    this.registerModule(String(i), module);
  }

  append(module: Module): this {
    this.registerModule(String(this._modules.size), module);
    return this;
  }

  extend(modules: Iterable<Module>): this {
    for (const m of modules) this.append(m);
    return this;
  }

  insert(index: number, module: Module): void {
    const list = [...this._modules.values()];
    const n = list.length;
    const i = index < 0 ? Math.max(0, index + n) : Math.min(index, n);
    list.splice(i, 0, module);
    list.forEach((m, k) => this.registerModule(String(k), m));
  }

  [Symbol.iterator](): Iterator<Module> {
    return [...this._modules.values()].filter((m) => m !== null)[Symbol.iterator]();
  }

  override forward(): never {
    throw new TorchError('ModuleList is a container and has no forward');
  }
}

/** `nn.ModuleDict`: holds submodules by name, in insertion order. */
export class ModuleDict extends Module {
  constructor(modules: Map<string, Module> | Record<string, Module> = {}) {
    super();
    this.update(modules);
  }

  get size(): number {
    return this._modules.size;
  }

  get(key: string): Module | undefined {
    return this._modules.get(key) ?? undefined;
  }

  set(key: string, module: Module): void {
    this.registerModule(key, module);
  }

  has(key: string): boolean {
    return this._modules.has(key);
  }

  delete(key: string): boolean {
    const had = this._modules.has(key);
    Reflect.deleteProperty(this, key);
    return had;
  }

  pop(key: string): Module {
    const m = this.get(key);
    if (m === undefined) throw new TorchError(`ModuleDict: no module named '${key}'`);
    this.delete(key);
    return m;
  }

  clear(): void {
    for (const k of [...this._modules.keys()]) this.delete(k);
  }

  keys(): IterableIterator<string> {
    return this._modules.keys();
  }

  *values(): IterableIterator<Module> {
    for (const m of this._modules.values()) if (m !== null) yield m;
  }

  *items(): IterableIterator<[string, Module]> {
    for (const [k, m] of this._modules) if (m !== null) yield [k, m];
  }

  update(modules: Map<string, Module> | Record<string, Module>): void {
    const entries = modules instanceof Map ? [...modules] : Object.entries(modules);
    for (const [k, m] of entries) this.registerModule(k, m);
  }

  [Symbol.iterator](): Iterator<string> {
    return this._modules.keys();
  }

  override forward(): never {
    throw new TorchError('ModuleDict is a container and has no forward');
  }
}

/** A tensor as a Parameter (PyTorch's containers wrap plain tensors so), a Parameter as itself. */
const asParameter = (t: Tensor): Parameter => (t instanceof Parameter ? t : new Parameter(t));

/** `torch.typename` of a CPU tensor, which ParameterDict prints ("torch.FloatTensor"). */
const LEGACY_TYPE: Partial<Record<string, string>> = {
  float32: 'Float',
  float64: 'Double',
  float16: 'Half',
  bfloat16: 'BFloat16',
  int64: 'Long',
  int32: 'Int',
  int16: 'Short',
  int8: 'Char',
  uint8: 'Byte',
  bool: 'Bool',
  complex64: 'ComplexFloat',
  complex128: 'ComplexDouble',
};

/** "Parameter containing: [<type> of size 2x3]", as PyTorch's containers print a parameter. */
const describeParameter = (p: Tensor, type: string) => `Parameter containing: [${type} of size ${p.shape.join('x')}]`;

/** `nn.ParameterList`: holds parameters in a list, registered as "0", "1", ... */
export class ParameterList extends Module {
  constructor(values: Iterable<Tensor> = []) {
    super();
    this.extend(values);
  }

  override get length(): number {
    return this._parameters.size;
  }

  get(idx: number): Parameter {
    const list = [...this._parameters.values()];
    const p = list[absIndex('ParameterList', idx, list.length)];
    if (p == null) throw new TorchError(`ParameterList: the parameter at index ${idx} is None`);
    return p;
  }

  set(idx: number, param: Tensor): void {
    this.registerParameter(String(absIndex('ParameterList', idx, this._parameters.size)), asParameter(param));
  }

  append(param: Tensor): this {
    this.registerParameter(String(this._parameters.size), asParameter(param));
    return this;
  }

  extend(values: Iterable<Tensor>): this {
    for (const p of values) this.append(p);
    return this;
  }

  [Symbol.iterator](): Iterator<Parameter> {
    return [...this._parameters.values()].filter((p): p is Parameter => p !== null)[Symbol.iterator]();
  }

  override extraRepr(): string {
    return [...this._parameters].map(([k, p]) => `  (${k}): ${p === null ? 'None' : describeParameter(p, `torch.${p.dtype}`)}`).join('\n');
  }

  override forward(): never {
    throw new TorchError('ParameterList is a container and has no forward');
  }
}

/** `nn.ParameterDict`: holds parameters by name, in insertion order. */
export class ParameterDict extends Module {
  constructor(values: Map<string, Tensor> | Record<string, Tensor> = {}) {
    super();
    this.update(values);
  }

  get size(): number {
    return this._parameters.size;
  }

  get(key: string): Parameter | undefined {
    return this._parameters.get(key) ?? undefined;
  }

  set(key: string, param: Tensor): void {
    this.registerParameter(key, asParameter(param));
  }

  has(key: string): boolean {
    return this._parameters.has(key);
  }

  delete(key: string): boolean {
    const had = this._parameters.has(key);
    Reflect.deleteProperty(this, key);
    return had;
  }

  pop(key: string): Parameter {
    const p = this.get(key);
    if (p === undefined) throw new TorchError(`ParameterDict: no parameter named '${key}'`);
    this.delete(key);
    return p;
  }

  clear(): void {
    for (const k of [...this._parameters.keys()]) this.delete(k);
  }

  keys(): IterableIterator<string> {
    return this._parameters.keys();
  }

  *values(): IterableIterator<Parameter> {
    for (const p of this._parameters.values()) if (p !== null) yield p;
  }

  *items(): IterableIterator<[string, Parameter]> {
    for (const [k, p] of this._parameters) if (p !== null) yield [k, p];
  }

  update(values: Map<string, Tensor> | Record<string, Tensor>): void {
    const entries = values instanceof Map ? [...values] : Object.entries(values);
    for (const [k, p] of entries) this.set(k, p);
  }

  [Symbol.iterator](): Iterator<string> {
    return this._parameters.keys();
  }

  override extraRepr(): string {
    return [...this._parameters]
      .map(([k, p]) => `  (${k}): ${p === null ? 'None' : describeParameter(p, `torch.${LEGACY_TYPE[p.dtype] ?? p.dtype}Tensor`)}`)
      .join('\n');
  }

  override forward(): never {
    throw new TorchError('ParameterDict is a container and has no forward');
  }
}
