/**
 * Note [Tests import the other packages' builds]
 * A package's tests import the package itself from its sources. The other torch-ts packages
 * they import come from one of two places:
 * - by default (a developer running `vitest` in one package), their sources, through the
 *   '@torch-ts/source' export condition: no build needed, an edit anywhere is seen at once;
 * - under the root `pnpm test` (TORCH_TS_TEST_DEPS=dist, which turbo passes to the test
 *   tasks, each of which runs after its dependencies' builds), their built `dist/`, loaded by
 *   Node itself. Every test worker otherwise transformed and evaluated some 600 source files
 *   of the packages below it through vite's module runner before its first test, and the
 *   builds are what users install, so the suites then also check those.
 * The package's own name (and its subpath exports) always resolves to its sources, so a test
 * that imports both `@torch-ts/torch` and `../src/...` gets one copy of the package, and the
 * builds it imports load each other through Node, one copy each.
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

/** Where the tests of the package (or app) at `dir` take torch-ts packages from (see the Note). */
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
