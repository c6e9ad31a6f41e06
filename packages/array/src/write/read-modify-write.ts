import {
  ConflictError,
  type Readable,
  TooManyConflictsError,
  throwIfAborted,
  type Writable,
} from "@z/store-core";
import { hasConditionalWrites } from "@z/store-core/internal";
import { withKeyLock } from "./key-lock.js";

/** Options of {@link updateKey} and {@link replaceKey}. */
export interface UpdateKeyOptions {
  /** Abort the update (between attempts, and passed on to the store). */
  signal?: AbortSignal;
  /**
   * Use the store's versioned reads and conditional writes when it has them (default true), so
   * writers in other processes cannot lose each other's updates either. With false, only writers
   * in this process are serialised.
   */
  conditional?: boolean;
  /** Attempts before giving up with `TooManyConflictsError` (default 12). */
  maxAttempts?: number;
}

/**
 * What an update makes of a key's value: new bytes to store, or `undefined` to delete the key
 * (a chunk left equal to the fill value).
 */
export type KeyUpdate = (current: Uint8Array | undefined) => Promise<Uint8Array | undefined>;

const DEFAULT_ATTEMPTS = 12;

/**
 * Reads a key, computes its new value with `update` and writes it back, without losing a
 * concurrent writer's update:
 * - in this process, updates of the same store object and key run one after the other
 *   (whichever array object started them), updates of different keys run at once;
 * - when the store has conditional writes, the read is versioned and the write (or delete)
 *   only lands if the key still has that version (`ifMatch`, or `ifNoneMatch: "*"` when the key
 *   was missing); on a conflict the update runs again on the new value, a bounded number of
 *   times with a short random backoff.
 *
 * `update` may run more than once, so it must not have side effects beyond its result.
 * @throws TooManyConflictsError when every attempt met a conflicting writer
 */
export function updateKey(
  store: Readable & Writable,
  key: string,
  update: KeyUpdate,
  options: UpdateKeyOptions = {},
): Promise<void> {
  const { signal } = options;
  const conditional = (options.conditional ?? true) && hasConditionalWrites(store);
  return withKeyLock(store, key, async () => {
    if (!conditional) {
      const next = await update(await store.get(key, { signal }));
      await put(store, key, next, { signal });
      return;
    }
    const attempts = Math.max(1, options.maxAttempts ?? DEFAULT_ATTEMPTS);
    for (let attempt = 1; ; attempt++) {
      throwIfAborted(signal);
      const current = await store.getVersioned(key, { signal });
      const next = await update(current?.value);
      if (next === undefined && current === undefined) return; // nothing stored, nothing to store
      try {
        await put(store, key, next, {
          signal,
          ...(current ? { ifMatch: current.version } : { ifNoneMatch: "*" }),
        });
        return;
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        if (attempt >= attempts) throw new TooManyConflictsError(key, attempts, { cause: error });
      }
      await backoff(attempt, signal);
    }
  });
}

/**
 * Replaces a key's whole value (or deletes it, for `undefined`) without reading it, in turn
 * with the updates of the same key in this process. Needs no condition across processes: a
 * whole replacement is right in any order, so it is a plain `set` (FsStore: no lock file, no
 * read, a temporary file renamed over the chunk). A conditional update of another process
 * that read the old value fails its condition and runs again on this one; only one that had
 * already checked it when this one landed replaces it (see `Writable.conditionalWrites`), so
 * an update made after a whole write is never lost.
 */
export function replaceKey(
  store: Readable & Writable,
  key: string,
  value: Uint8Array | undefined,
  options: { signal?: AbortSignal } = {},
): Promise<void> {
  return withKeyLock(store, key, () => put(store, key, value, options));
}

async function put(
  store: Writable,
  key: string,
  value: Uint8Array | undefined,
  options: { signal?: AbortSignal; ifMatch?: string; ifNoneMatch?: "*" },
): Promise<void> {
  if (value !== undefined) await store.set(key, value, options);
  // A delete of a missing key under ifNoneMatch has nothing to guard: the key stays missing.
  else if (options.ifNoneMatch === undefined) await store.delete(key, options);
}

/** Waits a random time that grows with the attempt (2 ms, 4 ms, ... up to 250 ms). */
function backoff(attempt: number, signal: AbortSignal | undefined): Promise<void> {
  const ceiling = Math.min(250, 2 ** attempt);
  const delay = ceiling / 2 + Math.random() * (ceiling / 2);
  // An abort ends the wait early; the caller's loop then throws the AbortError.
  return new Promise((resolve) => {
    const timer = setTimeout(done, delay);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
