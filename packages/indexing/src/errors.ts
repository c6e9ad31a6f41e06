const ZARR_ERROR_BRAND = Symbol.for("@z/error");

/**
 * A selection that does not fit the array: wrong number of axes, zero step, wrong value shape.
 * @category Errors
 */
export class SelectionError extends Error {
  override name = "SelectionError";
  readonly [ZARR_ERROR_BRAND] = true;
}

/**
 * An index outside the array's bounds.
 * @category Errors
 */
export class BoundsError extends SelectionError {
  override name = "BoundsError";
}
