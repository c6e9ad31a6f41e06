// The data type name check: private to the @z packages. data-type-check.ts holds the public side,
// which the package entry re-exports whole.
import type { DataType } from "@z/metadata";
import { resolveDtype } from "./dtype-option.js";

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
