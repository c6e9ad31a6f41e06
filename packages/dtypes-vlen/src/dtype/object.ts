import type { DataType, JsonValue, ZarrFormat } from "@z/metadata";
import { toBase64 } from "../layout/base64.js";
import { asBytes, bytesEqual } from "./bytes.js";
import { elementToJson } from "./json-element.js";
import { PlainArrayType } from "./plain-array.js";

/**
 * The v3 name under which object arrays that are neither strings nor bytes (json2, msgpack2,
 * vlen-array) are written when converted from v2. No other implementation reads it: it only
 * exists so that such arrays survive a round trip through v3.
 */
export const OBJECT_V3_NAME = "z.object";

/** The v2 object codecs whose arrays have a standard v3 data type. */
const V3_TYPE_OF_CODEC: Record<string, string> = { "vlen-utf8": "string", "vlen-bytes": "bytes" };

/**
 * A v2 object array (`"dtype": "|O"`): any JavaScript values, held in an `unknown[]`. What
 * the elements are is decided by the object codec, the first v2 filter: strings for
 * `vlen-utf8`, `Uint8Array`s for `vlen-bytes`, TypedArrays for `vlen-array`, JSON values for
 * `json2` and `msgpack2`.
 *
 * Each v2 array gets its own instance, which the object codec tells what it holds when the
 * array's codec pipeline is built ({@link ObjectDataType.useObjectCodec}). That is how it
 * knows its v3 form: `string` for `vlen-utf8`, `bytes` for `vlen-bytes`, otherwise
 * {@link OBJECT_V3_NAME}. Fill values are kept as metadata wrote them (zarr-python 2 writes
 * `0` by default; `null` reads as `null`, as zarr-python 2 reads `None`).
 */
export class ObjectDataType extends PlainArrayType<unknown> {
  readonly name = "object";
  readonly kind = "other";
  readonly defaultFill = null;
  protected readonly serializerHint = "vlen-utf8";
  private codecId: string | undefined;

  /** The numcodecs id of the object codec that encodes this array, once the pipeline is built. */
  get objectCodec(): string | undefined {
    return this.codecId;
  }

  /** Records the object codec that encodes this array (its first v2 filter). */
  useObjectCodec(id: string): void {
    this.codecId = id;
  }

  /** Zero, the value a zero-filled container holds (missing chunks with fill 0 read as 0). */
  protected emptyValue(): unknown {
    return 0;
  }

  toV3(): JsonValue {
    return V3_TYPE_OF_CODEC[this.codecId ?? ""] ?? OBJECT_V3_NAME;
  }

  parseFill(json: JsonValue, _format?: ZarrFormat): unknown {
    return json;
  }

  fillToJson(value: unknown, format: ZarrFormat): JsonValue {
    if (format === 3 && this.codecId === "vlen-utf8") return typeof value === "string" ? value : "";
    if (format === 3 && this.codecId === "vlen-bytes")
      return toBase64(asBytes(value) ?? new Uint8Array(0));
    const bytes = value instanceof Uint8Array ? value : undefined;
    if (bytes) return format === 3 ? toBase64(bytes) : null;
    return elementToJson(value);
  }

  coerce(value: unknown): unknown {
    return value === undefined ? null : value;
  }

  protected override equals(a: unknown, b: unknown): boolean {
    if (a === b) return true;
    if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b);
    if (a instanceof Uint8Array && b instanceof Uint8Array) return bytesEqual(a, b);
    return false;
  }

  /** Elements in JSON; a `vlen-array` array's `Uint8Array`s (dtype `|u1`) are numbers, not bytes. */
  toJsonElement(value: unknown): JsonValue {
    return elementToJson(value, this.codecId === "vlen-array");
  }
}

/** Whether a data type is a v2 object array type. */
export function isObjectDataType(dataType: DataType): dataType is ObjectDataType {
  return dataType instanceof ObjectDataType;
}
