// Registers the data types of the zarr-extensions registry beyond the core spec: bfloat16, the
// float8/float6/float4 formats, the 2- and 4-bit integers and the complex_* types. registry.ts
// calls registerExtensionDataTypes() once its own tables exist, as for the fixed-size types.
import { complexExtensionDataTypes } from "./complex-extended.js";
import { miniFloatDataTypes } from "./minifloat.js";
import { registerDataType } from "./registry-table.js";
import { smallIntDataTypes } from "./small-int.js";
import type { DataType } from "./types.js";

/**
 * Registers the extension data types (called once, by registry.ts).
 * @example
 * ```ts
 * // Runs once when @z/metadata loads; afterwards these names just work in v3 arrays:
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
    registerDataType(dataType as DataType);
  }
}
