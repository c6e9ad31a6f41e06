// The dtype option resolved, kept out of array-metadata-builder.ts: `openArray({dtype})` checks
// names with it (data-type-named.ts), and an app that opens arrays does not load the builder.
import {
  type DataType,
  DataTypeNotLoadedError,
  type Endian,
  registeredDataTypeNames,
  resolveDataTypeV2,
  resolveDataTypeV3,
  UnknownDataTypeError,
} from "@z/metadata";
import { NUMPY_TYPE_NAMES, numpyAlias } from "./numpy-dtype-aliases.js";
import { checkDataTypeObject } from "./option-checks.js";

const WHERE = "the dtype option";

/**
 * A data type given by v3 name (`"int32"`), NumPy name (`"double"`) or type code (`"d"`,
 * `"<f8"`), v2/NumPy typestr (`">i4"`) or object, with its byte order.
 * @throws UnknownDataTypeError listing the names accepted, for a string none of them is
 */
export function resolveDtype(dtype: unknown): { dataType: DataType; endian: Endian } {
  if (typeof dtype !== "string") return { dataType: checkDataTypeObject(dtype), endian: "little" };
  const alias = numpyAlias(dtype);
  const given = alias?.name ?? dtype;
  try {
    return { dataType: resolveDataTypeV3(given, WHERE), endian: alias?.endian ?? "little" };
  } catch (error) {
    // Not a v3 name: try it as a NumPy type string. A known name with bad parameters (a
    // length beyond the limits, say) keeps its own error.
    if (!(error instanceof UnknownDataTypeError)) throw error;
  }
  try {
    return resolveDataTypeV2(given, WHERE);
  } catch (error) {
    // A type that may load on first use keeps its error: the caller loads it and asks again.
    if (!(error instanceof UnknownDataTypeError) || error instanceof DataTypeNotLoadedError)
      throw error;
    throw new UnknownDataTypeError(dtype, acceptedNames());
  }
}

/** Where the error of an unknown dtype points the user: the names that would do. */
function acceptedNames(): string {
  const zarr = registeredDataTypeNames().join(", ");
  const numpy = Object.keys(NUMPY_TYPE_NAMES).join(", ");
  return (
    `${WHERE}; it takes a Zarr v3 name (${zarr}), a NumPy name (${numpy}), ` +
    'a NumPy type code or type string ("d", "<f8", ">i4", "|b1", "<M8[ns]", "|S10"), ' +
    "or a DataType object"
  );
}
