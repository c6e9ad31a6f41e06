import { CodecError, DecodeError } from "@z/codecs";
import { nameErrorClass, ZARR_ERROR_BRAND } from "@z/errors";
import { InvalidDataTypeError } from "@z/metadata";

declare module "@z/errors" {
  interface ZarrErrorMap {
    ArrowFieldError: ArrowFieldError;
    ArrowSchemaMismatchError: ArrowSchemaMismatchError;
    ArrowValueError: ArrowValueError;
    ArrowEncodeError: ArrowEncodeError;
  }
}

/**
 * An Arrow field description that does not parse: JSON that is not a field in Arrow's
 * integration-test format, an unknown or unsupported type, a parameter out of range, a nested
 * type with the wrong children. The message names the offending member (`field.children[0].type`).
 */
export class ArrowFieldError extends InvalidDataTypeError {
  static {
    nameErrorClass(ArrowFieldError, "ArrowFieldError");
  }
}

/**
 * Arrow IPC bytes whose schema differs from the field the array's metadata declares (another
 * type, nullability, child name, index type), or that lack the column the codec reads.
 */
export class ArrowSchemaMismatchError extends DecodeError {
  static {
    nameErrorClass(ArrowSchemaMismatchError, "ArrowSchemaMismatchError");
  }
}

/**
 * A value that does not fit an Arrow field: a string in an int32 array, a number out of range,
 * a struct without one of its members, a null where the field is not nullable. The message
 * names where in the value the problem is (`element.items[2].x`).
 */
export class ArrowValueError extends TypeError {
  static {
    nameErrorClass(ArrowValueError, "ArrowValueError");
  }
  /** The `@z` error brand (see `isZarrError`): a `TypeError` cannot extend `ZarrError`. */
  readonly [ZARR_ERROR_BRAND] = true as const;
}

/** A chunk the Arrow codecs cannot encode (more than 2^31 - 1 bytes in a 32-bit-offset column). */
export class ArrowEncodeError extends CodecError {
  static {
    nameErrorClass(ArrowEncodeError, "ArrowEncodeError");
  }
}
