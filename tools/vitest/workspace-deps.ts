/**
 * Note [Tests import the other packages' builds]
 * An app's tests (apps/bench, apps/mnist, apps/playground's Node side) take the torch-ts
 * packages from one of two places:
 * - by default (a developer running `vitest` in the app), their sources, through the
 *   '@torch-ts/source' export condition: no build needed, an edit anywhere is seen at once;
 * - under the root `pnpm test` (TORCH_TS_TEST_DEPS=dist, which turbo passes to the test
 *   tasks; an app's test task runs after its dependencies' builds), their built `dist/`,
 *   loaded by Node itself: each test process otherwise transformed and evaluated some 600
 *   source files through vite's module runner before its first test, and the builds are what
 *   users install, so these suites check them too.
 * The packages' own suites always run from source: their test tasks start before the builds
 * (the packages' turbo.json), so that the long suites run while tsup works.
 * The app's own name (and subpath exports, where it has any) resolves to its sources, so a
 * test that imports both the name and `../src/...` gets one copy, and the builds it imports
 * load each other through Node, one copy each.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FROM_DIST = process.env.TORCH_TS_TEST_DEPS === 'dist';

interface Resolution {
  resolve: { conditions?: string[]; alias?: { find: RegExp; replacement: string }[] };
  ssr: { resolve: { conditions?: string[] } };
  /** For `test.server.deps.external`: the builds Node loads itself. */
  external: RegExp[];
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Where the tests of the app at `dir` take the torch-ts packages from (see the Note). */
export function workspaceDeps(dir: string): Resolution {
  if (!FROM_DIST) {
    const resolve = { conditions: ['@torch-ts/source'] };
    return { resolve, ssr: { resolve }, external: [] };
  }
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; exports?: Record<string, unknown> };
  const alias: { find: RegExp; replacement: string }[] = [];
  for (const [sub, target] of Object.entries(pkg.exports ?? {})) {
    const source = typeof target === 'object' && target !== null ? (target as Record<string, unknown>)['@torch-ts/source'] : undefined;
    if (typeof source !== 'string') continue;
    const name = sub === '.' ? pkg.name : `${pkg.name}/${sub.replace(/^\.\//, '')}`;
    alias.push({ find: new RegExp(`^${escape(name)}$`), replacement: join(dir, source) });
  }
  return { resolve: { alias }, ssr: { resolve: {} }, external: [/[\\/]packages[\\/][^\\/]+[\\/]dist[\\/]/] };
}
