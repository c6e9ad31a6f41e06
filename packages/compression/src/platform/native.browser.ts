// Browser variant of "#native": browsers have no synchronous or bounded native zlib or zstd
// (CompressionStream cannot bound its output), so every codec uses its WASM or JS build.
import type { NativeCodecs } from "./native.node.js";

export type { NativeCodecs, NativeZstd } from "./native.node.js";

/** No native compressors in browsers. */
export const nativeCodecs: NativeCodecs | undefined = undefined;
