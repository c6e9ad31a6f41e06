import { nameErrorClass } from "@z/errors";
import { NodeError } from "../errors.js";

declare module "@z/errors" {
  interface ZarrErrorMap {
    IncompleteRollbackError: IncompleteRollbackError;
  }
}

/**
 * A failed copy could not take back everything it wrote (the destination store failed again
 * while it cleaned up): the keys it names hold what the copy left. Its `cause` is the error
 * that stopped the copy.
 * @category Errors
 */
export class IncompleteRollbackError extends NodeError {
  static {
    nameErrorClass(IncompleteRollbackError, "IncompleteRollbackError");
  }
  /** @param cause the error that stopped the copy */
  constructor(
    cause: unknown,
    /** The keys the copy wrote (or deleted) and could not put back as they were. */
    readonly keys: readonly string[] = [],
    /** The errors of the clean-up, one per key left. */
    readonly errors: readonly unknown[] = [],
  ) {
    const shown = keys.slice(0, 5).join(", ") + (keys.length > 5 ? ", ..." : "");
    const reason = cause instanceof Error ? cause.message : String(cause);
    const path = (cause as { path?: unknown } | undefined)?.path;
    super(
      `${reason}; the copy could not take back all it wrote: ${keys.length} key${keys.length === 1 ? "" : "s"} left as the copy made them (${shown}), remove them before copying again`,
      { cause, key: keys[0], path: typeof path === "string" ? path : undefined },
    );
  }
}
