// The dtype option resolved, kept out of array-metadata-builder.ts: `openArray({dtype})` checks
// names with it (data-type-named.ts), and an app that opens arrays does not load the builder.
import {
  type DataType,
  type Endian,
  resolveDataTypeV2,
  resolveDataTypeV3,
  UnknownDataTypeError,
} from "@z/metadata";
import { checkDataTypeObject } from "./option-checks.js";

/** A data type given by v3 name (`"int32"`), v2/NumPy typestr (`">i4"`) or object, with its byte order. */
export function resolveDtype(dtype: unknown): { dataType: DataType; endian: Endian } {
  if (typeof dtype !== "string") return { dataType: checkDataTypeObject(dtype), endian: "little" };
  try {
    return { dataType: resolveDataTypeV3(dtype, "the dtype option"), endian: "little" };
  } catch (error) {
    // Not a v3 name: try it as a NumPy type string. A known name with bad parameters (a
    // length beyond the limits, say) keeps its own error.
    if (!(error instanceof UnknownDataTypeError)) throw error;
    return resolveDataTypeV2(dtype, "the dtype option");
  }
}
