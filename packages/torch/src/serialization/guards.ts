/**
 * Run-time checks for what an untrusted file holds (a JSON header, pickled values): each
 * narrows `unknown` to what it tested, so readers name what they found instead of
 * asserting what they hoped for.
 */

/** Any non-null object (arrays included), read by key: a missing key reads as undefined. */
export function isObject(x: unknown): x is Readonly<Record<string, unknown>> {
  return typeof x === 'object' && x !== null;
}

/** A size, offset or element count: a safe integer >= 0. */
export function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

/** A thrown value's message (a non-Error, as text). */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
