// The API reference (`pnpm docs:api`): one TypeDoc module per public package entry point,
// written to docs/reference/ (gitignored). tools/check-links.mjs --reference checks its links.
/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: 'torch-ts',
  tsconfig: './tsconfig.typedoc.json',
  // Core first, so that a class core defines and the facade re-exports (Tensor, Device)
  // is documented under @torch-ts/core and linked to from the others.
  entryPoints: [
    'packages/core/src/index.ts',
    'packages/autograd/src/index.ts',
    'packages/kernels-cpu/src/index.ts',
    'packages/kernels-webgpu/src/index.ts',
    'packages/torch/src/index.ts',
    'packages/torch/src/nn/index.ts',
    'packages/torch/src/optim/index.ts',
  ],
  out: 'docs/reference',
  cleanOutputDir: true,
  readme: 'none',
  excludePrivate: true,
  excludeInternal: true,
  // The packages' own typecheck (`pnpm typecheck`) reports type errors; TypeDoc need not
  // check them again, which halves its time.
  skipErrorChecking: true,
  validation: { notExported: true, invalidLink: true, rewrittenLink: true, notDocumented: false, unusedMergeModuleWith: true },
  treatWarningsAsErrors: true,
  // TypeDoc leaves Tensor out of hierarchy.html (its parent, the merged TensorMethods type,
  // is a type alias, not a class or interface, so neither is a hierarchy root) while
  // Tensor's and Parameter's pages still link to it there: without the summary links no
  // page links to a missing anchor.
  includeHierarchySummary: false,
  // No source links: a clone's `origin` (CI clones a local path) is not a hosted repository,
  // which TypeDoc warns about, and the reference must build the same in every clone.
  disableSources: true,
};
