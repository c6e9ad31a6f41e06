/**
 * Which implementations of the algorithms may run in this thread: native code (node:zlib's
 * zstd, from Node 22.15), SIMD WebAssembly (shuffle, bitshuffle, LZ4 and whole blosc frames), or
 * plain JavaScript and scalar WebAssembly, which are always there. Every path gives the same bytes; the switch is for
 * tests that check exactly that, and for users who must rule a path out (a platform whose SIMD
 * or native build misbehaves). The setting is per thread: a worker keeps the default.
 * @packageDocumentation
 */

/** An implementation path that may be switched off. */
export type CompressionPath = "native" | "simd";

const allowed: Record<CompressionPath, boolean> = { native: true, simd: true };

/**
 * Allows or forbids implementation paths in this thread; unnamed paths keep their setting.
 * Decoders that already chose a path for a call in progress finish it on that path.
 * @example
 * ```ts
 * import { useCompressionPaths } from "@z/compression";
 * useCompressionPaths({ simd: false, native: false }); // plain JavaScript and scalar WebAssembly only
 * ```
 * @category Paths
 */
export function useCompressionPaths(paths: Partial<Record<CompressionPath, boolean>>): void {
  for (const key of Object.keys(paths) as CompressionPath[]) {
    const value = paths[key];
    if (key in allowed && typeof value === "boolean") allowed[key] = value;
  }
}

/**
 * Whether `path` may run in this thread (see {@link useCompressionPaths}).
 * @category Paths
 */
export function compressionPathAllowed(path: CompressionPath): boolean {
  return allowed[path];
}
