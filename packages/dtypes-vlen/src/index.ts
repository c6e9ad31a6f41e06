/**
 * Variable-length strings and bytes for Zarr: the `string` and `bytes` data types (v3) and
 * v2 object arrays (`|O`), the `vlen-utf8`, `vlen-bytes`, `json2`, `vlen-array` and `msgpack2`
 * codecs (byte-compatible with numcodecs and zarr-python), the Arrow-style `z.vlen-offsets`
 * layout, and conversions to and from apache-arrow vectors. Importing the package registers
 * the data types and codecs.
 * @packageDocumentation
 */
import "./register.js";

export * from "./arrow.js";
export * from "./codecs/json2.js";
export * from "./codecs/msgpack2.js";
export * from "./codecs/vlen-array.js";
export { VlenBytesCodec } from "./codecs/vlen-bytes.js";
export * from "./codecs/vlen-offsets.js";
export { VlenUtf8Codec } from "./codecs/vlen-utf8.js";
export { BytesDataType, bytesDataType } from "./dtype/bytes.js";
export * from "./dtype/json-element.js";
export * from "./dtype/object.js";
export * from "./dtype/string.js";
export * from "./errors.js";
export * from "./json/python-json.js";
export { OFFSETS_LAYOUT_ALIGNMENT, type OffsetWidth } from "./layout/offsets.js";
export * from "./read-arrow.js";
