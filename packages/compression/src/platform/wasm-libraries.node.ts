// Node variant of "#wasm-libraries": the optional decoders load straight from node_modules
// (@napi-rs/lzma picks its native build here).

/** Loads @foxglove/wasm-bz2 (libbzip2 compiled to WebAssembly). */
export function importBzip2(): Promise<unknown> {
  return import("@foxglove/wasm-bz2");
}

/** Loads @napi-rs/lzma (its native build in Node). */
export function importLzma(): Promise<unknown> {
  return import("@napi-rs/lzma");
}
