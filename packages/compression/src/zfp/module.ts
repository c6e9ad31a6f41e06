// zfp's WebAssembly module (see wasm/build-zfp.sh): instantiated once per thread on first use.
// Its memory grows to the largest chunk it has seen and is reused for every later call.
import { lazyWasmModule } from "../lazy-wasm.js";

/** The module's exports (see wasm/zfp-glue.c). */
export interface ZfpExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  zfpz_malloc(size: number): number;
  zfpz_free(pointer: number): void;
  zfpz_info(): number;
  zfpz_encoded(): number;
  zfpz_encoded_size(): number;
  zfpz_release(): void;
  /** Arguments: src, field (type, dims, nx, ny, nz, nw), header, mode (8 numbers). */
  zfpz_encode(...args: number[]): number;
  /** Arguments: src, size, dst, field (type, dims, nx, ny, nz, nw), header, mode (8 numbers). */
  zfpz_decode(...args: number[]): number;
}

/** The module, instantiated once; a failed load is tried again next time. */
export const loadZfpModule = lazyWasmModule<ZfpExports>(
  "zfp",
  async () => (await import("./zfp-wasm.js")).ZFP_WASM,
);
