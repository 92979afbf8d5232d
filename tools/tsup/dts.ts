/**
 * Note [Declarations are built against the dependencies' declarations]
 * tsup builds a package's `.d.ts` with a TypeScript program over the package's tsconfig, whose
 * `@torch-ts/source` condition resolves the other workspace packages to their sources: each
 * declaration build then type-checked every package below it again (torch's read core's,
 * autograd's and both backends' sources; testing's read all of them). Without the condition
 * they resolve to the dependencies' published `dist/*.d.ts`, which turbo's `^build` has
 * already written, as a user's compiler resolves them. The declarations are the same (unions
 * may list their members in another order); torch's declaration build took about half the
 * CPU time (32 to 18 user-seconds), testing's likewise. Typechecks do the same with
 * `--customConditions none` (package.json `typecheck`).
 *
 * The declaration build does not type-check either (`noCheck`, TypeScript 5.5+): emitting
 * declarations needs only the inferred types of what is exported, and every package's
 * `typecheck` task (its sources and tests, which `pnpm test` runs) already checks the same
 * sources in full. The two checked them twice: core's build took 34 user-seconds with the
 * check, 24 without, with the same declarations (unions in another member order).
 */
export const DTS_COMPILER_OPTIONS = { customConditions: [] as string[], noCheck: true };
