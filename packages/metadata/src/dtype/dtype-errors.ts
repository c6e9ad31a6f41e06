import { formatValue, nameErrorClass } from "@z/errors";
import { MetadataError, UnknownDataTypeError } from "../errors.js";
import { loadDataTypes } from "./lazy-load.js";

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

/**
 * A data type that is not loaded yet: the data types beyond the plain numeric ones (complex,
 * datetime, fixed-length strings, raw bytes, structured records, the minifloats and small
 * integers) load on first use. Opening and creating arrays load them; synchronous lookups
 * (`resolveDataTypeV3`, `resolveDataTypeV2`, `resolveNumpyDataType`) need
 * `await loadDataTypes()` first. `load()` does that.
 * @category Errors
 */
export class DataTypeNotLoadedError extends UnknownDataTypeError {
  static {
    nameErrorClass(DataTypeNotLoadedError, "DataTypeNotLoadedError");
  }
  /** @param loadModules loads what may resolve the type (default: {@link loadDataTypes}) */
  constructor(
    dataType: unknown,
    where = "",
    private readonly loadModules: () => Promise<void> = loadDataTypes,
  ) {
    super(dataType, where);
    this.message =
      `Data type ${formatValue(dataType)}${where ? ` in ${where}` : ""} is not loaded: the ` +
      "data types beyond the plain numeric ones (complex, datetime, strings, structured, " +
      "minifloats, ...) and those of extensions that register loaders load on first use. " +
      "Await loadDataTypes(), or loadDataTypesFor(metadata) for extension types, before " +
      "resolving it synchronously (opening or creating an array does this), or register it " +
      "with registerDataType() if it comes from an extension.";
  }

  /** Loads what may resolve the data type; then resolving may be tried again. */
  load(): Promise<void> {
    return this.loadModules();
  }
}
