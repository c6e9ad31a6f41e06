import { nameErrorClass } from "@z/errors";
import { UsageError } from "../errors.js";

declare module "@z/errors" {
  interface ZarrErrorMap {
    CopyOptionError: CopyOptionError;
  }
}

/**
 * A `zarr copy` option that cannot be applied to a node of the source (a `--chunks` of the
 * wrong rank, a `--format` its data type or codecs cannot be written in). Raised while the
 * copy is planned, before anything is written.
 */
export class CopyOptionError extends UsageError {
  static {
    nameErrorClass(CopyOptionError, "CopyOptionError");
  }
  /** The source node it does not fit. */
  declare readonly path: string;
  constructor(
    /** The option as given (`--chunks 2,2`, or several of them). */
    readonly option: string,
    path: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Cannot copy /${path} with ${option}: ${reason}`, "copy", {
      path,
      cause: options?.cause,
    });
  }
}
