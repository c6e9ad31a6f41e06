/**
 * The SIMD WebAssembly kernels (Blosc's byte and bit shuffles, LZ4 block decoding), built from
 * the C sources in `packages/compression/wasm`. They load on first use, asynchronously; once
 * loaded, the synchronous decoders use them wherever {@link compressionPathAllowed}("simd") and
 * the engine has WebAssembly SIMD, and their JavaScript counterparts run otherwise. Both give
 * the same bytes.
 * @packageDocumentation
 */
import { compressionPathAllowed } from "../paths.js";
import { type SimdKernels, simdKernelsOf } from "./kernels.js";
import { wasmSimdSupported } from "./support.js";
import { wasmApi } from "./wasm-api.js";

export { type BlockKernel, SIMD_MEMORY_LIMIT, type SimdKernels } from "./kernels.js";
export { wasmSimdSupported } from "./support.js";

let kernels: SimdKernels | undefined;
let loading: Promise<SimdKernels | undefined> | undefined;
let settled = false;

/**
 * Loads the SIMD kernels once per thread; resolves to undefined (and the JavaScript kernels
 * stay in use) where the engine lacks WebAssembly SIMD or the module fails to instantiate. It
 * loads even while the SIMD path is switched off, so that switching it on later takes effect.
 */
export function loadSimdKernels(): Promise<SimdKernels | undefined> {
  loading ??= instantiate().then(
    (loaded) => {
      kernels = loaded;
      settled = true;
      return loaded;
    },
    () => {
      settled = true;
      return undefined;
    },
  );
  return loading;
}

/** The SIMD kernels when they are loaded and allowed in this thread, else undefined. */
export function simdKernels(): SimdKernels | undefined {
  return kernels !== undefined && compressionPathAllowed("simd") ? kernels : undefined;
}

/**
 * Runs `use` at once when the kernels' load has settled (loaded or not), else after it: for
 * synchronous decoders that should use the kernels from their first call.
 */
export function afterSimdLoad<R>(use: () => R): R | Promise<R> {
  if (settled) return use();
  return loadSimdKernels().then(use);
}

async function instantiate(): Promise<SimdKernels | undefined> {
  const api = wasmApi();
  if (!api || !wasmSimdSupported()) return undefined;
  const { KERNELS_WASM } = await import("./kernels-wasm.js");
  const { instance } = await api.instantiate(fromBase64(KERNELS_WASM));
  return simdKernelsOf(instance);
}

/** The bytes of base64 `text` (the committed WebAssembly modules are held in base64). */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
