// The names alone, so that registering the loaders (register.ts) loads neither the codec nor
// the data type.
import type { JsonValue } from "@z/metadata";
import { isJsonObject } from "@z/metadata";

/** The name of this package's Arrow IPC codec (an extension-scoped name: only `@z` reads it so far). */
export const ARROW_IPC_CODEC = "z.arrow-ipc";

/** The name of the Arrow IPC codec proposed for zarr-extensions (configuration `{"column_name"}`). */
export const ARROW_IPC_EXTENSION_CODEC = "arrow-ipc";

/** The v3 `data_type` name of Arrow data types. */
export const ARROW_DATA_TYPE = "arrow";

/** The name a v3 `data_type` value gives: the string, or an object's `name`. */
export function arrowTypeName(json: JsonValue): unknown {
  return typeof json === "string" ? json : isJsonObject(json) ? json.name : undefined;
}
