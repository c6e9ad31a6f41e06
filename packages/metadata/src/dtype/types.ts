import type { Container, Endian } from "@z/ndarray";
import type { JsonObject, JsonValue } from "../json.js";

/** Byte order of multi-byte elements in stored chunks (the type of `@z/ndarray`). */
export type { Endian };

/** The family a data type belongs to. */
export type DataTypeKind =
  | "bool"
  | "int"
  | "uint"
  | "float"
  | "complex"
  | "datetime"
  | "timedelta"
  | "string"
  | "bytes"
  | "raw"
  | "struct"
  | "other";

/** Zarr format version: 2 or 3. */
export type ZarrFormat = 2 | 3;

/**
 * A Zarr data type: how its elements are held in memory (the container), encoded as bytes,
 * and written as fill values in metadata. One registry maps v3 names and v2 type strings to
 * these objects; extensions add their own with `registerDataType`.
 *
 * @typeParam S - the JavaScript type of one element (the scalar)
 * @typeParam C - the container of many elements
 */
export interface DataType<S = unknown, C extends Container = Container> {
  /** The v3 name (`"int16"`), or a readable name for types whose v3 form is an object. */
  readonly name: string;
  /** The family of the type. */
  readonly kind: DataTypeKind;
  /** Bytes per element in a stored chunk; 0 for variable-length types. */
  readonly itemSize: number;
  /** Container slots per element: 1, or 2 for complex (interleaved re, im), and so on. */
  readonly lanes: number;
  /** Whether stored bytes depend on the byte order (multi-byte numeric types). */
  readonly endianSensitive: boolean;
  /** The fill value used when metadata gives none (v2 `null`): zero, false, empty. */
  readonly defaultFill: S;
  /** A container for `length` elements, initialised to zero/empty. */
  create(length: number): C;
  /** The `data_type` value of v3 metadata. */
  toV3(): JsonValue;
  /** The `dtype` value of v2 metadata for a byte order. */
  toV2(endian: Endian): JsonValue;
  /** Encodes `data` as stored bytes (`length * itemSize` of them). */
  encode(data: C, endian: Endian): Uint8Array;
  /**
   * Decodes stored bytes into a container of `length` elements. The caller has checked that
   * `bytes.length === length * itemSize`; the result may be a view of `bytes`.
   */
  decode(bytes: Uint8Array, length: number, endian: Endian): C;
  /** Parses a fill value from metadata JSON. @throws FillValueError */
  parseFill(json: JsonValue, format: ZarrFormat): S;
  /** The metadata JSON form of a fill value. */
  fillToJson(value: S, format: ZarrFormat): JsonValue;
  /** Converts a value a user passed (a number for a bigint type, say) into the scalar type. */
  coerce(value: unknown): S;
  /**
   * Whether a value passed to `set` is one element of this type rather than a block of them,
   * for types whose elements are objects (`{re, im}`, a record) or byte strings. Absent for
   * types whose elements are primitives.
   */
  isScalar?(value: unknown): boolean;
  /**
   * The serializer (array-to-bytes codec) new arrays of this type get when the user names
   * none; types without one use `bytes`. Variable-length and Arrow types say which codec
   * stores them.
   */
  defaultSerializer?(): { name: string; configuration?: JsonObject };
  /** Writes `value` into elements `[start, end)` of a container. */
  fill(data: C, value: S, start?: number, end?: number): void;
  /** Whether every element of the container equals `value` (NaN equals NaN here). */
  isAllFill(data: C, value: S): boolean;
  /** Element `index` of a container. */
  getElement(data: C, index: number): S;
  /** Sets element `index` of a container. */
  setElement(data: C, index: number, value: S): void;
  /**
   * The JSON form of an element for `zarr get --json`: finite numbers as numbers, `"NaN"`,
   * `"Infinity"`, `"-Infinity"` as strings, integers beyond 2^53 as decimal strings.
   */
  toJsonElement(value: S): JsonValue;
}
