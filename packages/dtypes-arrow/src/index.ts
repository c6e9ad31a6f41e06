/**
 * Arrow data types in Zarr: the v3 `arrow` data type, whose configuration is an Arrow field in
 * Arrow's JSON integration-test format (any of ints, floats, bool, dates, times, timestamps,
 * durations, intervals, decimals, fixed-size binary, utf8 and binary and their large and view
 * variants, lists, large lists, fixed-size lists, structs, maps, sparse and dense unions,
 * dictionaries, and list views and run-end encoding for reading);
 * the `z.arrow-ipc` codec, which stores each chunk as an Arrow IPC stream of one record batch
 * with one column, and the `arrow-ipc` codec proposed for zarr-extensions; helpers that read a
 * selection as an apache-arrow vector and write one. Importing the package registers the data
 * type and the codecs.
 * @packageDocumentation
 */
import "./register.js";

export * from "./codec.js";
export * from "./dtype.js";
export {
  coerceElement as coerceArrowElement,
  type DayTimeInterval,
  type MonthDayNanoInterval,
  type UnionElement,
} from "./elements/coerce.js";
export * from "./elements/json.js";
export * from "./errors.js";
export * from "./field/from-arrow.js";
export type {
  ArrowDictionaryEncoding,
  ArrowField,
  ArrowIntType,
  ArrowKeyValue,
  ArrowTimeUnit,
  ArrowType,
  ArrowTypeName,
} from "./field/model.js";
export { parseArrowField } from "./field/parse-json.js";
export { arrowFieldToJson } from "./field/to-json.js";
export type { BodyCompression } from "./ipc/body-compression.js";
export {
  type ColumnChoice,
  type IpcColumn,
  type ReadIpcOptions,
  readIpcStream,
  readIpcStreamAsync,
} from "./ipc/read-stream.js";
export * from "./vectors.js";
