import type { JsonValue } from "@z/zarr";
import { type FillKind, type MigratedDataType, UnmigratableDataType } from "./v3-data-type.js";

/** NumPy's NaT, the int64 minimum. */
const NOT_A_TIME = -(2n ** 63n);

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** The fill value of an array whose v2 `fill_value` is null: the type's zero (NaT for times). */
function defaultFill(kind: FillKind, itemSize: number): JsonValue {
  switch (kind) {
    case "int":
      return 0;
    case "float":
      return 0;
    case "complex":
      return [0, 0];
    case "bool":
      return false;
    case "null-terminated-bytes":
    case "unicode":
      return "";
    case "time":
      return NOT_A_TIME;
    case "raw-bytes":
    case "structured":
      return base64(new Uint8Array(itemSize));
  }
}

const isNumber = (v: JsonValue) => typeof v === "number" || typeof v === "bigint";
const isFloat = (v: JsonValue) =>
  typeof v === "number" || v === "NaN" || v === "Infinity" || v === "-Infinity";

/**
 * The v3 `fill_value` of a v2 one, as zarr-python 3.1 writes it: numbers, "NaN"/"Infinity"
 * strings and `[re, im]` pairs as they are; a `|S` value's base64 without its trailing NUL
 * bytes (NumPy drops them), a `U` value without trailing NULs. A null fill value (v2's "no
 * fill value") becomes the type's zero, which is what zarr-python 3 reads for missing chunks
 * of such an array (zarr-python's own migration refuses it for every type but bool).
 * @throws UnmigratableDataType for a value that does not fit the type
 */
export function migrateFillValue(fill: JsonValue, type: MigratedDataType): JsonValue {
  if (fill === null) return defaultFill(type.fill, type.itemSize);
  const wrong = () =>
    new UnmigratableDataType(`the fill value ${String(fill)} does not fit its data type`);
  switch (type.fill) {
    case "int":
    case "time":
      if (!isNumber(fill) || (typeof fill === "number" && !Number.isInteger(fill))) throw wrong();
      return fill;
    case "float":
      if (!isFloat(fill)) throw wrong();
      return fill;
    case "complex":
      if (!Array.isArray(fill) || fill.length !== 2 || !fill.every(isFloat)) throw wrong();
      return fill;
    case "bool":
      if (typeof fill !== "boolean" && fill !== 0 && fill !== 1) throw wrong();
      return Boolean(fill);
    case "unicode":
      if (typeof fill !== "string") throw wrong();
      return fill.replace(/\0+$/, "");
    case "null-terminated-bytes": {
      if (typeof fill !== "string") throw wrong();
      const bytes = Buffer.from(fill, "base64");
      let end = bytes.length;
      while (end > 0 && bytes[end - 1] === 0) end--;
      return base64(bytes.subarray(0, end));
    }
    case "raw-bytes":
    case "structured":
      if (typeof fill !== "string") throw wrong();
      return fill;
  }
}
