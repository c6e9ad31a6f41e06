import { nameErrorClass, ZarrError, type ZarrErrorOptions } from "@z/errors";

// The brand and isZarrError are declared once, in @z/errors; store-core passes them on so
// store authors and users need one import.
export type { ErrorFacts, ZarrErrorMap, ZarrErrorName, ZarrErrorOptions } from "@z/errors";
export { isZarrError, locateError, ZARR_ERROR_BRAND, ZarrError } from "@z/errors";

declare module "@z/errors" {
  interface ZarrErrorMap {
    StoreError: StoreError;
    InvalidKeyError: InvalidKeyError;
    NotFoundError: NotFoundError;
    ReadOnlyError: ReadOnlyError;
    ConflictError: ConflictError;
    TooManyConflictsError: TooManyConflictsError;
    UnsupportedOperationError: UnsupportedOperationError;
    AbortError: AbortError;
  }
}

/**
 * Base class of the errors raised by stores.
 * @category Errors
 */
export class StoreError extends ZarrError {
  static {
    nameErrorClass(StoreError, "StoreError");
  }
  /** The key (or prefix) the error is about, when there is one. */
  declare readonly key?: string;
  constructor(message?: string, options?: Pick<ZarrErrorOptions, "key" | "path" | "cause">) {
    super(message, options);
  }
}

/**
 * A key that a store refuses: empty segments, `.` or `..`, backslashes, NUL, a leading `/`.
 * @category Errors
 */
export class InvalidKeyError extends StoreError {
  static {
    nameErrorClass(InvalidKeyError, "InvalidKeyError");
  }
  /** The key (or prefix, or node path) refused. */
  declare readonly key: string;
  /** Why the key was refused, e.g. "'..' segments are not allowed". */
  readonly reason: string;
  constructor(key: string, reason: string) {
    super(`Invalid store key ${JSON.stringify(key)}: ${reason}`, { key });
    this.reason = reason;
  }
}

/**
 * A node or key that does not exist where it was looked for.
 * @category Errors
 */
export class NotFoundError extends StoreError {
  static {
    nameErrorClass(NotFoundError, "NotFoundError");
  }
  /** Where nothing was found: a store key, or a node path as the user wrote it (`/a/b`). */
  declare readonly path: string;
  constructor(path: string, what = "key", hint = "") {
    super(`No ${what} at ${JSON.stringify(path)}${hint ? `: ${hint}` : ""}`, { path });
  }
}

/**
 * A write, delete or create on a store (or node) opened read-only.
 * @category Errors
 */
export class ReadOnlyError extends StoreError {
  static {
    nameErrorClass(ReadOnlyError, "ReadOnlyError");
  }
  /** The key (or prefix, or node path) that was to be written. */
  declare readonly key: string;
  constructor(key: string, action = "write", reason = "the store is read-only") {
    super(`Cannot ${action} ${JSON.stringify(key)}: ${reason}`, { key });
  }
}

/**
 * A conditional write (`ifMatch` / `ifNoneMatch`) found the key changed or present: another
 * writer got there first. Read again and retry.
 * @category Errors
 */
export class ConflictError extends StoreError {
  static {
    nameErrorClass(ConflictError, "ConflictError");
  }
  /** The key whose conditional write was refused. */
  declare readonly key: string;
  constructor(
    key: string,
    reason = "it was changed by another writer",
    options?: { cause?: unknown },
  ) {
    super(`Conditional write of ${JSON.stringify(key)} refused: ${reason}`, { ...options, key });
  }
}

/**
 * A read-modify-write of a key (a chunk, a shard) met a conflicting writer on every attempt:
 * other writers kept changing the key between its read and its conditional write.
 * @category Errors
 */
export class TooManyConflictsError extends ConflictError {
  static {
    nameErrorClass(TooManyConflictsError, "TooManyConflictsError");
  }
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
      options,
    );
  }
}

/**
 * A store that lacks a capability an operation needs (writing, listing, ranges).
 * @category Errors
 */
export class UnsupportedOperationError extends StoreError {
  static {
    nameErrorClass(UnsupportedOperationError, "UnsupportedOperationError");
  }
}

/** The caller aborted the operation through its AbortSignal. */
export class AbortError extends StoreError {
  static {
    nameErrorClass(AbortError, "AbortError");
  }
  constructor(reason?: unknown) {
    super(
      reason instanceof Error ? reason.message : "The operation was aborted",
      reason === undefined ? undefined : { cause: reason },
    );
  }
}

/** Throws an {@link AbortError} if the signal has been aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(signal.reason);
}
