// The part of the WebAssembly JavaScript API the kernels use, typed here: the package compiles
// without the DOM's type declarations, and @types/node does not declare it.

/** A module's linear memory. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** An instantiated module. */
export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}

interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  instantiate(bytes: Uint8Array): Promise<{ instance: WasmInstance }>;
}

/** The engine's `WebAssembly` object, or undefined where it has none. */
export function wasmApi(): WasmApi | undefined {
  return (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
}
