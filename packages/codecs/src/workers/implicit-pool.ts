// The pool a read decodes in when it names none: shared with @z/array through
// `@z/codecs/internal`. Apart from decode-pool-default.ts so the platform's shared pool (which
// imports the worker pool) is not on the import path of the pool interfaces.
import type { NamedConfig } from "@z/metadata";
import {
  runningSharedDecodePool,
  sharedDecodePool,
  stopSharedDecodePool,
  worthDecodingOffThread,
} from "#shared-pool";
import type { ChunkDecodePool } from "./decode-pool.js";
import { chosenDecodePool } from "./decode-pool-default.js";

/**
 * The pool chunks of `codecs` decode in when a read names none: the one `setDefaultDecodePool`
 * set; none after `setDefaultDecodePool(false)`; else the platform's shared pool (Node, two or
 * more cores) when the codecs do enough work on the calling thread to be worth it.
 */
export function implicitDecodePool(codecs: readonly NamedConfig[]): ChunkDecodePool | undefined {
  const chosen = chosenDecodePool();
  if (chosen === false) return undefined;
  if (chosen !== undefined) return chosen;
  return worthDecodingOffThread(codecs) ? sharedDecodePool() : undefined;
}

/** Whether `pool` is the platform's shared pool, which no caller asked for. */
export function isSharedDecodePool(pool: ChunkDecodePool): boolean {
  return pool === runningSharedDecodePool();
}

/** Stops the shared pool after its workers failed; reads then decode inline. */
export const retireSharedDecodePool: () => void = stopSharedDecodePool;
