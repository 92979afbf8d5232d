/**
 * Note [Strict xfails]
 * A known failure is written down, with its reason, as an xfail key of the op's OpInfo (or
 * of a device harness). The test still runs and must fail: an xfail that starts passing
 * fails the run, so a fix cannot go unnoticed and the table cannot rot. A key that matches
 * no test fails the run too. Nothing is ever skipped by name.
 *
 * Key grammar: `[check@]selector`. The check is one of CHECKS (`forward`, `inplace`...);
 * the selector is `*`, a dtype, a sample id, a case id (`promote:int8+uint8`), a
 * `sample/dtype` or `caseId/dtype` pair, or an error input's name (check `error-input`).
 */
import type { DType } from '@torch-ts/torch';
import { CHECKS, isCheckName, type CheckName } from './op-info/types';

/** What identifies one generated test. */
export interface TestTarget {
  readonly check: CheckName;
  readonly dtype?: DType;
  readonly sample?: string;
  readonly caseId?: string;
  /** For error-input and leak tests. */
  readonly name?: string;
}

interface Entry {
  readonly key: string;
  readonly check: CheckName | null;
  readonly selector: string;
  readonly reason: string;
  used: boolean;
}

export class XfailBook {
  readonly #entries: Entry[] = [];
  /** Keys that do not parse (an unknown check); reported as a failing test. */
  readonly malformed: string[] = [];

  constructor(...sources: (Readonly<Record<string, string>> | undefined)[]) {
    for (const source of sources) {
      for (const [key, reason] of Object.entries(source ?? {})) {
        const at = key.indexOf('@');
        const check = at < 0 ? null : key.slice(0, at);
        if (check !== null && !isCheckName(check)) {
          this.malformed.push(`${key}: unknown check '${check}' (one of ${CHECKS.join(', ')})`);
          continue;
        }
        this.#entries.push({ key, check, selector: key.slice(at + 1), reason, used: false });
      }
    }
  }

  /** How many keys there are, malformed ones included. */
  get size(): number {
    return this.#entries.length + this.malformed.length;
  }

  /** The reason `target` is expected to fail, or null; marks the matching keys used. */
  reason(target: TestTarget): string | null {
    const reasons: string[] = [];
    for (const e of this.#entries) {
      if (e.check !== null && e.check !== target.check) continue;
      if (!selects(e.selector, target)) continue;
      e.used = true;
      reasons.push(e.reason);
    }
    return reasons.length ? reasons.join('; ') : null;
  }

  /** Keys that matched no generated test. */
  unused(): string[] {
    return this.#entries.filter((e) => !e.used).map((e) => e.key);
  }
}

function selects(selector: string, t: TestTarget): boolean {
  if (selector === '*') return true;
  const names = [t.dtype, t.sample, t.caseId, t.name];
  if (t.sample && t.dtype) names.push(`${t.sample}/${t.dtype}`);
  if (t.caseId && t.dtype) names.push(`${t.caseId}/${t.dtype}`);
  return names.includes(selector);
}
