import { nameErrorClass, ZarrError } from "@z/errors";

declare module "@z/errors" {
  interface ZarrErrorMap {
    SelectionError: SelectionError;
    BoundsError: BoundsError;
  }
}

/**
 * A selection that does not fit the array: wrong number of axes, zero step, wrong value shape.
 * @category Errors
 */
export class SelectionError extends ZarrError {
  static {
    nameErrorClass(SelectionError, "SelectionError");
  }
}

/**
 * An index outside the array's bounds.
 * @category Errors
 */
export class BoundsError extends SelectionError {
  static {
    nameErrorClass(BoundsError, "BoundsError");
  }
}
