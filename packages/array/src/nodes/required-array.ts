import type { DataType } from "@z/metadata";
import { DataTypeMismatchError } from "../create/data-type-check.js";
import { isDataTypeNamed } from "../create/data-type-named.js";
import { ShapeMismatchError } from "../errors.js";
import type { ZarrArray } from "./array.js";

/**
 * Checks that an existing array is the one `requireArray` asked for: its shape, then its
 * data type (by any of its names, so `"<f4"` matches a float32 array).
 * @throws ShapeMismatchError, DataTypeMismatchError
 */
export function checkRequiredArray(
  array: ZarrArray,
  wanted: { shape: readonly number[]; dtype?: string | DataType },
): void {
  const { shape } = array;
  if (wanted.shape.length !== shape.length || wanted.shape.some((n, i) => n !== shape[i]))
    throw new ShapeMismatchError(array.path, [...wanted.shape], shape);
  const { dtype } = wanted;
  if (dtype === undefined) return;
  const matches =
    typeof dtype === "string"
      ? isDataTypeNamed(array.dataType, dtype)
      : dtype.name === array.dataType.name;
  if (!matches)
    throw new DataTypeMismatchError(
      array.path,
      typeof dtype === "string" ? dtype : dtype.name,
      array.dtype,
    );
}
