/**
 * Registers Node's AsyncLocalStorage as core's async-context provider, so that
 * `torch.tidyAsync` scopes follow their bodies across `await` (core Note [Async scopes]).
 * `node:async_hooks` is fetched at import time with `process.getBuiltinModule` (Node >=
 * 20.16, Bun, Deno) rather than imported, so a browser bundle never pulls it in; where it is
 * missing (a browser, older Node) core keeps the TC39 `AsyncContext` if the platform has it,
 * else the explicit regime (`scope.run`, `scope.track`) that the Note describes.
 */
import { asyncScopeTracking, registerAsyncScopeContext } from '@torch-ts/core';

type AsyncHooks = typeof import('node:async_hooks');

function nodeAsyncHooks(): AsyncHooks | undefined {
  // (`process` and `getBuiltinModule` are typed as always there; in a browser and before
  // Node 20.16 they are not)
  return globalThis.process?.getBuiltinModule?.('node:async_hooks');
}

export function registerNodeAsyncScopes(): void {
  if (asyncScopeTracking() === 'async-context') return; // AsyncContext, or already registered
  const hooks = nodeAsyncHooks();
  if (!hooks) return;
  const storage = new hooks.AsyncLocalStorage<object>();
  registerAsyncScopeContext({ run: (frame, fn) => storage.run(frame, fn), get: () => storage.getStore() });
}

registerNodeAsyncScopes();
