import { formatValue, nameErrorClass, ZarrError, type ZarrErrorOptions } from "@z/errors";
import type { DataTypeNotLoadedError, InvalidDataTypeError } from "./dtype/dtype-errors.js";
import type { ValueTypeError } from "./dtype/value-errors.js";

declare module "@z/errors" {
  interface ZarrErrorMap {
    MetadataError: MetadataError;
    MetadataLimitError: MetadataLimitError;
    UnknownDataTypeError: UnknownDataTypeError;
    InvalidDataTypeError: InvalidDataTypeError;
    DataTypeNotLoadedError: DataTypeNotLoadedError;
    ValueTypeError: ValueTypeError;
    FillValueError: FillValueError;
    UnsupportedExtensionError: UnsupportedExtensionError;
    ChunkGridError: ChunkGridError;
  }
}

/**
 * Metadata that cannot be used: malformed JSON, a missing or invalid field, an inconsistent
 * document. The message names the document (store key or node path) and the field.
 * @category Errors
 */
export class MetadataError extends ZarrError {
  static {
    nameErrorClass(MetadataError, "MetadataError");
  }
  /** The store key of the document, when the reader knows it. */
  declare readonly key?: string;
  /** The node path whose metadata it is, when known. */
  declare readonly path?: string;
  constructor(message?: string, options?: Pick<ZarrErrorOptions, "key" | "path" | "cause">) {
    super(message, options);
  }
}

/**
 * Metadata that declares more than the configured bounds allow (see `MetadataLimits`): a
 * document too large or too deeply nested, an element, chunk or array too large. Carries the
 * limit's name, its value and the value found.
 * @category Errors
 */
export class MetadataLimitError extends MetadataError {
  static {
    nameErrorClass(MetadataLimitError, "MetadataLimitError");
  }
  constructor(
    message: string,
    /** The name of the limit (a key of `MetadataLimits`). */
    readonly limit: string,
    /** The limit's value. */
    readonly max: number,
    /** The value found (a lower bound when counting stopped at the limit). */
    readonly actual: number,
  ) {
    super(message);
  }
}

/**
 * A `data_type` (v3) or `dtype` (v2) that no registered data type understands.
 * @category Errors
 */
export class UnknownDataTypeError extends MetadataError {
  static {
    nameErrorClass(UnknownDataTypeError, "UnknownDataTypeError");
  }
  constructor(
    readonly dataType: unknown,
    where = "",
  ) {
    super(
      `Unknown data type ${formatValue(dataType)}${where ? ` in ${where}` : ""}. ` +
        "Register it with registerDataType() if it comes from an extension.",
    );
  }
}

/** A fill value whose JSON form does not fit the array's data type. */
export class FillValueError extends MetadataError {
  static {
    nameErrorClass(FillValueError, "FillValueError");
  }
}

/**
 * An extension (chunk grid, chunk key encoding, storage transformer, metadata field) that must
 * be understood but is not known here.
 */
export class UnsupportedExtensionError extends MetadataError {
  static {
    nameErrorClass(UnsupportedExtensionError, "UnsupportedExtensionError");
  }
}

/**
 * A chunk grid that does not fit an array or an operation: edge lengths that do not cover the
 * array's shape, a resize beyond them, or a feature that needs chunks of one shape (sharding,
 * Zarr v2) used with chunks of different shapes.
 * @category Errors
 */
export class ChunkGridError extends MetadataError {
  static {
    nameErrorClass(ChunkGridError, "ChunkGridError");
  }
}
