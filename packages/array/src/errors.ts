const ZARR_ERROR_BRAND = Symbol.for("@z/error");

/**
 * Base class of the errors raised by arrays and groups.
 * @category Errors
 */
export class NodeError extends Error {
  override name = "NodeError";
  readonly [ZARR_ERROR_BRAND] = true;
}

/**
 * An array exists where a group (or nothing) was expected.
 * @category Errors
 */
export class ContainsArrayError extends NodeError {
  override name = "ContainsArrayError";
  constructor(
    readonly path: string,
    hint = "",
  ) {
    super(`An array already exists at ${JSON.stringify(`/${path}`)}${hint ? `: ${hint}` : ""}`);
  }
}

/**
 * A group exists where an array (or nothing) was expected.
 * @category Errors
 */
export class ContainsGroupError extends NodeError {
  override name = "ContainsGroupError";
  constructor(
    readonly path: string,
    hint = "",
  ) {
    super(`A group already exists at ${JSON.stringify(`/${path}`)}${hint ? `: ${hint}` : ""}`);
  }
}

/**
 * A value passed to `set` that does not fit the selection (shape, length, element type).
 * @category Errors
 */
export class ValueShapeError extends NodeError {
  override name = "ValueShapeError";
}
