// Whether this engine runs WebAssembly SIMD (fixed-width, 128-bit): Node 16.4+, Chrome 91+,
// Firefox 89+, Safari 16.4+. Older engines keep the JavaScript kernels.
import { wasmApi } from "./wasm-api.js";

/** A module whose one function uses v128 (i8x16.splat, i8x16.popcnt); valid only with SIMD. */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15,
  253, 98, 11,
]);

/** Whether WebAssembly with SIMD is available in this thread. */
export function wasmSimdSupported(): boolean {
  try {
    return wasmApi()?.validate(SIMD_PROBE) === true;
  } catch {
    return false;
  }
}
