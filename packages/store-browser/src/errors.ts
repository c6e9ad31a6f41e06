import { nameErrorClass } from "@z/errors";
import { StoreError } from "@z/store-core";

declare module "@z/errors" {
  interface ZarrErrorMap {
    BrowserStorageError: BrowserStorageError;
  }
}

/**
 * A browser storage API failed (quota exceeded, storage disabled, a name the origin private
 * file system refuses): says which key, which operation and what the browser reported.
 * @category Errors
 */
export class BrowserStorageError extends StoreError {
  static {
    nameErrorClass(BrowserStorageError, "BrowserStorageError");
  }
  /** The key (or prefix) being read or written. */
  declare readonly key: string;
  constructor(
    key: string,
    /** What the store was doing: `"read"`, `"write"`, `"delete"`, `"list"`, `"open"`. */
    readonly operation: string,
    /** What the browser threw. */
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    super(`Could not ${operation} ${JSON.stringify(key)} in browser storage: ${reason}`, {
      key,
      cause,
    });
  }
}

/** A random 128-bit version tag: unique per write, never reused after a delete. */
export function newVersion(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
