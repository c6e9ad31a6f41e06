/**
 * Variable-length strings and bytes for Zarr: the `string` and `bytes` data types (v3) and
 * v2 object arrays (`|O`), the `vlen-utf8`, `vlen-bytes`, `json2`, `vlen-array` and `msgpack2`
 * codecs (byte-compatible with numcodecs and zarr-python), the Arrow-style `z.vlen-offsets`
 * layout, and conversions to and from apache-arrow vectors. Importing the package registers
 * the data types and codecs.
 * @packageDocumentation
 */
import "./register.js";

export {
  type ArrowVlenKind,
  arrowVectorFromBuffers,
  fromArrowVector,
  loadArrow,
  type ToArrowOptions,
  toArrowVector,
  type VlenVector,
} from "./arrow.js";
export { Json2Codec, json2Configuration } from "./codecs/json2.js";
export { MsgPack2Codec } from "./codecs/msgpack2.js";
export { VlenArrayCodec } from "./codecs/vlen-array.js";
export { VlenBytesCodec } from "./codecs/vlen-bytes.js";
export {
  type ArrowDecodeOptions,
  VLEN_OFFSETS_CODEC,
  VlenOffsetsCodec,
} from "./codecs/vlen-offsets.js";
export { VlenUtf8Codec } from "./codecs/vlen-utf8.js";
export { BytesDataType, bytesDataType } from "./dtype/bytes.js";
export { elementToJson, JsonFloat } from "./dtype/json-element.js";
export { isObjectDataType, OBJECT_V3_NAME, ObjectDataType } from "./dtype/object.js";
export { StringDataType, stringDataType } from "./dtype/string.js";
export { EncodeError } from "./errors.js";
export {
  type PythonJsonParseOptions,
  type PythonJsonStyle,
  PythonJsonSyntaxError,
  parsePythonJson,
  pythonFloatRepr,
  pythonJsonDumps,
} from "./json/python-json.js";
export { OFFSETS_LAYOUT_ALIGNMENT, type OffsetWidth } from "./layout/offsets.js";
export { type ArrowChunkSource, type ReadArrowOptions, readArrowChunk } from "./read-arrow.js";
