/** Brand shared by every error class of the `@z` packages (see `isZarrError` in `@z/store-core`). */
const ZARR_ERROR_BRAND = Symbol.for("@z/error");

/**
 * Metadata that cannot be used: malformed JSON, a missing or invalid field, an inconsistent
 * document. The message names the document (store key or node path) and the field.
 * @category Errors
 */
export class MetadataError extends Error {
  override name = "MetadataError";
  readonly [ZARR_ERROR_BRAND] = true;
}

/**
 * A `data_type` (v3) or `dtype` (v2) that no registered data type understands.
 * @category Errors
 */
export class UnknownDataTypeError extends MetadataError {
  override name = "UnknownDataTypeError";
  constructor(
    readonly dataType: unknown,
    where = "",
  ) {
    super(
      `Unknown data type ${JSON.stringify(dataType)}${where ? ` in ${where}` : ""}. ` +
        "Register it with registerDataType() if it comes from an extension.",
    );
  }
}

/** A fill value whose JSON form does not fit the array's data type. */
export class FillValueError extends MetadataError {
  override name = "FillValueError";
}

/**
 * An extension (chunk grid, chunk key encoding, storage transformer, metadata field) that must
 * be understood but is not known here.
 */
export class UnsupportedExtensionError extends MetadataError {
  override name = "UnsupportedExtensionError";
}
