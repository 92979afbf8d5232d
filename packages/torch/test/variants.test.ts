/**
 * Issue 15: every op of PyTorch that has an in-place, method or function form has it here
 * too. For each public callable of PyTorch 1.13's `torch`, `torch.Tensor` and `torch.nn.functional`
 * (test/goldens/variants.json, scripts/goldens/variants.py) whose op torch-ts has in some form
 * (`torch.x`, `Tensor.x` or `F.x`), the same form must exist here, camelCased (`true_divide_` ->
 * `x.trueDivide_`). What is missing on purpose is listed in KNOWN_GAPS with why, strictly: an
 * entry that exists must leave the list.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';

const PYTORCH = JSON.parse(readFileSync(new URL('./goldens/variants.json', import.meta.url), 'utf8')) as { torch: string[]; tensor: string[]; functional: string[] };

/** What torch-ts lacks on purpose, by the form's JS spelling, with why. */
const KNOWN_GAPS: Readonly<Record<string, string>> = {
  // aten's embedding_bag(weight, indices, offsets, ..., mode: int) returns, besides the result,
  // the CPU kernel's scratch buffers (offset2bag, bag_size, max_indices), whose contents depend
  // on the mode and kernel path (empty offset2bag and zero bag_size in mode sum, max_indices a
  // copy of bag_size in mode mean); F.embeddingBag is the public form, a composite with none.
  'torch.embeddingBag': "aten's form returns the CPU kernel's internal buffers; F.embeddingBag is the public form",
};

const camel = (n: string) => n.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
/** `true_divide_` -> `trueDivide_` (a trailing underscore is the in-place mark, kept). */
const jsName = (n: string) => (n.endsWith('_') ? `${camel(n.slice(0, -1))}_` : camel(n));
const baseOf = (n: string) => camel(n.replace(/_$/, ''));

const proto = torch.Tensor.prototype as unknown as Record<string, unknown>;
const fns = torch as unknown as Record<string, unknown>;
const functional = torch.nn.functional as unknown as Record<string, unknown>;
// (own data properties only: reading a getter such as `x.T` on the prototype would run it)
const isMethod = (name: string) => typeof Object.getOwnPropertyDescriptor(proto, name)?.value === 'function';
const isFunction = (name: string) => typeof fns[name] === 'function';
const isFunctional = (name: string) => typeof functional[name] === 'function';
const hasOp = (base: string) => isMethod(base) || isFunction(base) || isFunctional(base);

function missing(): string[] {
  const out: string[] = [];
  for (const n of PYTORCH.tensor) if (hasOp(baseOf(n)) && !isMethod(jsName(n))) out.push(`x.${jsName(n)}`);
  for (const n of PYTORCH.torch) if (hasOp(baseOf(n)) && !isFunction(jsName(n))) out.push(`torch.${jsName(n)}`);
  for (const n of PYTORCH.functional) if (hasOp(baseOf(n)) && !isFunctional(jsName(n))) out.push(`F.${jsName(n)}`);
  return out.sort();
}

describe("PyTorch's variants of every op torch-ts has", () => {
  it('exist here, but for the known gaps', () => {
    expect(missing()).toEqual(Object.keys(KNOWN_GAPS).sort());
  });

  it('the function forms of in-place ops and of queries agree with the methods', () => {
    const x = torch.tensor([-2, 0.5, 3]);
    expect(torch.clamp_(x, -1, 1)).toBe(x);
    expect(x.tolist()).toEqual([-1, 0.5, 1]);
    expect(torch.clip_(x, { min: 0 }).tolist()).toEqual([0, 0.5, 1]);
    expect(torch.square_(x).tolist()).toEqual([0, 0.25, 1]);
    expect(torch.round_(torch.tensor([0.25, 1.5]), { decimals: 1 }).tolist()).toEqual([Math.fround(0.2), 1.5]);
    expect(torch.nanToNum_(torch.tensor([NaN, 1]), 7).tolist()).toEqual([7, 1]);
    expect(torch.numel(torch.zeros([2, 3]))).toBe(6);
    expect(torch.isFloatingPoint(x)).toBe(true);
    expect(torch.isFloatingPoint(torch.tensor([1]))).toBe(false);
    expect(torch.isInference(x)).toBe(false);
    const y = torch.tensor([-1.5, 1]);
    expect(torch.nn.functional.selu_(y)).toBe(y);
    expect(() => torch.numel(x, 1 as never)).toThrow(/numel\(\) takes 1 positional argument but 2 were given/);
  });
});
