/**
 * Python's `repr` of the values modules print in `extra_repr`, so `toString()` reads as
 * PyTorch's module repr: `1e-05`, `0.1`, `1.0`, `True`, `(3, 3)`, `(4,)`, `'none'`, `None`.
 */
export type PyValue = number | boolean | string | null | undefined | readonly PyValue[] | PyFloat;

/** A number Python holds as a float (`1.0` prints with its `.0`). */
export class PyFloat {
  constructor(readonly value: number) {}
}

export const pyFloat = (v: number): PyFloat => new PyFloat(v);

export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // Shortest round-trip digits, as both JS and Python use; only the layout differs.
  const [mant, expStr] = x.toExponential().split('e');
  const exp = Number(expStr);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  let body: string;
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    body = `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  } else if (exp < 0) {
    body = `0.${'0'.repeat(-exp - 1)}${digits}`;
  } else if (digits.length <= exp + 1) {
    body = `${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
  } else {
    body = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  }
  return neg ? `-${body}` : body;
}

export function pyRepr(v: PyValue): string {
  if (v === null || v === undefined) return 'None';
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : pyFloatRepr(v);
  if (typeof v === 'string') return `'${v}'`;
  const items = v.map(pyRepr);
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}

/** `str.format` of a value: like repr, but strings print bare. */
export function pyStr(v: PyValue): string {
  return typeof v === 'string' ? v : pyRepr(v);
}
