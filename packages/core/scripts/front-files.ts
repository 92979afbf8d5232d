/**
 * The files derived from the front ends core declares (Note [Front ends are declared once] in
 * src/ops/front.ts), as text: the Tensor methods among them and the facade's re-exports.
 * scripts/gen-op-table.ts writes them, test/op-table.test.ts checks that they are current.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { allFronts, type FrontNamespace } from '../src/index';

const HEADER =
  '// Generated from the front ends core declares (front(...) in packages/core/src/ops/) by packages/core/scripts/gen-op-table.ts: do not edit.\n// Regenerate with `pnpm gen:ops` at the repository root.\n';

const OPS_DIR = fileURLToPath(new URL('../src/ops/', import.meta.url));
const DECLARATION = /^export const (\w+) = (?:front|overloadedFront)\(/gm;

/** Each front end's JS name -> the module (under src/ops, without `.ts`) that declares it. */
function declaringModules(): Map<string, string> {
  const where = new Map<string, string>();
  for (const file of readdirSync(OPS_DIR).filter((f) => f.endsWith('.ts')).sort()) {
    for (const m of readFileSync(OPS_DIR + file, 'utf8').matchAll(DECLARATION)) where.set(m[1], file.slice(0, -3));
  }
  return where;
}

/** Repository-relative path -> contents. */
export function frontFiles(): Record<string, string> {
  const where = declaringModules();
  // (in the order of the source text, module by module: the order core's modules are evaluated
  // in depends on the loader where imports are circular, tsx's and vitest's differ)
  const rank = new Map([...where.keys()].map((name, i) => [name, i]));
  const fronts = [...allFronts()].sort((a, b) => (rank.get(a.name) ?? -1) - (rank.get(b.name) ?? -1));
  for (const f of fronts) {
    if (!where.has(f.name)) throw new Error(`front end '${f.name}' must be declared as \`export const ${f.name} = front(...)\` in a module of src/ops`);
  }
  if (where.size !== fronts.length) {
    const declared = new Set(fronts.map((f) => f.name));
    throw new Error(`exported front ends whose name is not their declared name: ${[...where.keys()].filter((n) => !declared.has(n)).join(', ')}`);
  }
  const exportNames = new Map(fronts.map((f) => [f.name, f.exportName]));
  const byModule = new Map<string, string[]>();
  for (const f of fronts.filter((x) => x.method)) {
    const m = where.get(f.name)!;
    byModule.set(m, [...(byModule.get(m) ?? []), f.name]);
  }
  const modules = [...byModule.keys()].sort();
  const methods = [
    HEADER,
    ...modules.map((m) => `import { ${byModule.get(m)!.join(', ')} } from '../${m}';`),
    '',
    '/** The Tensor methods among the front ends (Note [Tensor methods come from the op table]). */',
    'export const FRONT_METHODS = {',
    // (a method is named as the facade exports its function: `x.var()` is core's `variance`)
    ...modules.map((m) => `  ${byModule.get(m)!.map((n) => { const e = exportNames.get(n) ?? n; return e === n ? n : `${e}: ${n}`; }).join(', ')},`),
    '};',
    '',
  ].join('\n');
  const reexports = (what: string, ns: FrontNamespace) =>
    [
      HEADER,
      what,
      'export {',
      ...fronts.filter((f) => f.namespaces.includes(ns)).map((f) => `  ${f.exportName === f.name ? f.name : `${f.name} as ${f.exportName}`},`),
      "} from '@torch-ts/core';",
      '',
    ].join('\n');
  return {
    'packages/core/src/ops/generated/front-methods.ts': methods,
    'packages/torch/src/generated/front-ops.ts': reexports('// The front ends core declares that torch.* has (torch.sort, torch.topk).', 'torch'),
    'packages/torch/src/generated/functional-front-ops.ts': reexports('// The front ends core declares that torch.nn.functional has (F.pad, F.interpolate).', 'nn.functional'),
    'packages/torch/src/generated/linalg-front-ops.ts': reexports('// The front ends core declares that torch.linalg has (torch.linalg.inv, torch.linalg.luFactor).', 'linalg'),
    'packages/torch/src/generated/fft-front-ops.ts': reexports('// The front ends core declares that torch.fft has (torch.fft.rfft, torch.fft.fftshift).', 'fft'),
    'packages/torch/src/generated/sparse-front-ops.ts': reexports('// The front ends core declares that torch.sparse has (torch.sparse.mm, torch.sparse.addmm).', 'sparse'),
  };
}
