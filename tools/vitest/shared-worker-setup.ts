/**
 * Note [Test files share worker processes]: every package's vitest config runs its test files
 * with `isolate: false`, so the files of one worker share one module graph (importing
 * torch-ts's sources anew for each file cost more CPU than most files' tests). Files that need a
 * process of their own (a backend never loaded, exit behaviour) are a separate project with
 * isolation. What one file leaves behind must not change what the next one measures: tensors an
 * earlier file dropped without `dispose()` are reclaimed by the FinalizationRegistry safety net
 * at unpredictable times, which would move the live counts a later file's memory checks
 * compare. So before each file, collect them (workers run with --expose-gc) and let the
 * registry's callbacks run.
 */
import { beforeAll } from 'vitest';

beforeAll(async () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
});
