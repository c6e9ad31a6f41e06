import { nameErrorClass } from "@z/errors";
import { MetadataError } from "../errors.js";

/**
 * A data type description of a known family that does not parse: a structured dtype whose
 * fields are malformed, a datetime with an unknown unit, a string length that is not a positive
 * integer. The message names the offending part and says what a valid one looks like.
 */
export class InvalidDataTypeError extends MetadataError {
  static {
    nameErrorClass(InvalidDataTypeError, "InvalidDataTypeError");
  }
}
