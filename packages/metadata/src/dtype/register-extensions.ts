// Registers the data types of the zarr-extensions registry beyond the core spec: bfloat16, the
// float8/float6/float4 formats, the 2- and 4-bit integers and the complex_* types. They load on
// first use, with the fixed-size types (register-lazy.ts).
import { complexExtensionDataTypes } from "./complex-extended.js";
import { miniFloatDataTypes } from "./minifloat.js";
import { addBuiltinDataType } from "./registry-tables.js";
import { smallIntDataTypes } from "./small-int.js";
import type { DataType } from "./types.js";

/**
 * Registers the extension data types (called once, by register-lazy.ts).
 * @example
 * ```ts
 * // Runs once when an array's metadata first names one (or on loadDataTypes()); then:
 * await createArray(store, { shape: [4], dtype: "bfloat16" });
 * await createArray(store, { shape: [8], dtype: "int4", serializer: { name: "packbits" } });
 * ```
 * @category Data types
 */
export function registerExtensionDataTypes(): void {
  for (const dataType of [
    ...miniFloatDataTypes,
    ...smallIntDataTypes,
    ...complexExtensionDataTypes,
  ]) {
    addBuiltinDataType(dataType as DataType);
  }
}
