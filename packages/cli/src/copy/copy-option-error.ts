import { ZARR_ERROR_BRAND } from "@z/zarr";
import { UsageError } from "../errors.js";

/**
 * A `zarr copy` option that cannot be applied to a node of the source (a `--chunks` of the
 * wrong rank, a `--format` its data type or codecs cannot be written in). Raised while the
 * copy is planned, before anything is written.
 */
export class CopyOptionError extends UsageError {
  override name = "CopyOptionError";
  readonly [ZARR_ERROR_BRAND] = true;
  constructor(
    /** The option as given (`--chunks 2,2`, or several of them). */
    readonly option: string,
    /** The source node it does not fit. */
    readonly path: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Cannot copy /${path} with ${option}: ${reason}`, "copy");
    if (options && "cause" in options) this.cause = options.cause;
  }
}
