// The default pool and the missing-registration check: public through `@z/codecs/workers`, shared
// with the other @z packages through `@z/codecs/internal`; apart from decode-pool.ts so the
// `@z/codecs` index re-exports that file whole (tools/build/split-friendly-barrels.mjs).
import type { ChunkDecodePool } from "./decode-pool.js";

let defaultPool: ChunkDecodePool | undefined;

/** Records the pool {@link defaultDecodePool} returns (what `setDefaultDecodePool` stores). */
export function storeDefaultDecodePool(pool: ChunkDecodePool | undefined): void {
  defaultPool = pool;
}

/**
 * The pool set with {@link setDefaultDecodePool}, if any.
 * @category Workers
 */
export function defaultDecodePool(): ChunkDecodePool | undefined {
  return defaultPool;
}

/**
 * Whether an error from a pool means its workers lack a registration this thread has (a codec
 * or data type an extension registered here only): the chunk can still be decoded inline.
 * @category Workers
 */
export function isMissingRegistration(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === "UnknownCodecError" || error.name === "UnknownDataTypeError")
  );
}
