import { CodecError } from "@z/codecs";
import { nameErrorClass } from "@z/errors";

declare module "@z/errors" {
  interface ZarrErrorMap {
    EncodeError: EncodeError;
  }
}

/**
 * A value that a variable-length codec cannot encode: a number in a string array, a string in
 * a bytes array, an object json2 cannot represent, a chunk too large for 32-bit offsets.
 */
export class EncodeError extends CodecError {
  static {
    nameErrorClass(EncodeError, "EncodeError");
  }
}
