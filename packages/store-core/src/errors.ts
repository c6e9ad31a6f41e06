/** Brand shared by every error class of the `@z` packages, so one check recognises them all. */
export const ZARR_ERROR_BRAND: unique symbol = Symbol.for("@z/error") as never;

/**
 * True for any error thrown by an `@z` package, whichever package defined its class.
 * @example
 * ```ts
 * try {
 *   await openArray(store, { path: "missing" });
 * } catch (e) {
 *   if (isZarrError(e)) console.error(e.name, e.message); // NotFoundError No array at "/missing"
 * }
 * ```
 * @category Errors
 */
export function isZarrError(error: unknown): error is Error {
  return typeof error === "object" && error !== null && (error as never)[ZARR_ERROR_BRAND] === true;
}

/**
 * Base class of the errors raised by stores.
 * @category Errors
 */
export class StoreError extends Error {
  override name = "StoreError";
  readonly [ZARR_ERROR_BRAND] = true;
}

/**
 * A key that a store refuses: empty segments, `.` or `..`, backslashes, NUL, a leading `/`.
 * @category Errors
 */
export class InvalidKeyError extends StoreError {
  override name = "InvalidKeyError";
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Invalid store key ${JSON.stringify(key)}: ${reason}`);
  }
}

/**
 * A node or key that does not exist where it was looked for.
 * @category Errors
 */
export class NotFoundError extends StoreError {
  override name = "NotFoundError";
  constructor(
    readonly path: string,
    what = "key",
    hint = "",
  ) {
    super(`No ${what} at ${JSON.stringify(path)}${hint ? `: ${hint}` : ""}`);
  }
}

/**
 * A write, delete or create on a store (or node) opened read-only.
 * @category Errors
 */
export class ReadOnlyError extends StoreError {
  override name = "ReadOnlyError";
  constructor(
    readonly key: string,
    action = "write",
    reason = "the store is read-only",
  ) {
    super(`Cannot ${action} ${JSON.stringify(key)}: ${reason}`);
  }
}

/**
 * A conditional write (`ifMatch` / `ifNoneMatch`) found the key changed or present: another
 * writer got there first. Read again and retry.
 * @category Errors
 */
export class ConflictError extends StoreError {
  override name = "ConflictError";
  constructor(
    readonly key: string,
    reason = "it was changed by another writer",
  ) {
    super(`Conditional write of ${JSON.stringify(key)} refused: ${reason}`);
  }
}

/**
 * A read-modify-write of a key (a chunk, a shard) met a conflicting writer on every attempt:
 * other writers kept changing the key between its read and its conditional write.
 * @category Errors
 */
export class TooManyConflictsError extends ConflictError {
  override name = "TooManyConflictsError";
  constructor(
    key: string,
    /** How many times the update was tried. */
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(
      key,
      `other writers changed it during each of ${attempts} attempts; write less at once to ` +
        "this key from several processes, or retry later",
    );
    if (options && "cause" in options) this.cause = options.cause;
  }
}

/**
 * A store that lacks a capability an operation needs (writing, listing, ranges).
 * @category Errors
 */
export class UnsupportedOperationError extends StoreError {
  override name = "UnsupportedOperationError";
}

/** The caller aborted the operation through its AbortSignal. */
export class AbortError extends StoreError {
  override name = "AbortError";
  constructor(reason?: unknown) {
    super(reason instanceof Error ? reason.message : "The operation was aborted");
  }
}

/** Throws an {@link AbortError} if the signal has been aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(signal.reason);
}
