import type { DataType } from "@z/metadata";
import { resolveDtype } from "./array-metadata-builder.js";
import { NodeError } from "./errors.js";

/**
 * An array opened with `openArray(store, {dtype})` holds another data type than asked for.
 * @category Errors
 */
export class DataTypeMismatchError extends NodeError {
  override name = "DataTypeMismatchError";
  constructor(
    /** The array's path. */
    readonly path: string,
    /** The data type asked for. */
    readonly expected: string,
    /** The array's data type (its v3 name). */
    readonly actual: string,
  ) {
    super(
      `The array at ${JSON.stringify(`/${path}`)} has data type ${actual}, not ${expected} as asked`,
    );
  }
}

/**
 * Whether `actual` is the data type named `wanted`: its name or v3 `data_type` (`"float32"`;
 * `"string"` for a v2 object array of vlen-utf8 strings), or a v2 typestr of it in either byte
 * order (`"<f4"`, `">f4"`). Names no registered type answers to match
 * nothing.
 */
export function isDataTypeNamed(actual: DataType, wanted: string): boolean {
  if (actual.name === wanted) return true;
  // A v2 object array of strings is named "object" but is "string" in v3 (its toV3 form).
  if (actual.toV3() === wanted) return true;
  try {
    return resolveDtype(wanted).dataType.name === actual.name;
  } catch {
    return false;
  }
}
