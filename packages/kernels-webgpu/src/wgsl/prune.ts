/**
 * Note [Only the helpers a kernel calls are compiled]
 * Generated kernels are the prelude (about 19 KB of helper functions: exp, pow, the special
 * functions, bf16 and int64 arithmetic, ...) followed by the kernel itself, which calls a
 * few of them. Shader compilers parse, check and translate every function of a module, used
 * or not: on SwiftShader a pointwise kernel took about 65 ms of CPU to compile with the whole
 * prelude and 20 ms without it, and a real driver's compile is also paid per kernel, at the
 * first call of each op, dtype and layout. So before compiling, `pruneWgsl` keeps only the
 * module-scope functions and constants reachable from the rest of the module (the entry
 * point, bindings, structs, directives), in their original order. Reachability is by name:
 * a declaration is kept when its name occurs as an identifier in a kept one. A local variable
 * that shares a helper's name keeps that helper too, which costs compile time, never
 * correctness. Comments are dropped first (they may hold braces or names).
 */

interface Item {
  readonly text: string;
  /** The declared name of a function or constant that may be dropped; null for items always kept. */
  readonly name: string | null;
}

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/g;

/** `source` without its `//` and (nested) `/* *\/` comments; newlines kept, so line numbers hold. */
function stripComments(source: string): string {
  let out = '';
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
    } else if (c === '/' && source[i + 1] === '*') {
      let depth = 0;
      do {
        if (source[i] === '/' && source[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (source[i] === '*' && source[i + 1] === '/') {
          depth--;
          i += 2;
        } else {
          if (source[i] === '\n') out += '\n';
          i++;
        }
      } while (depth > 0 && i < n);
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The module-scope declarations of comment-free WGSL, each with its text. */
function items(code: string): Item[] {
  const out: Item[] = [];
  let start = -1;
  let braces = 0;
  let parens = 0;
  const end = (i: number) => {
    const text = code.slice(start, i + 1);
    out.push({ text, name: droppableName(text) });
    start = -1;
  };
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (start < 0) {
      if (/\s/.test(c)) continue;
      start = i;
    }
    if (c === '(') parens++;
    else if (c === ')') parens--;
    else if (c === '{') braces++;
    else if (c === '}') {
      braces--;
      // a function's body (or a struct's) closes the declaration
      if (braces === 0 && parens === 0) end(i);
    } else if (c === ';' && braces === 0 && parens === 0) end(i);
  }
  if (start >= 0) out.push({ text: code.slice(start), name: null });
  return out;
}

/** A plain `fn name` or `const name`: the declarations that are dropped when nothing uses them. */
function droppableName(text: string): string | null {
  const m = /^(fn|const)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(text);
  return m ? m[2] : null;
}

/** `source` with the module-scope functions and constants that nothing reachable names removed. */
export function pruneWgsl(source: string): string {
  const all = items(stripComments(source));
  const byName = new Map<string, number>();
  all.forEach((it, i) => {
    if (it.name !== null) byName.set(it.name, i);
  });
  const kept = new Uint8Array(all.length);
  const work: number[] = [];
  all.forEach((it, i) => {
    if (it.name === null) {
      kept[i] = 1;
      work.push(i);
    }
  });
  while (work.length > 0) {
    const it = all[work.pop()!];
    for (const id of it.text.match(IDENT) ?? []) {
      const j = byName.get(id);
      if (j !== undefined && kept[j] === 0 && all[j] !== it) {
        kept[j] = 1;
        work.push(j);
      }
    }
  }
  return all.filter((_, i) => kept[i] === 1).map((it) => it.text).join('\n');
}
