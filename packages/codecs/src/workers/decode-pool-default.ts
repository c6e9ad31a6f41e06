// The default pool and the missing-registration check: public through `@z/codecs/workers`, shared
// with the other @z packages through `@z/codecs/internal`; apart from decode-pool.ts, whose names
// are all public (the `@z/codecs` index re-exports it whole).
import type { ChunkDecodePool } from "./decode-pool.js";

/** What `setDefaultDecodePool` chose: a pool, `false` (inline), or undefined (the platform's way). */
let chosen: ChunkDecodePool | false | undefined;

/** Records what `setDefaultDecodePool` was given. */
export function storeDefaultDecodePool(pool: ChunkDecodePool | false | undefined): void {
  chosen = pool;
}

/** What `setDefaultDecodePool` was given last: a pool, `false`, or undefined (nothing, or reset). */
export function chosenDecodePool(): ChunkDecodePool | false | undefined {
  return chosen;
}

/** What `setDefaultWorkerCount` chose; undefined: the machine's cores minus one. */
let chosenCount: number | undefined;

/** Records what `setDefaultWorkerCount` was given. */
export function storeDefaultWorkerCount(count: number | undefined): void {
  chosenCount = count;
}

/** What `setDefaultWorkerCount` was given last (undefined: nothing, or reset). */
export function chosenWorkerCount(): number | undefined {
  return chosenCount;
}

/**
 * The pool set with {@link setDefaultDecodePool}, if any (not the shared pool Node reads use
 * when none is set).
 * @category Workers
 */
export function defaultDecodePool(): ChunkDecodePool | undefined {
  return chosen === false ? undefined : chosen;
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
