import { TorchError } from '../errors';

/** One argument of an operator schema, as written in PyTorch's native_functions.yaml. */
export interface ArgSchema {
  readonly name: string;
  /** The type as written, without alias annotation: `Tensor`, `Tensor?`, `Tensor[]`, `int[]`, `Scalar`... */
  readonly type: string;
  readonly kwargOnly: boolean;
  readonly defaultValue: string | undefined;
  /** `Tensor(a!)`: the op writes this argument (in-place `self`, `out`). */
  readonly mutable: boolean;
  readonly isTensor: boolean;
  readonly isTensorList: boolean;
}

export interface OpSchema {
  /** `add`, `add_`, `max` */
  readonly name: string;
  /** `Tensor`, `out`, `dim`, or `` */
  readonly overload: string;
  /** `add.out`, or the bare name when there is no overload. */
  readonly qualifiedName: string;
  readonly args: readonly ArgSchema[];
  readonly returns: string;
  /** Indices of arguments that can carry tensors (Tensor, Tensor?, Tensor[]). */
  readonly tensorArgs: readonly number[];
}

const SCHEMA_RE = /^([a-zA-Z_][\w]*)(?:\.([\w]+))?\((.*)\)\s*->\s*(.+)$/;
const ARG_RE = /^([A-Za-z]+\??(?:\([a-z]!?(?:\s*->\s*\*)?\))?(?:\[\d*\])?\??)\s+([a-zA-Z_]\w*)(?:=(.+))?$/;

/** Parses `add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`. */
export function parseSchema(text: string): OpSchema {
  const m = SCHEMA_RE.exec(text.trim());
  if (!m) throw new TorchError(`parseSchema: malformed schema '${text}'`);
  const [, name, overload = '', argText, returns] = m;
  const args: ArgSchema[] = [];
  let kwargOnly = false;
  for (const raw of splitArgs(argText)) {
    if (raw === '*') {
      kwargOnly = true;
      continue;
    }
    const a = ARG_RE.exec(raw);
    if (!a) throw new TorchError(`parseSchema: malformed argument '${raw}' in '${text}'`);
    const [, typeText, argName, def] = a;
    const mutable = typeText.includes('!)');
    const type = typeText.replace(/\([a-z]!?(?:\s*->\s*\*)?\)/, '');
    const isTensorList = type.startsWith('Tensor[') || type.startsWith('Tensor?[');
    args.push({
      name: argName,
      type,
      kwargOnly,
      defaultValue: def,
      mutable,
      isTensor: type === 'Tensor' || type === 'Tensor?',
      isTensorList,
    });
  }
  const tensorArgs = args.flatMap((a, i) => (a.isTensor || a.isTensorList ? [i] : []));
  return {
    name,
    overload,
    qualifiedName: overload ? `${name}.${overload}` : name,
    args,
    returns: returns.trim(),
    tensorArgs,
  };
}

function splitArgs(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth--;
    if (ch === ',' && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
