import type { Library, LibName } from './types';

/** Loads one library (and, for tfjs, initialises its backend): one per child process. */
export async function loadLibrary(name: LibName): Promise<Library> {
  switch (name) {
    case 'torch-ts':
      return (await import('./torch-ts')).torchTs;
    case 'tfjs-cpu':
    case 'tfjs-wasm': {
      const backend = name === 'tfjs-cpu' ? 'cpu' : 'wasm';
      const tfjs = await import('./tfjs');
      await tfjs.initTfjs(backend);
      return tfjs.tfjsLibrary(name, backend);
    }
    case 'js-pytorch':
      return (await import('./js-pytorch')).jsPytorch;
  }
}
