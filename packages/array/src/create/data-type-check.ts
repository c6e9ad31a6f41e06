import { nameErrorClass } from "@z/errors";
import { NodeError } from "../errors.js";

/**
 * An array opened with `openArray(store, {dtype})` holds another data type than asked for.
 * @category Errors
 */
export class DataTypeMismatchError extends NodeError {
  static {
    nameErrorClass(DataTypeMismatchError, "DataTypeMismatchError");
  }
  constructor(
    /** The array's path. */
    override readonly path: string,
    /** The data type asked for. */
    readonly expected: string,
    /** The array's data type (its v3 name). */
    readonly actual: string,
  ) {
    super(
      `The array at ${JSON.stringify(`/${path}`)} has data type ${actual}, not ${expected} as asked`,
    );
  }
}
