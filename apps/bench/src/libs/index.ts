import type { Library, NodeLibName } from './types';

/** Loads one library (and, for tfjs, initialises its backend): one per child process. */
export async function loadLibrary(name: NodeLibName): Promise<Library> {
  switch (name) {
    case 'torch-ts':
      return (await import('./torch-ts')).torchTsCpu('one');
    case 'torch-ts-threads': {
      const lib = (await import('./torch-ts')).torchTsCpu('default');
      // The CPU pool's workers start in the background: measure once they all run.
      const torch = await import('@torch-ts/torch');
      await torch.backends.cpu.threadsReady();
      return lib;
    }
    case 'torch-ts-webgpu': {
      const torch = await import('@torch-ts/torch');
      // The optional backend, imported by name so that the device bundle (esbuild) packs it;
      // init() then finds it registered (Note [WebGPU as an optional package]).
      await import('@torch-ts/kernels-webgpu');
      // Dawn in Node, on the adapter it finds (SwiftShader's Vulkan without a GPU).
      await torch.webgpu.init({ required: true });
      return (await import('./torch-ts')).torchTsWebgpu;
    }
    case 'tfjs-cpu':
    case 'tfjs-wasm':
    case 'tfjs-webgpu': {
      const backend = name === 'tfjs-cpu' ? 'cpu' : name === 'tfjs-wasm' ? 'wasm' : 'webgpu';
      const tfjs = await import('./tfjs');
      await tfjs.initTfjs(backend);
      return tfjs.tfjsLibrary(name, backend);
    }
    case 'js-pytorch':
      return (await import('./js-pytorch')).jsPytorch;
    case 'onnxruntime':
      return (await import('./onnxruntime')).onnxruntime;
  }
}
